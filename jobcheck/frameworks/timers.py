"""Callbacks that a timer of a common library runs again and again, with no scheduler:

    PeriodicCallback(self.purge_expired, 3600 * 1000).start()     # tornado.ioloop
    LoopingCall(self.flush).start(30)                             # twisted.internet.task
    FixedIntervalLoopingCall(self._report_state).start(interval=30)   # oslo.service (also Dynamic...)

(an oslo.service looping call whose callback ends it, `raise LoopingCallDone()`, waits for
something inside another job: not a job),

and one-shot timers re-armed by the function they run (or by a function it calls, within a few
calls), so it repeats until stopped:

    def heartbeat():
        post_status()
        threading.Timer(30, heartbeat).start()                    # also loop.call_later(30, self.tick), reactor.callLater,
                                                                  # call_at, IOLoop.add_timeout
A one-shot timer made anywhere else (`call_later(2, abort)`) runs its callback once: not a job;
nor is one re-armed only in an except clause (`except ConnectionError: Timer(5, connect)`): a
retry after a failure, which ends once it succeeds.
Nothing retries these callbacks; a second process starting the same timers runs them beside it.
"""

from __future__ import annotations

from ..analysis.jobs import Registration
from ..analysis.names import canonical_in, target
from ..analysis.program import calls_named
from ..analysis.project import Project
from .background_loops import nested_functions

REPEATING = ("tornado.ioloop.PeriodicCallback", "twisted.internet.task.LoopingCall",
             "oslo_service.loopingcall.FixedIntervalLoopingCall", "oslo_service.loopingcall.DynamicLoopingCall")
# A callback that ends its looping call (`raise loopingcall.LoopingCallDone()`) waits for something
# (a server to become active): a poll inside another job, not a job of its own.
_DONE = "LoopingCallDone"
# One-shot timers: the callback is their second argument (`function=` / `callback=` by keyword).
ONE_SHOT = ("Timer", "call_later", "call_at", "add_timeout", "callLater")


class Timers:
    name = "timer"

    def find_jobs(self, project: Project) -> list:
        return []

    def find_registrations(self, project: Project) -> list[Registration]:
        regs = []
        for site in calls_named(project, tuple(name.rpartition(".")[2] for name in REPEATING), _reads_repeating):
            ev = site.event
            callback = ev.kwargs.get("callback", ev.args[0] if ev.args else None)
            found = target(project, site.module, callback)
            if found is not None and not any(ev.kind == "raise" and (ev.name or ev.attr or "").endswith(_DONE)
                                             for ev in project.functions[found].events):
                regs.append(Registration(found, self.name, "schedule", site.anchor, kind="periodic"))
        for site in calls_named(project, ONE_SHOT):
            ev = site.event
            callback = ev.args[1] if len(ev.args) > 1 else ev.kwargs.get("function", ev.kwargs.get("callback"))
            # Re-armed from its own body (the callback is the function making the call), and not
            # only when something failed; a delay of 0 is "go on at the next turn" (draining a
            # queue a step at a time), not a period.
            if ev.handlers or (ev.args and ev.args[0] == ["lit", 0]):
                continue
            called = target(project, site.module, callback) if callback else None
            if called and _reaches(project, called, site.function.qualname):
                regs.append(Registration(called, self.name, "schedule", site.anchor, kind="periodic"))
        return regs


def _reaches(project: Project, start: str, goal: str, depth: int = 3) -> bool:
    """Does running `start` arm the timer again: is `goal` (the function making the timer call)
    `start` itself, a function it always calls (`_actuate` -> `_schedule_next()` -> `call_later(...,
    self._actuate)`, not under an `if` or `except`), or one defined inside either, within `depth`
    calls?"""
    frontier, seen = [start], {start}
    for _ in range(depth + 1):
        if goal in frontier:
            return True
        following = []
        for qualname in frontier:
            fn = project.functions.get(qualname)
            if fn is None:
                continue
            nested = [f.qualname for f in nested_functions(project).get(qualname, ())]
            # Only calls made every time: a re-arm under `if failed:` or `except` is a retry.
            called = [c.qualname for ev in fn.events if ev.kind == "call" and not ev.handlers and not ev.branch
                      for c in project.callees(ev)]
            following.extend(q for q in (*nested, *called) if q not in seen and not seen.add(q))
        frontier = following
    return False


def _reads_repeating(project: Project, module, ev) -> bool:
    return canonical_in(project, module, ev.name) in REPEATING


FRAMEWORK = Timers()
