"""The complete pytest examples of docs/runtime.md run as written and end as the text says.

A complete example is a ```python block holding a test and starting with an import or a
`# file.py` line; a `# conftest.py` block becomes the example's conftest. Fragments (a test
without its imports) are left out. Every complete example must have an expected outcome here,
so an example added to the docs without one fails this test.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

DOC = Path(__file__).resolve().parents[2] / "docs" / "runtime.md"

#: test function -> what pytest must report for its file
EXPECTED = {
    "test_nightly": {"passed": 4},
    "test_receipt": {"failed": 1},  # the doc shows it failing: the receipt is sent again
    "test_notify_partner": {"passed": 1},
    "test_a_held_lease_is_not_granted_twice": {"passed": 2},
}


def _blocks() -> tuple[str | None, dict[str, str]]:
    conftest, tests = None, {}
    for block in re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S):
        first = block.lstrip().splitlines()[0]
        if first == "# conftest.py":
            conftest = block
        elif re.search(r"^def (test_\w+)", block, flags=re.M) and re.match(r"(import |from |# \w+\.py)", first):
            tests[re.search(r"^def (test_\w+)", block, flags=re.M).group(1)] = block
    return conftest, tests


def test_every_complete_example_has_an_expected_outcome() -> None:
    conftest, tests = _blocks()
    assert conftest is not None
    assert set(tests) == set(EXPECTED)


def test_the_examples_run_as_documented(pytester: pytest.Pytester, postgres_dsn: str,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    conftest, tests = _blocks()
    pytester.makeconftest(conftest)
    pytester.makepyfile(**{f"{name}_doc": source for name, source in tests.items()})
    monkeypatch.setenv("DATABASE_URL", postgres_dsn)  # the nightly example's database
    # Only jobcheck's plugin in the inner session: it starts in a third of the time.
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    result = pytester.runpytest_subprocess("-p", "jobcheck.runtime.pytest_plugin", "-p", "no:cacheprovider", "-rA")
    outcomes = {"passed": 0, "failed": 0}
    for name, expected in EXPECTED.items():
        for outcome, count in expected.items():
            outcomes[outcome] += count
            listed = [line for line in result.outlines
                      if line.startswith(f"{outcome.upper()} ") and f"::{name}" in line]
            assert len(listed) == count, (name, outcome, result.stdout.str())
    result.assert_outcomes(**outcomes)
