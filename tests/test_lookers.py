"""Who looked each name up (`jobcheck.lookers`): what a frame records must not depend on whether
the answers it used were remembered, and a re-check must find every frame a change can reach."""

from __future__ import annotations

from pathlib import Path

from jobcheck import api
from jobcheck.config import Config
from jobcheck.frameworks.resolve import canonical_in
from jobcheck.lookers import CANONICAL, Lookers, combined, looked_by
from jobcheck.summary import ModuleSummary

from .testdata_support import TESTDATA


def _summaries() -> list[ModuleSummary]:
    found = [(p, p.relative_to(TESTDATA).as_posix()) for p in sorted((TESTDATA / "frameworks").rglob("*.py"))]
    return [api.summarize_one(job) for job in api.plan_modules(found)]


def _probes(summaries: list[ModuleSummary]) -> list[tuple[str, str]]:
    """(module, name) of every decorator and call name of the testdata: what the scans and
    checks resolve."""
    out = []
    for mod in summaries:
        for fn in mod.functions.values():
            out += [(mod.module, ev.name) for ev in fn.events if ev.name]
            out += [(mod.module, d[0][1]) for d in fn.decorators if d[0] and isinstance(d[0][1], str)]
    return out


def _frames(summaries, probes, warm_first: bool) -> list[set[str]]:
    project = api.build_project(summaries, Config(), observe=True)
    lookers = project.lookers
    if warm_first:  # every answer remembered before the frames ask, in another frame
        lookers.enter_module("warm")
        for module, name in reversed(probes):
            canonical_in(project, project.modules[module], name)
            project.canonical(name)
        lookers.leave()
    out = []
    for i, (module, name) in enumerate(probes):
        lookers.enter_module(f"probe {i}")
        canonical_in(project, project.modules[module], name)
        project.canonical(name)
        lookers.leave()
        out.append(set(lookers.modules.get(f"probe {i}", ())))
    return out


def test_a_frame_records_the_same_whether_the_answers_it_used_were_remembered_or_not() -> None:
    summaries = [s for s in _summaries() if s.error is None]
    probes = _probes(summaries)
    assert len(probes) > 200
    cold, warm = _frames(summaries, probes, False), _frames(summaries, probes, True)
    differ = [(probes[i], c, w) for i, (c, w) in enumerate(zip(cold, warm)) if c != w]
    assert not differ, differ[:3]
    assert sum(1 for frame in cold if any(k[0] == CANONICAL for k in frame)) > 50  # memos were noted


def test_a_memo_inside_a_memo_is_taken_in_whole_and_a_frame_notes_the_outer_one() -> None:
    lookers = Lookers()
    lookers.enter_function("jobs.push")
    lookers.push()
    lookers.note("helpers.send")
    lookers.used(CANONICAL + "helpers.mail", frozenset({"helpers.mail.send"}))
    inner = lookers.pop()
    lookers.used(CANONICAL + "helpers.send", inner)
    lookers.leave()
    assert inner == {"helpers.send", "helpers.mail.send"}
    assert lookers.functions["jobs.push"] == {CANONICAL + "helpers.send"}


def test_looked_by_follows_a_memo_only_when_its_result_changed() -> None:
    data = combined([
        ({"jobs.push": ["\0helpers.send"], "jobs.pull": ["helpers.send"]}, {"jobs": ["\0helpers.send"]}, [],
         {"\0helpers.send": ("helpers.mail.send", ["helpers.send", "helpers.mail.send"])}),
        ({"jobs.poll": ["\0helpers.poll"]}, {}, ["settings.X"],
         {"\0helpers.poll": ("helpers.poll", ["\0helpers.send"])}),  # a memo noting another
    ])
    now = {"\0helpers.send": "helpers.mail.send", "\0helpers.poll": "helpers.poll"}
    # The function renamed, every name resolving as before: only the direct lookup is hit.
    assert looked_by(data, {"helpers.mail.send"}, now.__getitem__) == (set(), set(), False)
    assert looked_by(data, {"helpers.send"}, now.__getitem__) == ({"jobs.pull"}, set(), False)
    now["\0helpers.send"] = "helpers.quiet.send"  # re-exported from elsewhere
    assert looked_by(data, {"helpers.send"}, now.__getitem__) == ({"jobs.push", "jobs.pull"}, {"jobs"}, False)
    now["\0helpers.poll"] = "helpers.other"
    assert looked_by(data, {"helpers.mail.send"}, now.__getitem__) == ({"jobs.push", "jobs.poll"}, {"jobs"}, False)
    assert looked_by(data, {"settings.X"}, now.__getitem__)[2] is True


def test_layers_add_what_each_looked_up_and_keep_the_newest_memo() -> None:
    first = ({"a.f": ["x"]}, {"a": ["y"]}, [], {"\0n": ("old", ["x"])})
    second = ({"a.f": ["z"]}, {}, ["w"], {"\0n": ("new", ["z"])})
    functions, modules, outside, memos = combined([first, second])
    assert functions == {"a.f": {"x", "z"}} and modules == {"a": {"y"}} and outside == {"w"}
    assert memos["\0n"] == ("new", ["z"])


def test_what_a_linked_run_records_names_each_memo_a_frame_noted(tmp_path: Path) -> None:
    root = tmp_path / "app"
    (root / "helpers").mkdir(parents=True)
    (root / "helpers" / "__init__.py").write_text("from .mail import send\n")
    (root / "helpers" / "mail.py").write_text("import requests\n\n\ndef send(x):\n    requests.post('https://e.com', json=x)\n")
    (root / "jobs.py").write_text("from celery import shared_task\n\nimport helpers\n\n\n"
                                  "@shared_task(autoretry_for=(Exception,), max_retries=3)\ndef push(x):\n    helpers.send(x)\n")
    summaries = [api.summarize_one(job) for job in api.plan_modules([(p, p.name) for p in sorted(root.rglob("*.py"))])]
    report = api.analyse(summaries, Config(root=root), observe=True)
    project = report.project
    functions, modules, outside, memos = project.lookers.data(project.memo)
    noted = {k for keys in (*functions.values(), *modules.values(), outside) for k in keys if k[0] == CANONICAL}
    assert noted and noted <= memos.keys()
    assert memos[CANONICAL + "helpers.send"][0] == "helpers.mail.send"
    assert CANONICAL + "helpers.send" in functions["jobs.push"]  # its call, resolved through the re-export
