"""Entry-point recall on real code nobody here wrote: does `jobcheck jobs` find every job a careful
reader finds, and nothing else?

    python benchmarks/entry_point_recall.py [--only huey,arq] [--show] [--keep DIR]

Each package below is fetched at run time with `pip download --no-deps` into a temporary folder
(never committed) and unpacked. The files in its scope are listed with the real command,
`jobcheck jobs --output-format json`, and the jobs found are compared with the hand count in
`benchmarks/recall_expected/<name>.txt`: one entry point per line, written
`path/inside/the/package.py::Name.in_module` (the path from the unpacked package's top folder,
the job's name inside its module, as the inventory's `path` and `name` give them; a class-based
job is its class). `#` starts a comment. The careful reader's count comes first (grep, then read);
the notes in `benchmarks/recall_*.md` say how each list was made.

A package with a configuration file (`benchmarks/recall_config/<name>.toml`, the
`[tool.jobcheck.entry-points]` an application's own job mechanism needs) is counted twice: with
no configuration and with it. `each` checks every folder matching a glob as its own project, for
example folders that are separate applications run from their own directory. `docstrings` checks
the ```` ```python ```` examples in the docstrings of the scope's modules instead of the modules
themselves (for a library that ships no example code): each block is written to its own file,
`<module path, / as _>__<n>.py` (n counts the module's blocks in source order), after the imports
of the earlier blocks of the same docstring, since a reader reads them in order; blocks that do not
parse are skipped.

Columns: expected (hand count), found (by jobcheck, in the expected list), missed, extra (listed
by jobcheck, not in the expected list: a non-job listed, or a job the hand count missed — read
them with --show), recall = found / expected.
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import textwrap
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXPECTED = HERE / "recall_expected"
CONFIGS = HERE / "recall_config"


@dataclass(frozen=True)
class Package:
    name: str
    version: str
    flags: tuple[str, ...]  # pip download flags
    scope: tuple[str, ...]  # globs from the package's top folder; "!glob" excludes
    each: str | None = None  # a glob of folders checked one by one, each as its own project
    docstrings: bool = False  # check the ```python examples in the scope's docstrings, not the scope


SDIST = ("--no-binary", ":all:")
WHEEL_312 = ("--only-binary", ":all:", "--python-version", "3.12")
TESTS = ("!**/test/**", "!**/tests/**", "!**/test_*.py", "!**/conftest.py")
# dagster's sdist has no examples: the code locations its daemon, scheduler, API, CLI and launcher
# tests load, and its hello-world repositories.
DAGSTER_SCOPE = (*(f"dagster_tests/{d}/**/*.py" for d in ("daemon_sensor_tests", "scheduler_tests", "daemon_tests",
                                                         "api_tests", "launcher_tests", "cli_tests")),
                 "dagster/_utils/test/**/*.py")

PACKAGES = [
    # name                          version      download   scope                                                       each
    Package("huey", "3.5.4", SDIST, ("examples/**/*.py",), each="examples/*"),
    Package("arq", "0.28.0", SDIST, ("docs/examples/*.py",)),
    Package("celery", "5.7.0", SDIST, ("examples/**/*.py",), each="examples/*"),
    Package("kolibri", "0.19.5", SDIST, ("kolibri/**/*.py", "!kolibri/dist/**", *TESTS)),
    Package("label-studio", "1.23.2", SDIST, ("label_studio/**/*.py", *TESTS)),
    Package("pretalx", "2026.1.2", WHEEL_312, ("pretalx/**/*.py", *TESTS)),
    Package("apache-airflow-core", "3.3.2", SDIST, ("src/airflow/example_dags/**/*.py",)),
    Package("apache-airflow-providers-standard", "1.21.0", SDIST, ("src/airflow/providers/standard/example_dags/**/*.py",)),
    Package("dagster", "1.13.29", SDIST, DAGSTER_SCOPE),
    Package("prefect", "3.9.1", SDIST, ("src/prefect/**/*.py", *TESTS), docstrings=True),
    Package("luigi", "3.8.1", SDIST, ("examples/**/*.py",)),
]


def fetch(pkg: Package, into: Path) -> Path:
    """Download and unpack; return the package's top folder."""
    download = into / "download"
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--disable-pip-version-check",
                    *pkg.flags, f"{pkg.name}=={pkg.version}", "-d", str(download)], check=True)
    archive = next(download.iterdir())
    unpacked = into / "src"
    unpacked.mkdir()
    if archive.suffix in (".whl", ".zip"):
        with zipfile.ZipFile(archive) as zf:
            zf.extractall(unpacked)
    else:
        with tarfile.open(archive) as tar:
            if sys.version_info >= (3, 12):
                tar.extractall(unpacked, filter="data")
            else:
                tar.extractall(unpacked)  # noqa: S202 - a package we asked pip for, unpacked in a temp folder
    tops = [p for p in unpacked.iterdir() if p.is_dir() and not p.name.endswith((".dist-info", ".data"))]
    return tops[0] if archive.suffix != ".whl" and len(tops) == 1 else unpacked


def scope_files(root: Path, scope: tuple[str, ...]) -> list[str]:
    include = [g for g in scope if not g.startswith("!")]
    exclude = [g[1:] for g in scope if g.startswith("!")]
    found = set()
    for pattern in include:
        for path in root.glob(pattern):
            rel = path.relative_to(root).as_posix()
            if path.is_file() and not any(fnmatch.fnmatch(rel, x) or fnmatch.fnmatch("/" + rel, "*/" + x.lstrip("*/")) for x in exclude):
                found.add(rel)
    return sorted(found)


FENCE = re.compile(r"^[ \t]*```python[ \t]*\n(.*?)^[ \t]*```", re.M | re.S)


def docstring_examples(root: Path, files: list[str], into: Path) -> list[str]:
    """Write the ```python blocks of the docstrings in `files` to `into`; return the file names."""
    shutil.rmtree(into, ignore_errors=True)
    into.mkdir(parents=True)
    written = []
    for rel in files:
        try:
            tree = ast.parse((root / rel).read_bytes())
        except (SyntaxError, ValueError):
            continue
        module = Path(rel).with_suffix("")
        stem = (module.parent if module.name == "__init__" else module).as_posix().replace("/", "_")
        owners = [n for n in ast.walk(tree) if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))]
        count = 0
        for owner in sorted(owners, key=lambda n: getattr(n, "lineno", 0)):
            imports = ""
            for block in FENCE.finditer(ast.get_docstring(owner) or ""):
                count += 1
                code = textwrap.dedent(block.group(1))
                try:
                    body = ast.parse(code).body
                except (SyntaxError, ValueError):  # typos in the docs; NUL bytes
                    continue
                name = f"{stem}__{count}.py"
                if (into / name).exists():
                    raise SystemExit(f"two modules of {root} give the example file name {name}")
                (into / name).write_text(imports + code, encoding="utf-8")
                written.append(name)
                imports += "".join(ast.get_source_segment(code, s) + "\n"
                                   for s in body if isinstance(s, (ast.Import, ast.ImportFrom)))
    return written


def groups(files: list[str], each: str | None) -> list[list[str]]:
    """The files checked together: all at once, or one folder matching `each` at a time."""
    if not each:
        return [files]
    by_folder: dict[str, list[str]] = {}
    for rel in files:
        parts = rel.split("/")
        key = next(("/".join(parts[:i]) for i in range(1, len(parts)) if fnmatch.fnmatch("/".join(parts[:i]), each)), rel)
        by_folder.setdefault(key, []).append(rel)
    return list(by_folder.values())


def list_jobs(root: Path, files: list[str], config: Path) -> tuple[set[str], float]:
    # Always an explicit configuration file outside the package: its folder is where jobcheck
    # looks for imported modules, and a user's project does not hold the framework's own source.
    args = [sys.executable, "-m", "jobcheck.cli", "jobs", "--output-format", "json", "--config", str(config)]
    started = time.perf_counter()
    done = subprocess.run([*args, *files], cwd=root, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"jobcheck failed in {root}: {done.stderr}")
    rows = json.loads(done.stdout)["jobs"]
    return {f"{Path(r['path']).as_posix()}::{r['name']}" for r in rows}, elapsed


def expected_list(name: str) -> set[str] | None:
    path = EXPECTED / f"{name}.txt"
    if not path.is_file():
        return None
    out = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        entry = line.split("#", 1)[0].strip()
        if entry:
            out.add(entry)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated package names")
    parser.add_argument("--show", action="store_true", help="print the missed and extra entry points")
    parser.add_argument("--keep", type=Path, help="unpack here (and reuse what is already there) instead of a temp folder")
    args = parser.parse_args()
    only = set(args.only.split(",")) if args.only else None
    header = f"{'package':<42} {'scope':<40} {'config':<7} {'expected':>8} {'found':>6} {'missed':>6} {'extra':>6} {'recall':>7} {'time':>6}"
    print(header)
    print("-" * len(header))
    totals = [0, 0]
    details = []
    with tempfile.TemporaryDirectory(prefix="jobcheck-recall-") as tmp:
        for pkg in PACKAGES:
            if only is not None and pkg.name not in only:
                continue
            expected = expected_list(pkg.name)
            if expected is None:
                print(f"{pkg.name + '==' + pkg.version:<42} (no benchmarks/recall_expected/{pkg.name}.txt yet)")
                continue
            work = (args.keep or Path(tmp)) / f"{pkg.name}-{pkg.version}"
            if args.keep and (work / "root.txt").is_file():
                root = Path((work / "root.txt").read_text().strip())
            else:
                work.mkdir(parents=True, exist_ok=True)
                root = fetch(pkg, work)
                (work / "root.txt").write_text(str(root))
            files = scope_files(root, pkg.scope)
            if pkg.docstrings:
                files = docstring_examples(root, files, work / "docstring-examples")
                root = work / "docstring-examples"
            config = CONFIGS / f"{pkg.name}.toml"
            empty = work / "no-config" / "pyproject.toml"
            empty.parent.mkdir(exist_ok=True)
            empty.write_text("[tool.jobcheck]\n")
            for cfg in (None, config) if config.is_file() else (None,):
                found: set[str] = set()
                elapsed = 0.0
                for group in groups(files, pkg.each):
                    names, seconds = list_jobs(root, group, cfg or empty)
                    found |= names
                    elapsed += seconds
                hit = expected & found
                missed = sorted(expected - found)
                extra = sorted(found - expected)
                recall = len(hit) / len(expected) if expected else 1.0
                scope = (("docstrings of " if pkg.docstrings else "") + " ".join(pkg.scope[:1])
                         + (f" (each {pkg.each})" if pkg.each else "") + (" ..." if len(pkg.scope) > 1 else ""))
                print(f"{pkg.name + '==' + pkg.version:<42} {scope:<40} {'yes' if cfg else 'no':<7} {len(expected):>8} "
                      f"{len(hit):>6} {len(missed):>6} {len(extra):>6} {recall:>7.1%} {elapsed:>5.1f}s")
                if cfg is not None or not config.is_file():
                    totals[0] += len(expected)
                    totals[1] += len(hit)
                details.append((pkg.name, "with config" if cfg else "no config", missed, extra))
    if totals[0]:
        print("-" * len(header))
        print(f"{'total (configured where a config exists)':<91} {totals[0]:>8} {totals[1]:>6} {totals[0] - totals[1]:>6} "
              f"{'':>6} {totals[1] / totals[0]:>7.1%}")
    if args.show:
        for name, how, missed, extra in details:
            for label, items in (("missed", missed), ("extra", extra)):
                for item in items:
                    print(f"{name} ({how}) {label}: {item}")


if __name__ == "__main__":
    main()
