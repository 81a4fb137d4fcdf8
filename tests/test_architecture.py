"""The package's imports go one way: from a stage a finding passes through later to one it passed
through earlier, never back, and no module imports itself again through others. Imports inside
functions count too: hiding a cycle there does not make it go away. Imports for type checkers
only (`if TYPE_CHECKING:`) are never executed and do not count."""

from __future__ import annotations

import ast
from pathlib import Path

import jobcheck

PACKAGE = Path(jobcheck.__file__).parent

# Stages in the order a finding passes through them; a module may import its own stage and
# earlier ones. The runtime verifier stands apart: it uses nothing of the linter.
STAGES = [
    ("jobcheck", "jobcheck.model", "jobcheck.config", "jobcheck.ruledocs"),
    ("jobcheck.runtime",),
    ("jobcheck.effects",),
    ("jobcheck.analysis",),
    ("jobcheck.cache",),
    ("jobcheck.frameworks",),
    ("jobcheck.checks",),
    ("jobcheck.engine",),
    ("jobcheck.api",),
    ("jobcheck.output",),
    ("jobcheck.integrations",),
    ("jobcheck.cli",),
]


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = ("jobcheck", *path.relative_to(PACKAGE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def import_graph() -> dict[str, set[str]]:
    """Module -> the jobcheck modules it imports (anywhere in its body). `from pkg import name`
    counts as importing `pkg.name` when that is a module, else `pkg`."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        deps: set[str] = set()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = {id(n) for block in ast.walk(tree) if _is_type_checking_block(block)
                       for stmt in block.body for n in ast.walk(stmt)}
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            if isinstance(node, ast.Import):
                deps.update(a.name for a in node.names if a.name.startswith("jobcheck"))
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                if not target.startswith("jobcheck"):
                    continue
                for alias in node.names:
                    deps.add(f"{target}.{alias.name}" if f"{target}.{alias.name}" in modules else target)
        graph[name] = {d for d in deps if d != name}
    return graph


def _is_type_checking_block(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and (
        (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
        or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING"))


def stage_of(module: str) -> int:
    best, found = -1, None
    for number, prefixes in enumerate(STAGES):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, found = len(prefix), number
    assert found is not None, f"{module} belongs to no stage: add it to STAGES"
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of two or more modules (the analysis' own `call_cycles`)."""
    from jobcheck.analysis.project import call_cycles

    numbered = call_cycles(dict.fromkeys(graph), graph)
    components: dict[int, list[str]] = {}
    for module, number in numbered.items():
        components.setdefault(number, []).append(module)
    return sorted(sorted(c) for c in components.values())


def test_no_import_cycles() -> None:
    assert cycles(import_graph()) == []


def test_no_stage_imports_a_later_one() -> None:
    backwards = [(module, dep) for module, deps in import_graph().items() for dep in sorted(deps)
                 if stage_of(dep) > stage_of(module)]
    assert backwards == []


def test_the_checks_catch_a_cycle_and_a_backward_import() -> None:
    """The two tests above would fail on what they are for."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert stage_of("jobcheck.analysis.project") < stage_of("jobcheck.frameworks.celery")
    graph = import_graph()
    assert "jobcheck.analysis.program" in graph["jobcheck.analysis.project"]  # relative imports resolved
    assert "jobcheck.engine.pipeline" in graph["jobcheck.api"]


def _project_attributes(tree: ast.AST) -> set[str]:
    """What a module asks of `project`, `self.project` or `ctx.project`."""
    asked = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        owner = node.value
        if isinstance(owner, ast.Name) and owner.id == "project":
            asked.add(node.attr)
        elif isinstance(owner, ast.Attribute) and owner.attr == "project" and isinstance(owner.value, ast.Name):
            asked.add(node.attr)
    return asked


def test_rules_ask_only_what_the_project_view_offers() -> None:
    from jobcheck.checks.context import ProjectView

    offered = set(ProjectView.__annotations__) | {n for n in vars(ProjectView) if not n.startswith("_")}
    for path in sorted((PACKAGE / "checks").glob("*.py")):
        if path.name == "context.py":
            continue
        asked = _project_attributes(ast.parse(path.read_text(encoding="utf-8")))
        assert asked <= offered, f"{path.name} asks the project for {sorted(asked - offered)}: add it to ProjectView"
    assert _project_attributes(ast.parse("def run(ctx):\n    ctx.project.modules\n")) == {"modules"}


def test_every_framework_module_is_discovered_and_every_rule_document_has_a_check() -> None:
    """Discovery cannot silently drop something: a framework module that forgets `FRAMEWORK`, or
    a rule document no check module reports, fails here."""
    from jobcheck.checks import all_checks
    from jobcheck.frameworks import discovered
    from jobcheck.ruledocs import known_codes

    helpers = {"__init__", "base", "durations", "instances", "custom"}  # shared code, and the configured entry points
    modules = {p.stem for p in (PACKAGE / "frameworks").glob("*.py")} - helpers
    assert {type(f).__module__.rpartition(".")[2] for f in discovered()} == modules
    built_in = {"JC000", "JC001", "JC002"}  # reported by the pipeline itself
    assert {code for check in all_checks() for code in check.CODES} | built_in == known_codes()


def test_analysed_files_are_read_only_through_read_source() -> None:
    """A FIFO or device named `x.py` blocks a plain read: code that reads the files being checked
    goes through `analysis.source.read_source`. The modules below read only jobcheck's own files
    (its cache, its rule documents, its configuration and baseline files)."""
    own_files_only = {"cache/store.py", "config.py", "ruledocs.py", "integrations/baseline.py"}
    readers = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel.startswith("runtime/") or rel in own_files_only:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in ("read_bytes", "read_text"):
                readers.append(f"{rel}:{node.lineno}")
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open":
                readers.append(f"{rel}:{node.lineno}")
    assert readers == []


def test_one_shot_timers_are_read_through_one_place() -> None:
    """A one-shot timer is a library's (`ONE_SHOT_TIMERS`) or one of the application's own timer
    functions (`timer_wrappers`): readers go through `one_shot_sites` and `one_shot_callback`,
    which know both. A reader of the table itself would miss the application's own timers."""
    readers = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Name) and node.id in ("ONE_SHOT_TIMERS", "_RUN_LATER"):
                readers.add(path.relative_to(PACKAGE).as_posix())
    assert readers == {"frameworks/background_loops.py"}


def test_walks_of_the_call_graph_go_through_callees() -> None:
    """`Project.callees` gives everything a call can run (a table's entries, a signal's
    receivers); `named_callee` gives only the function a call names, for binding its arguments to
    that function's parameters. A walk written with `named_callee` silently misses tables and
    signals, so its users are listed here: a new one must be one of those bindings."""
    binders = {"analysis/project.py", "frameworks/path_dispatch.py", "frameworks/item_queues.py",
               "frameworks/background_loops.py"}
    users = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in ("named_callee", "callee"):
                users.add(path.relative_to(PACKAGE).as_posix())
    assert users == binders


def test_rules_about_retries_read_every_retry_policy() -> None:
    """`retry_policies` gives what runs a function (or part of it) again: its own policy and its
    retry loops; `retry_of` gives only the function's own. A retry rule written with `retry_of`
    silently misses hand-written retry loops, so the checks using it are listed here: each asks
    whether the whole job is retried (JC104's "can it run twice", JC503's answers)."""
    whole_function = {"checks/missing_api_idempotency_key.py", "checks/contradicted_answers.py"}
    users = set()
    for path in sorted((PACKAGE / "checks").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "retry_of":
                users.add(path.relative_to(PACKAGE).as_posix())
    assert users == whole_function


def test_a_framework_may_ask_for_effects_while_the_jobs_are_being_found() -> None:
    """`direct_effect` reads the jobs (an enqueue of a job is an effect); a framework asking it while
    the jobs are being found must get an answer, not a recursion that loses every framework's jobs."""
    from jobcheck.analysis.source import summarize_source
    from jobcheck.config import Config
    from jobcheck.engine.pipeline import build_project
    from jobcheck.frameworks import all_frameworks

    class Curious:
        name = "curious"

        def find_jobs(self, project):
            return []

        def find_registrations(self, project):
            for fn in project.functions.values():
                for ev in fn.events:
                    project.direct_effect(fn, ev)
            return []

    source = "import telemetry\n\n\ndef report(x):\n    telemetry.send(x)\n"
    project = build_project([summarize_source(source, "app.py", "app")], Config(), [Curious(), *all_frameworks()])
    assert project.jobs == {} and project.failures == []
