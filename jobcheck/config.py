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


# A generated data module of several megabytes is still read; what is larger is reported and not
# read (`max-file-size`): a run's memory grows with what it reads.
DEFAULT_MAX_FILE_SIZE = 10 * 1024 * 1024
# The kinds of `[tool.jobcheck.effects]`: effects.catalog's (a test keeps the two the same).
EFFECT_KINDS = ("email", "enqueue", "http", "http-idempotent", "payment", "publish", "sms")


class ConfigError(Exception):
    """A configuration that cannot be used; the CLI exits 2 with this message."""


_LIST_KEYS = ("select", "ignore", "extend-select", "exclude", "extend-exclude", "frameworks", "guards")
_KNOWN_KEYS = set(_LIST_KEYS) | {"per-file-ignores", "docstring-section", "effects", "entry-points", "max-file-size",
                                  "respect-gitignore"}
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
    max_file_size: int = DEFAULT_MAX_FILE_SIZE  # bytes; larger files are reported and not read
    respect_gitignore: bool = True

    def fingerprint(self) -> str:
        """What of the configuration changes per-project analysis (for cache keys)."""
        return repr((sorted(self.effects.items()), sorted(self.guards), sorted(self.entry_points.items()), self.frameworks))


def find_pyproject(start: Path) -> Path | None:
    """The nearest pyproject.toml with a [tool.jobcheck] table, from `start` upwards."""
    start = start.resolve()
    for folder in (start, *start.parents) if start.is_dir() else (start.parent, *start.parent.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file() and _jobcheck_table(_read_toml(candidate), candidate) is not None:
            return candidate
    return None


def load(path: Path | None = None, start: Path | None = None) -> Config:
    """Read the configuration from `path`, or from the nearest pyproject.toml above `start`."""
    if path is None:
        path = find_pyproject(start or Path.cwd())
        if path is None:
            return Config(root=(start or Path.cwd()).resolve() if (start or Path.cwd()).is_dir() else Path.cwd())
    table = _jobcheck_table(_read_toml(Path(path)), Path(path))
    return from_table({} if table is None else table, Path(path))


def _read_toml(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigError(f"{path}: no such file") from exc
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from exc
    except RecursionError as exc:  # tomllib recurses once per level of nesting
        raise ConfigError(f"{path}: cannot read: values nested too deeply") from exc


def _jobcheck_table(data: dict, path: Path):
    """`[tool.jobcheck]` of a parsed pyproject.toml (None when absent); `tool` must be a table."""
    tool = data.get("tool")
    if tool is None:
        return None
    if not isinstance(tool, dict):
        raise ConfigError(f"{path}: `tool` must be a table (as in [tool.jobcheck]), got {_type(tool)}")
    return tool.get("jobcheck")


def from_table(table: dict, path: Path | None) -> Config:
    from .ruledocs import known_codes

    where = str(path) if path else "configuration"
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: [tool.jobcheck] must be a table, got {_type(table)}")
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
        config.docstring_section = _section_name(table["docstring-section"], where)
    if "max-file-size" in table:
        config.max_file_size = _size(table["max-file-size"], where)
    if "respect-gitignore" in table:
        if not isinstance(table["respect-gitignore"], bool):
            raise ConfigError(f"{where}: `tool.jobcheck.respect-gitignore` must be true or false")
        config.respect_gitignore = table["respect-gitignore"]
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
        if kind not in EFFECT_KINDS:
            raise ConfigError(f"{where}: unknown effect kind `tool.jobcheck.effects.{kind}` "
                              f"(known: {', '.join(EFFECT_KINDS)})")
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
    if not isinstance(value, list):
        raise ConfigError(f"{where}: `{key}` must be a list of strings, got {_type(value)}")
    for item in value:
        if not isinstance(item, str):
            raise ConfigError(f"{where}: `{key}` must be a list of strings, it holds {_type(item)}")


def _type(value) -> str:
    """What a value is, for messages (never its repr: it may be nested thousands deep)."""
    if isinstance(value, (str, int, float)) and len(repr(value)) < 80:
        return repr(value)
    return {dict: "a table", list: "an array", str: "a long string"}.get(type(value), type(value).__name__)


def _check_code(code: str, key: str, where: str, codes: set[str]) -> None:
    if not code.strip():
        # "" is a prefix of every code: an unset variable in `select = ["$RULES"]` must not mean all
        raise ConfigError(f"{where}: `{key}` holds an empty rule code")
    if code == "ALL" or any(c.startswith(code) for c in codes):
        return
    raise ConfigError(f"{where}: `{key}` names unknown rule {code!r}")


def _section_name(value, where: str) -> str:
    """The five-questions header, without its colon: one line with a word in it."""
    name = value.strip().rstrip(":").strip() if isinstance(value, str) else ""
    if not name or "\n" in name or "\r" in name:
        raise ConfigError(f"{where}: `tool.jobcheck.docstring-section` must name a header, e.g. \"Reliability\", "
                          f"got {_type(value)}")
    return name


_UNITS = {"": 1, "B": 1, "KB": 1 << 10, "KIB": 1 << 10, "MB": 1 << 20, "MIB": 1 << 20, "GB": 1 << 30, "GIB": 1 << 30}


def _size(value, where: str) -> int:
    """`max-file-size`: bytes (an integer), or a string with a unit ("10MB", "512 KB"; 1 MB = 2**20 bytes)."""
    import re

    size = None
    if isinstance(value, int) and not isinstance(value, bool):
        size = value
    elif isinstance(value, str):
        m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*", value)
        if m and m.group(2).upper() in _UNITS:
            size = int(float(m.group(1)) * _UNITS[m.group(2).upper()])
    if size is None or size <= 0:
        raise ConfigError(f"{where}: `tool.jobcheck.max-file-size` must be a positive number of bytes or a size "
                          f"like \"10MB\" (units: B, KB, MB, GB), got {_type(value)}")
    return size


def command_line_codes(value: str | None, option: str) -> list[str] | None:
    """Rule codes given on the command line (`--select JC201,JC1`); None when the option is not.
    An empty code (`--select ""`, or `--select "$RULES"` with RULES unset in CI) is an error: it
    must not mean "no rule" (every rule off, exit 0) any more than "every rule"."""
    if value is None:
        return None
    codes = [c.strip().upper() for c in value.split(",")]
    if not all(codes):
        raise ConfigError(f"{option} {value!r} holds an empty rule code (an unset variable?): name rules, or ALL")
    return codes


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
