"""Decorators of libraries jobcheck has no module for, named for making jobs: a function the
application decorates with `@rqjob_register(queue="long")`, `@lambda_task()`, `@queue.task(
retries=5)` (an object of such a library), `@register_cron(cadence="daily")` or
`@scheduler.every(hours=1)` is handed to that library's runner, which runs it later and elsewhere:
a job. Periodic when the decorator is named for a schedule (`cron`, `crontab`, `periodic`,
`every`, `recurring`, `scheduled`), when its keywords name one (`cadence=`, `interval=`,
`hours=`...) or its first argument is a cron expression (`"0 8 * * mon-fri"`); else a task.

So is a class of the application's built on such a library's base named for jobs (`class
Heartbeat(PeriodicTask)`, `class Sync(CronJob)`): the method it runs (`run`, `execute`,
`perform`, `handle`, `process`, `__call__`, the first it defines) is the job; not a base of the
standard library's (`asyncio.Task`).

Only a library's: a decorator the application defines is read by what its body does
(`own_decorators`), and one a framework module reads is that framework's (these registrations are
fallbacks: they make a job only of a function nothing else makes one of). Not in tests, examples
or docs. Not the `task` of build and load-test tools (`invoke`, `fabric`, `locust`...), nor of
crewAI (a prompt's definition), nor a hook named for what happens around a job (`on_task_failure`,
`task_prerun`, `retry_job`). Nothing is known of how the runner delivers or retries: no retry
policy, so the rules that need one stay quiet.
"""

from __future__ import annotations

import re
import sys

from ..analysis.decorators import written_decorators
from ..analysis.jobs import Registration
from ..analysis.names import canonical_in
from ..analysis.program import deco_name
from ..analysis.project import Project
from ..analysis.values import lit

# Libraries whose `task`/`job` decorators are no background job (a catalog, as data).
NOT_JOBS = frozenset({
    "invoke", "fabric", "fabric2", "paver", "doit", "nox", "pyinfra", "taskipy",  # build and deploy tasks
    "locust",  # a simulated user's action in a load test
    "crewai",  # an LLM agent's task definition
    "pytest", "_pytest", "hypothesis",
})
_TASK_WORDS = ("job", "task", "actor")
_SCHEDULE_NAMES = frozenset({"cron", "crontab", "periodic", "every", "recurring", "scheduled", "schedule"})
# Words of hooks and wrappers around a job rather than the job itself.
_AROUND = frozenset({"on", "before", "after", "pre", "post", "prerun", "postrun", "hook", "failure", "failed",
                     "error", "success", "retry", "retries", "done", "complete", "completed", "status", "result",
                     "progress", "log", "lock", "locked", "signal", "context", "test", "mock", "fake", "dummy"})
_SCHEDULE_KEYWORDS = frozenset({"every", "interval", "cron", "crontab", "schedule", "cadence", "period", "spacing",
                                "run_every", "seconds", "minutes", "hours", "days", "weeks", "hour", "minute",
                                "day_of_week", "trigger"})
# Frameworks reading every `X.task`, keeping those of their own apps and brokers only: their claim
# alone makes no job.
ANY_TASK = frozenset({"celery", "taskiq"})
_CRON = re.compile(r"^\s*(@(yearly|annually|monthly|weekly|daily|midnight|hourly)|(\S+\s+){4,5}\S+)\s*$")


def job_kind(name: str, kwargs: dict, args: list) -> str | None:
    """"periodic" or "task" when a decorator of this name (its last part) and arguments makes
    jobs, else None. The name is a job noun, alone or after one word (`task`, `lambda_task`,
    `rqjob_register`), or a schedule's (`cron`, `register_cron`, `every`): more words describe
    something else done with a function (`send_mail_task`: the function that sends the mail)."""
    words = [w for w in name.rpartition(".")[2].removesuffix("()").lower().split("_") if w not in ("register", "registered")]
    if not 1 <= len(words) <= 2 or _AROUND.intersection(words):
        return None
    if _SCHEDULE_NAMES.intersection(words):
        return "periodic"
    if not words[-1].endswith(_TASK_WORDS):
        return None
    first = lit(args[0]) if args else None
    if _SCHEDULE_KEYWORDS.intersection(kwargs) or (isinstance(first, str) and _CRON.match(first)):
        return "periodic"
    return "task"


class LibraryDecorators:
    name = "library_decorator"

    def find_jobs(self, project: Project) -> list:
        return []

    def find_registrations(self, project: Project) -> list[Registration]:
        regs = []
        for mod, fn, decorators in written_decorators(project):
            for value, anchor in decorators:
                if value[0] not in ("name", "call", "ref"):
                    continue
                name = canonical_in(project, mod, deco_name(value)) or ""
                if not _a_librarys(project, name) or project.decorator_claims(mod, value, name) - ANY_TASK:
                    continue
                args, kwargs = (value[2], value[3]) if value[0] == "call" else ([], {})
                kind = job_kind(name, kwargs, args)
                if kind is not None:
                    regs.append(Registration(fn.qualname, self.name, "schedule" if kind == "periodic" else "enqueue",
                                             anchor, kind=kind, fallback=True))
                    break
        read = {fw.name for fw in project.frameworks}  # a library jobcheck has a module for reads its own bases
        for cls in project.classes.values():
            method = next((m for m in _RUN_METHODS if m in cls.methods), None)
            if method is None or not project.the_applications(project.module_of_class(cls)):
                continue
            for base in cls.bases:
                name = project.canonical(base) or ""
                top = name.partition(".")[0]
                if not _a_librarys(project, name) or top in sys.stdlib_module_names or top in read:
                    continue
                kind = job_kind("_".join(_CAMEL.findall(name.rpartition(".")[2])), {}, [])
                if kind is not None:
                    regs.append(Registration(f"{cls.qualname}.{method}", self.name,
                                             "schedule" if kind == "periodic" else "enqueue",
                                             project.class_anchor(cls), kind=kind, fallback=True))
                    break
        return regs


_RUN_METHODS = ("run", "execute", "perform", "handle", "process", "__call__")
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def _a_librarys(project: Project, name: str) -> bool:
    """`name` is resolved into a module that is not the application's, nor a catalogued tool's."""
    parts = name.split(".")
    if len(parts) < 2 or parts[0] in NOT_JOBS or not parts[0].isidentifier():
        return False
    return not any(".".join(parts[:i]) in project.modules for i in range(1, len(parts) + 1))


FRAMEWORK = LibraryDecorators()
