"""pytest plugin (entry point ``pytest11: jobcheck``): the ``jobcheck_harness`` fixture.

    def test_send_invoices(jobcheck_harness):
        harness = jobcheck_harness(
            lambda period, env: send_invoices(period, smtp=(env.smtp_host, env.smtp_port)),
            "2024-05",
            setup=lambda env: create_schema(env.path("app.db")),
            observe=[EmailSink(), sqlite_state(lambda env: env.path("app.db"), invoices="SELECT ...")],
            lease_ttl=0.5,
        )
        harness.verify()  # AssertionError: "can it run twice: no — 2 emails to a@example.com (expected 1)"

The fixture returns a factory; every harness it made is closed (servers stopped, directories
kept under ``tmp_path``) when the test ends. ``--jobcheck-answers`` prints each scenario's answer
in the terminal summary.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:  # pragma: no cover
    from .harness import Harness
    from .report import ScenarioReport  # noqa: F401 - named in a string annotation

# Loaded by every pytest session where jobcheck is installed: import the harness only when a
# test asks for it.
_ANSWERS = pytest.StashKey["list[tuple[str, ScenarioReport]]"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("jobcheck")
    group.addoption(
        "--jobcheck-answers",
        action="store_true",
        default=False,
        help="show the answer of every jobcheck harness scenario in the terminal summary",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_ANSWERS] = []


@pytest.fixture
def jobcheck_harness(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[Callable[..., Harness]]:
    """A factory ``(job, work, **options) -> Harness``; see :class:`jobcheck.runtime.Harness`."""
    from .harness import Harness

    made: list[Harness] = []

    def factory(job: Callable[..., Any], work: Any, **options: Any) -> Harness:
        options.setdefault("basedir", tmp_path / f"jobcheck-{len(made)}")
        harness = Harness(job, work, **options)
        made.append(harness)
        return harness

    yield factory
    answers = request.config.stash.get(_ANSWERS, [])
    for harness in made:
        harness.close()
        answers.extend((request.node.nodeid, report) for report in harness.reports)


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    answers = config.stash.get(_ANSWERS, [])
    if not config.getoption("jobcheck_answers") or not answers:
        return
    terminalreporter.section("jobcheck: the five questions")
    for nodeid, report in answers:
        terminalreporter.write_line(f"{nodeid}: {report.line()}")
