"""pytest plugin (entry point ``pytest11: jobcheck``): the harness as pytest items and reports.

One pytest item per scenario, so ``-k kill`` selects it and ``--lf`` reruns just the failed ones::

    @pytest.mark.jobcheck(scenarios=["concurrent", "kill", "replay"])   # default: all six
    def test_send_invoices(jobcheck_scenario, jobcheck_effects):        # test_send_invoices[kill], ...
        jobcheck_scenario(job, "2024-05", setup=create_schema, observe=[EmailSink(), db_state])
        assert jobcheck_effects.count("email") == 3

``jobcheck_scenario(job, work, **options)`` makes the harness, runs this item's scenario and
fails the item with the scenario's answer and details unless it is "yes"; it returns the
:class:`ScenarioReport`. ``jobcheck_harness`` is the plain factory (``harness.verify()`` for all
scenarios in one item). Either way the harnesses are closed when the test ends, every answer
goes into the JUnit XML as a property of its test case, ``--jobcheck-answers`` lists answers and
notes in the terminal summary, and ``--jobcheck-report=PATH`` writes them all as JSON for CI.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:  # pragma: no cover
    from .harness import Harness
    from .ledger import Effect
    from .report import ScenarioReport

# Loaded by every pytest session where jobcheck is installed: the harness is imported only
# when a test asks for it.
_ANSWERS = pytest.StashKey["list[tuple[str, ScenarioReport]]"]()
_HARNESSES = pytest.StashKey["list[Harness]"]()
_SCENARIO = "jobcheck_scenario"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("jobcheck")
    group.addoption(
        "--jobcheck-answers",
        action="store_true",
        default=False,
        help="show the answer and notes of every jobcheck harness scenario in the terminal summary",
    )
    group.addoption(
        "--jobcheck-report",
        metavar="PATH",
        default=None,
        help="write every jobcheck scenario's answer, problems, notes and effect counts to PATH as JSON",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_ANSWERS] = []
    config.addinivalue_line(
        "markers", "jobcheck(scenarios=[...]): the harness scenarios jobcheck_scenario makes items for (default: all)"
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if _SCENARIO not in metafunc.fixturenames:
        return
    from .report import QUESTIONS  # the harness's scenarios, without importing the harness

    SCENARIOS = tuple(QUESTIONS)

    marker = metafunc.definition.get_closest_marker("jobcheck")
    names = list((marker.kwargs.get("scenarios") if marker else None) or SCENARIOS)
    unknown = [name for name in names if name not in SCENARIOS]
    if unknown:
        raise pytest.UsageError(
            f"{metafunc.definition.nodeid}: unknown jobcheck scenario {', '.join(map(repr, unknown))};"
            f" choose from {', '.join(SCENARIOS)}"
        )
    metafunc.parametrize(_SCENARIO, names, ids=names, indirect=True)


# ----------------------------------------------------------------------------- fixtures


def _factory(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[..., Harness]:
    """Make harnesses for this test; the plugin closes them and records their answers at teardown."""
    from .harness import Harness

    made = request.node.stash.get(_HARNESSES, None)
    if made is None:  # the first jobcheck fixture of this test
        made = request.node.stash[_HARNESSES] = []
        request.addfinalizer(lambda: _finish(request.node, made))

    def factory(job: Callable[..., Any], work: Any, **options: Any) -> Harness:
        options.setdefault("basedir", tmp_path / f"jobcheck-{len(made)}")
        harness = Harness(job, work, **options)
        made.append(harness)
        return harness

    return factory


def _finish(item: pytest.Item, made: list[Harness]) -> None:
    answers = item.config.stash.get(_ANSWERS, [])
    for harness in made:
        for report in harness.reports:
            answers.append((item.nodeid, report))
            # Written by --junitxml as <property name="jobcheck.kill" value="can it die ...: no — ..."/>.
            item.user_properties.append((f"jobcheck.{report.scenario}", report.line()))
    with ExitStack() as closing:  # every harness is closed, even if closing one fails
        for harness in made:
            closing.callback(harness.close)


@pytest.fixture
def jobcheck_harness(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[..., Harness]:
    """A factory ``(job, work, **options) -> Harness``; see :class:`jobcheck.runtime.Harness`."""
    return _factory(request, tmp_path)


class ScenarioCheck:
    """``check(job, work, **options) -> ScenarioReport``: make a harness with ``options``, run
    the item's scenario (``check.name``), and fail the item unless the answer is "yes" (or an
    allowed "not tested"), with the scenario's answer and details."""

    def __init__(self, name: str, factory: Callable[..., Harness]) -> None:
        self.name = name
        self._factory = factory

    def __call__(self, job: Callable[..., Any], work: Any, **options: Any) -> ScenarioReport:
        __tracebackhide__ = True
        from .report import FiveQuestionsError

        try:
            return self._factory(job, work, **options).verify([self.name])[self.name]
        except FiveQuestionsError as failure:
            # Shown from the test's own line: the harness's frames say nothing about the job.
            raise failure.with_traceback(None) from None

    def __repr__(self) -> str:
        return f"<jobcheck scenario {self.name!r}>"


@pytest.fixture
def jobcheck_scenario(request: pytest.FixtureRequest, tmp_path: Path) -> ScenarioCheck:
    """Run this item's scenario and assert it: see :class:`ScenarioCheck`."""
    name = getattr(request, "param", None)
    if name is None:
        raise pytest.UsageError("jobcheck_scenario must be an argument of the test function (one item per scenario)")
    return ScenarioCheck(name, _factory(request, tmp_path))


class ScenarioEffects:
    """The effects of the last scenario a harness of this test ran."""

    def __init__(self, item: pytest.Item) -> None:
        self._item = item

    @property
    def report(self) -> ScenarioReport:
        for harness in reversed(self._item.stash.get(_HARNESSES, [])):
            if harness.reports:
                return harness.reports[-1]
        raise LookupError("no jobcheck scenario has run in this test yet")

    @property
    def effects(self) -> list[Effect]:
        return self.report.effects

    def count(self, kind: str, target: str | None = None) -> int:
        """How many ``kind`` effects happened (on ``target``, if given)."""
        return self.report.count(kind, target)

    def __repr__(self) -> str:
        try:
            return f"<jobcheck effects of {self.report.scenario!r}>"
        except LookupError:
            return "<jobcheck effects: no scenario run yet>"


@pytest.fixture
def jobcheck_effects(request: pytest.FixtureRequest) -> ScenarioEffects:
    """The effects of the scenario just run: ``.effects``, ``.count(kind, target=None)``, ``.report``."""
    return ScenarioEffects(request.node)


# ----------------------------------------------------------------------------- reports


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    answers = config.stash.get(_ANSWERS, [])
    if not config.getoption("jobcheck_answers") or not answers:
        return
    terminalreporter.section("jobcheck: the five questions")
    for nodeid, report in answers:
        terminalreporter.write_line(f"{nodeid}: {report.line()}")  # the answer, then its notes


def pytest_sessionfinish(session: pytest.Session) -> None:
    path = session.config.getoption("jobcheck_report")
    if not path:
        return
    from .report import VERDICTS

    answers = session.config.stash.get(_ANSWERS, [])
    verdicts = [report.verdict for _, report in answers]
    data = {
        "version": 1,
        "summary": {verdict: verdicts.count(verdict) for verdict in VERDICTS},
        "scenarios": [{"nodeid": nodeid, **report.to_dict()} for nodeid, report in answers],
    }
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
