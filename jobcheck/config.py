"""`[tool.jobcheck]` in the nearest pyproject.toml: read, validated, and resolved into a selection.

Unknown keys and bad values are errors that name the key: a typo in a linter's configuration
must not silently turn a rule off.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib


class ConfigError(Exception):
    """A configuration that cannot be used; the CLI exits 2 with this message."""


_LIST_KEYS = ("select", "ignore", "extend-select", "exclude", "extend-exclude", "frameworks", "guards")
_KNOWN_KEYS = set(_LIST_KEYS) | {"per-file-ignores", "docstring-section", "effects", "entry-points"}
_ENTRY_POINT_KEYS = {"decorators", "base-classes", "registrars", "method", "signals"}


@dataclass
class Config:
    path: Path | None = None  # the pyproject.toml read, if any
    root: Path = field(default_factory=Path.cwd)
    select: list[str] | None = None
    ignore: list[str] = field(default_factory=list)
    extend_select: list[str] = field(default_factory=list)
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)
    exclude: list[str] = field(default_factory=list)
    extend_exclude: list[str] = field(default_factory=list)
    frameworks: list[str] | None = None
    docstring_section: str = "Reliability"
    effects: dict[str, list[str]] = field(default_factory=dict)
    guards: list[str] = field(default_factory=list)
    entry_points: dict = field(default_factory=dict)

    def fingerprint(self) -> str:
        """What of the configuration changes per-project analysis (for cache keys)."""
        return repr((sorted(self.effects.items()), sorted(self.guards), sorted(self.entry_points.items()), self.frameworks))


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml with a [tool.jobcheck] table, from `start` upwards."""
    start = start.resolve()
    for folder in (start, *start.parents) if start.is_dir() else (start.parent, *start.parent.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            try:
                data = tomllib.loads(candidate.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
                raise ConfigError(f"{candidate}: cannot read: {exc}") from exc
            if "jobcheck" in data.get("tool", {}):
                return candidate
    return None


def load(path: Path | None = None, start: Path | None = None) -> Config:
    """Read the configuration from `path`, or from the nearest pyproject.toml above `start`."""
    if path is None:
        path = find_pyproject(start or Path.cwd())
        if path is None:
            return Config(root=(start or Path.cwd()).resolve() if (start or Path.cwd()).is_dir() else Path.cwd())
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigError(f"{path}: no such file") from exc
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from exc
    table = data.get("tool", {}).get("jobcheck", {})
    return from_table(table, Path(path))


def from_table(table: dict, path: Path | None) -> Config:
    from .ruledocs import known_codes

    where = str(path) if path else "configuration"
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: [tool.jobcheck] must be a table")
    config = Config(path=path, root=path.parent.resolve() if path else Path.cwd())
    for key, value in table.items():
        if key not in _KNOWN_KEYS:
            raise ConfigError(f"{where}: unknown key `tool.jobcheck.{key}` (known: {', '.join(sorted(_KNOWN_KEYS))})")
        if key in _LIST_KEYS:
            _string_list(value, f"tool.jobcheck.{key}", where)
    codes = known_codes()
    for key in ("select", "ignore", "extend-select"):
        for code in table.get(key, []):
            _check_code(code, f"tool.jobcheck.{key}", where, codes)
    config.select = table.get("select")
    config.ignore = list(table.get("ignore", []))
    config.extend_select = list(table.get("extend-select", []))
    config.exclude = list(table.get("exclude", []))
    config.extend_exclude = list(table.get("extend-exclude", []))
    config.guards = list(table.get("guards", []))
    if "frameworks" in table:
        # The names are checked against the frameworks found (`frameworks.all_frameworks`).
        config.frameworks = list(table["frameworks"])
    if "docstring-section" in table:
        section = table["docstring-section"]
        if not isinstance(section, str) or not section.strip():
            raise ConfigError(f"{where}: `tool.jobcheck.docstring-section` must be a non-empty string")
        config.docstring_section = section.strip().rstrip(":")
    pfi = table.get("per-file-ignores", {})
    if not isinstance(pfi, dict):
        raise ConfigError(f"{where}: `tool.jobcheck.per-file-ignores` must be a table of glob = [codes]")
    for glob, value in pfi.items():
        _string_list(value, f"tool.jobcheck.per-file-ignores.{glob!r}", where)
        for code in value:
            _check_code(code, f"tool.jobcheck.per-file-ignores.{glob!r}", where, codes)
    config.per_file_ignores = {k: list(v) for k, v in pfi.items()}
    effects = table.get("effects", {})
    if not isinstance(effects, dict):
        raise ConfigError(f"{where}: `tool.jobcheck.effects` must be a table of kind = [qualified names]")
    for kind, value in effects.items():
        _string_list(value, f"tool.jobcheck.effects.{kind}", where)
    config.effects = {k: list(v) for k, v in effects.items()}
    entry = table.get("entry-points", {})
    if not isinstance(entry, dict):
        raise ConfigError(f"{where}: `tool.jobcheck.entry-points` must be a table")
    for key, value in entry.items():
        if key not in _ENTRY_POINT_KEYS:
            raise ConfigError(f"{where}: unknown key `tool.jobcheck.entry-points.{key}` (known: {', '.join(sorted(_ENTRY_POINT_KEYS))})")
        if key == "method":
            if not isinstance(value, str):
                raise ConfigError(f"{where}: `tool.jobcheck.entry-points.method` must be a string")
        else:
            _string_list(value, f"tool.jobcheck.entry-points.{key}", where)
    config.entry_points = dict(entry)
    return config


def _string_list(value, key: str, where: str) -> None:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: `{key}` must be a list of strings, got {value!r}")


def _check_code(code: str, key: str, where: str, codes: set[str]) -> None:
    if code == "ALL" or any(c.startswith(code) for c in codes):
        return
    raise ConfigError(f"{where}: `{key}` names unknown rule {code!r}")


def selected_codes(config: Config, codes: dict, select: list[str] | None = None, ignore: list[str] | None = None,
                   extend_select: list[str] | None = None) -> set[str]:
    """Which rules run: default rules, or `select`, plus `extend-select`, minus `ignore`.
    Command-line options replace (select) or extend (ignore, extend-select) the file's."""
    chosen_select = select if select is not None else config.select
    if chosen_select is None:
        chosen = {c for c, info in codes.items() if info.default}
    else:
        chosen = _expand(chosen_select, codes)
    chosen |= _expand(config.extend_select + (extend_select or []), codes)
    chosen -= _expand(config.ignore + (ignore or []), codes)
    return chosen


def _expand(patterns: list[str], codes: dict) -> set[str]:
    out: set[str] = set()
    for p in patterns:
        out |= {c for c in codes if p == "ALL" or c.startswith(p)}
    return out
