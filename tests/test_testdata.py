"""Every file under testdata/ is checked and its findings compared with its annotations."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from jobcheck import api
from jobcheck.analysis.files import discover
from jobcheck.config import Config, load

from .testdata_support import TESTDATA, annotations, cases, selection_for


def _run(case: Path):
    # The files jobcheck reads there (a script with no extension too), so its annotations count.
    files = [case] if case.is_file() else [path for path, _ in discover([str(case)], case, [])]
    texts = {f: f.read_text(encoding="utf-8", errors="replace") for f in files}
    headers = [s for f, t in texts.items() if (s := selection_for(f, t))]
    select = headers[0] if headers else ["ALL"]
    config = Config(root=case if case.is_dir() else case.parent)
    if case.is_dir() and (case / "pyproject.toml").is_file():
        config = load(case / "pyproject.toml")
        if not headers and config.select is not None:
            select = None
    # An internal error (JC002) fails every case, whatever rules it selects.
    report = api.check_paths([str(case)], config, api.Selection(select=select and [*select, "JC002"]))
    return report, texts


@pytest.mark.parametrize("case", cases(), ids=lambda p: str(p.relative_to(TESTDATA)))
def test_findings_match_annotations(case: Path) -> None:
    report, texts = _run(case)
    expected, todo_expect, todo_ok = Counter(), Counter(), Counter()
    for f, text in texts.items():
        ann = annotations(text)
        key = str(f) if case.is_dir() else str(case)
        for kind, target in (("expect", expected), ("todo-expect", todo_expect), ("todo-ok", todo_ok)):
            for (line, code), n in ann[kind].items():
                target[(Path(key).resolve(), line, code)] += n
    actual = Counter((Path(f.path).resolve(), f.line, f.code) for f in report.findings)
    wanted = expected + todo_ok
    missing = wanted - actual
    unexpected = actual - wanted
    fixed_gaps = actual & todo_expect
    messages = {(Path(f.path).resolve(), f.line, f.code): f.message for f in report.findings}
    problems = []
    for path, line, code in sorted(missing):
        problems.append(f"missing  {path.name}:{line} {code}")
    for key in sorted(unexpected):
        path, line, code = key
        problems.append(f"unexpected {path.name}:{line} {code}: {messages.get(key, '')[:160]}")
    for path, line, code in sorted(fixed_gaps):
        problems.append(f"todo-expect now reported (promote to expect): {path.name}:{line} {code}")
    assert not problems, "\n".join(problems)
