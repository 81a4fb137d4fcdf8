"""Random programs of Python's grammar (hypothesmith, fixed seed): none makes jobcheck crash.

A hundred or so here, in CI; `benchmarks/fuzz_campaign.py` runs tens of thousands and the
cached-versus-fresh edit fuzzer. Without hypothesis and hypothesmith (the `dev` extras) this
fails, never skips: a fuzz test that quietly stops running protects nothing.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from fuzz_campaign import check_programs, generate_programs

PROGRAMS = 120
SEED = 19


def test_hypothesmith_programs_do_not_crash_jobcheck():
    programs = generate_programs(PROGRAMS, SEED)
    assert len(programs) == PROGRAMS
    assert len(set(programs)) > PROGRAMS * 0.9  # distinct programs, not one repeated
    assert check_programs(programs) == []


def test_a_crash_is_reported(monkeypatch):
    """The harness itself sees a crash: an exception while checking names the program."""
    from jobcheck.analysis import summary

    def broken(self, tree, *hints):
        raise RuntimeError("boom")

    monkeypatch.setattr(summary.Summarizer, "run", broken)
    problems = check_programs(["x = 1\n", "def f():\n    pass\n"])
    assert len(problems) == 2 and all("JC002" in p and "boom" in p for p in problems)
    assert "'x = 1\\n'" in problems[0]
