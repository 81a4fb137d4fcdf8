"""The cache and the process pool change how fast findings come, never which: sequential,
parallel and cached runs agree on every testdata case; a changed file is re-summarised and its
effects reach other modules; corrupt, foreign and concurrent cache use is harmless."""

from __future__ import annotations

import ast
import json
import marshal
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jobcheck import api
from jobcheck.analysis import serialize
from jobcheck.cache import store as cache
from jobcheck.config import Config, load
from jobcheck.engine import cached_run
from jobcheck.engine.parallel import SummaryPool

from .cli_support import run_cli, write_tree
from .testdata_support import TESTDATA, cases

ALL = api.Selection(select=["ALL"])


def _config(case: Path) -> Config:
    if case.is_dir() and (case / "pyproject.toml").is_file():
        return load(case / "pyproject.toml")
    return Config(root=case if case.is_dir() else case.parent)


@pytest.fixture(scope="module")
def shared_cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("shared") / "cache"


@pytest.mark.parametrize("case", cases(), ids=lambda p: str(p.relative_to(TESTDATA)))
def test_sequential_parallel_and_cached_runs_agree(case: Path, shared_cache: Path) -> None:
    paths, config = [str(case)], _config(case)
    sequential = api.check_paths(paths, config, ALL)
    with SummaryPool(workers=2, pool_min_files=2, pool_min_bytes=0) as pooled:
        parallel = api.check_paths(paths, config, ALL, summarizer=pooled)
    if len(sequential.summaries) >= 2:
        assert pooled.used_pool
    store = cache.Cache(shared_cache)  # shared by all cases: keys must keep them apart
    cold = cached_run.check_paths(paths, config, ALL, cache=store)
    from_summaries = cached_run.check_paths(paths, config, ALL, cache=store, reuse_findings=False)
    from_record = cached_run.check_paths(paths, config, ALL, cache=store)
    assert from_record.project is None  # the findings were read back whole
    for other in (parallel, cold, from_summaries, from_record):
        assert other.findings == sequential.findings
        assert other.files == sequential.files
    assert parallel.summaries == sequential.summaries == from_summaries.summaries


def test_serialised_summaries_round_trip_exactly() -> None:
    for case in cases():
        for summary in api.check_paths([str(case)], _config(case), ALL).summaries:
            data = serialize.to_data(summary)
            json.dumps(data)  # plain data
            assert serialize.from_data(marshal.loads(marshal.dumps(data))) == summary


@pytest.mark.parametrize("bad", [
    None, (), ("jobcheck-summary/other",), ("jobcheck-summary/0000000000000000", "a.py", "a"),
    lambda data: (data[0], *data[1:-1]),  # a field short
    lambda data: tuple(x if i != 7 else [("not", "a", "function")] for i, x in enumerate(data)),
])
def test_foreign_or_malformed_data_is_rejected(bad) -> None:
    summary = api.check_sources({"a.py": "def f():\n    g()\n"}).summaries[0]
    data = bad(serialize.to_data(summary)) if callable(bad) else bad
    with pytest.raises(serialize.FormatError):
        serialize.from_data(data)


def test_summary_modules_import_nothing_else_from_jobcheck() -> None:
    """Their source is part of every summary key; a summariser dependency outside the list
    would let a stale summary be reused after that dependency changed."""
    package = Path(cache.__file__).parent.parent
    for name in cache.SUMMARY_MODULES:
        tree = ast.parse((package / f"{name.replace('.', '/')}.py").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level:
                assert node.level == 1, f"{name} imports from outside its package"
                targets = [node.module] if node.module else [a.name for a in node.names]
                for target in targets:
                    assert f"analysis.{target.split('.')[0]}" in cache.SUMMARY_MODULES, f"{name} imports .{target}"
            elif isinstance(node, ast.ImportFrom) or isinstance(node, ast.Import):
                names = [node.module] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
                assert not any(n and n.startswith("jobcheck") for n in names), f"{name}.py imports jobcheck"


# ---- a small project whose findings cross modules -------------------------------------------

TASKS = '''\
from app.worker import app
from app.helpers import notify


@app.task(autoretry_for=(Exception,), max_retries=3)
def send(user_id):
    notify(user_id)
'''
QUIET_HELPER = "def notify(user_id):\n    return user_id\n"
LOUD_HELPER = '''\
from django.core.mail import send_mail


def notify(user_id):
    send_mail("Hello", "body", "shop@example.com", [f"{user_id}@example.com"])
'''


def _project(root: Path, extra: int = 0) -> Path:
    files = {
        "pyproject.toml": "[tool.jobcheck]\nselect = ['JC201']\n",
        "app/__init__.py": "",
        "app/worker.py": "from celery import Celery\n\napp = Celery('app')\n",
        "app/tasks.py": TASKS,
        "app/helpers.py": QUIET_HELPER,
    }
    for i in range(extra):
        files[f"app/mod{i}.py"] = f"from app.helpers import notify\n\n\ndef use{i}(x):\n    return notify(x) + {i}\n"
    return write_tree(root, files)


def _entries(store: cache.Cache, prefix: str = "s-") -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in sorted(store.folder.glob(prefix + "*"))}


def test_a_changed_helper_reaches_the_job_in_another_module(tmp_path: Path) -> None:
    root = _project(tmp_path / "proj", extra=3)
    config = load(root / "pyproject.toml")
    store = cache.Cache(tmp_path / "cache")
    paths = [str(root)]
    assert cached_run.check_paths(paths, config, cache=store).findings == []
    before = _entries(store)
    for helper in (LOUD_HELPER, QUIET_HELPER, LOUD_HELPER):
        (root / "app/helpers.py").write_text(helper, encoding="utf-8")
        cached = cached_run.check_paths(paths, config, cache=store)
        fresh = api.check_paths(paths, config)
        assert cached.findings == fresh.findings
        assert [f.code for f in cached.findings] == (["JC201"] if helper == LOUD_HELPER else [])
        if helper == LOUD_HELPER:
            assert cached.findings[0].path.endswith("tasks.py")  # the job, through the helper
    # Only the helper was summarised again: one new entry per new content.
    assert len(_entries(store)) == len(before) + 1
    after = _entries(store)
    assert all(before[p] == after[p] for p in before)  # the others were read, not rewritten


def _staged_job_without_helper(tmp_path: Path, monkeypatch):
    """A project whose job module is given alone (as pre-commit does); the helper it imports is missing."""
    root = _project(tmp_path / "proj")
    (root / "app/helpers.py").unlink()
    config = load(root / "pyproject.toml")
    store = cache.Cache(tmp_path / "cache")
    monkeypatch.chdir(root)
    given = [os.path.join("app", "tasks.py")]
    return root, config, store, given


def test_records_notice_changes_in_imported_modules_that_were_not_given(tmp_path: Path, monkeypatch) -> None:
    """pre-commit passes only the staged files; the modules they import are read as context.
    A record must not outlive a change there, nor the appearance of a module it imports."""
    root, config, store, given = _staged_job_without_helper(tmp_path, monkeypatch)

    def run():
        cached = cached_run.check_paths(given, config, cache=store)
        assert cached.findings == api.check_paths(given, config).findings
        return cached

    _age(root)
    assert run().findings == [] and run().project is None  # recorded, then read back
    (root / "app/helpers.py").write_text(LOUD_HELPER, encoding="utf-8")  # appears: now imported
    _age(root, 50)
    assert [f.code for f in run().findings] == ["JC201"]
    assert run().project is None
    (root / "app/helpers.py").write_text(QUIET_HELPER, encoding="utf-8")  # context changes
    assert run().findings == []


def _age(root: Path, seconds: int = 100) -> None:
    """Set every file's and folder's time in the past, beyond the window where stamps are racy."""
    past = time.time_ns() - seconds * 1_000_000_000
    for path in [root, *root.rglob("*")]:
        os.utime(path, ns=(past, past))


def test_unchanged_stamps_reuse_findings_without_reading_a_file(tmp_path: Path, monkeypatch) -> None:
    root, config, store, given = _staged_job_without_helper(tmp_path, monkeypatch)
    _age(root)
    assert cached_run.check_paths(given, config, cache=store).project is not None  # computed, stamps recorded

    from jobcheck.analysis import files

    real_discover = files.discover
    reads = []
    monkeypatch.setattr(files, "discover", lambda *a, **k: reads.append(a) or real_discover(*a, **k))
    assert cached_run.check_paths(given, config, cache=store).project is None
    assert reads == []  # the stamps held: nothing was listed or read

    # A module the job imports appears: its folder's time changes, so the files are read again.
    (root / "app/helpers.py").write_text(LOUD_HELPER, encoding="utf-8")
    _age(root, 50)
    assert [f.code for f in cached_run.check_paths(given, config, cache=store).findings] == ["JC201"]
    # Content rewritten with the same size, times in the past but different: noticed.
    quiet_same_size = LOUD_HELPER.replace("    send_mail(", "    sand_mail(")
    (root / "app/helpers.py").write_text(quiet_same_size, encoding="utf-8")
    _age(root, 40)
    assert cached_run.check_paths(given, config, cache=store).findings == []
    # Touched without a change, folders too: the stamps do not hold, so the project is computed
    # again from the cached summaries (and the fresh stamps recorded)...
    _age(root, 20)
    again = cached_run.check_paths(given, config, cache=store)
    assert not again.reused and again.findings == []
    # ...so the next run needs no reading at all.
    reads.clear()
    assert cached_run.check_paths(given, config, cache=store).reused and reads == []
    # A file saved through a temporary one (its folder's time changes, its entries do not), and an
    # editor's swap and backup files beside the module: computed again, the same findings.
    helpers = root / "app/helpers.py"
    temporary = root / "app/.helpers.py.swp"
    temporary.write_text(quiet_same_size + "\n", encoding="utf-8")
    os.replace(temporary, helpers)
    (root / "app/helpers.py~").write_text(quiet_same_size, encoding="utf-8")
    _age(root, 10)
    again = cached_run.check_paths(given, config, cache=store)
    assert not again.reused and again.findings == api.check_paths(given, config).findings == []
    assert cached_run.check_paths(given, config, cache=store).reused


def test_a_module_appearing_is_noticed_when_a_recorded_file_changed_too(tmp_path: Path, monkeypatch) -> None:
    """A recorded file edited where the analysis does not look, and a module it imports appearing:
    the file-by-file check must not settle it (the folder's time changed), and the run that
    finds the files again reads the new module."""
    root, config, store, given = _staged_job_without_helper(tmp_path, monkeypatch)
    _age(root)
    assert cached_run.check_paths(given, config, cache=store).findings == []
    tasks = root / "app" / "tasks.py"
    tasks.write_text(tasks.read_text(encoding="utf-8") + "\n\ndef _unused():\n    return 1\n", encoding="utf-8")
    assert cached_run.check_paths(given, config, cache=store).findings == []
    (root / "app/helpers.py").write_text(LOUD_HELPER, encoding="utf-8")
    tasks.write_text(tasks.read_text(encoding="utf-8") + "\n\ndef _unused_too():\n    return 2\n", encoding="utf-8")
    assert [f.code for f in cached_run.check_paths(given, config, cache=store).findings] == ["JC201"]


def test_a_file_replaced_by_a_package_of_the_same_name_is_noticed(tmp_path: Path, monkeypatch) -> None:
    """`app/helpers` a plain file, then a folder holding the package the job imports: the folder
    around it lists the same names, and must still count as changed."""
    root, config, store, given = _staged_job_without_helper(tmp_path, monkeypatch)
    (root / "app/helpers").write_text("not python\n", encoding="utf-8")
    _age(root)
    assert cached_run.check_paths(given, config, cache=store).findings == []
    (root / "app/helpers").unlink()
    write_tree(root, {"app/helpers/__init__.py": LOUD_HELPER})
    _age(root, 50)
    assert [f.code for f in cached_run.check_paths(given, config, cache=store).findings] == ["JC201"]


def test_a_given_file_whose_package_goes_away_is_named_anew(tmp_path: Path, monkeypatch) -> None:
    """A file given by name (as pre-commit gives them) is named by the packages around it: when
    `pkg/__init__.py` goes, `pkg.solo` becomes `solo`, and so do the jobs findings name, though
    nothing the file imports leads into its folder."""
    root = write_tree(tmp_path / "proj", {
        "pkg/__init__.py": "",
        "pkg/solo.py": "from celery import shared_task\n\n\n@shared_task\ndef tidy():\n    return 1\n",
    })
    monkeypatch.chdir(root)
    config, store, given = Config(root=root), cache.Cache(tmp_path / "cache"), [os.path.join("pkg", "solo.py")]
    selection = api.Selection(select=["JC501"])
    _age(root)
    assert [f.job for f in cached_run.check_paths(given, config, selection, cache=store).findings] == ["pkg.solo.tidy"]
    (root / "pkg/__init__.py").unlink()
    _age(root, 50)
    cached = cached_run.check_paths(given, config, selection, cache=store)
    assert cached.findings == api.check_paths(given, config, selection).findings
    assert [f.job for f in cached.findings] == ["solo.tidy"]


def test_stamps_taken_during_the_run_are_not_trusted(tmp_path: Path, monkeypatch) -> None:
    """A file written just before the run may be written again within the clock's resolution."""
    root = _project(tmp_path / "proj")
    config = load(root / "pyproject.toml")
    store = cache.Cache(tmp_path / "cache")
    cached_run.check_paths([str(root)], config, cache=store)
    (record,) = store.folder.glob("r-*")
    invocation = bytes.fromhex(record.name[2:])
    files, folders, complete, probed = store.load_run(invocation).stamps
    assert not complete and files == () and folders == ()  # the tree was just written
    assert (str(root / "__init__.py"), False) in probed  # presence has no clock: kept


def test_corrupt_and_foreign_entries_are_ignored_and_rewritten(tmp_path: Path) -> None:
    root = _project(tmp_path / "proj", extra=2)
    config = load(root / "pyproject.toml")
    (root / "app/helpers.py").write_text(LOUD_HELPER, encoding="utf-8")
    paths = [str(root)]
    expected = api.check_paths(paths, config).findings
    assert expected
    store = cache.Cache(tmp_path / "cache")
    cached_run.check_paths(paths, config, cache=store)
    summaries, records = _entries(store), _entries(store, "r-")
    assert len(summaries) >= 5 and len(records) == 1
    s = list(summaries)
    s[0].write_bytes(b"garbage")
    s[1].write_bytes(summaries[s[1]][: len(summaries[s[1]]) // 2])  # truncated
    s[2].write_bytes(summaries[s[3]])  # another file's entry: foreign here
    flipped = bytearray(summaries[s[3]])
    flipped[-3] ^= 0x20  # one bit in the payload
    s[3].write_bytes(bytes(flipped))
    s[4].write_bytes(b"")
    (record,) = records
    record.write_bytes(records[record][:-5] + b"\x00" * 5)
    again = cached_run.check_paths(paths, config, cache=cache.Cache(tmp_path / "cache"))
    assert again.project is not None  # recomputed, not read back
    assert again.findings == expected
    assert _decoded(_entries(store)) == _decoded(summaries)  # every entry rewritten whole
    (invocation,) = [bytes.fromhex(p.name[2:]) for p in records]
    run = store.load_run(invocation)
    assert run is not None and run.findings() == expected
    assert not list(store.folder.glob(".tmp-*"))


def _decoded(entries: dict[Path, bytes]) -> dict[Path, object]:
    """Entries by content (marshal's bytes for equal data may differ with object sharing)."""
    out = {}
    for path, raw in entries.items():
        payload = cache.read_entry(path, bytes.fromhex(path.name[2:]), cache.SUMMARY)
        out[path] = serialize.unpack(payload) if payload is not None else None
    return out


def test_run_records_follow_the_configuration_and_jobcheck_itself(tmp_path: Path, monkeypatch) -> None:
    root = _project(tmp_path / "proj")
    (root / "app/helpers.py").write_text(LOUD_HELPER, encoding="utf-8")
    (root / "app/tasks.py").write_text(TASKS.replace("def send", "def send") + "\n\n@app.task\ndef other():\n    pass\n")
    store = cache.Cache(tmp_path / "cache")
    config = load(root / "pyproject.toml")
    paths = [str(root)]
    only_201 = cached_run.check_paths(paths, config, cache=store).findings
    everything = cached_run.check_paths(paths, config, ALL, cache=store).findings
    assert {f.code for f in only_201} == {"JC201"} and len(everything) > len(only_201)
    config.ignore = ["JC201"]
    assert cached_run.check_paths(paths, config, cache=store).findings == api.check_paths(paths, config).findings == []
    # Any change of jobcheck's own files invalidates the records (not the summaries).
    config.ignore = []
    monkeypatch.setitem(cache._fingerprints, "code", "another build")
    assert cached_run.check_paths(paths, config, cache=store).project is not None


def test_findings_name_files_as_given_whatever_run_cached_them(tmp_path: Path, monkeypatch) -> None:
    root = _project(tmp_path / "proj")
    (root / "app/helpers.py").write_text(LOUD_HELPER, encoding="utf-8")
    store = cache.Cache(tmp_path / "cache")
    config = load(root / "pyproject.toml")
    monkeypatch.chdir(root)
    relative = cached_run.check_paths(["app"], config, cache=store, reuse_findings=False).findings
    absolute = cached_run.check_paths([str(root / "app")], config, cache=store, reuse_findings=False).findings
    assert [f.path for f in relative] == [os.path.join("app", "tasks.py")]
    assert [f.path for f in absolute] == [str(root / "app" / "tasks.py")]


def test_concurrent_cold_runs_agree_and_leave_whole_entries(tmp_path: Path) -> None:
    root = _project(tmp_path / "proj", extra=40)
    (root / "app/helpers.py").write_text(LOUD_HELPER, encoding="utf-8")
    folder = tmp_path / "cache"
    command = [sys.executable, "-c", "import sys; from jobcheck.cli import main; sys.exit(main())",
               "check", "--output-format", "json", "--cache-dir", str(folder), "-j", "1", str(root)]
    procs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(4)]
    outputs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [1, 1, 1, 1], [err for _, err in outputs]
    uncached = subprocess.run([*command[:-5], "--no-cache", str(root)], capture_output=True, text=True, timeout=120)
    assert {out for out, _ in outputs} == {uncached.stdout}
    store = cache.Cache(folder)
    entries = _entries(store)
    assert len(entries) == 44  # one per module
    for path in entries:
        assert cache.read_entry(path, bytes.fromhex(path.name[2:]), cache.SUMMARY) is not None
    assert not list(store.folder.glob(".tmp-*"))


# ---- the command line ------------------------------------------------------------------------


def test_cache_location_tags_and_no_cache(tmp_path: Path, monkeypatch) -> None:
    root = _project(tmp_path / "proj")
    monkeypatch.delenv("JOBCHECK_CACHE_DIR", raising=False)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    assert run_cli(["check", "--no-cache", str(root)], outside).exit_code == 0
    assert not (root / ".jobcheck_cache").exists() and not (outside / ".jobcheck_cache").exists()
    assert run_cli(["check", str(root)], outside).exit_code == 0
    folder = root / ".jobcheck_cache"  # beside the configuration file
    assert (folder / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")
    assert (folder / ".gitignore").read_text().splitlines()[-1] == "*"
    assert list(folder.glob("*/s-*"))
    monkeypatch.setenv("JOBCHECK_CACHE_DIR", str(tmp_path / "env-cache"))
    assert run_cli(["check", str(root)], outside).exit_code == 0
    assert list((tmp_path / "env-cache").glob("*/s-*"))
    assert run_cli(["check", "--cache-dir", str(tmp_path / "opt-cache"), str(root)], outside).exit_code == 0
    assert list((tmp_path / "opt-cache").glob("*/s-*"))
    bare = write_tree(tmp_path / "bare", {"job.py": "def f():\n    pass\n"})
    monkeypatch.delenv("JOBCHECK_CACHE_DIR")
    assert run_cli(["check", "job.py"], bare).exit_code == 0
    assert (bare / ".jobcheck_cache" / "CACHEDIR.TAG").is_file()  # no configuration: the current folder


def test_jobs_option_gives_the_same_output(tmp_path: Path) -> None:
    root = _project(tmp_path / "proj", extra=5)
    (root / "app/helpers.py").write_text(LOUD_HELPER, encoding="utf-8")
    outputs = {run_cli(["check", "--no-cache", "--output-format", "json", "-j", str(j), str(root)], tmp_path).stdout
               for j in (0, 1, 2)}
    assert len(outputs) == 1 and json.loads(outputs.pop())[0]["code"] == "JC201"


_HEAVY = ("multiprocessing", "concurrent", "rich", "astroid", "libcst", "pygls", "lsprotocol")


@pytest.mark.parametrize("args, forbidden", [
    (["--version"], _HEAVY + ("jobcheck.api", "jobcheck.project")),
    (["check", "--no-cache", "{file}"], _HEAVY),
    (["check", "--cache-dir", "{cache}", "{file}"], _HEAVY),
])
def test_fast_start_imports_only_what_it_needs(tmp_path: Path, args: list[str], forbidden: tuple) -> None:
    job = write_tree(tmp_path, {"one.py": "def f():\n    pass\n"}) / "one.py"
    args = [a.format(file=job, cache=tmp_path / "cache") for a in args]
    probe = ("import sys\nfrom jobcheck.cli import main\n"
             f"sys.argv = ['jobcheck', *{args!r}]\n"
             "try:\n    main()\nexcept SystemExit:\n    pass\n"
             "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    loaded = done.stderr.split()
    assert not [m for m in loaded if m.split(".")[0] in forbidden or m in forbidden]


def test_one_file_is_summarised_in_process(tmp_path: Path) -> None:
    write_tree(tmp_path, {"a.py": "x = 1\n", "b.py": "y = 2\n"})
    with SummaryPool(workers=4) as summarizer:
        report = api.check_paths([str(tmp_path / "a.py")], Config(root=tmp_path), summarizer=summarizer)
        assert report.files == 1 and not summarizer.used_pool
        api.check_paths([str(tmp_path)], Config(root=tmp_path), summarizer=summarizer)
        assert not summarizer.used_pool  # two tiny files: starting workers would cost more
        assert summarizer.workers is not None and not summarizer.workers.running


def test_what_is_unused_for_a_week_is_pruned_and_nothing_else(tmp_path: Path) -> None:
    root = _project(tmp_path / "proj", extra=2)
    config = load(root / "pyproject.toml")
    folder = tmp_path / "cache"
    store = cache.Cache(folder)
    cached_run.check_paths([str(root)], config, cache=store)
    old = time.time() - 8 * 24 * 3600
    other_build = folder / "0.0.9-0123456789ab"
    other_build.mkdir()
    (other_build / "s-00").write_bytes(b"x")
    not_ours = folder / "0.0.8-0123456789ab"  # looks like a build folder, holds something else
    not_ours.mkdir()
    (not_ours / "notes.txt").write_text("mine")
    # Old, but read by the next run: kept. (The summary of a file the test does not edit.)
    used = store.summary_path(store.summary_key(cache.digest((root / "app" / "tasks.py").read_bytes()), "app.tasks", False))
    assert used.exists()
    stale = store.folder / ("s-" + "ab" * 16)  # a summary of content no file has any more
    stale.write_bytes(used.read_bytes())
    leftover = store.folder / ".tmp-1-abcdef"  # an interrupted write
    leftover.write_bytes(b"half")
    for path in (used, stale, leftover, other_build / "s-00", other_build, not_ours):
        os.utime(path, (old, old))
    (store.folder / ".pruned").unlink()
    edited = root / "app" / "mod0.py"
    edited.write_text(edited.read_text() + "\n# edited\n")
    # The edited file's summary is written (and pruning runs); the unchanged files' summaries
    # are read (which refreshes them), and a record lists them, so they stay.
    assert not cached_run.check_paths([str(root)], config, cache=cache.Cache(folder)).reused
    assert used.exists() and not stale.exists() and not leftover.exists()
    assert not other_build.exists()
    assert (not_ours / "notes.txt").read_text() == "mine"


# ---- edits: a cached run after any edit equals a fresh one ---------------------------------

EDITS = {
    "append an unused function": lambda t: t + "\n\ndef _unused_probe():\n    return 1\n",
    "append a function that posts": lambda t: t + "\n\ndef _probe_post(x):\n    import requests\n    requests.post('https://x', json=x)\n",
    "append a comment": lambda t: t + "\n# a comment\n",
    "shift every line": lambda t: "\n" + t,
    "drop the first decorator": lambda t: _drop_first_line(t, "@"),
    "drop the first import": lambda t: _drop_first_line(t, ("import ", "from ")),
    "rename the first function": lambda t: t.replace("def ", "def renamed_", 1),
    "empty the first function": lambda t: _empty_first_function(t),
    # Edits that only move lines, or part a comment from the line it covers.
    "blank line in the first function": lambda t: _blank_in_first_function(t),
    "comment above the first function": lambda t: _insert_before_first_line(t, ("def ", "@", "async def "), "# a note\n"),
    "blank line under each comment": lambda t: "".join(
        line + "\n" if line.lstrip().startswith("#") else line for line in t.splitlines(keepends=True)),
}


def _insert_before_first_line(text: str, prefix, inserted: str) -> str:
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.startswith(prefix):
            return "".join(lines[:i] + [inserted] + lines[i:])
    return text


def _first_function(text: str):
    return next((n for n in ast.walk(ast.parse(text)) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))), None)


def _blank_in_first_function(text: str) -> str:
    """A blank line after the first statement of the first function."""
    fn = _first_function(text)
    if fn is None:
        return text
    lines = text.splitlines(keepends=True)
    after = fn.body[0].end_lineno
    return "".join(lines[:after] + ["\n"] + lines[after:])


def _drop_first_line(text: str, prefix) -> str:
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.lstrip().startswith(prefix):
            return "".join(lines[:i] + lines[i + 1:])
    return text


def _empty_first_function(text: str) -> str:
    """The body of the first function becomes `pass` (a job or helper changes what it does)."""
    fn = _first_function(text)
    if fn is None:
        return text
    lines = text.splitlines(keepends=True)
    first, last = fn.body[0].lineno - 1, fn.body[-1].end_lineno
    indent = lines[first][: len(lines[first]) - len(lines[first].lstrip())]
    return "".join(lines[:first] + [indent + "pass\n"] + lines[last:])


def test_findings_across_edits_equal_a_fresh_run(tmp_path: Path) -> None:
    """Every kind of edit, to the files of every testdata project, one at a time (each edit
    replaces the one before, from the file's original text): the cached run gives exactly what a
    run without a cache gives. Each file gets two kinds, in turn, so that every kind is applied
    across the projects; `benchmarks/cache_soundness.py` runs them all on real applications."""
    import shutil

    kinds = list(EDITS.items())
    turn = 0
    for project in sorted(p for p in (TESTDATA / "projects").iterdir() if p.is_dir()):
        root = tmp_path / project.name
        shutil.copytree(project, root)
        _age(root, 3600)
        config = load(root / "pyproject.toml") if (root / "pyproject.toml").exists() else Config(root=root)
        store = cache.Cache(tmp_path / "cache" / project.name)
        cached_run.check_paths([str(root)], config, cache=store)
        for path in sorted(root.rglob("*.py")):
            original = path.read_text(encoding="utf-8")
            for label, edit in (kinds[turn % len(kinds)], kinds[(turn + 1) % len(kinds)]):
                turn += 1
                edited = edit(original)
                if edited == original:
                    continue
                path.write_text(edited, encoding="utf-8")
                cached = cached_run.check_paths([str(root)], config, cache=store)
                fresh = api.check_paths([str(root)], config)
                assert not cached.reused and cached.findings == fresh.findings, (project.name, path.name, label)
            path.write_text(original, encoding="utf-8")


def _random_edit(text: str, rng) -> str:
    """One edit at a random place, mostly one that only moves lines: a blank line or a comment
    inserted, a blank line dropped, a blank line under a comment (parting a suppression from the
    line it covers), or a line doubled (which changes what the analysis reads, or breaks the file)."""
    lines = text.splitlines(keepends=True)
    at = rng.randrange(len(lines) + 1)
    kind = rng.choice(["blank", "comment", "drop blank", "under comment", "double"])
    if kind == "blank":
        return "".join(lines[:at] + ["\n"] + lines[at:])
    if kind == "comment":
        return "".join(lines[:at] + ["# a note\n"] + lines[at:])
    if kind == "drop blank":
        blanks = [i for i, line in enumerate(lines) if not line.strip()]
        return "".join(line for i, line in enumerate(lines) if not blanks or i != rng.choice(blanks))
    if kind == "under comment":
        comments = [i for i, line in enumerate(lines) if line.lstrip().startswith("#")]
        comments = [i for i in comments if "ignore" in lines[i] or "noqa" in lines[i]] or comments
        if comments:
            at = rng.choice(comments) + 1
        return "".join(lines[:at] + ["\n"] + lines[at:])
    at = min(at, len(lines) - 1)
    return "".join(lines[:at + 1] + lines[at:])


def test_findings_reused_across_random_edits_equal_a_fresh_run(tmp_path: Path) -> None:
    """Seeded random edits, one after another, to every rule and framework testdata file (jobs
    with findings whose messages cite lines, suppressions of every form): after each, the cached
    run gives exactly what a run without a cache gives."""
    import random
    import shutil

    rng = random.Random(6)
    sources = sorted((TESTDATA / "rules").rglob("*.py")) + sorted((TESTDATA / "frameworks").rglob("*.py"))
    for number, source in enumerate(sources):
        root = tmp_path / str(number)
        root.mkdir()
        path = root / source.name
        shutil.copy(source, path)
        _age(root)
        config, store = Config(root=root), cache.Cache(tmp_path / "cache" / str(number))
        cached_run.check_paths([str(root)], config, cache=store)
        text = path.read_text(encoding="utf-8")
        for _ in range(4):
            edited = _random_edit(text, rng)
            path.write_text(edited, encoding="utf-8")
            cached = cached_run.check_paths([str(root)], config, cache=store)
            assert cached.findings == api.check_paths([str(root)], config).findings, (source.name, edited)
            try:
                ast.parse(edited)
                text = edited  # the next edit builds on this one; a broken file is not kept
            except SyntaxError:
                pass


def test_an_edit_before_a_finding_on_its_line_moves_its_column(tmp_path: Path) -> None:
    """Columns count characters: `"é"` -> `"ab"` keeps every byte offset (so the summary compares
    equal) but moves the call one character right: the cached run must not keep the old column."""
    job = '''\
from celery import shared_task
import requests


@shared_task(autoretry_for=(Exception,), max_retries=3)
def send(order_id):
    note = "{text}"; requests.post("https://x", json={{"id": order_id}})
'''
    root = write_tree(tmp_path / "proj", {"pyproject.toml": "[tool.jobcheck]\nselect = ['JC201']\n",
                                          "app/__init__.py": "", "app/tasks.py": job.format(text="é")})
    config = load(root / "pyproject.toml")
    store = cache.Cache(tmp_path / "cache")
    assert [f.span.column for f in cached_run.check_paths([str(root)], config, cache=store).findings] == [17]
    (root / "app/tasks.py").write_text(job.format(text="ab"), encoding="utf-8")
    cached = cached_run.check_paths([str(root)], config, cache=store)
    assert cached.findings == api.check_paths([str(root)], config).findings
    assert [f.span.column for f in cached.findings] == [18]


def test_findings_follow_lines_that_only_moved(tmp_path: Path) -> None:
    """Lines added in a function nothing reaches move every finding below it, and the lines their
    messages cite: the cached run says them where they are now."""
    import shutil

    root = tmp_path / "proj"
    shutil.copytree(TESTDATA / "projects" / "moved_lines", root)
    _age(root)
    config, selection = Config(root=root), api.Selection(select=["JC103", "JC201"])
    store = cache.Cache(tmp_path / "cache")
    first = cached_run.check_paths([str(root)], config, selection, cache=store)
    assert [f.span.line for f in first.findings] == [21, 28, 37]
    assert "(line 20)" in first.findings[0].message and "retry() at line 30;" in first.findings[1].message
    jobs = root / "billing" / "jobs.py"
    jobs.write_text(jobs.read_text().replace('    return f"{x:>10}"\n', '    y = x\n\n    return f"{y:>10}"\n'))
    cached = cached_run.check_paths([str(root)], config, selection, cache=store)
    assert cached.findings == api.check_paths([str(root)], config, selection).findings
    assert [f.span.line for f in cached.findings] == [23, 30, 39]
    assert "(line 22)" in cached.findings[0].message and "retry() at line 32;" in cached.findings[1].message


def test_an_edit_that_names_another_module_reads_it(tmp_path: Path) -> None:
    """Appending a function nothing calls that names a module the run did not read: the run reads
    that module, and what it holds can change findings elsewhere: here a receiver of the signal
    the job sends, which posts."""
    root = write_tree(tmp_path / "proj", {
        "app/__init__.py": "",
        "app/signals.py": "from django.dispatch import Signal\n\norder_paid = Signal()\n",
        "app/tasks.py": (
            "from celery import shared_task\nimport app\nfrom app.signals import order_paid\n\n\n"
            "@shared_task(autoretry_for=(Exception,), max_retries=3)\n"
            "def settle(order_id):\n    order_paid.send(sender=None, order_id=order_id)\n"
        ),
        "app/helpers.py": (
            "import requests\nfrom django.dispatch import receiver\nfrom app.signals import order_paid\n\n\n"
            "@receiver(order_paid)\ndef notify(sender, order_id, **kwargs):\n"
            "    requests.post('https://hooks.example.com', json={'id': order_id})\n"
        ),
    })
    hour_ago = time.time() - 3600
    for path in [root, *root.rglob("*")]:
        os.utime(path, (hour_ago, hour_ago))
    config = Config(root=root)
    selection = api.Selection(select=["JC201"])
    store = cache.Cache(tmp_path / "cache")
    target = [str(root / "app" / "tasks.py")]
    assert cached_run.check_paths(target, config, selection, cache=store).findings == []
    tasks = root / "app" / "tasks.py"
    tasks.write_text(tasks.read_text() + "\n\ndef _probe():\n    return app.helpers.notify(None, 1)\n")
    cached = cached_run.check_paths(target, config, selection, cache=store)
    fresh = api.check_paths(target, config, selection)
    assert [f.code for f in fresh.findings] == ["JC201"]  # the receiver's post, through `send`
    assert cached.findings == fresh.findings


def test_a_parent_that_becomes_a_package_renames_the_checked_folder(tmp_path: Path) -> None:
    """A folder without `__init__.py` inside a package is a namespace package of it: its
    modules' names, and the imports that reach them, depend on whether the parent has an
    `__init__.py` - also when the parent lies above the folder given on the command line."""
    parent = tmp_path / "shop"
    root = parent / "billing"
    root.mkdir(parents=True)
    (root / "helpers.py").write_text("import requests\n\n\ndef charge(order_id):\n"
                                     "    requests.post('https://pay.example/charges', json={'order': order_id})\n")
    (root / "tasks.py").write_text("from celery import shared_task\n\nfrom shop.billing.helpers import charge\n\n\n"
                                   "@shared_task(autoretry_for=(Exception,), max_retries=3)\ndef bill(order_id):\n"
                                   "    charge(order_id)\n")
    _age(tmp_path)
    config, store = Config(root=root), cache.Cache(tmp_path / "cache")
    before = cached_run.check_paths([str(root)], config, cache=store)
    assert before.findings == api.check_paths([str(root)], config).findings
    (parent / "__init__.py").write_text("")
    past = time.time_ns() - 100 * 1_000_000_000  # out of the racy window; nothing else touched
    for path in (parent / "__init__.py", parent):
        os.utime(path, ns=(past, past))
    after = cached_run.check_paths([str(root)], config, cache=store)
    fresh = api.check_paths([str(root)], config)
    assert {f.code for f in fresh.findings} != {f.code for f in before.findings}  # the rename matters
    assert not after.reused and after.findings == fresh.findings
