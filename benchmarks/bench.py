"""How fast is jobcheck on real code, against libcst parsing the same files and against its peers?

    python benchmarks/bench.py                       # both corpora, Fixit and flake8 when installed
    python benchmarks/bench.py --corpus airflow --repeat 5 --no-fixit --json out.json

Each corpus is a pinned sdist fetched at run time with `pip download --no-deps --no-binary :all:`
into --work (default /tmp/jobcheck-bench; never committed) and unpacked. Every command runs as its
own process under `/usr/bin/time -v` (wall time, and the largest single process's peak RSS) while
a sampler adds up the proportional set size (PSS) of the whole process tree, so a process pool's
workers count too. Each jobcheck measure is the median of --repeat runs:

    libcst parse-only    libcst.parse_module on every file jobcheck checks (one process): the unit
    jobcheck cold        empty cache, default --jobs (one process per core)
    jobcheck cold -j1    empty cache, one process
    jobcheck warm        the same cache again, nothing changed
    jobcheck 1 changed   one module edited (a function added) since the last run: an edit no
                         step of the analysis looks at, so the findings are reused
    jobcheck 1 moved     one module edited so that every line moves (blank lines on top): the
                         analysis reads nothing new but line numbers, so the findings are reused
                         with their lines renamed
    jobcheck 1 assigned  one module edited: a module-level assignment added that nothing reads by
                         its name; re-checked (with nothing to check again)
    jobcheck 1 class attr    a class (the middle one, by path, of those in modules outside the
                         tests that define three or more) given an attribute nothing reads by
                         name, as a model gains a field: re-checked
    jobcheck 1 job edited    one job's body edited (a statement inserted at its top, so every line
                         below moves): only the functions that reach the edited body are
                         checked again, in a project that reads the summaries they need
    jobcheck 1 decorated one job given a decorator no framework reads (right above its `def`):
                         the scans would find what they found, so the job is checked again
    jobcheck 1 undecorated   one job edited where the scans read (its own decorators dropped, so
                         it is no longer a job): the scans run again from the record, only the
                         edited module's items read anew, and the jobs they change are checked
    jobcheck 1 job added a copy of that job (its decorators and `def`, new name) appended to its
                         module: a new job the scans find, as `1 undecorated`
    jobcheck 1 renamed   that job renamed: a name the analysis looked up is gone; what looked it
                         up (functions, modules' scan sites), or used a name that resolves
                         otherwise now, is checked or scanned again
    jobcheck 1 core renamed  the top-level function most modules import by name, renamed: as
                         `1 renamed`, for the name the most modules can reach
    jobcheck 1 file      one small file in a new process, no cache: the pre-commit case (the
                         modules it imports are read too, for cross-module effects)
    jobcheck 1 file cached   the same with the cache its previous run left
    fixit / flake8 / ruff   the same folder, when installed

Every time is printed as a ratio to the libcst parse-only time of the same run, and the
acceptance targets are checked. The findings of the warm and one-changed runs are compared with
a cold run of the same tree (cross-module effects included): any difference fails the run.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

CORPORA = {
    "airflow": ("apache-airflow-core", "3.3.2"),
    "dagster": ("dagster", "1.13.29"),
}
TIME = "/usr/bin/time"

# Acceptance targets (issue 6).
COLD_VS_PARSE, COLD_VS_FIXIT, WARM_VS_COLD, CHANGED_VS_COLD = 1.0, 0.1, 0.1, 0.15
SINGLE_FILE_SECONDS, PEAK_MB = 0.35, 250


@dataclass
class Run:
    wall: float  # seconds
    max_rss_mb: float  # the largest single process (/usr/bin/time -v)
    tree_pss_mb: float  # the whole process tree, sampled
    returncode: int
    stdout: str = field(repr=False, default="")


# ---- fetching ----------------------------------------------------------------------------------


def fetch(name: str, version: str, work: Path) -> Path:
    """The unpacked sdist of name==version under work/src (downloaded once)."""
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
    """Peak of the summed PSS of a process and all its descendants, sampled every 20 ms."""

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


def measure(cmd: list[str], cwd: Path | None = None, ok: tuple[int, ...] = (0, 1)) -> Run:
    """Run `cmd` once; `ok` are the exit codes that mean it worked (jobcheck runs with
    --exit-zero, so anything but 0 — an uncaught exception exits 1 — is a failure)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        started = time.perf_counter()
        env = dict(os.environ)
        if SNAPSHOT is not None:
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SNAPSHOT), env.get("PYTHONPATH")]))
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
        raise RuntimeError(f"{' '.join(cmd)} failed ({rc}):\n{stderr[-2000:]}")
    elapsed = fields.get("Elapsed (wall clock) time (h:mm:ss or m:ss)")
    if elapsed:
        parts = [float(p) for p in elapsed.split(":")]
        wall = sum(p * 60 ** i for i, p in enumerate(reversed(parts)))
    return Run(wall, int(fields.get("Maximum resident set size (kbytes)", 0)) / 1024, sampler.peak_kb / 1024, rc, stdout)


def median_run(runs: list[Run]) -> Run:
    ordered = sorted(runs, key=lambda r: r.wall)
    mid = ordered[len(ordered) // 2]
    return Run(statistics.median(r.wall for r in runs), max(r.max_rss_mb for r in runs),
               max(r.tree_pss_mb for r in runs), mid.returncode, mid.stdout)


# ---- the scenarios -----------------------------------------------------------------------------


_LAUNCH = "import sys; from jobcheck.cli import main; sys.exit(main())"  # what the console script does
SNAPSHOT: Path | None = None


def snapshot(work: Path) -> Path:
    """A copy of the jobcheck package being measured: every run uses the same code even while the
    working tree is being edited (an edit would rightly invalidate the cache between runs)."""
    import jobcheck

    target = work / "snapshot"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(Path(jobcheck.__file__).parent, target / "jobcheck", ignore=shutil.ignore_patterns("__pycache__"))
    # Byte-compiled, as `pip install` leaves a package (py_compile writes even where
    # PYTHONDONTWRITEBYTECODE is set, as in some sandboxes, which would recompile every run).
    compileall.compile_dir(str(target / "jobcheck"), quiet=1)
    return target


def run_jobcheck(cmd: list[str], cwd: Path | None = None) -> Run:
    return measure(cmd, cwd=cwd, ok=(0,))


def jobcheck_cmd(*args: str) -> list[str]:
    if SNAPSHOT is not None:
        return [sys.executable, "-c", _LAUNCH, *args]
    exe = shutil.which("jobcheck")
    return [exe, *args] if exe else [sys.executable, "-c", _LAUNCH, *args]


def check_cmd(target: str, cache: Path | None, *extra: str, fmt: str = "concise") -> list[str]:
    """Timed runs print one line per finding (`concise`): the measure is the analysis, not a
    renderer; identity checks compare the full JSON."""
    cache_args = ["--cache-dir", str(cache)] if cache else ["--no-cache"]
    return jobcheck_cmd("check", "--exit-zero", "--output-format", fmt, *cache_args, *extra, target)


def same_findings(root: Path, cache: Path) -> bool:
    """Findings read back from the cache (summaries, then the run record) equal a run without it."""
    uncached = run_jobcheck(check_cmd(".", None, fmt="json"), cwd=root).stdout
    return all(run_jobcheck(check_cmd(".", cache, fmt="json"), cwd=root).stdout == uncached for _ in range(2))


def python_files(root: Path) -> list[Path]:
    """The files jobcheck checks under root (its own discovery), so the reference parses the same."""
    from jobcheck import files

    return [p for p, _ in files.discover([str(root)], root, [])]


def pick_small(files: list[Path]) -> Path:
    """A small ordinary module (40-120 lines), the same one every run."""
    for p in files:
        lines = p.read_bytes().count(b"\n")
        if 40 <= lines <= 120 and p.name != "__init__.py" and "test" not in p.as_posix():
            return p
    return files[0]


def pick_changed(files: list[Path], root: Path) -> Path:
    """A mid-sized module outside the tests: the one the 'one changed file' run edits."""
    sized = sorted((p for p in files if p.name != "__init__.py" and "test" not in p.relative_to(root).as_posix()),
                   key=lambda p: p.stat().st_size)
    return sized[len(sized) // 2]


def pick_core_function(files: list[Path], root: Path) -> tuple[Path, str]:
    """The top-level function outside the tests that the most other modules import by name
    (`from m import f`), and its module: the "core renamed" run renames it."""
    import ast
    from collections import Counter

    def module_of(path: Path) -> str:
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[0] == "src":
            parts = parts[1:]
        return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)

    defined: dict[tuple[str, str], Path] = {}
    imported: Counter = Counter()
    for path in files:
        try:
            tree = ast.parse(path.read_bytes())
        except (SyntaxError, ValueError):
            continue
        module = module_of(path)
        if "test" not in path.relative_to(root).as_posix():
            for node in tree.body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    defined[(module, node.name)] = path
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                imported.update((node.module, alias.name) for alias in node.names)
    (module, name), _ = max(((key, n) for key, n in imported.items() if key in defined), key=lambda kn: (kn[1], kn[0]))
    return defined[(module, name)], name


def rename_function(source: bytes, name: str, i: int) -> bytes:
    return source.replace(f"def {name}(".encode(), f"def {name}_{i}(".encode(), 1)


def pick_class(files: list[Path], root: Path) -> tuple[Path, int, int]:
    """A class outside the tests whose module defines several: the middle one by path, with the
    line and column its body starts at (after its docstring). The "class attr" run adds one there,
    as adding a field to a model does."""
    import ast

    found = []
    for path in sorted(p for p in files if "test" not in p.relative_to(root).as_posix()):
        try:
            tree = ast.parse(path.read_bytes())
        except (SyntaxError, ValueError):
            continue
        classes = [n for n in tree.body if isinstance(n, ast.ClassDef)]
        for cls in classes if len(classes) > 2 else ():
            first = cls.body[0]
            is_doc = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            if len(cls.body) > 1 or not is_doc:
                found.append((path, (first.end_lineno if is_doc else first.lineno - 1), first.col_offset))
    path, at, col = found[len(found) // 2]
    return path, at, col


def add_class_attribute(source: bytes, at: int, col: int, i: int) -> bytes:
    lines = source.splitlines(keepends=True)
    return b"".join(lines[:at] + [f"{' ' * col}jobcheck_bench_probe_{i} = {i}\n".encode()] + lines[at:])


def edited_runs(results: dict, problems: list, key: str, root: Path, cache: Path, path: Path, versions: list[bytes]) -> None:
    """Time a cached run after each version of `path`, each from the record of the unedited tree
    (so each run sees one edit of its kind, not the difference between two versions), compare
    the last one's findings with an uncached run's, and put the file and the record back."""
    original = path.read_bytes()
    try:
        runs = []
        for i, version in enumerate(versions):
            if i:
                path.write_bytes(original)
                run_jobcheck(check_cmd(".", cache), cwd=root)  # the record of the unedited tree (not timed)
            path.write_bytes(version)
            runs.append(run_jobcheck(check_cmd(".", cache), cwd=root))
        results[key] = median_run(runs)
        if runs[-1].stdout != run_jobcheck(check_cmd(".", None), cwd=root).stdout:
            problems.append(f"{key}: findings after editing {path.relative_to(root)} differ from an uncached run's")
    finally:
        path.write_bytes(original)
    run_jobcheck(check_cmd(".", cache), cwd=root)  # the record back to the unedited tree


def pick_job(root: Path) -> tuple[Path, int]:
    """A job entry point outside the tests whose `def` jobcheck reports: the middle one by path."""
    listed = run_jobcheck(jobcheck_cmd("jobs", "--no-cache", "--format", "json", "."), cwd=root).stdout
    jobs = sorted((j["path"], j["line"]) for j in json.loads(listed)["jobs"]
                  if "test" not in j["path"] and _job_def(root / j["path"], j["line"]) is not None)
    path, line = jobs[len(jobs) // 2]
    return root / path, line


def _job_def(path: Path, line: int):
    try:
        return _job_def_in(path.read_bytes(), line)
    except (SyntaxError, ValueError, OSError, StopIteration):
        return None


def edit_job(source: bytes, line: int, i: int) -> bytes:
    """The job defined at `line` with a statement inserted at the top of its body (after its
    docstring): what the job does changes, and every line below moves."""
    import ast

    fn = _job_def_in(source, line)
    first = fn.body[0]
    is_doc = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)
    if is_doc:
        at = first.end_lineno
    else:
        at = min([first.lineno] + [d.lineno for d in getattr(first, "decorator_list", [])]) - 1
    lines = source.splitlines(keepends=True)
    statement = " " * first.col_offset + f"print('jobcheck bench {i}')\n"
    return b"".join(lines[:at] + [statement.encode()] + lines[at:])


def decorate_job(source: bytes, line: int, i: int) -> bytes:
    """The job defined at `line` with one more decorator, right above its `def`."""
    lines = source.splitlines(keepends=True)
    indent = lines[line - 1][: len(lines[line - 1]) - len(lines[line - 1].lstrip())]
    return b"".join(lines[:line - 1] + [f"{indent.decode()}@_jobcheck_bench_probe_{i}\n".encode()] + lines[line - 1:])


def undecorate_job(source: bytes, line: int, i: int) -> bytes:
    """The job defined at `line` without its decorators (a comment numbered `i` in their place,
    so each version differs); one without decorators is renamed instead."""
    fn = _job_def_in(source, line)
    if not fn.decorator_list:
        return rename_job(source, line, i)
    lines = source.splitlines(keepends=True)
    first = min(d.lineno for d in fn.decorator_list)
    indent = " " * fn.col_offset
    return b"".join(lines[:first - 1] + [f"{indent}# jobcheck bench {i}\n".encode()] + lines[line - 1:])


def rename_job(source: bytes, line: int, i: int) -> bytes:
    """The job defined at `line` under another name (numbered `i`)."""
    fn = _job_def_in(source, line)
    lines = source.splitlines(keepends=True)
    lines[line - 1] = lines[line - 1].decode().replace(f"def {fn.name}", f"def {fn.name}_{i}", 1).encode()
    return b"".join(lines)


def add_job(source: bytes, line: int, i: int) -> bytes:
    """A copy of the job defined at `line` — its decorators and its `def` line, a new name
    (numbered `i`), `pass` for a body — appended to the module at the top level."""
    import textwrap

    fn = _job_def_in(source, line)
    lines = source.decode().splitlines(keepends=True)
    first = min([d.lineno for d in fn.decorator_list] + [fn.lineno])
    head = textwrap.dedent("".join(lines[first - 1:fn.body[0].lineno - 1]))
    head = head.replace(f"def {fn.name}", f"def _jobcheck_bench_job_{i}", 1)
    return (source.decode().rstrip("\n") + f"\n\n\n{head.rstrip()}\n    pass\n").encode()


def _job_def_in(source: bytes, line: int):
    import ast

    return next(n for n in ast.walk(ast.parse(source)) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                and n.lineno == line)


def bench_corpus(label: str, name: str, version: str, args) -> dict:
    root = fetch(name, version, args.work)
    files = python_files(root)
    lines = sum(p.read_bytes().count(b"\n") for p in files)  # also warms the page cache for everyone
    print(f"\n== {name}=={version}: {len(files)} files, {lines:,} lines ({root})", flush=True)
    results: dict[str, Run] = {}
    work = args.work / "runs" / label
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)

    listing = work / "files.txt"
    listing.write_text("\n".join(str(p) for p in files))
    results["libcst parse-only"] = median_run([measure([sys.executable, __file__, "_parse", str(listing)])
                                               for _ in range(args.repeat_slow)])
    print(f"  libcst parse-only: {results['libcst parse-only'].wall:.2f} s", flush=True)

    cold_runs = []
    for i in range(args.repeat):
        cache = work / f"cache-cold-{i}"
        cold_runs.append(run_jobcheck(check_cmd(".", cache), cwd=root))
    results["jobcheck cold"] = median_run(cold_runs)
    results["jobcheck cold -j1"] = median_run([run_jobcheck(check_cmd(".", work / f"cache-seq-{i}", "-j1"), cwd=root)
                                               for i in range(args.repeat_slow)])
    cache = work / "cache-cold-0"
    warm_runs = [run_jobcheck(check_cmd(".", cache), cwd=root) for _ in range(args.repeat)]
    results["jobcheck warm"] = median_run(warm_runs)
    problems = []
    if len({r.stdout for r in cold_runs + warm_runs}) != 1:
        problems.append("cold and warm runs printed different findings")
    if not same_findings(root, cache):
        problems.append("cached findings differ from an uncached run's")

    changed = pick_changed(files, root)
    original = changed.read_bytes()
    # A real edit: a new function, so the summary and the project both change.
    edited_runs(results, problems, "jobcheck 1 changed", root, cache, changed,
                [original + f"\n\ndef _jobcheck_bench_probe_{i}():\n    return {i}\n".encode() for i in range(args.repeat)])
    if not same_findings(root, cache):
        problems.append("cached findings differ from an uncached run's after the edits")
    # Every line of the module moves: only line numbers change in what the analysis reads.
    edited_runs(results, problems, "jobcheck 1 moved", root, cache, changed,
                [b"\n" * (i + 1) + original for i in range(args.repeat)])
    # A name nothing looks up: what it is assigned changes no finding.
    edited_runs(results, problems, "jobcheck 1 assigned", root, cache, changed,
                [original + f"\n\n_jobcheck_bench_probe = {i}\n".encode() for i in range(args.repeat)])
    # A class gains an attribute nothing reads by name (a model's new field): re-checked.
    class_path, at, col = pick_class(files, root)
    class_original = class_path.read_bytes()
    edited_runs(results, problems, "jobcheck 1 class attr", root, cache, class_path,
                [add_class_attribute(class_original, at, col, i) for i in range(args.repeat)])
    job_path, job_line = pick_job(root)
    job_original = job_path.read_bytes()
    edited_runs(results, problems, "jobcheck 1 job edited", root, cache, job_path,
                [edit_job(job_original, job_line, i) for i in range(args.repeat)])
    # A decorator no scan reads: re-checked. The job's own decorators dropped, or a copy of the
    # job added: the scans run again. The job renamed: linked again.
    edited_runs(results, problems, "jobcheck 1 decorated", root, cache, job_path,
                [decorate_job(job_original, job_line, i) for i in range(args.repeat)])
    edited_runs(results, problems, "jobcheck 1 undecorated", root, cache, job_path,
                [undecorate_job(job_original, job_line, i) for i in range(args.repeat)])
    edited_runs(results, problems, "jobcheck 1 job added", root, cache, job_path,
                [add_job(job_original, job_line, i) for i in range(args.repeat)])
    edited_runs(results, problems, "jobcheck 1 renamed", root, cache, job_path,
                [rename_job(job_original, job_line, i) for i in range(args.repeat)])
    # The function most modules import by name, renamed: every module that can name it is
    # checked again, or the project is linked again when that is a twentieth of it or more.
    core_path, core_name = pick_core_function(files, root)
    core_original = core_path.read_bytes()
    edited_runs(results, problems, "jobcheck 1 core renamed", root, cache, core_path,
                [rename_function(core_original, core_name, i) for i in range(args.repeat)])

    small = pick_small(files)
    one = str(small.relative_to(root))
    results["jobcheck 1 file"] = median_run([run_jobcheck(check_cmd(one, None), cwd=root) for _ in range(args.repeat)])
    one_cache = work / "cache-one"
    run_jobcheck(check_cmd(one, one_cache), cwd=root)  # what pre-commit has after its first run
    results["jobcheck 1 file cached"] = median_run([run_jobcheck(check_cmd(one, one_cache), cwd=root)
                                                    for _ in range(args.repeat)])
    results["jobcheck --version"] = median_run([run_jobcheck(jobcheck_cmd("--version")) for _ in range(args.repeat)])

    if not args.no_fixit and shutil.which("fixit"):
        print("  fixit (slow)...", flush=True)
        results["fixit"] = measure(["fixit", "lint", "."], cwd=root)
    if shutil.which("flake8"):
        results["flake8"] = measure(["flake8", "--exit-zero", "."], cwd=root)
    if shutil.which("ruff"):
        results["ruff"] = measure(["ruff", "check", "--no-cache", "--exit-zero", "."], cwd=root)

    report(results, problems, small.relative_to(root), changed.relative_to(root),
           f"{job_path.relative_to(root)}:{job_line}", f"{class_path.relative_to(root)}:{at + 1}",
           f"{core_path.relative_to(root)}: {core_name}")
    return {"corpus": f"{name}=={version}", "files": len(files), "lines": lines,
            "results": {k: {kk: vv for kk, vv in asdict(v).items() if kk != "stdout"} for k, v in results.items()},
            "problems": problems}


def report(results: dict[str, Run], problems: list[str], small: Path, changed: Path, job: str, cls: str,
           core: str) -> None:
    unit = results["libcst parse-only"].wall
    cold = results["jobcheck cold"].wall
    print(f"  {'measure':<22}{'wall s':>9}{'x parse':>9}{'x cold':>8}{'max RSS MB':>12}{'tree PSS MB':>13}")
    for key, run in results.items():
        vs_cold = f"{run.wall / cold:8.3f}" if key.startswith("jobcheck") else " " * 8
        print(f"  {key:<22}{run.wall:9.3f}{run.wall / unit:9.3f}{vs_cold}{run.max_rss_mb:12.1f}{run.tree_pss_mb:13.1f}")
    print(f"  (1 changed: {changed}; 1 class attr: {cls}; 1 job edited: {job}; 1 core renamed: {core}; "
          f"1 file: {small})")
    checks = [
        (f"cold <= {COLD_VS_PARSE} x libcst parse", cold <= COLD_VS_PARSE * unit),
        (f"warm <= {WARM_VS_COLD} x cold", results["jobcheck warm"].wall <= WARM_VS_COLD * cold),
        (f"1 changed <= {CHANGED_VS_COLD} x cold", results["jobcheck 1 changed"].wall <= CHANGED_VS_COLD * cold),
        (f"1 moved <= {CHANGED_VS_COLD} x cold", results["jobcheck 1 moved"].wall <= CHANGED_VS_COLD * cold),
        (f"1 assigned <= {CHANGED_VS_COLD} x cold", results["jobcheck 1 assigned"].wall <= CHANGED_VS_COLD * cold),
        (f"1 class attr <= {CHANGED_VS_COLD} x cold", results["jobcheck 1 class attr"].wall <= CHANGED_VS_COLD * cold),
        (f"1 job edited <= {CHANGED_VS_COLD} x cold", results["jobcheck 1 job edited"].wall <= CHANGED_VS_COLD * cold),
        (f"1 decorated <= {CHANGED_VS_COLD} x cold", results["jobcheck 1 decorated"].wall <= CHANGED_VS_COLD * cold),
        (f"1 undecorated <= {CHANGED_VS_COLD} x cold", results["jobcheck 1 undecorated"].wall <= CHANGED_VS_COLD * cold),
        (f"1 job added <= {CHANGED_VS_COLD} x cold", results["jobcheck 1 job added"].wall <= CHANGED_VS_COLD * cold),
        (f"1 renamed <= {CHANGED_VS_COLD} x cold", results["jobcheck 1 renamed"].wall <= CHANGED_VS_COLD * cold),
        (f"1 core renamed <= {CHANGED_VS_COLD} x cold", results["jobcheck 1 core renamed"].wall <= CHANGED_VS_COLD * cold),
        (f"1 file <= {SINGLE_FILE_SECONDS} s (no cache)", results["jobcheck 1 file"].wall <= SINGLE_FILE_SECONDS),
        (f"1 file <= {SINGLE_FILE_SECONDS} s (cached)", results["jobcheck 1 file cached"].wall <= SINGLE_FILE_SECONDS),
        (f"peak memory <= {PEAK_MB} MB (tree PSS)",
         max(r.tree_pss_mb for k, r in results.items() if k.startswith("jobcheck")) <= PEAK_MB),
    ]
    if "fixit" in results:
        checks.append((f"cold <= {COLD_VS_FIXIT} x fixit", cold <= COLD_VS_FIXIT * results["fixit"].wall))
    for text, ok in checks:
        print(f"  {'ok  ' if ok else 'MISS'} {text}")
    for p in problems:
        print(f"  FAIL {p}")


def _parse(listing: str) -> None:
    """The reference: libcst parses every file (what any libcst-based linter does first)."""
    import libcst

    for line in Path(listing).read_text().splitlines():
        try:
            libcst.parse_module(Path(line).read_bytes())
        except Exception:  # noqa: BLE001 - a file libcst cannot parse still cost its time
            pass


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "_parse":
        _parse(sys.argv[2])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", choices=sorted(CORPORA), action="append", help="default: all")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "jobcheck-bench")
    parser.add_argument("--repeat", type=int, default=3, help="runs per fast measure (the median is shown)")
    parser.add_argument("--repeat-slow", type=int, default=1, help="runs of libcst parse-only and of cold -j1")
    parser.add_argument("--no-fixit", action="store_true", help="skip Fixit (minutes per corpus)")
    parser.add_argument("--no-snapshot", action="store_true", help="run the installed jobcheck, not a copy taken at start")
    parser.add_argument("--json", type=Path, help="write the measures here")
    args = parser.parse_args()
    if not Path(TIME).exists():
        sys.exit(f"{TIME} is needed (apt-get install time)")
    args.work.mkdir(parents=True, exist_ok=True)
    global SNAPSHOT
    if not args.no_snapshot:
        SNAPSHOT = snapshot(args.work)
    out = [bench_corpus(label, *CORPORA[label], args) for label in (args.corpus or sorted(CORPORA))]
    if args.json:
        args.json.write_text(json.dumps(out, indent=2))
    if any(r["problems"] for r in out):
        sys.exit(1)


if __name__ == "__main__":
    main()
