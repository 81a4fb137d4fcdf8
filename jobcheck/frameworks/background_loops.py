"""Loops an application starts beside its main work: a coroutine or thread that repeats forever,
sleeping between rounds, is a periodic job with no scheduler:

    asyncio.create_task(refresh_rates_forever())          # also ensure_future, loop.create_task,
    threading.Thread(target=poll_forever, daemon=True)    # TaskGroup.create_task, anyio/trio start_soon

or called by a script's module code (`if __name__ == "__main__": main()`), where the function
has a `while True:` loop that sleeps (`asyncio.sleep`, `time.sleep`,
`trio.sleep`, `anyio.sleep`, `gevent.sleep`, an `Event().wait(timeout)`). Nothing retries such a
job, and nothing starts a round while the previous one runs (the loop is sequential), but a
second process started the same way runs the same loop beside it. A function started once (no
loop, or a loop that never sleeps) is not a periodic job.
"""

from __future__ import annotations

from ..analysis.jobs import Anchor, Registration
from ..analysis.names import target
from ..analysis.program import calls_named
from ..analysis.project import Project
from ..analysis.summary import MODULE_CODE

_STARTERS = ("create_task", "ensure_future", "start_soon", "Thread", "Timer", "spawn", "run_coroutine_threadsafe")
_STARTER_PREFIXES = ("asyncio", "threading", "trio", "anyio", "gevent", "eventlet")
_LOG_METHODS = ("debug", "info", "warning", "warn", "error", "exception", "critical", "log")
_SLEEPS = ("asyncio.sleep", "time.sleep", "trio.sleep", "anyio.sleep", "gevent.sleep", "eventlet.sleep")


class BackgroundLoops:
    name = "loop"

    def find_jobs(self, project: Project) -> list:
        return []

    def find_registrations(self, project: Project) -> list[Registration]:
        regs = []
        for site in calls_named(project, _STARTERS, _reads_starter):
            ev = site.event
            started = ev.kwargs.get("target") if ev.attr in ("Thread", "Timer") else (ev.args[0] if ev.args else None)
            if ev.attr == "Timer" and started is None and len(ev.args) > 1:
                started = ev.args[1]
            if started and started[0] == "call":  # `create_task(loop())`: the coroutine function
                fn = project.function_for(project.canonical(started[1]))
                qualname = fn.qualname if fn is not None else None
            else:
                qualname = target(project, site.module, started)
            fn = project.functions.get(qualname or "")
            if fn is not None and _repeats_forever(project, fn):
                regs.append(Registration(fn.qualname, self.name, "schedule", site.anchor, kind="periodic"))
        for mod in project.modules.values():  # a script's `if __name__ == "__main__": main()`
            code = mod.functions.get(f"{mod.module}.{MODULE_CODE}")
            for ev in code.events if code is not None else ():
                fn = project.function_for(project.canonical(ev.name)) if ev.kind == "call" else None
                if fn is not None and _repeats_forever(project, fn):
                    anchor = Anchor(mod.path, ev.line, ev.col, ev.end_line, ev.end_col)
                    regs.append(Registration(fn.qualname, self.name, "schedule", anchor, kind="periodic"))
        return regs


def _reads_starter(project: Project, module, ev) -> bool:
    name = project.canonical(ev.name) or ""
    # `asyncio.get_running_loop().create_task`, `tg.create_task` on an `asyncio.TaskGroup()`.
    return name.startswith(_STARTER_PREFIXES) or ev.attr == "create_task"


def _repeats_forever(project: Project, fn) -> bool:
    """A `while True:` loop that sleeps between rounds and does some work in them (a loop that
    only sleeps is a process waiting to be interrupted, not a job)."""
    forever = set(fn.forever)
    if not forever:
        return False
    sleeps = works = False
    for ev in fn.events:
        if ev.kind != "call" or not forever.intersection(ev.loops):
            continue
        name = project.canonical(ev.name) or ""
        if name in _SLEEPS or (ev.attr == "wait" and (ev.args or "timeout" in ev.kwargs)):
            sleeps = True
        elif name != "print" and not name.startswith("logging.") and ev.attr not in _LOG_METHODS:
            works = True
    return sleeps and works


FRAMEWORK = BackgroundLoops()
