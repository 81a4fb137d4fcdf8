"""How fast is jobcheck on real code, against `ast.parse` of the same files in the same run?

    python benchmarks/bench.py                               # both corpora
    python benchmarks/bench.py --corpus airflow --repeat 5 --json out.json
    python benchmarks/bench.py --python /tmp/venv/bin/python --jobcheck-src /tmp/old-checkout
    python benchmarks/bench.py --scaling                     # also the generated-module rows

Each corpus is a pinned sdist fetched at run time with `pip download --no-deps --no-binary :all:`
into --work (default /tmp/jobcheck-bench; never committed), unpacked, and copied afresh for each
run (the edits below are made in the copy). Every command runs as its own process under
`/usr/bin/time -v` while a sampler adds up the proportional set size (PSS) of the whole process
tree every 20 ms, so a process pool's workers count too. Each time is the median of --repeat
runs (`spread` is (max - min) / median; `cpu s` is user + system time, children included, less
sensitive than wall time to other load), and every ratio uses a baseline measured in the same run:

    ast.parse            the baseline: read, decode (as jobcheck does) and `ast.parse` every file
                         jobcheck checks, one process, the same interpreter, cycle collector off
    cold                 empty cache, default --jobs (one process per core)   <= 1.5 x ast.parse
    cold -j1             empty cache, one process                             (information)
    warm                 the same cache again, nothing changed                <= 0.1 x cold
    edit: <kind>         one file edited since the previous run (each timed run starts from the
                         record of the unedited tree):                        <= 0.35 x cold
                           fn appended     a function appended to a mid-sized module
                           job body        a statement inserted at the top of a job's body
                           job undecorated a job's own decorators dropped (no longer a job)
                           core renamed    the top-level function most modules import, renamed
    1 file               one small module, new process, no cache              <= 0.3 s
    1 file cached        the same with the cache its previous run left        <= 0.3 s
    peak memory          the largest tree PSS of any jobcheck row             <= 250 MB
    --version            start-up alone                                       (information)
    libcst parse-only    with --libcst: libcst.parse_module on the same files (information)
    fixit/flake8/ruff    with --fixit (minutes) / --peers, when installed     (information)

The findings of the warm run and of the last run of each edit must equal an uncached run's on
the same tree (a FAIL line, and exit status 1, otherwise).

--scaling adds generated modules (written into --work) of 1, 2, 4 and 8 MB, each checked alone
with `jobcheck check --no-cache FILE`: `data` (one big dict literal) and `functions` (many small
functions using a few imports), with the time per MB, so linearity shows, and the peak memory of
a 6 MB data module (<= 250 MB).

The jobcheck measured is a copy (snapshot) of a package taken at start: by default the one
`--python` imports, or the `jobcheck` folder of --jobcheck-src. It runs as
`PYTHON -c 'from jobcheck.cli import main; main()'` with the copy first on PYTHONPATH, so edits
of the working tree during the run cannot change the code (or invalidate the cache) mid-run.
Only options that every jobcheck version has are used: `check PATHS --cache-dir D | --no-cache
--output-format concise|json --exit-zero -j N`, and `jobs --no-cache --format json` to pick the
edited job (with a fallback when it is missing).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

CORPORA = {
    "airflow": ("apache-airflow-core", "3.3.2"),
    "dagster": ("dagster", "1.13.29"),
}
TIME = "/usr/bin/time"

# Acceptance targets.
COLD_VS_AST, WARM_VS_COLD, EDITED_VS_COLD = 1.5, 0.1, 0.35
SINGLE_FILE_SECONDS, PEAK_MB, SCALING_PEAK_MB = 0.3, 250, 250
SCALING_SIZES_MB, SCALING_PEAK_SIZE_MB = (1, 2, 4, 8), 6


@dataclass
class Run:
    wall: float  # seconds (median when several)
    cpu: float  # user + system seconds of the process and every child it waited for (the pool's workers)
    max_rss_mb: float  # the largest single process (/usr/bin/time -v)
    tree_pss_mb: float  # the whole process tree, sampled
    spread: float = 0.0  # (max - min) / median of the runs behind it
    n: int = 1
    stdout: str = field(repr=False, default="")


@dataclass
class Target:
    """The jobcheck measured: an interpreter, and the snapshot put first on its PYTHONPATH."""

    python: str
    snapshot: Path | None

    def env(self, with_snapshot: bool = True) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k != "JOBCHECK_CACHE_DIR"}
        if with_snapshot and self.snapshot is not None:
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(self.snapshot), env.get("PYTHONPATH")]))
        return env


TARGET: Target  # set by main()

# What the console script does; `-c` puts the current folder (a corpus) first on sys.path: drop it.
_LAUNCH = "import sys; del sys.path[0]; from jobcheck.cli import main; sys.exit(main())"

# The baseline: each file read, decoded as jobcheck decodes (BOM, PEP 263 line, else UTF-8),
# parsed; warnings about the analysed code are silenced, and the cycle collector paused, as
# jobcheck does both (the collector would cost the baseline ~10% on the corpora and up to 4x on
# a generated 8 MB module: the parser alone is measured, not the collector's passes over its trees).
_AST_PARSE = """\
import ast, gc, io, sys, tokenize, warnings
gc.disable()
warnings.simplefilter("ignore")
for path in open(sys.argv[1], encoding="utf-8").read().splitlines():
    with open(path, "rb") as fh:
        data = fh.read()
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        ast.parse(data.decode(encoding).removeprefix("\\ufeff"), filename=path)
    except (SyntaxError, UnicodeError, LookupError, ValueError):
        pass
"""

_LIBCST_PARSE = """\
import sys, libcst
for path in open(sys.argv[1], encoding="utf-8").read().splitlines():
    try:
        libcst.parse_module(open(path, "rb").read())
    except Exception:
        pass
"""

# The files jobcheck checks in the current folder, found by the measured jobcheck itself (its
# `discover`, wherever the version keeps it) under its configuration's exclusions.
_DISCOVER = """\
import importlib, pkgutil, sys
del sys.path[0]
from pathlib import Path
import jobcheck
discover = None
for name in ["jobcheck.files", "jobcheck.analysis.files"] + [
        m.name for m in pkgutil.walk_packages(jobcheck.__path__, "jobcheck.") if m.name.endswith(".files")]:
    try:
        discover = importlib.import_module(name).discover
        break
    except (ImportError, AttributeError):
        pass
if discover is None:
    sys.exit("no jobcheck discover() found")
root = Path.cwd()
try:
    from jobcheck import config
    cfg = config.load(None, start=root)
    found = discover(["."], cfg.root, list(cfg.exclude) + list(cfg.extend_exclude))
except Exception:
    found = discover(["."], root, [])
print("\\n".join(str(Path(p).resolve()) for p, _ in found))
"""


# ---- fetching ----------------------------------------------------------------------------------


def fetch(name: str, version: str, work: Path) -> Path:
    """The unpacked sdist of name==version under work/src (downloaded and unpacked once)."""
    downloads = work / "downloads"
    downloads.mkdir(parents=True, exist_ok=True)
    prefix = f"{name}_{version}".replace("-", "_").lower()

    def downloaded() -> Path | None:  # sdists are named name-version.tar.gz, "-" and "_" alike
        return next((p for p in downloads.iterdir() if p.name.lower().replace("-", "_").startswith(prefix)), None)

    archive = downloaded()
    if archive is None:
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
                        f"{name}=={version}", "-d", str(downloads)], check=True)
        archive = downloaded()
    target = work / "src" / f"{name}-{version}"
    if not target.is_dir():
        tmp = Path(tempfile.mkdtemp(dir=work))
        with tarfile.open(archive) as tar:
            if sys.version_info >= (3, 12):
                tar.extractall(tmp, filter="data")
            else:
                tar.extractall(tmp)
        (inner,) = list(tmp.iterdir())
        target.parent.mkdir(parents=True, exist_ok=True)
        inner.rename(target)
        tmp.rmdir()
    return target


# ---- measuring ---------------------------------------------------------------------------------


def _children(pid: int) -> list[int]:
    out = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as fh:
                out.extend(int(c) for c in fh.read().split())
    except OSError:
        pass
    return out


def _pss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


class TreeSampler(threading.Thread):
    """Peak of the summed PSS of a process's descendants, sampled every 20 ms."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.peak_kb, self.done = pid, 0, threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            pids, stack = [], [self.pid]
            while stack:
                p = stack.pop()
                pids.append(p)
                stack.extend(_children(p))
            self.peak_kb = max(self.peak_kb, sum(_pss_kb(p) for p in pids[1:]))  # [0] is /usr/bin/time
            self.done.wait(0.02)


def measure(cmd: list[str], cwd: Path | None = None, env: dict[str, str] | None = None,
            ok: tuple[int, ...] = (0,)) -> Run:
    """Run `cmd` once and time it; an exit code outside `ok` is an error (jobcheck runs with
    --exit-zero, so anything but 0 means it failed)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        started = time.perf_counter()
        proc = subprocess.Popen([TIME, "-v", "-o", report.name, *cmd], cwd=cwd, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=env)
        sampler = TreeSampler(proc.pid)
        sampler.start()
        stdout, stderr = proc.communicate()
        wall = time.perf_counter() - started
        sampler.done.set()
        sampler.join()
        fields = {}
        for line in report.read().splitlines():
            key, _, value = line.strip().rpartition(": ")
            fields[key] = value
    rc = int(fields.get("Exit status", proc.returncode))
    if rc not in ok:
        raise RuntimeError(f"{' '.join(cmd)} (in {cwd}) failed ({rc}):\n{stderr[-3000:]}")
    cpu = float(fields.get("User time (seconds)", 0)) + float(fields.get("System time (seconds)", 0))
    return Run(wall, cpu, int(fields.get("Maximum resident set size (kbytes)", 0)) / 1024, sampler.peak_kb / 1024,
               stdout=stdout)


def median_run(runs: list[Run]) -> Run:
    walls = [r.wall for r in runs]
    mid = sorted(runs, key=lambda r: r.wall)[len(runs) // 2]
    med = statistics.median(walls)
    return Run(med, statistics.median(r.cpu for r in runs), max(r.max_rss_mb for r in runs),
               max(r.tree_pss_mb for r in runs),
               (max(walls) - min(walls)) / med if med else 0.0, len(runs), mid.stdout)


def jobcheck(*args: str, cwd: Path | None = None) -> Run:
    return measure([TARGET.python, "-c", _LAUNCH, *args], cwd=cwd, env=TARGET.env())


def check(target: str, cache: Path | None, *extra: str, cwd: Path, fmt: str = "concise") -> Run:
    """Timed runs print one line per finding (`concise`): the measure is the analysis, not a
    renderer; the identity checks compare the full JSON too."""
    cache_args = ["--cache-dir", str(cache)] if cache else ["--no-cache"]
    return jobcheck("check", "--exit-zero", "--output-format", fmt, *cache_args, *extra, target, cwd=cwd)


def parse_only(script: str, listing: Path) -> Run:
    """A parse-only reference in its own process, on the measured interpreter."""
    return measure([TARGET.python, "-c", script, str(listing)], env=TARGET.env(with_snapshot=False))


# ---- the jobcheck measured ---------------------------------------------------------------------


def snapshot(python: str, src: Path | None, work: Path) -> Path:
    """A byte-compiled copy of the jobcheck package (from `src`, a checkout or the package folder
    itself; else the one `python` imports) under work/snapshot."""
    if src is None:
        found = subprocess.run([python, "-c", "import jobcheck, os; print(os.path.dirname(jobcheck.__file__))"],
                               cwd="/", capture_output=True, text=True, check=True, env=TARGET.env(False))
        package = Path(found.stdout.strip())
    else:
        package = src / "jobcheck" if (src / "jobcheck" / "__init__.py").is_file() else src
        if not (package / "__init__.py").is_file() or package.name != "jobcheck":
            sys.exit(f"--jobcheck-src {src}: no jobcheck package there")
    target = work / "snapshot"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(package, target / "jobcheck", ignore=shutil.ignore_patterns("__pycache__"))
    # Byte-compiled by the measured interpreter, as `pip install` leaves a package (py_compile
    # writes even where PYTHONDONTWRITEBYTECODE is set, which would otherwise recompile every run).
    subprocess.run([python, "-m", "compileall", "-q", str(target / "jobcheck")], check=True,
                   env=TARGET.env(False), stdout=subprocess.DEVNULL)
    return package


def describe_target() -> str:
    probe = "import sys, jobcheck; print(jobcheck.__version__, jobcheck.__file__, sys.version.split()[0])"
    out = subprocess.run([TARGET.python, "-c", "import sys; del sys.path[0]; " + probe], cwd="/",
                         capture_output=True, text=True, check=True, env=TARGET.env()).stdout.split()
    version, path, py = out
    if TARGET.snapshot is not None and not Path(path).resolve().is_relative_to(TARGET.snapshot.resolve()):
        sys.exit(f"{TARGET.python} imports jobcheck from {path}, not the snapshot {TARGET.snapshot}")
    return f"jobcheck {version} from {Path(path).parent}, Python {py} ({TARGET.python})"


# ---- picking what to edit ----------------------------------------------------------------------


def python_files(root: Path) -> list[Path]:
    """The files the measured jobcheck checks under root (its own discovery), so the baseline
    parses exactly those."""
    out = subprocess.run([TARGET.python, "-c", _DISCOVER], cwd=root, capture_output=True, text=True, env=TARGET.env())
    if out.returncode:
        sys.exit(f"listing the files jobcheck checks failed:\n{out.stderr[-3000:]}")
    return [Path(line) for line in out.stdout.splitlines() if line]


def _outside_tests(p: Path, root: Path) -> bool:
    return "test" not in p.relative_to(root).as_posix()


def _parse(path: Path) -> ast.Module | None:
    try:
        return ast.parse(path.read_bytes())
    except (SyntaxError, ValueError):
        return None


def pick_small(files: list[Path], root: Path) -> Path:
    """A small ordinary module (40-120 lines) outside the tests, the same one every run."""
    for p in files:
        lines = p.read_bytes().count(b"\n")
        if 40 <= lines <= 120 and p.name != "__init__.py" and _outside_tests(p, root):
            return p
    return files[0]


def pick_module(files: list[Path], root: Path) -> Path:
    """The median-sized module outside the tests (the `fn appended` edit)."""
    sized = sorted((p for p in files if p.name != "__init__.py" and _outside_tests(p, root)),
                   key=lambda p: (p.stat().st_size, p.as_posix()))
    return sized[len(sized) // 2]


def pick_core_function(files: list[Path], root: Path) -> tuple[Path, str]:
    """The top-level function outside the tests that the most modules import by name
    (`from m import f`), and its module."""

    def module_of(path: Path) -> str:
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[0] == "src":
            parts = parts[1:]
        return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)

    defined: dict[tuple[str, str], Path] = {}
    imported: Counter = Counter()
    for path in files:
        tree = _parse(path)
        if tree is None:
            continue
        if _outside_tests(path, root):
            for node in tree.body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    defined[(module_of(path), node.name)] = path
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                imported.update((node.module, alias.name) for alias in node.names)
    (module, name), _ = max(((key, n) for key, n in imported.items() if key in defined), key=lambda kn: (kn[1], kn[0]))
    return defined[(module, name)], name


_JOB_DECORATORS = {"task", "shared_task", "dag", "asset", "multi_asset", "op", "job", "graph", "sensor", "schedule",
                   "actor", "periodic_task", "asset_check"}


def pick_job(files: list[Path], root: Path) -> tuple[Path, int]:
    """A job outside the tests, with decorators, that jobcheck lists (`jobcheck jobs`): the middle
    one by path. Without that command, a function with a framework's job decorator."""
    jobs: list[tuple[str, int]] = []
    try:
        listed = json.loads(jobcheck("jobs", "--no-cache", "--format", "json", ".", cwd=root).stdout)
        jobs = [(j["path"], j["line"]) for j in listed["jobs"]]
        if listed.get("files", len(files)) != len(files):
            print(f"  WARNING: jobcheck checks {listed['files']} files, the baseline parses {len(files)}", flush=True)
    except (RuntimeError, ValueError, KeyError, TypeError):
        print("  (`jobcheck jobs` unavailable: the edited job is picked by its decorator)", flush=True)
        for path in files:
            tree = _parse(path)
            for node in ast.walk(tree) if tree is not None else ():
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                        _decorator_name(d) in _JOB_DECORATORS for d in node.decorator_list):
                    jobs.append((str(path.relative_to(root)), node.lineno))
    usable = sorted((p, line) for p, line in jobs if _outside_tests(root / p, root)
                    and (fn := _def_at(root / p, line)) is not None and fn.decorator_list)
    path, line = usable[len(usable) // 2]
    return root / path, line


def _decorator_name(node: ast.expr) -> str:
    node = node.func if isinstance(node, ast.Call) else node
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""


def _def_at(path: Path, line: int):
    try:
        return _def_in(path.read_bytes(), line)
    except (SyntaxError, ValueError, OSError, StopIteration):
        return None


def _def_in(source: bytes, line: int):
    return next(n for n in ast.walk(ast.parse(source)) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                and n.lineno == line)


# ---- the edits (version i of each differs from every other, so its summary is never cached) ----


def append_function(source: bytes, i: int) -> bytes:
    return source + f"\n\ndef _jobcheck_bench_probe_{i}():\n    return {i}\n".encode()


def edit_job_body(source: bytes, line: int, i: int) -> bytes:
    """A statement inserted at the top of the job's body (after its docstring): every line below
    moves."""
    fn = _def_in(source, line)
    first = fn.body[0]
    is_doc = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)
    at = first.end_lineno if is_doc else min([first.lineno] + [d.lineno for d in getattr(first, "decorator_list", [])]) - 1
    lines = source.splitlines(keepends=True)
    return b"".join(lines[:at] + [f"{' ' * first.col_offset}print('jobcheck bench {i}')\n".encode()] + lines[at:])


def undecorate_job(source: bytes, line: int, i: int) -> bytes:
    """The job without its decorators (a comment numbered `i` in their place)."""
    fn = _def_in(source, line)
    lines = source.splitlines(keepends=True)
    first = min(d.lineno for d in fn.decorator_list)
    return b"".join(lines[:first - 1] + [f"{' ' * fn.col_offset}# jobcheck bench {i}\n".encode()] + lines[line - 1:])


def rename_function(source: bytes, name: str, i: int) -> bytes:
    return source.replace(f"def {name}(".encode(), f"def {name}_{i}(".encode(), 1)


# ---- a corpus ----------------------------------------------------------------------------------


class Bench:
    def __init__(self, label: str, root: Path, work: Path, args) -> None:
        self.label, self.root, self.work, self.args = label, root, work, args
        self.results: dict[str, Run] = {}
        self.problems: list[str] = []

    def add(self, key: str, run: Run) -> Run:
        self.results[key] = run
        return run

    def edited(self, key: str, cache: Path, path: Path, versions: list[bytes]) -> None:
        """Time a cached run after each version of `path`, each from the record of the unedited
        tree (an untimed run after putting it back), compare the last one's findings with an
        uncached run's, and leave the file and the record as they were."""
        original = path.read_bytes()
        runs = []
        try:
            for i, version in enumerate(versions):
                if i:
                    path.write_bytes(original)
                    check(".", cache, cwd=self.root)
                path.write_bytes(version)
                runs.append(check(".", cache, cwd=self.root))
            if runs[-1].stdout != check(".", None, cwd=self.root).stdout:
                self.problems.append(f"{key}: findings after editing {path.relative_to(self.root)} differ from an "
                                     "uncached run's")
        finally:
            path.write_bytes(original)
        check(".", cache, cwd=self.root)  # the record back to the unedited tree (not timed)
        self.add(key, median_run(runs))

    def same_findings(self, cache: Path, when: str) -> None:
        """Findings read back through the cache equal an uncached run's (full JSON)."""
        uncached = check(".", None, cwd=self.root, fmt="json").stdout
        if any(check(".", cache, cwd=self.root, fmt="json").stdout != uncached for _ in range(2)):
            self.problems.append(f"cached findings differ from an uncached run's {when}")


def bench_corpus(label: str, name: str, version: str, args) -> dict:
    source = fetch(name, version, args.work)
    work = args.work / "runs" / label
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    root = work / "tree"
    shutil.copytree(source, root)  # edited in place below; the unpacked sdist stays as it came
    files = python_files(root)
    lines = sum(p.read_bytes().count(b"\n") for p in files)  # also warms the page cache for everyone
    size = sum(p.stat().st_size for p in files)
    load = os.getloadavg()[0]
    print(f"\n== {name}=={version}: {len(files)} files, {lines:,} lines, {size / 2**20:.1f} MB "
          f"(load average {load:.2f} at start)", flush=True)
    b = Bench(label, root, work, args)
    listing = work / "files.txt"
    listing.write_text("\n".join(str(p) for p in files))

    # The baseline and the cold runs alternate, so load from elsewhere falls on both alike.
    parses, colds = [], []
    for i in range(args.repeat):
        parses.append(parse_only(_AST_PARSE, listing))
        colds.append(check(".", work / f"cache-cold-{i}", cwd=root))
    b.add("ast.parse", median_run(parses))
    b.add("cold", median_run(colds))
    print(f"  ast.parse {b.results['ast.parse'].wall:.2f} s, cold {b.results['cold'].wall:.2f} s", flush=True)
    b.add("cold -j1", median_run([check(".", work / f"cache-j1-{i}", "-j1", cwd=root) for i in range(args.repeat_slow)]))
    cache = work / "cache-cold-0"
    warm = b.add("warm", median_run([check(".", cache, cwd=root) for _ in range(args.repeat)]))
    if len({r.stdout for r in colds} | {warm.stdout}) != 1:
        b.problems.append("cold and warm runs printed different findings")
    b.same_findings(cache, "(nothing changed)")

    module = pick_module(files, root)
    job_path, job_line = pick_job(files, root)
    core_path, core_name = pick_core_function(files, root)
    picks = {"fn appended": str(module.relative_to(root)), "job": f"{job_path.relative_to(root)}:{job_line}",
             "core renamed": f"{core_path.relative_to(root)}: {core_name}"}
    n = range(args.repeat)
    module_source, job_source, core_source = module.read_bytes(), job_path.read_bytes(), core_path.read_bytes()
    b.edited("edit: fn appended", cache, module, [append_function(module_source, i) for i in n])
    b.edited("edit: job body", cache, job_path, [edit_job_body(job_source, job_line, i) for i in n])
    b.edited("edit: job undecorated", cache, job_path, [undecorate_job(job_source, job_line, i) for i in n])
    b.edited("edit: core renamed", cache, core_path, [rename_function(core_source, core_name, i) for i in n])
    b.same_findings(cache, "after the edits")
    print("  edits done", flush=True)

    small = pick_small(files, root)
    one = str(small.relative_to(root))
    picks["1 file"] = one
    b.add("1 file", median_run([check(one, None, cwd=root) for _ in n]))
    one_cache = work / "cache-one"
    check(one, one_cache, cwd=root)  # what pre-commit has after its first run
    b.add("1 file cached", median_run([check(one, one_cache, cwd=root) for _ in n]))
    b.add("--version", median_run([jobcheck("--version") for _ in n]))

    if args.libcst:
        b.add("libcst parse-only", median_run([parse_only(_LIBCST_PARSE, listing) for _ in range(args.repeat_slow)]))
    if args.fixit and shutil.which("fixit"):
        print("  fixit (minutes)...", flush=True)
        b.add("fixit", measure(["fixit", "lint", "."], cwd=root, ok=(0, 1)))
    if args.peers and shutil.which("flake8"):
        b.add("flake8", measure(["flake8", "--exit-zero", "."], cwd=root, ok=(0, 1)))
    if args.peers and shutil.which("ruff"):
        b.add("ruff", measure(["ruff", "check", "--no-cache", "--exit-zero", "."], cwd=root, ok=(0, 1)))

    rows = corpus_rows(b.results, b.problems)
    print_table(rows)
    print("  edited: " + "; ".join(f"{k}: {v}" for k, v in picks.items()))
    print(f"  load average at end {os.getloadavg()[0]:.2f}")
    for p in b.problems:
        print(f"  FAIL {p}")
    shutil.rmtree(root, ignore_errors=True)
    return {"corpus": f"{name}=={version}", "files": len(files), "lines": lines, "bytes": size, "picks": picks,
            "rows": rows, "problems": b.problems}


def corpus_rows(results: dict[str, Run], problems: list[str]) -> list[dict]:
    base, cold = results["ast.parse"].wall, results["cold"].wall
    jobcheck_keys = [k for k in results if k not in ("ast.parse", "libcst parse-only", "fixit", "flake8", "ruff")]
    rows = []
    for key, run in results.items():
        row = {"measure": key, "wall": run.wall, "spread": run.spread, "n": run.n, "cpu": run.cpu,
               "max_rss_mb": run.max_rss_mb,
               "tree_pss_mb": run.tree_pss_mb, "ratio": None, "of": None, "target": None, "ok": None}
        if key == "ast.parse":
            row.update(ratio=1.0, of="ast")
        elif key in ("cold", "cold -j1", "libcst parse-only", "fixit", "flake8", "ruff"):
            row.update(ratio=run.wall / base, of="ast")
            if key == "cold":
                row.update(target=f"<= {COLD_VS_AST} x ast", ok=run.wall <= COLD_VS_AST * base)
        elif key == "warm" or key.startswith("edit:"):
            limit = WARM_VS_COLD if key == "warm" else EDITED_VS_COLD
            row.update(ratio=run.wall / cold, of="cold", target=f"<= {limit} x cold", ok=run.wall <= limit * cold)
        elif key.startswith("1 file"):
            row.update(target=f"<= {SINGLE_FILE_SECONDS} s", ok=run.wall <= SINGLE_FILE_SECONDS)
        rows.append(row)
    peak = max(results[k].tree_pss_mb for k in jobcheck_keys)
    rows.append({"measure": "peak memory", "wall": None, "tree_pss_mb": peak, "target": f"<= {PEAK_MB} MB",
                 "ok": peak <= PEAK_MB})
    rows.append({"measure": "same findings", "wall": None, "target": "cached = uncached", "ok": not problems})
    return rows


def print_table(rows: list[dict]) -> None:
    print(f"  {'measure':<24}{'wall s':>9}{'spread':>8}{'ratio':>14}{'cpu s':>9}{'tree PSS MB':>13}  target")
    for r in rows:
        wall = f"{r['wall']:9.3f}" if r.get("wall") is not None else " " * 9
        spread = f"{r['spread'] * 100:7.0f}%" if r.get("wall") is not None and r.get("n", 1) > 1 else " " * 8
        ratio = f"{r['ratio']:7.3f} x {r['of']:<4}" if r.get("ratio") is not None else " " * 14
        cpu = f"{r['cpu']:9.3f}" if r.get("cpu") is not None else " " * 9
        pss = f"{r['tree_pss_mb']:13.1f}" if r.get("tree_pss_mb") is not None else " " * 13
        verdict = "" if r.get("ok") is None else ("ok" if r["ok"] else "FAIL")
        print(f"  {r['measure']:<24}{wall}{spread}{ratio}{cpu}{pss}  {r.get('target') or '':<20}{verdict}".rstrip())


# ---- scaling -----------------------------------------------------------------------------------


def generate_data(size: int, rng: random.Random) -> str:
    """A module that is one big dict literal (configuration, fixtures): pure data."""
    out = ['"""Generated by benchmarks/bench.py --scaling: one big dict literal."""\n\nDATA = {\n']
    total, i = len(out[0]), 0
    while total < size:
        entry = (f'    "key_{i:07d}": {{"id": {i}, "name": "item {i}", "weight": {rng.random():.6f}, '
                 f'"enabled": {rng.random() < 0.5}, "tags": ["alpha", "beta", "tag{i % 97}"], '
                 f'"limits": {{"min": {i % 13}, "max": {i % 13 + 100}}}, "parent": None}},\n')
        out.append(entry)
        total += len(entry)
        i += 1
    out.append("}\n")
    return "".join(out)


def generate_functions(size: int, rng: random.Random) -> str:
    """A module of many small functions using a few imports (and a small table)."""
    head = ('"""Generated by benchmarks/bench.py --scaling: many small functions."""\n\n'
            "import json\nimport logging\nimport os\nfrom collections import defaultdict\n"
            "from datetime import datetime, timedelta\n\nlogger = logging.getLogger(__name__)\n"
            'TABLE = {"a": 1, "b": 2, "c": 3}\n\n\n'
            "def _helper(value, scale=1):\n    return {\"value\": value, \"scale\": scale}\n")
    out, total, i = [head], len(head), 0
    while total < size:
        fn = (f"\n\ndef handle_{i:07d}(items, limit={rng.randint(1, 99)}):\n"
              f'    """Group the first items by kind ({i})."""\n'
              "    grouped = defaultdict(list)\n"
              "    for n, item in enumerate(items[:limit]):\n"
              '        grouped[item.get("kind", "other")].append(json.dumps(item) + os.sep + str(n))\n'
              f'    if len(grouped) > TABLE["{"abc"[i % 3]}"]:\n'
              f'        logger.info("handle_{i:07d}: %d kinds at %s", len(grouped), datetime.now() + timedelta(seconds={i % 60}))\n'
              f"    return _helper(dict(grouped), scale={i % 7})\n")
        out.append(fn)
        total += len(fn)
        i += 1
    return "".join(out)


def bench_scaling(args) -> dict:
    folder = args.work / "scaling"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    rng = random.Random(0)
    rows = []
    print(f"\n== scaling: one generated module, `jobcheck check --no-cache FILE` (load average {os.getloadavg()[0]:.2f})",
          flush=True)
    print(f"  {'module':<16}{'MB':>6}{'lines':>10}{'wall s':>9}{'spread':>8}{'s / MB':>8}{'ast s':>8}{'x ast':>7}"
          f"{'tree PSS MB':>13}{'ast PSS MB':>12}")
    for kind, generate in (("data", generate_data), ("functions", generate_functions)):
        for mb in SCALING_SIZES_MB:
            path = folder / f"gen_{kind}_{mb}mb.py"
            path.write_text(generate(mb * 2**20, rng))
            listing = folder / f"{path.stem}.txt"
            listing.write_text(str(path))
            size = path.stat().st_size / 2**20
            base = median_run([parse_only(_AST_PARSE, listing) for _ in range(args.repeat_slow)])
            run = median_run([check(path.name, None, cwd=folder) for _ in range(args.repeat)])
            lines = path.read_bytes().count(b"\n")
            rows.append({"module": f"{kind} {mb} MB", "kind": kind, "mb": size, "lines": lines, "wall": run.wall,
                         "spread": run.spread, "per_mb": run.wall / size, "ast": base.wall,
                         "tree_pss_mb": run.tree_pss_mb, "ast_pss_mb": base.tree_pss_mb})
            spread = f"{run.spread * 100:7.0f}%" if run.n > 1 else " " * 8
            print(f"  {kind + ' ' + str(mb) + ' MB':<16}{size:6.2f}{lines:10,}{run.wall:9.3f}{spread}{run.wall / size:8.3f}"
                  f"{base.wall:8.3f}{run.wall / base.wall:7.2f}{run.tree_pss_mb:13.1f}{base.tree_pss_mb:12.1f}",
                  flush=True)
    for kind in ("data", "functions"):
        per = [r["per_mb"] for r in rows if r["kind"] == kind]
        print(f"  {kind}: s / MB at {SCALING_SIZES_MB[-1]} MB is {per[-1] / per[0]:.2f} x that at {SCALING_SIZES_MB[0]} MB")
    path = folder / f"gen_data_{SCALING_PEAK_SIZE_MB}mb.py"
    path.write_text(generate_data(SCALING_PEAK_SIZE_MB * 2**20, rng))
    listing = folder / f"{path.stem}.txt"
    listing.write_text(str(path))
    peak = median_run([check(path.name, None, cwd=folder) for _ in range(args.repeat_slow)])
    base = median_run([parse_only(_AST_PARSE, listing) for _ in range(args.repeat_slow)])
    ok = peak.tree_pss_mb <= SCALING_PEAK_MB
    print(f"  peak memory, data {SCALING_PEAK_SIZE_MB} MB: {peak.tree_pss_mb:.1f} MB tree PSS in {peak.wall:.2f} s "
          f"(ast.parse alone: {base.tree_pss_mb:.1f} MB in {base.wall:.2f} s)  <= {SCALING_PEAK_MB} MB  "
          f"{'ok' if ok else 'FAIL'}")
    return {"rows": rows, "peak": {"mb": SCALING_PEAK_SIZE_MB, "tree_pss_mb": peak.tree_pss_mb, "wall": peak.wall,
                                   "ast_pss_mb": base.tree_pss_mb, "ast": base.wall, "target": SCALING_PEAK_MB,
                                   "ok": ok}}


# ---- main --------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--corpus", choices=sorted(CORPORA), action="append", help="repeatable; default: all")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "jobcheck-bench",
                        help="downloads, the snapshot, run folders, generated modules")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measure (the median is shown)")
    parser.add_argument("--repeat-slow", type=int, default=1,
                        help="runs of cold -j1, libcst parse-only, and the scaling rows' ast.parse and peak memory")
    parser.add_argument("--python", default=sys.executable, help="the interpreter that runs jobcheck and the baselines")
    parser.add_argument("--jobcheck-src", type=Path,
                        help="a checkout (or its jobcheck/ folder) to snapshot; default: the jobcheck --python imports")
    parser.add_argument("--no-snapshot", action="store_true",
                        help="run the jobcheck --python imports as it is, not a copy taken at start")
    parser.add_argument("--scaling", action="store_true", help="also the generated 1-8 MB module rows")
    parser.add_argument("--no-corpora", action="store_true", help="skip the corpora (with --scaling: only those rows)")
    parser.add_argument("--libcst", action="store_true", help="also libcst parse-only (information)")
    parser.add_argument("--fixit", action="store_true", help="also Fixit, when installed (minutes per corpus)")
    parser.add_argument("--no-fixit", action="store_true", help=argparse.SUPPRESS)  # the default now
    parser.add_argument("--peers", action="store_true", help="also flake8 and ruff, when installed")
    parser.add_argument("--json", type=Path, help="write the measures here")
    args = parser.parse_args()
    if not Path(TIME).exists():
        sys.exit(f"{TIME} is needed (apt-get install time)")
    if args.jobcheck_src and args.no_snapshot:
        sys.exit("--jobcheck-src needs the snapshot")
    args.work = args.work.resolve()
    args.work.mkdir(parents=True, exist_ok=True)
    global TARGET
    TARGET = Target(args.python, None)
    if not args.no_snapshot:
        source = snapshot(args.python, args.jobcheck_src.resolve() if args.jobcheck_src else None, args.work)
        TARGET = Target(args.python, args.work / "snapshot")
        print(f"snapshot of {source}")
    print(describe_target())
    print(f"{os.cpu_count()} cores; repeat {args.repeat} (median), repeat-slow {args.repeat_slow}")
    out: dict = {"jobcheck": describe_target(), "corpora": [], "scaling": None}
    if not args.no_corpora:
        out["corpora"] = [bench_corpus(label, *CORPORA[label], args) for label in (args.corpus or sorted(CORPORA))]
    if args.scaling:
        out["scaling"] = bench_scaling(args)
    if args.json:
        args.json.write_text(json.dumps(out, indent=2))
    if any(c["problems"] for c in out["corpora"]):
        sys.exit(1)


if __name__ == "__main__":
    main()
