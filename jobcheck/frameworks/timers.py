"""Callbacks that a timer of a common library runs again and again, with no scheduler:

    PeriodicCallback(self.purge_expired, 3600 * 1000).start()     # tornado.ioloop
    LoopingCall(self.flush).start(30)                             # twisted.internet.task
    TimerService(60, self.heartbeat).setServiceParent(app)        # twisted.application.internet
    FixedIntervalLoopingCall(self._report_state).start(interval=30)   # oslo.service (also Dynamic...)
    Monitor(engine, self.sweep, frequency=60).subscribe()         # cherrypy.process.plugins (also BackgroundTask)
    super().__init__(bus, self.run, 60)                           # in the constructor of a subclass of one

(an oslo.service looping call whose callback ends it, `raise LoopingCallDone()`, waits for
something inside another job: not a job),

a Qt timer's `timeout` signal (`self.timer.timeout.connect(self.refresh)`, `QTimer(self,
timeout=self.refresh)`), where the slot does work beyond the interface (`beyond_the_gui`); a timer
set single-shot, `setSingleShot(True)` or `singleShot=True`, or one its slot stops, only where the
slot starts it again (`QTimer.singleShot(ms, f)` runs `f` once),

oslo.service's ThreadGroup timers, on a thread group the service's library base made
(`self.tg.add_timer(self.report_interval, self.report_state)`, also `add_timer_args`,
`add_dynamic_timer`, `add_dynamic_timer_args`),

and one-shot timers re-armed by the function they run (or by a function it calls, within a few
calls), so it repeats until stopped:

    def heartbeat():
        post_status()
        threading.Timer(30, heartbeat).start()                    # also loop.call_later(30, self.tick), reactor.callLater,
                                                                  # call_at, IOLoop.add_timeout, sched's enter
A function of the application handed to a scheduler jobcheck does not know (a library's task
manager, the application's own), in a call named for scheduling that says how often, is periodic
too, and so is a method a decorator of the application's own made a poller of:

    self.register_task("announce", self.announce, interval=60)
    scheduler.schedule(self.flush_metrics, period=1)
    events.schedule(delay=180, callback=self.save_transfers, repeat=True)
    self.do_poll.start(interval=60)            # `@poll_method def do_poll(self)`: the method is the job

(such a call with a delay and no period, `events.schedule(delay=15, callback=self.timeout)`,
starts its function once, in the background), but not a call whose name does not schedule
(`websockets.serve(handler, ping_interval=20)`, `pool.submit(f, period=p)`) or says it waits or
retries (`wait_until(self.ready, interval=1)`).

A one-shot timer made anywhere else (`call_later(2, abort)`) runs its callback once: no periodic
job (it is listed as started in the background); nor is one re-armed only in an except clause (`except ConnectionError: Timer(5, connect)`): a
retry after a failure, which ends once it succeeds.
Nothing retries these callbacks; a second process starting the same timers runs them beside it.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import PurePath

from ..analysis.delivery import AT_MOST_ONCE, Delivery
from ..analysis.jobs import Registration
from ..analysis.names import canonical_in, target
from ..analysis.words import name_words
from ..analysis.program import calls_named, calls_where, deco_name, names_tests
from ..analysis.project import Project, in_tests
from ..analysis.summary import is_property
from .background_loops import (QT_BINDINGS, beyond_the_gui, nested_functions, one_shot_callback, one_shot_sites, retried_or_next_turn,
                               runs_a_parameter, through_kept_callables)
from .base import job_from_function

# A repeating timer's class: the callback's place among its arguments and the keyword naming it.
REPEATING = {"tornado.ioloop.PeriodicCallback": (0, "callback"), "twisted.internet.task.LoopingCall": (0, "f"),
             "oslo_service.loopingcall.FixedIntervalLoopingCall": (0, "f"),
             "oslo_service.loopingcall.DynamicLoopingCall": (0, "f"),
             "twisted.application.internet.TimerService": (1, "callable"),
             "cherrypy.process.plugins.Monitor": (1, "callback"),
             "cherrypy.process.plugins.BackgroundTask": (1, "function")}
# oslo.service ThreadGroup timers: the callback's place among the arguments.
_GROUP_TIMERS = {"add_timer": 1, "add_timer_args": 1, "add_dynamic_timer": 0, "add_dynamic_timer_args": 0}
# A callback that ends its looping call (`raise loopingcall.LoopingCallDone()`) waits for something
# (a server to become active): a poll inside another job, not a job of its own.
_DONE = "LoopingCallDone"
# A call that schedules says so in its name (`register_task`, `schedule`, `add_periodic_callback`),
# and how often in a keyword (`interval=60`, `poll_interval=5`, `interval_seconds=5`); words that
# make it a wait, a retry or a deadline rather than a schedule; and the keywords that name the
# function run (positional arguments do too; `on_done_cb=` does not).
_SCHEDULE_WORDS = frozenset({"schedule", "scheduled", "scheduler", "register", "periodic", "periodically", "every",
                             "repeat", "repeating", "recurring", "interval", "timer", "cron", "loop", "looping",
                             "task", "job"})
_PERIOD_WORDS = frozenset({"interval", "period", "every", "spacing", "frequency"})
_UNITS = frozenset({"s", "sec", "secs", "second", "seconds", "ms", "millis", "milliseconds", "min", "mins", "minute",
                    "minutes", "h", "hr", "hrs", "hour", "hours", "day", "days"})
_NOT_A_SCHEDULE = frozenset({"wait", "until", "retry", "retries", "backoff", "timeout", "sleep", "deadline", "partial",
                             "apply", "map", "call"})
_REPEATS = frozenset({"repeat", "repeating", "recurring", "periodic"})
_RUN_KEYWORDS = ("func", "function", "callback", "target", "task", "job", "fn", "f", "coro", "handler")


class Timers:
    name = "timer"

    def find_jobs(self, project: Project) -> list:
        return []

    def find_registrations(self, project: Project) -> list[Registration]:
        return [r for reg in self._timed(project) for r in through_kept_callables(project, reg)]

    def _timed(self, project: Project) -> list[Registration]:
        regs = []
        tails = {name.rpartition(".")[2] for name in (*REPEATING, *repeating_subclasses(project))}
        for site in calls_named(project, (*sorted(tails), "__init__"), _reads_repeating):
            ev = site.event
            at, keyword = _repeating_spec(project, site)
            found = target(project, site.module, ev.kwargs.get(keyword, ev.args[at] if 0 <= at < len(ev.args) else None)) \
                if keyword else None
            if found is not None and not any(ev.kind == "raise" and (ev.name or ev.attr or "").endswith(_DONE)
                                             for ev in project.functions[found].events):
                regs.append(Registration(found, self.name, "schedule", site.anchor, kind="periodic"))
        for site in calls_named(project, tuple(_GROUP_TIMERS), _reads_group_timer):
            ev = site.event
            at = _GROUP_TIMERS[ev.attr]
            found = target(project, site.module, ev.kwargs.get("callback", ev.args[at] if len(ev.args) > at else None))
            if found is not None:
                regs.append(Registration(found, self.name, "schedule", site.anchor, kind="periodic"))
        for site in calls_named(project, ("connect",), _reads_qt_timeout):
            # `self.timer.timeout.connect(self.refresh)`: a Qt timer runs it each time it times out,
            # unless the timer is made single-shot (`self.timer.setSingleShot(True)`).
            found = target(project, site.module, site.event.args[0] if site.event.args else None)
            timer = (site.event.name or "").removesuffix(".timeout.connect")
            # Single-shot, or stopped by its own slot (a splash, a throttle): periodic only where
            # the slot starts it again.
            once = _single_shot(project, site) or (found is not None and _restarts(project, found, f"{timer}.stop"))
            if found is not None and (not once or _restarts(project, found, f"{timer}.start")) \
                    and beyond_the_gui(project, project.functions[found]):
                regs.append(Registration(found, self.name, "schedule", site.anchor, kind="periodic"))
        for site in calls_named(project, ("QTimer",), _makes_qt_timer):
            # `QTimer(self, timeout=self.refresh)`: the slot given where the timer is made.
            found = target(project, site.module, site.event.kwargs.get("timeout"))
            if found is not None and site.event.kwargs.get("singleShot") != ["lit", True] \
                    and beyond_the_gui(project, project.functions[found]):
                regs.append(Registration(found, self.name, "schedule", site.anchor, kind="periodic"))
        for site in one_shot_sites(project):
            # Re-armed from its own body (the callback is the function making the call), and not
            # only when something failed, nor for the next turn.
            callback = one_shot_callback(project, site, own_too=True)
            if not callback or retried_or_next_turn(project, site):
                continue
            called = target(project, site.module, callback) if callback else None
            if called and site.event.attr == "singleShot" and not beyond_the_gui(project, project.functions[called]):
                continue  # a deferred update of the interface, however often
            if called and _reaches(project, called, site.function.qualname):
                regs.append(Registration(called, self.name, "schedule", site.anchor, kind="periodic"))
        for site in calls_where(project, _may_schedule, _says_how_often):
            if _in_tests(site.module) or (project.canonical(site.event.name) or "") in REPEATING:
                continue
            ev = site.event
            if ev.attr == "start":
                # `self.do_poll.start(interval=60)`: the method a decorator of the application's own
                # made a poller of (not an object's `start`, nor a task's).
                called = target(project, site.module, ["name", ev.name.rpartition(".")[0]]) if ev.name else None
                fn = project.functions.get(called or "")
                if fn is not None and fn.name != "__call__" and any(
                        project.function_for(project.canonical(deco_name(d[0]))) for d in fn.decorators):
                    regs.append(Registration(fn.qualname, self.name, "schedule", site.anchor, kind="periodic"))
                continue
            for called in _run_by_call(project, site):
                regs.append(Registration(called, self.name, "schedule", site.anchor, kind="periodic"))
        return regs

    @staticmethod
    def delivery(project: Project, site) -> Delivery | None:
        """A timer fires once per tick: a crash loses that run, the next tick runs again."""
        return Delivery(AT_MOST_ONCE, "a library timer fires once per tick") if site.kind == "periodic" else None

    def find_started(self, project: Project) -> list:
        """A call of a scheduler that runs a function once, after a delay, and says nothing of a
        period (`events.schedule(delay=15, callback=self.folder_timeout)`): started in the
        background."""
        out = []
        for site in calls_where(project, _may_schedule, _says_when):
            if site.event.attr == "start" or _in_tests(site.module) or _says_how_often(project, site.module, site.event):
                continue
            out.extend(job_from_function(project, project.functions[called], "background", "background",
                                         triggers={"start"}) for called in _run_by_call(project, site))
        return out


def _run_by_call(project: Project, site) -> list[str]:
    """The functions of the application a scheduling call is handed to run (by position or by a
    keyword naming what runs: `callback=`, `func=`), not properties."""
    ev = site.event
    given = [value for key, value in (*enumerate(ev.args), *ev.kwargs.items())
             if (isinstance(key, int) or key in _RUN_KEYWORDS) and value and value[0] in ("name", "ref")]
    found = (target(project, site.module, value) for value in given)
    return [called for called in found if called is not None and not is_property(project.functions[called])]


def _says_when(project: Project, module, ev) -> bool:
    """A call with a delay keyword whose value is not nothing (`delay=15`, `countdown=60`)."""
    return any(k != "**" and name_words(k) and name_words(k)[-1] in ("delay", "countdown", "after")
               and v not in (["lit", None], ["lit", 0], ["lit", False]) for k, v in ev.kwargs.items())


@lru_cache(maxsize=4096)
def _period_keyword(key: str) -> bool:
    """`interval`, `poll_interval`, `interval_seconds`, `poll_interval_hours`; not `retry_interval`."""
    words = name_words(key)
    if words and words[-1] in _UNITS:
        words = words[:-1]
    return bool(words) and words[-1] in _PERIOD_WORDS and not _NOT_A_SCHEDULE.intersection(words)


def _schedules(name: str) -> bool:
    """A callee's name that says it schedules, and not that it waits or retries."""
    words = set(name_words(name))
    return bool(words & _SCHEDULE_WORDS) and not words & _NOT_A_SCHEDULE


def _may_schedule(attr: str) -> bool:
    """A callee named for scheduling, or a poller's `start`."""
    return attr == "start" or _schedules(attr)


def _says_how_often(project: Project, module, ev) -> bool:
    """A call with a period keyword whose value is not nothing (`interval=None`, `period=0`), or
    that says it repeats (`schedule(delay=300, callback=self.save, repeat=True)`), by a keyword or
    by its own name (`scheduler.addPeriodicTask(120, self.store_host_info)`)."""
    return _named_periodic(project, ev) or any(
        k != "**" and (_period_keyword(k) and v not in (["lit", None], ["lit", 0], ["lit", False])
                       or k in _REPEATS and v == ["lit", True])
        for k, v in ev.kwargs.items())


# What a scheduler's call that adds work says of it (`addPeriodicTask`, `add_recurring_job`,
# `schedule_repeating`); not `repeat_request(f)`, `periodic_report(f)`, `remove_periodic_task(f)`.
_ADDS = frozenset({"add", "schedule", "register", "start", "create", "set", "new"})
_PERIODIC_NAMES = frozenset({"periodic", "periodically", "recurring", "repeating"})
_NEGATIONS = frozenset({"non", "no", "not", "without", "stop", "remove", "cancel", "unschedule", "unregister",
                        "delete", "clear", "disable", "is", "has"})


def _named_periodic(project: Project, ev) -> bool:
    """A call of the application's own scheduler whose name says it adds periodic work
    (`gThreadScheduler.addPeriodicTask(120, self.store_host_info)`), where that function keeps the
    callable it is given for later rather than calling it (one that calls it is read by its body:
    `repeat_request(fn)`). Not a function nothing here defines: what its name promises is not seen."""
    words = set(name_words(ev.attr or ""))
    if not (words & _PERIODIC_NAMES and words & _ADDS) or words & _NEGATIONS:
        return False
    own = project.function_for(project.canonical(ev.name) or "")
    return own is not None and not runs_a_parameter(project, own)


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


def _makes_qt_timer(project: Project, module, ev) -> bool:
    """A Qt timer made with its slot: `QTimer(parent, timeout=slot)`."""
    name = project.canonical(ev.name) or ""
    return "timeout" in ev.kwargs and name.endswith("QTimer") and name.startswith(QT_BINDINGS)


def _reads_qt_timeout(project: Project, module, ev) -> bool:
    """The `timeout` signal of a Qt timer (`QTimer().timeout.connect`, from any binding)."""
    name = project.canonical(ev.name) or ""
    return name.endswith("QTimer().timeout.connect") and name.startswith(QT_BINDINGS)


def _single_shot(project: Project, site) -> bool:
    """Is the timer whose `timeout` the call connects made single-shot where it is set up: by
    `setSingleShot(True)` or `QTimer(self, singleShot=True)` in a method of its class, a base or a
    subclass (an attribute of the instance), or in the function (a local timer)?"""
    timer = (site.event.name or "").removesuffix(".timeout.connect")
    fn = site.function
    owner, _, attr = timer.rpartition("().")
    cls = project.classes.get(owner) if owner and "." not in attr else None
    if cls is None:
        return any(ev.kind == "call" and ev.name == f"{timer}.setSingleShot" and ev.args[:1] != [["lit", False]]
                   for ev in fn.events)
    family = {c.qualname: c for c in (*project._mro(cls), *project.subclasses(cls.qualname))}
    for c in family.values():
        for m in c.methods:
            method = project.functions.get(f"{c.qualname}.{m}")
            for ev in method.events if method is not None else ():
                if ev.kind == "call" and (ev.name or "").endswith(f"().{attr}.setSingleShot") \
                        and ev.name.rpartition("().")[0] in family and ev.args[:1] != [["lit", False]]:
                    return True
            for stored, _line, receiver, _src, value in method.stores if method is not None else ():
                if stored == attr and receiver == "self" and value and value[0] == "call" \
                        and value[3].get("singleShot") == ["lit", True]:
                    return True
    return False


def _restarts(project: Project, start: str, call: str, depth: int = 3) -> bool:
    """Does running `start` make the call named `call` (a single-shot Qt timer's `start`), itself
    or through the functions it calls, within `depth` calls, not only in an `except`?"""
    return any(ev.kind == "call" and not ev.handlers and ev.name == call
               for f in project.within_calls(project.functions[start], depth, lambda ev: not ev.handlers)
               for ev in f.events)


def _reads_group_timer(project: Project, module, ev) -> bool:
    """oslo.service's thread group, or the one a service's oslo.service base made (`self.tg` of a
    class built on `oslo_service.service.Service`)."""
    name = project.canonical(ev.name) or ""
    if name.startswith("oslo_service.threadgroup.") or (name.startswith("oslo_service.") and "().tg." in name):
        return True
    owner, _, rest = name.partition("().")
    cls = project.classes.get(owner) if rest.startswith("tg.") else None
    return cls is not None and any(b.startswith("oslo_service.") for b in project.class_bases(cls))


def _in_tests(module) -> bool:
    """A test module by its name, or a script in a tests folder (`tests/helpers.py` with no
    `__init__.py`, named `helpers`)."""
    parent = PurePath(module.path).parent.name
    return in_tests(module) or ("." not in module.module and bool(parent) and names_tests(parent, package=True))


def _passes_through(init) -> bool:
    """A constructor that takes only `*args, **kwargs` and hands them on (a cooperative mixin's)."""
    return init is not None and [p for p in init.params if p not in ("self", "cls")] in (["args", "kwargs"], ["args"],
                                                                                        ["kwargs"], ["a", "kw"])


def _reads_repeating(project: Project, module, ev) -> bool:
    """A repeating timer made (`LoopingCall(self.flush)`), also as the application's own subclass,
    or a subclass's constructor handing its callback to the timer's (`super().__init__(bus,
    self.run, 60)` in `class DirCache(Monitor)`)."""
    if ev.attr == "__init__":
        return True  # which class's constructor is read from the calling function (`_repeating_spec`)
    name = canonical_in(project, module, ev.name)
    return name in REPEATING or name in repeating_subclasses(project)


def _repeating_spec(project: Project, site) -> tuple[int, str]:
    """Where the callback goes in a call `_reads_repeating` accepts; (-1, "") when the call is no
    repeating timer's (a `super().__init__` of a class that has none among its bases)."""
    ev = site.event
    if ev.attr == "__init__":
        # `super().__init__(bus, self.run, 60)` or `Monitor.__init__(self, bus, self.run, 60)` in
        # the constructor of a class built on the timer.
        owner = site.function.qualname.rpartition(".")[0] if site.function.name == "__init__" else ""
        cls = project.classes.get(owner)
        if cls is None:
            return -1, ""  # not in a class's constructor
        bases = project.class_bases(cls)
        named = (canonical_in(project, site.module, ev.name) or "").removesuffix(".__init__")
        if ev.name != "super().__init__" and named not in bases:
            return -1, ""
        if ev.name == "super().__init__" and any(
                "__init__" in c.methods and not _passes_through(project.functions.get(f"{c.qualname}.__init__"))
                for c in project._mro(cls)[1:]):
            return -1, ""  # a base of the application's own takes the call, with its own parameters
        timer = next((b for b in bases if b in REPEATING), None) if ev.name == "super().__init__" else named
        if timer not in REPEATING:
            return -1, ""
        at, keyword = REPEATING[timer]
        return (at if ev.name == "super().__init__" else at + 1), keyword
    name = canonical_in(project, site.module, ev.name)
    return REPEATING.get(name) or REPEATING[repeating_subclasses(project)[name]]


def repeating_subclasses(project: Project) -> dict[str, str]:
    """The application's own subclasses of a repeating timer that keep its constructor
    (`class ExtendedLoopingCall(LoopingCall)`, made as `ExtendedLoopingCall(self._step)`), each
    with the timer it is: made with a callable, they repeat it as the library's does."""
    def find() -> dict:
        out = {}
        for cls in project.classes.values():
            bases = project.class_bases(cls)
            timer = next((b for b in bases if b in REPEATING), None)
            if timer and not any(
                    "__init__" in c.methods for c in (cls, *(project.classes.get(b) for b in bases)) if c is not None):
                out[cls.qualname] = timer
        return out
    return project.once("repeating timer subclasses", find)


FRAMEWORK = Timers()
