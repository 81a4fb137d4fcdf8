"""Loops an application starts beside its main work: a coroutine or thread that repeats forever,
sleeping between rounds, is a periodic job with no scheduler:

    asyncio.create_task(refresh_rates_forever())          # also ensure_future, loop.create_task,
    threading.Thread(target=poll_forever, daemon=True)    # TaskGroup.create_task, anyio/trio start_soon,
    class Poller(threading.Thread): def run(self): ...    # multiprocessing.Process, a lambda's call
                                                          # (`target=lambda: ctx.run(self._loop)`)

or called by a script's module code (`if __name__ == "__main__": main()`), or started by nothing
the project shows (a daemon's loop its deployment runs, a library's scheduler loop its users
start), where the function has a loop that runs until stopped (`while True:`, `while not
stop.is_set():`, `while self.running:`) and sleeps (`asyncio.sleep`, `time.sleep`, `trio.sleep`,
`anyio.sleep`, `gevent.sleep`, an `Event().wait(timeout)`, a worker's `queue.get(timeout=0.5)`, a
Redis blocking pop `rc.blpop([fifo])`).
Nothing retries such a
job, and nothing starts a round while the previous one runs (the loop is sequential), but a
second process started the same way runs the same loop beside it. A function started once (no
loop, or a loop that never sleeps) is not a periodic job.

The application's own runners are read by what their bodies do: a function that calls the
callable a parameter brings inside a loop that runs until stopped (directly, in a closure, or
through a helper or a thread it hands it to) repeats it, so every function its callers pass is a
periodic job:

    def create_permanent_task(func, interval=0):        # create_permanent_task(check_payments, interval=60)
        async def wrapper():
            while settings.running:
                await restart_on_error(func)             # runs it once: `return await func()`
                await asyncio.sleep(interval)
        return asyncio.create_task(wrapper())

A helper that calls its parameter once and returns (`return fn()` in a retry loop) is not a runner.

What is started and does not loop is listed as started once in the background: a thread class the
application starts (`.start()` on an instance of it), a one-shot timer's callback (`threading.Timer(30, self.expire)`,
`gevent.spawn_later(t, stop)`, `reactor.callLater(2, f)`, `sched`'s `enter`, tornado's `add_future(f,
callback)`; not one armed in an `except` clause, a
retry, nor `call_later(0, f)`, the next turn), a function under a decorator of the application's
own whose wrapper starts it (`@async_call`), the `target=` of a thread class of its own that keeps
`Thread.run` (`QueryThread(target=f)`). A closure started in place of the callable its helper
was given (`def submit_task(task): def _run(): task() ...`) stands for what the helper's callers
pass.
"""

from __future__ import annotations

import re
from dataclasses import replace
from types import SimpleNamespace

from ..analysis.guards import asks_by_name
from ..analysis.jobs import Anchor, JobSite, Registration
from ..analysis.names import analysed_tops, canonical_in, target
from ..analysis.words import TAKING_WORDS, name_words
from ..analysis.program import CallSite, bound_argument, calls_named, calls_of, deco_name
from ..analysis.project import BOOKKEEPING_METHODS, LOG_METHODS, Project
from ..analysis.summary import BUILTINS, MODULE_CODE, FunctionSummary, is_cancellation, names_stopping
from ..analysis.values import lit
from ..effects.catalog import MUTATING_WORDS
from ..effects.classify import db_write
from ..model import Confidence
from .base import job_from_function
from .instances import called_function, constructed_class, method_body

_STARTERS = ("create_task", "ensure_future", "start_soon", "Thread", "Process", "spawn", "spawn_n", "run_coroutine_threadsafe",
             "spawn_callback", "add_callback", "create", "start_new_thread", "start")
# A task group's `start(f)` (anyio's, trio's nursery): `f` runs as a task, started once it says so.
_TASK_GROUP_STARTS = ("anyio.create_task_group().start", "anyio.abc.TaskGroup().start", "trio.open_nursery().start",
                      "trio.Nursery().start")
# Libraries' own task starters, by full name: they start the coroutine they are given as
# `asyncio.create_task` does (mautrix's, keeping a reference and logging a failure).
_LIBRARY_STARTERS = ("mautrix.util.background_task.create",)
# A one-shot timer whose callback starts a task (`loop.call_later(5, asyncio.create_task, sync())`):
# the coroutine function is started, later.
_DEFERRING = {"call_later": 1, "call_at": 1, "call_soon": 0, "call_soon_threadsafe": 0}
# One-shot timers: the callback runs once, later, beside the work that armed it (its place among
# the arguments; by keyword, one of `_CALLBACK_KEYWORDS`). `sched`'s `enter(delay, priority, action)`.
ONE_SHOT_TIMERS = {"Timer": 1, "call_later": 1, "call_at": 1, "callLater": 1, "add_timeout": 1, "spawn_later": 1,
                   "spawn_after": 1, "enter": 2, "enterabs": 2, "singleShot": 1, "deferLater": 2}
# ... and tornado's `add_future(future, callback)`, which runs its callback once the future is done
# (no timer: armed again from the callback, it waits again, it is no period).
_RUN_LATER = {**ONE_SHOT_TIMERS, "add_future": 1}
_CALLBACK_KEYWORDS = ("function", "callback", "action", "callable")
# Where a one-shot timer's delay is, where it is not first: twisted's `deferLater(clock, delay, f)`.
_DELAY_AT = {"deferLater": 1}
_TASK_STARTERS = ("asyncio.create_task", "asyncio.ensure_future", "asyncio.tasks.create_task", "asyncio.tasks.ensure_future")
# `.get(timeout=...)` of a task's result, polled: waiting for one answer, not for the next item.
_RESULT_GETS = ("celery.", "gevent.event.", "gevent.greenlet.", "gevent.Greenlet", "gevent.spawn", "concurrent.futures.",
                "multiprocessing.pool.", "rq.job.", "dramatiq.", "huey.")
_STARTER_PREFIXES = ("asyncio", "threading", "_thread", "multiprocessing", "trio", "anyio", "gevent", "eventlet", "aiorpcx",
                     "curio", "tornado.ioloop")
_SUBMITS = ("submit", "run_in_executor")
_EXECUTOR_PREFIXES = ("concurrent.futures", "futurist", "loky")
# A pool's map over items: each item runs the function given first, in the pool, and the caller
# takes the results (an executor's `map`; `multiprocessing`'s process and thread pools).
_MAPS = ("map", "imap", "imap_unordered", "starmap", "map_async", "starmap_async")
_POOL_MAP = re.compile(r"(?:concurrent\.futures|futurist|loky)[\w.]*Executor\(\)\.map"
                       r"|multiprocessing(?:\.pool|\.dummy|\.context)?\.\w*Pool\(\)\.\w+")
_TARGETED = ("Thread", "Process")
# A thread whose target runs the coroutine its `args` bring; a callable bound to some arguments.
_COROUTINE_RUNNERS = ("asyncio.run", "asyncio.runners.run", "trio.run", "anyio.run")
_PARTIALS = ("functools.partial",)
# A class whose `run` a started instance runs in a thread or process of its own.
QT_BINDINGS = ("PyQt5", "PyQt6", "PySide2", "PySide6", "qtpy")
THREAD_CLASSES = ("threading.Thread", "multiprocessing.Process", "multiprocessing.context.Process",
                  *(f"{qt}.QtCore.QThread" for qt in QT_BINDINGS))
_QUEUE_GETS = tuple(f"{module}.{cls}().get" for module, cls in (
    ("queue", "Queue"), ("queue", "PriorityQueue"), ("queue", "LifoQueue"), ("multiprocessing", "Queue"),
    ("gevent.queue", "Queue"), ("gevent.queue", "JoinableQueue"), ("eventlet.queue", "Queue"),
    ("eventlet.queue", "LightQueue"), ("asyncio", "Queue"), ("asyncio", "PriorityQueue"), ("asyncio", "LifoQueue"),
    ("asyncio.queues", "Queue")))
# What a thread does with a queue, an event or a container it was given: it takes its work from
# them, it does not run them (`job = self.queue.get()`).
_HANDED_DATA = BOOKKEEPING_METHODS | {"get_nowait", "put", "put_nowait", "empty", "full", "qsize", "task_done", "wait"}
_TAKEN = tuple(f"{get}()" for get in _QUEUE_GETS)  # what a queue's `get` returned
# The first word of a call that takes the next item of a queue (also `consume_one`, `next_job`), and
# the keywords telling it how long to wait.
_TAKING_WORDS = (*TAKING_WORDS, "consume", "next")
_WAIT_KEYWORDS = frozenset({"timeout", "block", "blocking", "wait", "wait_time", "timeout_ms", "timeout_seconds",
                            "max_wait_time", "WaitTimeSeconds"})
_BLOCKING_POPS = ("blpop", "brpop", "brpoplpush", "blmove", "blmpop", "bzpopmin", "bzpopmax", "bzmpop")
_WAITS_FOR_TASKS = ("asyncio.wait", "asyncio.tasks.wait", "concurrent.futures.wait", "trio.wait_all")
_SLEEPS = ("asyncio.sleep", "time.sleep", "trio.sleep", "anyio.sleep", "gevent.sleep", "eventlet.sleep", "aiorpcx.sleep",
           "curio.sleep",
           # a Qt thread's own (`self.msleep(500)`, `QThread.sleep(5)`)
           *(f"{qt}.QtCore.QThread{call}.{unit}" for qt in QT_BINDINGS for call in ("", "()")
             for unit in ("sleep", "msleep", "usleep")))


class BackgroundLoops:
    name = "loop"

    def find_jobs(self, project: Project) -> list:
        return []

    def find_started(self, project: Project) -> list[JobSite]:
        """Functions started once in the background (`create_task(f())`, `Thread(target=f)`, an
        executor's `submit(f)`): listed beside the jobs as kind `background`, not entry points."""
        out = []
        for fn, site in _started(project):
            # `await loop.run_in_executor(None, f)` and `pool.submit(f).result()` wait for `f`: part
            # of the caller's work. A test's threads are the test's, an example's the example's.
            if (site.event.attr != "run_in_executor" and not repeats_forever(project, fn)
                    and fn.name != MODULE_CODE and project.the_applications(site.module) and not _awaited(site)
                    and not retried_or_next_turn(project, site)):
                # `Thread(target=self.run)` of a command object whose `run` calls the callable it
                # was constructed with: the work started is that callable, as for a timer's.
                for reg in through_kept_callables(project, Registration(fn.qualname, "background", "start", site.anchor,
                                                                        kind="background")):
                    work = project.functions.get(reg.target)
                    # `start_new_thread(self._monitor, args)` of an abstract method: each subclass's runs.
                    for impl in project.implementations(work) if work is not None else ():
                        out.append(job_from_function(project, impl, "background", "background", triggers={"start"}))
        for run in _started_thread_classes(project):
            out.append(job_from_function(project, run, "background", "background", triggers={"start"}))
        return out

    def find_dispatched(self, project: Project) -> list[JobSite]:
        """Work a job hands to a pool and waits for, in its body or a few calls down
        (`futures = [pool.submit(upload, part) for part in parts]` then `as_completed(futures)`,
        `await loop.run_in_executor(None, render, page)`, `executor.map(upload, parts)`,
        `multiprocessing.Pool().imap_unordered(index, shards)`): a unit of the job's work run in the
        pool's threads, listed beside the job as kind `dispatched` with its framework and
        triggers. No entry point: its effects are the job's."""
        by_caller: dict[str, list] = {}
        for fn, site in _started(project):
            if site.event.attr in _SUBMITS and fn.name != MODULE_CODE and project.the_applications(site.module) \
                    and (site.event.attr == "run_in_executor" or _awaited(site)):
                by_caller.setdefault(site.function.qualname, []).append(fn)
        for site in calls_named(project, _MAPS, lambda p, m, ev: _POOL_MAP.fullmatch(p.canonical(ev.name) or "") is not None):
            fn = project.functions.get(target(project, site.module, site.event.args[0]) or "") if site.event.args else None
            if fn is not None and fn.name != MODULE_CODE and project.the_applications(site.module):
                by_caller.setdefault(site.function.qualname, []).append(fn)
        out = []
        for job in project.jobs.values() if by_caller else ():
            start = project.functions.get(job.function)
            for caller in project.within_calls(start, 3) if start is not None else ():
                for fn in by_caller.get(caller.qualname, ()):
                    module = project.function_module[fn.qualname]
                    out.append(JobSite(function=fn.qualname, framework=job.framework, kind="dispatched",
                                       path=module.path, anchor=project.anchor_of(fn), display=fn.qualname,
                                       doc_owner=job.doc_owner, triggers=set(job.triggers)))
        return out

    def find_steps(self, project: Project) -> list[JobSite]:
        """The application's functions a job's loop calls in every round that work beyond the
        process (`while True: self.start_queued_scans(); self.clean_forgotten_scans(); sleep(10)`):
        an in-house scheduler's steps, each run again on the next round whether or not the last
        one finished its work. Listed beside the job as kind `step`, with its framework and
        triggers; no entry points (the rules read the loop, whose effects they are); which calls
        are steps: `_steps_of`."""
        out = []
        for job in project.jobs.values():
            fn = project.functions.get(job.function)
            if fn is None or not repeats_forever(project, fn):
                continue
            for step in _steps_of(project, fn, _until_stopped(fn)):
                # A step named for the round itself (`await self._tick()`) does the round's work:
                # its own steps are the loop's (`for phase in (self._fire_due, self._reclaim): await phase()`).
                inner = _steps_of(project, step, None) if _ROUND_WORDS.intersection(name_words(step.name)) else []
                out.extend(_step_site(project, unit, job) for unit in (step, *_per_item_units(project, step), *inner))
        # A worker started in the background whose loop runs until told to stop, though it may
        # leave on a limit of its own (`if self._reached_cap(): return`): what it runs for each
        # item it takes (`job = self.queue.lease_one(); self._run_one(job)`) is a unit of its work.
        for site in project.started_functions.values():
            fn = project.functions.get(site.function)
            if fn is not None and fn.forever:
                out.extend(_step_site(project, unit, site) for unit in _per_item_units(project, fn, set(fn.forever)))
        return out

    def find_registrations(self, project: Project) -> list[Registration]:
        regs = []
        for fn, site in _started(project):
            if repeats_forever(project, fn) and not _runner_at(project, fn, site):
                regs.extend(through_kept_callables(
                    project, Registration(fn.qualname, self.name, "schedule", site.anchor, kind="periodic")))
            elif project.the_applications(site.module):
                # A thread's entry that sets up and enters the loop (`__loop_entry` -> `self.loop()`).
                regs.extend(Registration(callee.qualname, self.name, "schedule", site.anchor, kind="periodic")
                            for callee in _loops_called(project, fn))
        regs.extend(_runner_registrations(project, self.name))
        regs.extend(_thread_classes(project, self.name))
        regs.extend(_loops_by_shape(project, self.name))
        regs.extend(_methods_of_registered_objects(project, self.name))
        # A script's `if __name__ == "__main__": main()`, what a console script the package
        # declares names, and an argparse subcommand's handler (`parser.set_defaults(func=start)`,
        # which the program's main calls): a daemon's loop, there or up to two calls down
        # (`main()` -> `Daemon().run()`, `main()` -> `serve(config)` -> `Daemon(config).run()`).
        started = []
        for mod in project.modules.values():
            code = mod.functions.get(f"{mod.module}.{MODULE_CODE}")
            started.extend((project.function_for(project.canonical(ev.name)), Anchor(mod.path, ev.line, ev.col, ev.end_line, ev.end_col))
                           for ev in (code.events if code is not None else ()) if ev.kind == "call")
            for entry in project.console_scripts.values():  # a console script: `tool = pkg.cli:main`
                module, _, function = entry.partition(":")
                main = mod.functions.get(f"{mod.module}.{function}") if module == mod.module else None
                if main is not None:
                    started.append((main, project.anchor_of(main)))
        started.extend((handler, project.anchor_of(handler)) for _, handler in argparse_handlers(project))
        for fn, anchor in started:
            if fn is None:
                continue
            if repeats_forever(project, fn):
                regs.append(Registration(fn.qualname, self.name, "schedule", anchor, kind="periodic"))
                continue
            regs.extend(Registration(callee.qualname, self.name, "schedule", anchor, kind="periodic")
                        for callee in _loops_called(project, fn, depth=2))
        regs.extend(_started_each_round(project, self.name, [r.target for r in regs if r.kind == "periodic"]))
        return regs


def argparse_handlers(project: Project) -> list[tuple]:
    """The handlers an argparse program gives its subcommands (`parser.set_defaults(func=start)`),
    each with the module that gives it."""
    out = []
    for site in calls_named(project, ("set_defaults",)):
        handler = project.functions.get(target(project, site.module, site.event.kwargs.get("func")) or "")
        if handler is not None:
            out.append((site.module, handler))
    return out


def _started_each_round(project: Project, framework: str, loops: list[str]) -> list[Registration]:
    """What a loop starts in each of its rounds, in its body or a function its rounds call, and does
    not wait for (`asyncio.create_task(self._run_safely(job))` for each due job, a thread per
    message): a new run of it every round, each a job of its own (a task the loop hands out), not
    something started once. Through a wrapper that only runs the callable its object was
    constructed with, the job is that callable (`through_kept_callables`)."""
    rounds: dict[str, set | None] = {}  # function -> its loops whose rounds start work (None: anywhere in it)
    for qualname in loops:
        fn = project.functions.get(qualname)
        forever = _until_stopped(fn) if fn is not None else set()
        if not forever:
            continue
        rounds[qualname] = forever
        for ev in fn.events:
            if ev.kind == "call" and forever.intersection(ev.loops):
                for callee in project.callees(ev):
                    rounds.setdefault(callee.qualname, None)
    out = []
    for fn, site in _started(project):
        within = rounds.get(site.function.qualname, False)
        if within is False or (within is not None and not within.intersection(site.event.loops)) \
                or site.event.attr in ONE_SHOT_TIMERS or site.event.attr == "run_in_executor" or _awaited(site) \
                or repeats_forever(project, fn) or fn.name == MODULE_CODE or not project.the_applications(site.module):
            continue
        for reg in through_kept_callables(project, Registration(fn.qualname, framework, "start", site.anchor, kind="task")):
            out.append(replace(reg, fallback=True))
    return out


def _loops_called(project: Project, fn, depth: int = 1, seen: set | None = None) -> list:
    """The loops until stopped that `fn` calls outside any loop of its own (`main()` ->
    `Daemon().run()`), within `depth` calls (`main()` -> `_run_websocket(config)` ->
    `asyncio.run(agent.run())`; there, not a loop left once its work is done, a start-up's
    retry: `while True: try: register(); break except ConnectionError: sleep(5)`): what starting
    `fn` starts."""
    first = seen is None  # `fn`'s own calls (what they call is further down)
    seen = seen if seen is not None else {fn.qualname}
    out = []
    for ev in fn.events:
        for callee in project.callees(ev) if not ev.loops else ():
            if callee.qualname in seen:
                continue
            seen.add(callee.qualname)
            if repeats_forever(project, callee) and (first or not _left_once_done(callee)):
                if not _given_what_it_repeats(project, callee, ev):
                    out.append(callee)
            elif depth > 1:
                out.extend(_loops_called(project, callee, depth - 1, seen))
    return out


def _left_once_done(fn) -> bool:
    """Every loop of `fn` that runs until stopped is left once something holds, or retries."""
    return not (_until_stopped(fn) - set(fn.ended) - {loop[0] for loop in fn.retry_loops})


def _runner_at(project: Project, fn, site) -> bool:
    """Is the loop started at `site` a runner of what it is handed there? A coroutine started with
    its hooks left at their defaults (`create_task(refresh_loop(pool, stop))`, whose `on_tick=None`
    it awaits each round when a test gives one) runs its own work; any other start of a runner
    runs what its callers pass."""
    started = site.event.args[0] if site.event.args else None
    if started and started[0] == "call" and project.function_for(project.canonical(started[1])) is fn:
        return _given_what_it_repeats(project, fn, SimpleNamespace(args=started[2], kwargs=started[3]))
    return _is_runner(project, fn)


def _given_what_it_repeats(project: Project, runner, ev) -> bool:
    """A runner (`_is_runner`) this call hands a callable to repeat. One left with its defaults
    (`run_worker(queue, once=args.once)`, whose `on_heartbeat=None` it calls each round when a
    host gives one) runs its own work: the loop is the job."""
    if not _is_runner(project, runner):
        return False
    if "<locals>" in runner.qualname:
        return True  # (a closure repeats what its enclosing function was given: not this call's to say)
    positional = [p for p in runner.params if p not in ("self", "cls")]
    repeated = [p for p in positional if _runs(project, runner, p, 0) == "repeats"]
    return "**" in ev.kwargs or any(p in ev.kwargs or positional.index(p) < len(ev.args) for p in repeated)


_WAITS_FOR = ("result", "exception", "as_completed", "wait", "gather")


def _awaited(site) -> bool:
    """An executor's future the caller waits for: its `.result()`, or handed to `as_completed`,
    `wait` (directly or through the list it was put in)."""
    return site.event.attr == "submit" and _waited_for(site)


def _waited_for(site) -> bool:
    """Is what the call returns waited for by its caller (`.result()`, `wait(...)`)?"""
    fn, index = site.function, site.index
    return any(ev.kind == "call" and ev.attr in _WAITS_FOR
               and any(index in src for src in (ev.receiver_src, *ev.argsrc, *ev.kwsrc.values()))
               for ev in fn.events)


def _started(project: Project) -> list:
    """(function, call site) for each function of the project a starter runs: a task, a thread, a
    process, a greenlet, an executor's `submit(f, ...)` / `run_in_executor(executor, f)`, or a
    one-shot timer. Found once per project (the loops and the background listing both read it)."""
    return project.once("started functions", lambda: _find_started(project))


def _find_started(project: Project) -> list:
    out = []
    for site in one_shot_sites(project, _DEFERRING):
        ev = site.event
        own = project.function_for(project.canonical(ev.name) or "")
        at = callback_place(project, site) if own is not None and own.qualname in timer_wrappers(project) \
            else _DEFERRING.get(ev.attr)
        if at is None:
            continue
        starter = ev.args[at] if len(ev.args) > at + 1 else None
        started = ev.args[at + 1] if starter else None
        if starter and starter[0] == "name" and canonical_in(project, site.module, starter[1]) in _TASK_STARTERS \
                and started and started[0] == "call":
            fn = project.function_for(project.canonical(started[1]))
            if fn is not None and fn.is_async:
                out.append((fn, site))
    for site in one_shot_sites(project, _RUN_LATER):
        if arms_a_wrapper_timer(project, site):
            continue  # the timer a wrapper arms runs what its callers give it
        given = one_shot_callback(project, site)
        callback = project.functions.get(target(project, site.module, given) or "") if given else None
        if callback is not None and site.event.attr == "singleShot" and not beyond_the_gui(project, callback):
            continue  # Qt's timer runs it on the GUI thread: a deferred update of the interface
        place = callback_place(project, site)
        if callback is not None and callback.name != MODULE_CODE:
            out.extend((_run_later(project, callback, site, place) if place is not None else []) or [(callback, site)])
    # `thread.started.connect(worker.run)`: a Qt thread runs the slot connected to its `started`.
    for site in calls_named(project, ("connect",)):
        name = project.canonical(site.event.name) or ""
        thread = project.canonical((site.event.name or "").removesuffix(".started.connect")) or ""
        if thread.removesuffix("()") in project.classes:
            continue  # a thread class of the application's own does its work in `run`: a slot hears it start
        if name.endswith("QThread().started.connect") and name.startswith(QT_BINDINGS) and site.event.args:
            fn = project.functions.get(target(project, site.module, site.event.args[0]) or "")
            if fn is not None:
                out.append((fn, site))
    # `QueryThread(target=f)`, a thread class of the application's own that keeps the `run` of
    # `threading.Thread` (or calls it: `with app.app_context(): super().run()`): `f` is started.
    keeping = _keeps_threads_run(project)
    for site in calls_named(project, tuple({owner.rpartition(".")[2] for owner in keeping})):
        fn = project.functions.get(target(project, site.module, site.event.kwargs.get("target")) or "") \
            if project.canonical(site.event.name) in keeping else None
        if fn is not None:
            out.append((fn, site))
    # `future = executor.submit(f, ...)` then `future.add_done_callback(cb)`: the future is an
    # executor's (whatever the executor's type), so `f` is started, and `cb` runs when it is done,
    # in the worker's thread: work started too where it reaches an effect (not `self._tasks.discard`
    # or a log line).
    for site in calls_named(project, ("add_done_callback",)):
        ev, events = site.event, site.function.events
        for i in ev.receiver_src:
            sub = events[i] if i < len(events) else None
            if sub is not None and sub.attr == "submit" and sub.args and not _reads_starter(project, site.module, sub):
                out.extend(_started_by(project, CallSite(site.module, site.function, i, sub, project.event_name(sub)),
                                       sub.args[0]))
        for fn, at in _started_by(project, site, ev.args[0] if ev.args else None):
            if reaches_an_effect(project, fn):
                out.append((fn, at))
    for site in calls_named(project, (*_STARTERS, *_SUBMITS), _reads_starter):
        ev = site.event
        if ev.attr in _SUBMITS:
            started = ev.args[1] if ev.attr == "run_in_executor" and len(ev.args) > 1 else (
                ev.args[0] if ev.attr != "run_in_executor" and ev.args else None)
        else:
            started = ev.kwargs.get("target") if ev.attr in _TARGETED else (ev.args[0] if ev.args else ev.kwargs.get("coro"))
            if ev.attr in _TARGETED and started and started[0] == "name" and project.canonical(started[1]) in _COROUTINE_RUNNERS:
                # `Thread(target=asyncio.run, args=(run_process(),))`: the thread runs the coroutine it is given
                given = ev.kwargs.get("args")
                started = given[1][0] if given and given[0] == "seq" and given[1] else None
        # `for target in (self._listen, self._loop): Thread(target=target).start()`: each of them;
        # a function chosen in the arms of an `if`, either; an entry of a module's table
        # (`Process(target=KINDS[kind]["sender"])`), any it holds
        held = project.table_functions(started[1]) if started and started[0] == "name" and "[" in (started[1] or "") else []
        for one in (started[1] if started and started[0] in ("each", "either")
                    else [["name", f.qualname] for f in held] or [started]):
            out.extend(_started_by(project, site, one))
    return out


def _started_by(project: Project, site, started: list | None) -> list:
    """(function, call site) for what a starter's call starts, given the Value it starts."""
    ev = site.event
    if started and started[0] == "call" and project.canonical(started[1]) in _PARTIALS and started[2]:
        return _started_by(project, site, started[2][0])  # `Thread(target=partial(do_operation, True))`
    if started and started[0] == "call":  # `create_task(loop())`: the coroutine function
        awaited = _awaited_work(project, site, started) or _called_work(project, site, started)
        if awaited:
            return awaited
        fn = project.function_for(project.canonical(started[1]))
        if fn is not None and not fn.is_async:
            # `Thread(target=make_handler(x))`: what runs is what the call returns, a function
            # the factory defines (`return handler`; what it wraps, for a decorator applied in
            # place: `submit(self.log_errors(self.cleanup), sid)`) or nothing known.
            fn = project.functions.get(target(project, site.module, started) or "")
        elif fn is None and (cls := constructed_class(project, site.module, started)) is not None:
            fn = method_body(project, cls, "__call__")  # `submit(Uploader(bucket), part)`: the instance is called
    else:
        fn = project.functions.get(target(project, site.module, started) or "")
        if fn is None and started and started[0] == "name" and str(started[1]).endswith("()"):
            # `coro = self.poll()` then `create_task(coro)`: the coroutine the local holds
            fn = _coroutine_function(project, site.module, ["call", str(started[1])[:-2]])
    handed = _handed_on(project, fn, site) if fn is not None else None
    if handed is not None:
        return handed
    if fn is not None:
        return [(fn, site)]
    if started and started[0] == "param" and site.function.name != MODULE_CODE and ev.attr != "run_in_executor":
        if any(e.kind == "call" and e.attr == "result" and set(e.receiver_src) == {site.index} for e in site.function.events):
            return []  # `run_coroutine_threadsafe(coro, loop).result()`: a bridge its callers wait on
            # (a pool's fan-out whose futures go to `as_completed` runs beside the caller: still started)
        return _passed_to_helper(project, site.function, started[1])
    if started and started[0] == "closure" and ev.attr != "run_in_executor":
        return [(fn, site) for fn in _decorated_by_starter(project, site.function, started[1])]
    return []


# Libraries whose calls do no work beyond the process: pure computation, logging, the GUI toolkit.
_IN_PROCESS = frozenset({"logging", "typing", "functools", "itertools", "collections", "math", "re", "string",
                         "datetime", "time", "copy", "enum", "dataclasses", "operator", "json", "weakref",
                         "contextlib", "textwrap", "locale", "gettext", *QT_BINDINGS, "sip", "shiboken2", "shiboken6"})


def beyond_the_gui(project: Project, fn, depth: int = 3) -> bool:
    """Does a GUI timer's slot do work beyond the user interface: reach, within a few calls of the
    application's own, an external effect or a call of a library that is not pure computation,
    logging or the toolkit itself (a file, the network, a subprocess)? A slot that only updates
    widgets (restores a cursor, expands a tree, flushes text into a console) is the GUI's: no job."""
    for current in project.within_calls(fn, depth):
        for ev in current.events:
            if ev.kind != "call" or ev.attr in LOG_METHODS:
                continue
            if project.catalog_effect(ev) is not None or ev.sql:
                return True  # (SQL that writes, whatever runs it: `self.conn.execute("UPDATE ...")`)
            if project.callees(ev):
                continue  # the application's own code: walked
            name = project.canonical(ev.name) or ""
            root = name.partition(".")[0]
            if not name or "." not in name and name != "open" or root in _IN_PROCESS or name.startswith("os.path."):
                continue  # a builtin (not `open`), or a library that stays in the process
            owner = name.partition("(")[0]
            if owner in project.classes and _a_widget(project, owner):
                continue  # a method of the application's own widgets it cannot resolve (`self.tree.expandAll()`)
            return True
    return False


# Words naming one round of a loop's work (`_tick`, `run_cycle`, `one_iteration`).
_ROUND_WORDS = frozenset({"tick", "cycle", "iteration", "round", "step", "once"})


def _steps_of(project: Project, fn, loops: set | None) -> list:
    """The functions of the application `fn` runs as steps: in every round of `loops`, or (None)
    anywhere in its body outside an `except`. A call in an `except` clause (a reconnect) is no
    step; a helper that starts or runs what it is given (`safe_ensure_future(self.update_balances())`)
    is none either: what it is given is."""
    out = []
    for ev in fn.events:
        if ev.kind != "call" or not (ev.statement or ev.in_test or ev.iterated) or ev.handlers \
                or (loops is not None and not loops.intersection(ev.loops)) \
                or _sleeps(project, ev) or _only_waits(project, ev) \
                or (_helper_waits(project, ev) and any(_named_for_sleeping(f) for f in _run_by(project, ev, fn))):
            # (one tested or passed on asks; the wait between rounds is no step: `self.sleep()`;
            # work that pauses after itself is: `process_task(t)` ending in `time.sleep(0.5)`)
            continue
        for callee in _run_by(project, ev, fn):
            if _hands_on_what_it_is_given(project, callee):
                given = _work_given(project, fn, ev)
                if given is None and not _writes_rows(project, callee):
                    continue
                # (one that claims rows and starts a task for each is a step: `_poll_and_execute()`)
                callee = given or callee
            # (one a `for` goes over changes something to be a step: `for sent in send_due_reports():`,
            # not `for row in pending():`)
            if not _an_application_unit(project, callee, fn) or not beyond_the_gui(project, callee) \
                    or ((ev.kept or ev.iterated) and not _changes_something(project, callee)) \
                    or (ev.in_test and not _does_the_round(project, callee)):
                continue
            out.append(callee)
    return out


def _stays_in_process(project: Project, ev) -> bool:
    """A call of a library that does no work beyond the process (`time.monotonic()`, `json.dumps`)."""
    name = project.canonical(ev.name) or ""
    return "." in name and name.partition(".")[0] in _IN_PROCESS and not project.callees(ev)


_GUI_TOOLKITS = (*QT_BINDINGS, "tkinter", "wx", "gi", "kivy", "toga", "textual")


def _a_widget(project: Project, cls: str) -> bool:
    """A class of the application's own in a module using a GUI toolkit, or built on one of its
    classes (a window, a widget, a dialog): what it holds are widgets."""
    summary = project.classes[cls]
    return any(name.partition(".")[0] in _GUI_TOOLKITS
               for name in (*project.class_bases(summary), *project.module_of_class(summary).imports.values()))


# A worker's words for doing the work it took (`processed = await process_job(...)`).
_WORKING_WORDS = frozenset({"process", "handle", "deliver", "dispatch", "consume", "perform"})


def _changes_something(project: Project, fn) -> bool:
    """A step whose result the loop keeps (`sent = self.flush_outbox()`, `processed =
    process_next_job()`, `count = len(scheduler.tick())`; not `tz = default_timezone_name()`): named
    for a change (`MUTATING_WORDS`), for doing work or for running, or reaching an effect the catalog
    knows, or writing rows."""
    words = set(name_words(fn.name))
    return bool(words & (MUTATING_WORDS | _WORKING_WORDS | _RUNNING_WORDS)) \
        or bool(project.reachable_effects(fn.qualname)) or _writes_rows(project, fn)


def one_shot_sites(project: Project, table: dict = ONE_SHOT_TIMERS) -> list:
    """The calls of a one-shot timer: a library's (`table`) or one of the application's own
    (`timer_wrappers`)."""
    return calls_named(project, (*table, *{q.rpartition(".")[2] for q in timer_wrappers(project)}))


def one_shot_callback(project: Project, site, own_too: bool = False) -> list | None:
    """The callback a one-shot timer is given (`threading.Timer(30, f)`, `call_later(5, f)`,
    `sched.scheduler().enter(5, 1, f)`, the application's own `timeout_add(5, f)` that arms one:
    `timer_wrappers`), or None: not such a timer (another object's `enter`; the application's own
    `call_later` or `Timer` that arms none, which may only keep what it is given, unless `own_too`:
    a callback it re-arms from its own body is evidence enough)."""
    ev = site.event
    name = project.canonical(ev.name) or ""
    own = project.function_for(name)
    if own is not None and own.qualname in timer_wrappers(project):
        return bound_argument(own, ev, timer_wrappers(project)[own.qualname])
    if ev.attr not in _RUN_LATER or (ev.attr in ("enter", "enterabs") and not name.startswith("sched.")) or (
            not own_too and (own is not None or name in project.classes)):
        return None
    return _library_callback(ev)


def _library_callback(ev) -> list | None:
    """The callback of a library's one-shot timer call: at its place, or by keyword; Qt's
    three-argument `singleShot(msec, context_or_timer_type, slot)` gives it last."""
    at = _RUN_LATER[ev.attr]
    if ev.attr == "singleShot" and len(ev.args) > 2:
        at = 2
    return ev.args[at] if len(ev.args) > at else next((ev.kwargs[k] for k in _CALLBACK_KEYWORDS if k in ev.kwargs), None)


def callback_place(project: Project, site) -> int | None:
    """Where among a one-shot timer call's positional arguments its callback is (None: not there)."""
    own = project.function_for(project.canonical(site.event.name) or "")
    if own is not None and own.qualname in timer_wrappers(project):
        params = [p for p in own.params if p not in ("self", "cls")]
        param = timer_wrappers(project)[own.qualname]
        return params.index(param) if param in params else None
    return _RUN_LATER.get(site.event.attr)


def timer_wrappers(project: Project) -> dict[str, str]:
    """The application's own one-shot timers: functions that arm one with a callable they are
    given (`def call_later(self, delay, func, *args)` arming the loop's with a closure that calls
    `func`; `def timeout_add(self, seconds, method)` arming that with `self._wrapper, method`, a
    function running what it is handed, or `partial(method)`, `lambda: method()`): qualname -> the
    parameter holding the callable. Read from their bodies, a few wrappers deep; a library's timer
    is a timer only where it is no function of the application's. Not one arming it for the next
    turn or in an `except` (`soon(fn)`: `call_later(0, fn)`), nor one whose closure arms itself
    again (`every(60, f)`: a period of its own)."""
    return _wrapper_table(project)[0]


def _wrapper_table(project: Project) -> tuple[dict[str, str], set]:
    """(`timer_wrappers`, the (function, event index) of the calls by which they arm their timer)."""
    def build() -> tuple[dict[str, str], set]:
        out: dict[str, str] = {}
        arming: set = set()
        for _ in range(3):
            found = False
            for site in calls_named(project, (*ONE_SHOT_TIMERS, "connect", *{q.rpartition(".")[2] for q in out})):
                fn, ev = site.function, site.event
                if fn.name == MODULE_CODE or fn.qualname in out or not project.the_applications(site.module):
                    continue
                own = project.function_for(project.canonical(ev.name) or "")
                if own is not None and own.qualname in out:
                    params = [p for p in own.params if p not in ("self", "cls")]
                    at = params.index(out[own.qualname]) if out[own.qualname] in params else -1
                    given = bound_argument(own, ev, out[own.qualname])
                elif own is None and ev.attr in ONE_SHOT_TIMERS and not (
                        ev.attr in ("enter", "enterabs") and not (project.canonical(ev.name) or "").startswith("sched.")):
                    at = _RUN_LATER[ev.attr]
                    given = _library_callback(ev)
                elif own is None and ev.attr == "connect" and _single_shot_qt_timer(project, site):
                    at, given = 0, (ev.args[0] if ev.args else None)  # `timer.timeout.connect(on_timeout)`
                else:
                    continue
                if _next_turn_or_retry(ev):
                    continue
                param = _armed_param(project, site, fn, given, at)
                if param is not None:
                    out[fn.qualname] = param
                    arming.add((fn.qualname, site.index))
                    found = True
            if not found:
                break
        return out, arming
    return project.once("timer wrappers", build)


def _single_shot_qt_timer(project: Project, site) -> bool:
    """`timer.timeout.connect(slot)` on the one Qt timer the function makes, set single-shot there
    (`timer = QTimer(); timer.setSingleShot(True)`): a one-shot timer, armed by `timer.start()`.
    (Two timers made in one function are one name here: which one is single-shot is not known.)"""
    ev = site.event
    name = project.canonical(ev.name) or ""
    if not (name.startswith(QT_BINDINGS) and name.endswith("QTimer().timeout.connect")):
        return False
    timer = (ev.name or "").removesuffix(".timeout.connect")
    made = [e for e in site.function.events if e.kind == "call" and e.name == timer.removesuffix("()")]
    return len(made) == 1 and any(e.kind == "call" and e.name == f"{timer}.setSingleShot" and e.args[:1] == [["lit", True]]
                                  for e in site.function.events)


def _armed_param(project: Project, site, fn, given, at: int) -> str | None:
    """The parameter of `fn` whose callable a timer call inside it arms: passed as the callback
    (also as `partial(func, ...)` or `lambda: func(...)`), called by a closure of `fn` passed as the
    callback (one that does no work of its own and does not arm itself again), or handed after a
    callback that runs what it is handed (`call_later(delay, self._wrapper, method)`)."""
    own_params = [p for p in fn.params if p not in ("self", "cls")]
    if not given:
        return None
    given = _unbound(project, site.module, given)  # `partial(func, *args)`
    if given[0] == "lambda":  # `lambda: func(*args)`: the parameter it calls, on the timer's line
        called = {e.attr for e in fn.events if e.kind == "call" and e.name is None and e.attr in own_params
                  and e.line == site.event.line}
        return called.pop() if len(called) == 1 and given[1:2] and given[1][:1] == ["call"] else None
    if given[0] == "param":
        return given[1] if given[1] in own_params else None
    callback = project.functions.get(target(project, site.module, given) or "")
    if callback is None:
        return None
    if callback.qualname.startswith(f"{fn.qualname}.<locals>."):
        called = {e.attr for e in callback.events if e.kind == "call" and e.name is None and e.attr in own_params}
        if len(called) != 1 or not _only_hands_on(project, callback, next(iter(called))) or _arms_itself(project, callback):
            return None
        return called.pop()
    params = [p for p in callback.params if p not in ("self", "cls")]
    after = site.event.args[at + 1] if 0 <= at and len(site.event.args) > at + 1 else None
    if params and after and after[0] == "param" and after[1] in own_params and _runs(project, callback, params[0], 0) == "once":
        return after[1]
    return None


def _only_hands_on(project: Project, closure, param: str) -> bool:
    """Does a closure do nothing but call `param`, log, and keep the application's own books
    (`func(*args); self.core.flush()`)? A library call (`requests.get(url)`) is work of its own."""
    for ev in closure.events:
        if ev.kind != "call" or (ev.name is None and ev.attr == param) or ev.attr in LOG_METHODS:
            continue
        name = project.canonical(ev.name) or ""
        if project.function_for(name) is None and name.partition("().")[0] not in project.classes:
            return False
    return True


def _arms_itself(project: Project, closure) -> bool:
    """Does a closure arm a one-shot timer with itself (`def tick(): func(); call_later(s, tick)`)?"""
    module = project.function_module.get(closure.qualname)
    return any(ev.kind == "call" and ev.attr in ONE_SHOT_TIMERS and module is not None
               and target(project, module, _library_callback(ev)) == closure.qualname for ev in closure.events)


def _next_turn_or_retry(ev, delay_at: int | None = None) -> bool:
    """A timer call in an `except` clause, or for no delay (its delay, first but for twisted's
    `deferLater(clock, delay, f)`, a literal 0)."""
    at = delay_at if delay_at is not None else _DELAY_AT.get(ev.attr, 0)
    delay = ev.args[at] if len(ev.args) > at else ev.kwargs.get("delay")
    return bool(ev.handlers) or delay == ["lit", 0] or delay == ["lit", 0.0]


def retried_or_next_turn(project: Project, site) -> bool:
    """A one-shot timer armed in an `except` clause (a retry after a failure, which ends once it
    succeeds) or for no delay (`call_later(0, f)`: go on at the next turn, draining a queue a step
    at a time): neither a period nor work started apart."""
    ev = site.event
    own = project.function_for(project.canonical(ev.name) or "")
    timer = ev.attr in _RUN_LATER or (own is not None and own.qualname in timer_wrappers(project))
    return timer and _next_turn_or_retry(ev, None if own is None or own.qualname not in timer_wrappers(project) else 0)


def arms_a_wrapper_timer(project: Project, site) -> bool:
    """Is the call the one by which an application's own timer function arms its timer (what it
    runs is what the function's callers give it)?"""
    return (site.function.qualname, site.index) in _wrapper_table(project)[1]


def _keeps_threads_run(project: Project) -> set:
    """The application's thread classes whose `run` is `threading.Thread`'s, or calls it: through
    `super().run()`, `Thread.run(self)`, or the `run` of a base of its own that keeps it
    (`ExitNotifyThread.run(self)`, which calls `Thread.run(self)`)."""
    def find() -> set:
        memo: dict[str, bool] = {}

        def keeps(qualname: str) -> bool:
            if qualname in memo:
                return memo[qualname]
            memo[qualname] = False  # (while it is decided: a class whose run reaches its own keeps nothing)
            cls = project.classes[qualname]
            bases = project.class_bases(cls)
            run = next((project.functions.get(f"{owner}.run") for owner in (cls.qualname, *bases)
                        if f"{owner}.run" in project.functions), None)
            memo[qualname] = any(base in THREAD_CLASSES for base in bases) and (run is None or any(
                called == "super().run" or (owner := called.removesuffix(".run")) in THREAD_CLASSES
                or (owner in project.classes and owner != run.class_qualname and keeps(owner))
                for ev in run.events if ev.kind == "call"
                and (called := project.canonical(ev.name) or ev.name or "").endswith(".run")))
            return memo[qualname]

        return {cls.qualname for cls in project.classes.values() if keeps(cls.qualname)}
    return project.once("thread classes keeping Thread.run", find)


def _started_thread_classes(project: Project) -> list:
    """The `run` of each thread class the application starts (`self.network = NetworkThread()` ...
    `self.network.start()`), when it is no loop (those are periodic jobs) and no runner of what it
    was constructed with (those jobs are what it is given: its `target=`, a callable)."""
    out = []
    running_targets = _keeps_threads_run(project)
    for owner, loop in _thread_loops(project).items():
        cls, run = project.classes[owner], project.functions[f"{owner}.run"]
        if loop is not None or repeats_forever(project, run) or owner in running_targets or (any(
                method == "__call__" for _, method in _constructor_params_called(project, cls, run, looped=False))
                and not _works_beside(project, cls, run)):
            continue
        # `start` is `Thread.start`: the instance is told by what it is called on, this class or a
        # subclass that keeps its `run`.
        instances = {f"{owner}()": cls, **{f"{sub.qualname}()": sub for sub in project.subclasses(owner)
                                           if f"{sub.qualname}.run" not in project.functions}}
        names = {name for site in calls_named(project, ("start",)) if project.the_applications(site.module)
                 and (name := project.canonical((site.event.name or "").rpartition(".")[0])) in instances}
        for started in (instances[name] for name in sorted(names)):
            # A subclass's `run` is the base's, and the methods it calls on `self` are the
            # subclass's where it overrides them (`ExceptionalThread.run` calling `self.tryRun()`,
            # which `ScalerThread` defines): those are the work started.
            overrides = _overridden_calls(project, run, started) if started is not cls else []
            # Where `run` works beside them (`self.prepare()`, then its own POST), `run` is the work.
            if overrides and _does_more_than_call(project, run, {f.name for f in overrides}):
                overrides = []
            out.extend(f for f in overrides or [run] if f not in out)
    return out


def _does_more_than_call(project: Project, fn, methods: set) -> bool:
    """Does `fn` call anything beyond `self.<methods>()`, a log line and what handles a failure?"""
    mine = f"{fn.class_qualname}()."
    return any(ev.kind == "call" and not ev.handlers and not _logs(project, ev)
               and not ((ev.name or "").startswith(mine) and (ev.name or "")[len(mine):] in methods)
               for ev in fn.events)


def _overridden_calls(project: Project, run, started) -> list:
    """The methods of `started` (a subclass of `run`'s class) below that class that `run` calls on
    `self` (not in an `except`: a step of handling a failure)."""
    mine = f"{run.class_qualname}()."
    below = {c.qualname for c in project._mro(started)} - {c.qualname for c in project._mro(project.classes[run.class_qualname])}
    out = []
    for ev in run.events:
        name = ev.name or ""
        if ev.kind != "call" or ev.handlers or not name.startswith(mine) or "." in name[len(mine):]:
            continue
        owner = next((c for c in project._mro(started) if name[len(mine):] in c.methods), None)
        if owner is not None and owner.qualname in below:
            out.append(project.functions[f"{owner.qualname}.{name[len(mine):]}"])
    return out


def _handed_on(project: Project, fn, site, depth: int = 0) -> list | None:
    """A closure started in place of the callable its enclosing helper was given (`def
    submit_task(task): def _run(): try: task() except Exception: log...; pool.submit(_run)`): the
    work started is what the helper's callers pass (`submit_task(_prune)`), if any. None: `fn`
    is no such closure (or one with an effect of its own, or too deep to follow): it is the work."""
    if "<locals>" not in fn.qualname or fn.qualname.rsplit(".<locals>.", 1)[0] != site.function.qualname:
        return None
    called = {ev.attr for ev in fn.events if ev.kind == "call" and ev.name is None and ev.attr in site.function.params}
    # A closure with an effect of its own (`data = requests.post(url).json(); callback(data)`), or
    # writing rows a few calls down (`await storage.complete_task(task_id)` after the callable
    # given ran), is the work, and the callable it was given only a part of it.
    if len(called) != 1 or depth >= 2 or _works(project, fn) or _writes_rows(project, fn):
        return None
    return _passed_to_helper(project, site.function, called.pop(), depth + 1)


def _works(project: Project, fn) -> bool:
    """Does `fn` make an external effect itself (a call the effect catalog knows)?"""
    return any(project.catalog_effect(ev) is not None for ev in fn.events if ev.kind == "call")


def _run_later(project: Project, runner, site, at: int) -> list:
    """A one-shot timer whose callback runs the callable handed after it (`call_later(delay,
    self.register_callback, partial(callback, *args))`, `register_callback` running its first
    parameter once): the work started is that callable, or what the timer's caller was given."""
    params = [p for p in runner.params if p not in ("self", "cls")]
    if not params or len(site.event.args) <= at + 1 or _runs(project, runner, params[0], 0) != "once" or _works(project, runner):
        return []  # (one with an effect of its own is the work: what it is handed hears of the result)
    value = site.event.args[at + 1]
    value = _unbound(project, site.module, value)  # `partial(callback, *args)`
    fn = project.functions.get(target(project, site.module, value) or "")
    if fn is not None:
        return [(fn, site)]
    return _passed_to_helper(project, site.function, value[1]) if value[0] == "param" else []


def _decorated_by_starter(project: Project, wrapper, name: str) -> list:
    """A decorator of the application's own whose wrapper starts the function it decorates
    (`def async_call(func): def inner(*args): Thread(target=func, args=args).start()`): every
    function written under it is started in the background whenever it is called."""
    if any(ev.attr == "join" and (project.canonical(ev.name) or "").startswith(("threading.", "multiprocessing."))
           for ev in wrapper.events):
        return []  # `t.start(); t.join(5)`: a timeout around the call, which waits for it
    return decorated_by_wrapper(project, wrapper, name)


def decorated_by_wrapper(project: Project, wrapper, name: str) -> list:
    """The functions written under the decorator whose wrapper is `wrapper` and whose parameter
    `name` is the function decorated: `@async_call` (`def async_call(func): def inner(*args): ...`)
    or, made by a factory, `@async_command("sync")` (`def async_command(name): def decorate(func):
    def wrapper(self): ...`)."""
    outer = project.functions.get(wrapper.qualname.rsplit(".<locals>.", 1)[0]) if "<locals>" in wrapper.qualname else None
    if outer is None or not outer.params or outer.params[0] != name:
        return []
    factory = project.functions.get(outer.qualname.rsplit(".<locals>.", 1)[0]) if "<locals>" in outer.qualname else None
    # `@async_command("sync")` names the factory, called: the decorator is what it returns
    decorators = {outer.qualname, *([factory.qualname] if factory is not None else [])}
    return [fn for module in project.modules.values() if project.the_applications(module) for fn in module.functions.values()
            if any(project.canonical(deco_name(d[0])) in decorators for d in fn.decorators)]


def _awaited_work(project: Project, site, value: list, depth: int = 0) -> list | None:
    """`ensure_future(safe_wrapper(coro))`: a coroutine function of the application's own that
    awaits the coroutine it is given (to log its failure, to time it) runs that coroutine: the work
    started is the coroutine given there (`safe_wrapper(self.poll())`), or what the starter's
    callers give (`def safe_ensure_future(coro): ensure_future(safe_wrapper(coro))`). None: `value`
    is no call of such a wrapper."""
    wrapper = project.function_for(canonical_in(project, site.module, value[1]) or "")
    if wrapper is None or not wrapper.is_async or not wrapper.awaits_param or depth > 2 or reaches_an_effect(project, wrapper):
        return None  # (one that works itself, `data = await fut; post(data)`, is the work)
    given = bound_argument(wrapper, SimpleNamespace(args=value[2], kwargs=value[3]), wrapper.awaits_param[0])
    if given and given[0] == "call":
        inner = _awaited_work(project, site, given, depth + 1)
        if inner is not None:
            return inner
        fn = _coroutine_function(project, site.module, given)
        return [(fn, site)] if fn is not None else None
    if given and given[0] == "param" and site.function.name != MODULE_CODE:
        return _passed_to_helper(project, site.function, given[1]) or None
    return None


_GOT_ENTRY = re.compile(r"^(.+\(\)\.\w+)\.get\(\)$")  # `handler = self._handlers.get(kind)`


def _called_work(project: Project, site, value: list) -> list:
    """`create_task(self._run(handler, envelope))` of a coroutine function of the application's
    own that calls a callable it is given once (`await handler(envelope)`, logging its failure)
    and does no work of its own: the work started is that callable, a function or an entry of a
    collection handlers were registered in (`self._handlers.get(kind)`: each registered one)."""
    wrapper = project.function_for(canonical_in(project, site.module, value[1]) or "")
    if wrapper is None or not wrapper.is_async or reaches_an_effect(project, wrapper):
        return []
    out = []
    for param in wrapper.params:
        if param in ("self", "cls") or _runs(project, wrapper, param, 0) != "once":
            continue
        given = bound_argument(wrapper, SimpleNamespace(args=value[2], kwargs=value[3]), param)
        if not given or given[0] != "name":
            continue
        fn = project.functions.get(target(project, site.module, given) or "")
        entry = _GOT_ENTRY.sub(r"\1[]", str(given[1]))
        for handler in [fn] if fn is not None else project.handed_to_collection(entry, keyed=True):
            if project.the_applications(project.function_module[handler.qualname]):
                out.append((handler, site))  # (not a test's: the wrapper stays the work its users give)
    return out


def _passed_to_helper(project: Project, helper, param: str, depth: int = 0) -> list:
    """A helper of the application's own that starts its parameter (`def _spawn_worker(self, func,
    *args): return self._executor.submit(func, *args)`, a constructor making `Thread(target=func)`):
    (function, call site) for what each of its callers passes there, through helpers that hand it
    on (`_spawn_periodic(func)` -> `_spawn_worker(func)`), two deep at most."""
    out = []
    for call in calls_of(project, helper):
        if _waited_for(call):
            continue  # `run_blocking(f).result()`: part of the caller's work
        value = bound_argument(helper, call.event, param)
        fn = project.functions.get(target(project, call.module, value) or "")
        if fn is None and value and value[0] == "call":  # a coroutine handed on: `spawn(self.poll())`
            fn = _coroutine_function(project, call.module, value)
        if fn is not None:
            handed = _handed_on(project, fn, call, depth)
            out.extend(handed if handed is not None else [(fn, call)])
        elif value and value[0] == "param" and depth < 2 and call.function.name != MODULE_CODE:
            out.extend(_passed_to_helper(project, call.function, value[1], depth + 1))
    return out


def _thread_loops(project: Project) -> dict:
    """{thread class qualname: the loop method of its own its `run` hands over to, or None}, for each
    `threading.Thread` / `multiprocessing.Process` subclass that defines `run`."""
    def find() -> dict:
        out = {}
        for cls in project.classes.values():
            run = project.functions.get(f"{cls.qualname}.run")
            if run is None or not any(base in THREAD_CLASSES for base in project.class_bases(cls)):
                continue
            out[cls.qualname] = next((m for m in map(project.named_callee, run.events) if m is not None and m is not run
                                      and m.class_qualname == cls.qualname and repeats_forever(project, m)), None)
        return out
    return project.once("thread classes", find)


def _thread_classes(project: Project, framework: str) -> list[Registration]:
    """`class Poller(threading.Thread)` whose `run` loops until stopped, waiting between rounds."""
    regs = []
    for owner, loop in _thread_loops(project).items():
        cls = project.classes[owner]
        run = project.functions[f"{owner}.run"]
        # `def run(self): self._loop()`: the loop is that method's (its jobs are found by shape,
        # or are what the thread was constructed with).
        # `self._run()` that subclasses define: the loop is the job, whatever it asks of the
        # objects it was given (`self._nodepool.getZK()`).
        repeated = (_constructor_params_called(project, cls, loop or run, looped=True)
                    if not project.template_hooks(run) else [])
        if repeated:  # `InfiniteLoop(func)`: the jobs are what its users construct it with
            regs.extend(_constructed_with(project, cls, repeated, framework))
        elif loop is None and repeats_forever(project, run) and not _is_runner(project, run):
            regs.append(Registration(run.qualname, framework, "schedule", project.class_anchor(cls), kind="periodic",
                                     owner=cls.qualname))
        elif loop is None:
            # `TaskThread(event_id, func).start()`: a task system's thread runs what it is given,
            # once (not a thread whose `run` starts a loop of its own: `self.ping()`, which only
            # asks what it was given for values, `self.get_state()`).
            called = [(value, method) for value, method in _constructor_params_called(project, cls, run, looped=False)
                      if method == "__call__"]
            regs.extend(_constructed_with(project, cls, called, framework, kind="task", trigger="enqueue"))
    return regs


def through_kept_callables(project: Project, reg: Registration) -> list[Registration]:
    """A runner of the application's own: the method a timer or a task runs calls the callable its
    object was constructed with (`FlexTimer(loop, callback)` ... `self.callback(now)`), so the jobs
    are what its users construct it with (also through a helper: `register_timer(cb)` returning
    `FlexTimer(self, cb)`), not the runner's plumbing. A method the runner's class leaves to its
    subclasses (`LoopingCall(self.run)` with an abstract `run`) is read in each of them
    (`EventScannerTask.run` calling `self.scanner()`)."""
    fn = project.functions.get(reg.target)
    if fn is not None and fn.class_qualname:
        impls = project.implementations(fn)
        if impls != [fn] and any(_calls_its_constructor_param(project, impl) for impl in impls):
            return [one for impl in impls for one in _through_kept(project, replace(reg, target=impl.qualname))]
    return _through_kept(project, reg)


def _calls_its_constructor_param(project: Project, fn) -> bool:
    cls = project.classes.get(fn.class_qualname) if fn.class_qualname else None
    return cls is not None and any(method == "__call__" for _, method in _constructor_params_called(
        project, cls, fn, looped=False, settled=True))


def _through_kept(project: Project, reg: Registration) -> list[Registration]:
    fn = project.functions.get(reg.target)
    cls = project.classes.get(fn.class_qualname) if fn is not None and fn.class_qualname else None
    if cls is None:
        return [reg]
    called = [(value, method) for value, method in _constructor_params_called(project, cls, fn, looped=False,
                                                                          settled=True)
              if method == "__call__"]
    if not called:
        return [reg]
    if _works_beside(project, cls, fn):
        return [reg]
    return _constructed_with(project, cls, called, reg.framework, kind=reg.kind, trigger=reg.trigger) or [reg]


def _works_beside(project: Project, cls, fn) -> bool:
    """Does a method that calls what its object was constructed with work itself, it or a method
    of its class it calls (`requests.get(...)`, then `self.on_change(data)`)? Then it is the job,
    and what it was given is a notification, an error callback or a source of values
    (`self._cred_fn()` for the connection's credentials)."""
    kept = set(_kept(project, cls, typed=True))
    methods = [fn, *(m for m in map(project.named_callee, fn.events)
                     if m is not None and m is not fn and m.class_qualname == cls.qualname)]
    return any(_works_itself(project, cls, ev, kept) for m in methods for ev in m.events if ev.kind == "call")


# The process's own collections: what a call on one changes stays in memory.
_IN_MEMORY = ("set()", "dict()", "list()", "collections.deque()", "collections.OrderedDict()", "collections.defaultdict()")


def _works_itself(project: Project, cls, ev, kept: set) -> bool:
    """A call of a timer's method that is work of its own: not through what it was constructed
    with (`self.callback(now)`, `self.loop.call_at(...)`), a method of its own class, a builtin
    (`isinstance`), a wait between rounds, a log line."""
    name = project.canonical(ev.name) or ev.name or ""
    mine = f"{cls.qualname}()."
    for written in (ev.name or "", name):
        if written.startswith(mine) and written[len(mine):].partition(".")[0] in (*kept, *cls.methods):
            return False
    if not name or _logs(project, ev) or _sleeps(project, ev) or ("." not in name and name in BUILTINS) \
            or name.partition(".")[0] in _IN_MEMORY:
        return False  # (`self._running.add(job.id)`: bookkeeping in the process)
    # A helper or class of the application's own that reaches no effect within a few calls
    # (`utils.remove_large_keys(result)`, `errors.CommandFailed(str(e))`) formats or reports: no work.
    own = project.named_callee(ev) or (project.functions.get(f"{name}.__init__") if name in project.classes else None)
    if own is not None or name in project.classes:
        return own is not None and reaches_an_effect(project, own)
    return True


def _hands_on_what_it_is_given(project: Project, fn) -> bool:
    """A helper that runs a callable it is given, or starts a task or thread (`def
    safe_ensure_future(coro): return asyncio.ensure_future(safe_wrapper(coro))`)."""
    if runs_a_parameter(project, fn):
        return True
    module = project.function_module.get(fn.qualname)
    return module is not None and any(
        ev.kind == "call" and ev.attr in (*_STARTERS, *_SUBMITS) and _reads_starter(project, module, ev)
        and any(v and v[0] in ("param", "call") for v in (*ev.args, *ev.kwargs.values())) for ev in fn.events)


def _work_given(project: Project, fn, ev):
    """The function of the application a call hands on as its first argument (`self.update()`,
    `self.update`), if any."""
    module = project.function_module.get(fn.qualname)
    given = ev.args[0] if ev.args else None
    if module is None or not given:
        return None
    if given[0] == "call":
        return project.function_for(canonical_in(project, module, given[1]))
    return project.functions.get(target(project, module, given) or "")


# A step named for showing the operator something (`log_memory_metrics`, `print_summary`,
# `_clear_screen`): output, not work.
_SHOWING_VERBS = frozenset({"log", "print", "show", "display", "echo", "render", "draw", "clear"})


def _shows_by_name(name: str) -> bool:
    words = name_words(name)
    return bool(words) and words[0] in _SHOWING_VERBS


def reaches_an_effect(project: Project, fn) -> bool:
    """Does `fn` make an external effect the catalog knows, itself or through the functions it
    calls (up to ten calls down)? Read while the jobs are still being found, so not through
    `Project.call_effects`, which starts from them."""
    memo = project.once("reaches an effect", dict)
    if fn.qualname not in memo:
        memo[fn.qualname] = any(_works(project, f) for f in project.within_calls(fn, 10))
    return memo[fn.qualname]


def _loops_by_shape(project: Project, framework: str) -> list[Registration]:
    """A function whose body repeats work until stopped, waiting between rounds, is a periodic job
    whoever starts it: a daemon's loop that a deployment runs (`StatisticsAggregator.try_run`), a
    library's scheduler loop its users start (`BaseScheduler.start`), a loop handed to a thread
    pool of the application's own (`maintain_threads({"Sync": self.sync_services})`). Not a
    runner (its work is a callable it was given: the jobs are what its users pass), nor a test's."""
    regs = []
    for module in project.modules.values():
        if not project.the_applications(module):
            continue
        for fn in module.functions.values():
            if not fn.forever or fn.name == MODULE_CODE or fn.generator or not repeats_forever(project, fn, plainly=True) \
                    or (_is_runner(project, fn) and not _hooks_only(project, fn)):
                continue
            cls = project.classes.get(fn.class_qualname) if fn.class_qualname else None
            if cls is not None and _constructor_params_called(project, cls, fn, looped=True):
                continue  # `InfiniteLoop(func).run()`: the jobs are what it is constructed with
            regs.append(Registration(fn.qualname, framework, "schedule", project.anchor_of(fn), kind="periodic"))
        for fn in module.functions.values():
            for named in fn.rounds:
                # `while self.do_loop(): pass`: the round, which works, waits and says whether to go on
                step = project.function_for(project.canonical(named) or named)
                if step is not None and step is not fn and _waits_and_works(project, step):
                    regs.append(Registration(step.qualname, framework, "schedule", project.anchor_of(step), kind="periodic"))
    return regs


def _step_site(project: Project, unit, job: JobSite) -> JobSite:
    """`unit`, run in every round of `job`'s loop, as a step of the job."""
    return JobSite(function=unit.qualname, framework=job.framework, kind="step",
                   path=project.function_module[unit.qualname].path, anchor=project.anchor_of(unit),
                   display=unit.qualname, doc_owner=job.doc_owner, triggers=set(job.triggers))


def _per_item_units(project: Project, step, loops: set | None = None) -> list:
    """What a round's step runs for each item it took (`rows = await conn.fetch(due); for row in
    rows: await fire_schedule(conn, row)`): a function of the application called in a loop of the
    step (one of `loops`, when given), given what a call of the step returned, that changes
    something (`_changes_something`); or, with no loop, given the one item a call took (`task =
    await self.store.lease_next_task(...); await self._execute(task)`). Each item's run is a unit
    of the job's work of its own (one that fails leaves the others done)."""
    units = []
    for ev in step.events:
        # (or one tested for how it went: `if self._process_single_event(event): processed += 1`)
        if ev.kind != "call" or not (ev.statement or ev.in_test) or ev.handlers \
                or (loops is not None and not loops.intersection(ev.loops)):
            continue
        fed = [step.events[i] for ids in (*ev.argsrc, *ev.kwsrc.values()) for i in ids if i < len(step.events)]
        feeders = [f for f in fed if f.kind == "call" and not f.in_test]
        if not feeders or not (ev.loops or any((name_words(f.attr or "") or ("",))[0] in _TAKING_WORDS for f in feeders)):
            continue
        units.extend(callee for callee in _run_by(project, ev, step)
                     if _an_application_unit(project, callee, step) and _changes_something(project, callee)
                     and (ev.statement or _does_the_round(project, callee)))
    return units


def _an_application_unit(project: Project, callee, caller) -> bool:
    """A function of the application's own a loop's round may run as a unit of work: not the caller
    itself, a module's code or a generator, nor one named for asking or showing."""
    module = project.function_module.get(callee.qualname)
    return callee is not caller and callee.name != MODULE_CODE and not callee.generator and module is not None \
        and not asks_by_name(callee.name) and not _shows_by_name(callee.name) and project.the_applications(module)


def _writes_rows(project: Project, fn) -> bool:
    """Does `fn` write to a database, itself or a few calls down (`await conn.execute("UPDATE
    ...")`, `Job.objects.filter(...).update(...)`)?"""
    return any(ev.kind == "call" and db_write(project.canonical(ev.name), ev.attr, ev.sql) not in (None, Confidence.LOW)
               for f in project.within_calls(fn, 5) for ev in f.events)


def _does_the_round(project: Project, fn) -> bool:
    """A call a loop tests that does the round's work and says how it went (`if not
    self.run_once(): stop.wait(poll)`): named for running or processing something, or reaching an
    external effect; not one named for asking (`if self.has_work():`)."""
    return not asks_by_name(fn.name) and (bool(set(name_words(fn.name)) & (_RUNNING_WORDS | _WORKING_WORDS))
                                          or reaches_an_effect(project, fn))


def _hooks_only(project: Project, runner) -> bool:
    """Is every callable a loop repeats an optional hook (a parameter defaulting to None:
    `work(poll=0.5, on_event=None)`) that nothing in the project starts it with or passes? Then, as
    its users mostly leave it, the loop runs its own work."""
    repeated = [p for p in runner.params if p not in ("self", "cls") and _runs(project, runner, p, 0) == "repeats"]
    if not repeated or any(runner.defaults.get(p) != ["lit", None] for p in repeated):
        return False
    if any(fn is runner for fn, _ in _started(project)):
        return False  # (started, it is read at its start: `_runner_at`)
    return not any(bound_argument(runner, site.event, p) is not None for site in calls_of(project, runner) for p in repeated)


def _waits_and_works(project: Project, fn) -> bool:
    """A round of a loop written as one call: it waits (a sleep, or a helper's, outside any
    `except`) and works: reaches an external effect, or is named for running or changing
    something (`do_loop`, `tick`, `process_batch`)."""
    waits = any(ev.kind == "call" and not ev.handlers and (_sleeps(project, ev) or _helper_waits(project, ev))
                for ev in fn.events)
    named = set(name_words(fn.name)) & (_RUNNING_WORDS | _WORKING_WORDS | MUTATING_WORDS)
    return waits and (bool(named) or reaches_an_effect(project, fn))


def _methods_of_registered_objects(project: Project, framework: str) -> list[Registration]:
    """A helper that starts a thread running a method of the object it is given (a thread pool's
    `register(obj)` making `Thread(target=obj.thread_run)`): that method of what each caller
    passes is a job, periodic when it loops until stopped, else a background task."""
    thread_classes = tuple(c.name for c in project.classes.values()
                           if any(b in THREAD_CLASSES for b in project.class_bases(c)))
    regs = []
    for site in calls_named(project, (*_TARGETED, *thread_classes)):
        started = site.event.kwargs.get("target")
        helper = site.function
        if not started or started[0] != "param_attr" or helper.name == MODULE_CODE:
            continue
        _, param, _index, attr = started
        for call in calls_of(project, helper):
            value = bound_argument(helper, call.event, param)
            base = value[1] if value and value[0] == "name" else f"{value[1]}()" if value and value[0] == "call" else None
            method = project.function_for(canonical_in(project, call.module, f"{base}.{attr}")) if base else None
            if method is None or method.name == MODULE_CODE:
                continue
            periodic = repeats_forever(project, method)
            regs.append(Registration(method.qualname, framework, "schedule" if periodic else "enqueue", call.anchor,
                                     kind="periodic" if periodic else "task"))
    return regs


def _kept(project: Project, cls, typed: bool = False) -> dict[str, list]:
    """The attributes `__init__` keeps from its parameters (`self.func = func`), with the Value
    kept; `typed`: also objects of a type it was handed (`self.loop = loop`, `loop: EventLoop`)."""
    init = project.functions.get(f"{cls.qualname}.__init__")
    return {attr: value for attr, _, receiver, _, value in (init.stores if init is not None else ())
            if receiver == "self" and value and (value[0] == "param" or (
                typed and value[0] == "name" and (value[1] or "").endswith("()")))}


def _constructor_params_called(project: Project, cls, run, looped: bool, settled: bool = False) -> list[tuple[list, str]]:
    """The `__init__` parameters (as Values) that `run` calls (`looped`: in a loop that waits
    between rounds; `settled`: not in an `except`, where a callback reports a failure), through
    the attribute that keeps them, with the method called on them: `self.func = func` ...
    `self.func()` (`__call__`), `self.action = action` ... `self.action.run(force)` (`run`)."""
    kept = _kept(project, cls)
    if not kept:
        return []
    loops = _sleeping_loops(project, run) if looped else set()
    calls = [ev for ev in run.events if ev.kind == "call" and (not looped or loops.intersection(ev.loops))
             and not (settled and ev.handlers)]
    for ev in list(calls):  # one method further: `while ...: self.main_loop()`
        method = project.named_callee(ev)
        if method is not None and method.class_qualname == cls.qualname and method is not run:
            calls.extend(e for e in method.events if e.kind == "call" and not (settled and e.handlers))
    out = []
    for ev in calls:
        held, method = _on_the_instance(project, cls, ev)
        if held in kept and "." not in method and not (not method and held in LOG_METHODS) \
                and method not in _HANDED_DATA:  # `self.log(msg)`: a logger; `self.queue.get()`: its work's source
            out.append((kept[held], method or "__call__"))
    if looped and out and any(_own_work(project, cls, ev, kept) for ev in calls):
        # The loop works itself (`self._assignHandlers()`, and asks `self.nodepool.getPoolWorkers()`
        # on the way): the thread is the job, not a runner of what it was given.
        return []
    return out



def _on_the_instance(project: Project, cls, ev) -> tuple[str, str]:
    """(attribute, method called on it) of a call on an attribute of the instance (`self.func()`:
    ("func", ""); `self.action.run()`: ("action", "run")), or ("", "") for a call on anything else
    (`psutil.Process().name()` is no `self.name`)."""
    owner, sep, rest = (ev.name or "").rpartition("().")
    if not sep or not any(owner == c.qualname for c in project._mro(cls)):
        return "", ""
    held, _, method = rest.partition(".")
    return held, method


# Asking a callable object to run (`self.action.run()`, `self.job.execute()`), not using it.
_RUNNING_WORDS = frozenset({"run", "execute", "start", "call", "process", "handle", "perform", "do", "tick", "work",
                            "fire", "invoke", "apply", "trigger", "step", "cycle", "loop", "main"})


def _own_work(project: Project, cls, ev, kept: dict, depth: int = 0) -> bool:
    """A call in a thread's loop that works itself: an external effect or a call of a client the
    instance made for itself (`self.zk.lockNode()`), made there or by the project's code it calls
    (a few calls down); not through what the constructor kept, nor a condition, a wait, a log, or
    bookkeeping (`self.runs.append(...)`, `jitter(30)`)."""
    held, method = _on_the_instance(project, cls, ev)
    if ev.in_test or _sleeps(project, ev) or _logs(project, ev):
        return False
    if held in kept:
        # What it was given, called or asked to run (`self.func()`, `self.action.run()`), is not
        # its own work; a client it was given, used deeper (`self.api.connector.ping(...)`) or for
        # something else than running (`self.backend.claim(job_id)`), is.
        return "." in method or (bool(method) and not set(name_words(method)) & _RUNNING_WORDS)
    method = project.named_callee(ev)
    if method is None:
        name = ev.name or ""
        # `requests.post(...)`; a client the instance made for itself (`self.zk.lockNode(...)`),
        # not a container's bookkeeping (`self.runs.append(...)`).
        return project.catalog_effect(ev) is not None or (
            name.startswith(f"{cls.qualname}().") and name.count(".") > cls.qualname.count(".") + 1
            and ev.attr not in BOOKKEEPING_METHODS)
    return depth < 3 and any(_own_work(project, cls, e, kept, depth + 1) for e in method.events if e.kind == "call")


def _constructed_with(project: Project, cls, params: list, framework: str, kind: str = "periodic",
                      trigger: str = "schedule") -> list[Registration]:
    """What the users of a runner class construct it with: `InfiniteLoop(poll)` runs `poll`,
    `Scheduler(Cleanup(), cycle=...)` runs what the loop calls on it, `Cleanup.run` (also through
    a subclass of the runner that keeps its `__init__` and `run`). The runner is not a job."""
    regs = []
    if not params:
        return regs
    init = project.functions[f"{cls.qualname}.__init__"]
    same = [cls] + [sub for sub in project.subclasses(cls.qualname) if "run" not in sub.methods and "__init__" not in sub.methods]
    for runner in same:
        for site in calls_named(project, (runner.name,)):
            if project.canonical(site.event.name) != runner.qualname:
                continue
            for (_, name, _), method in params:
                value = bound_argument(init, site.event, name)
                if value and value[0] == "param" and method == "__call__" and site.function.name != MODULE_CODE:
                    regs.append(Registration("", framework, trigger, site.anchor, kind=kind,
                                             forward=(site.function.qualname, value[2], value[1])))
                elif (fn := called_function(project, site.module, value, method)) is not None:
                    regs.append(Registration(fn.qualname, framework, trigger, site.anchor, kind=kind))
                elif method == "__call__" and (given := _decorated_param(project, site.module, value)) is not None:
                    # in a decorator's wrapper: `Runner(partial(func, self)).start()` runs each decorated function
                    regs.extend(Registration(fn.qualname, framework, trigger, site.anchor, kind=kind)
                                for fn in decorated_by_wrapper(project, site.function, given))
    return regs


def _decorated_param(project: Project, module, value: list | None) -> str | None:
    """The enclosing decorator's parameter a Value passes on, as it is or bound by `partial(func, self)`."""
    value = _unbound(project, module, value)
    return value[1] if value and value[0] == "closure" else None


def _unbound(project: Project, module, value: list | None) -> list | None:
    """The callable a `functools.partial(func, *args)` Value binds; any other Value as it is."""
    if value and value[0] == "call" and (canonical_in(project, module, value[1]) or "").rpartition(".")[2] == "partial" \
            and value[2]:
        return value[2][0]
    return value


def _coroutine_function(project: Project, module, value: list) -> FunctionSummary | None:
    """The coroutine function of the application's own a call Value makes a coroutine of
    (`self.poll()`), or None."""
    fn = project.function_for(canonical_in(project, module, value[1]) or "")
    return fn if fn is not None and fn.is_async else None


def _runner_registrations(project: Project, framework: str) -> list[Registration]:
    """A periodic job for whatever the callers of a runner pass for the parameter it repeats
    (expanded by `Project._expand_forwards`, like any helper that enqueues its parameter)."""
    regs = []
    for fn in project.functions.values():
        if fn.name == MODULE_CODE or "<locals>" in fn.qualname:
            continue
        for index, param in enumerate(fn.params):
            if param not in ("self", "cls") and _runs(project, fn, param, 0) == "repeats":
                regs.append(Registration("", framework, "schedule", project.anchor_of(fn), kind="periodic",
                                         forward=(fn.qualname, index, param)))
    return regs


def _is_runner(project: Project, fn) -> bool:
    """A loop whose work is a callable it was given (or, for a closure, its enclosing function
    was given): the jobs are what the callers pass."""
    if "<locals>" in fn.qualname:
        outer = project.functions.get(fn.qualname.rsplit(".<locals>.", 1)[0])
        return outer is not None and _is_runner(project, outer)
    return any(_runs(project, fn, p, 0) == "repeats" for p in fn.params if p not in ("self", "cls"))


def runs_a_parameter(project: Project, fn) -> bool:
    """Does `fn` run a callable one of its parameters brings, itself or through what it hands it to?"""
    return any(_runs(project, fn, p, 0) is not None for p in fn.params if p not in ("self", "cls"))


def runs_parameter(project: Project, fn, param: str) -> bool:
    """Does `fn` run the callable its parameter `param` brings (`def run_with_lock(func, key):
    ... func()`)?"""
    return _runs(project, fn, param, 0) is not None


def _runs(project: Project, fn, param: str, depth: int) -> str | None:
    """How `fn` runs the callable its parameter `param` brings: "repeats" (called in a loop that
    runs until stopped, not returned from), "once", or None (not called)."""
    memo = project.once("runners", dict)
    key = (fn.qualname, param)
    if key in memo:
        return memo[key]
    memo[key] = None  # a cycle runs nothing more
    found = None
    for g in (fn, *nested_functions(project).get(fn.qualname, ())):
        mine = ("param", "closure") if g is not fn else ("param",)
        forever = _sleeping_loops(project, g)
        for i, ev in enumerate(g.events):
            if ev.kind != "call":
                continue
            if ev.in_test:
                continue  # `if ready(): return`: a condition polled, not work repeated
            if ev.name is None and ev.attr == param:
                if (not ev.statement or ev.kept) and (asks_by_name(param) or _names_a_maker(param)
                                                      or _feeds_work(project, g, i)):
                    # `write_heartbeat(redis, get_data())`, `conn = connect(); claim(conn)`: a source
                    # of values for the loop's own work
                    continue
                how = "once"
            elif _mentions(ev, param, mine):
                how = _runs_through(project, ev, param, mine, depth)
            else:
                continue
            if how is None:
                continue
            # Not `return fn()`, nor `fn(); break` (run once, when a condition came true).
            looped = forever.intersection(ev.loops) and ev.exit_line != ev.line and not any(
                loop == ev.loops[-1] and arms == ev.branch and line > ev.line and not failed
                for loop, arms, line, failed in g.breaks)
            found = "repeats" if how == "repeats" or looped else found or "once"
            if found == "repeats":
                memo[key] = found
                return found
    memo[key] = found
    return found


def _feeds_work(project: Project, fn, index: int, depth: int = 0) -> bool:
    """Is what the call at `index` returns handed to a call of the function's that works (reaches
    an external effect), itself or through what is made of it (`claim(kinds=allowed(kinds_fn()))`):
    the callable it was given only supplies values?"""
    for at, ev in enumerate(fn.events):
        if ev.kind == "call" and any(index in src for src in (*ev.argsrc, *ev.kwsrc.values())):
            callee = project.named_callee(ev)
            if callee is not None and reaches_an_effect(project, callee):
                return True
            if depth < 3 and at != index and _feeds_work(project, fn, at, depth + 1):
                return True
    return False


# The last word of a callable's name that says it makes what the work uses (`conn_factory`,
# `session_maker`, `client_provider`).
_MAKERS = frozenset({"factory", "maker", "builder", "provider", "supplier", "getter", "opener"})


def _names_a_maker(name: str) -> bool:
    words = name_words(name)
    return bool(words) and words[-1] in _MAKERS


def _mentions(ev, param: str, mine: tuple) -> bool:
    """Does the call pass the parameter on, at any depth of its arguments (cheap, before any lookup)?"""
    stack = [*ev.args, *ev.kwargs.values()]
    while stack:
        value = stack.pop()
        if not value:
            continue
        if value[0] in mine and value[1] == param:
            return True
        if value[0] == "seq":
            stack.extend(value[1])
        elif value[0] == "call":
            stack.extend([*value[2], *value[3].values()])
    return False


def nested_functions(project: Project) -> dict[str, list]:
    """Function -> the functions defined inside it, at any depth."""
    def build() -> dict[str, list]:
        out: dict[str, list] = {}
        for q, f in project.functions.items():
            outer = q
            while ".<locals>." in outer:
                outer = outer.rsplit(".<locals>.", 1)[0]
                out.setdefault(outer, []).append(f)
        return out
    return project.once("nested functions", build)


def _runs_through(project: Project, ev, param: str, mine: tuple, depth: int) -> str | None:
    """A call that hands the parameter on to a function that runs it: `helper(fn)`,
    `Thread(target=helper, args=(fn,))`, `create_task(helper(fn))`."""
    if depth > 4:
        return None
    calls = [(project.named_callee(ev) or _decorator_made(project, ev), ev.args, ev.kwargs)]
    started = ev.kwargs.get("target") if ev.attr in _TARGETED else ev.args[0] if ev.args else None
    if started and started[0] == "name" and ev.attr in _TARGETED:
        args = ev.kwargs.get("args")
        calls.append((project.function_for(project.canonical(started[1])), args[1] if args and args[0] == "seq" else [], {}))
    elif started and started[0] == "call":
        calls.append((project.function_for(project.canonical(started[1])), started[2], started[3]))
    best = None
    for callee, args, kwargs in calls:
        if callee is None:
            continue
        offset = 1 if callee.class_qualname and callee.params and callee.params[0] in ("self", "cls") else 0
        bound = [(k, v) for k, v in kwargs.items()] + [
            (callee.params[i + offset], v) for i, v in enumerate(args) if i + offset < len(callee.params)]
        for name, value in bound:
            if value and value[0] in mine and value[1] == param:
                how = _runs(project, callee, name, depth + 1)
                if how == "repeats":
                    return how
                best = best or how
    return best


def _decorator_made(project: Project, ev) -> FunctionSummary | None:
    """`work_queue(sleep_time=60)(run_once)`: the decorator a factory of the application's own
    returns, called with the function: the one function defined in the factory's body."""
    name = project.canonical(ev.name) or ""
    factory = project.function_for(name[:-2]) if name.endswith("()") else None
    if factory is None:
        return None
    made = [fn for fn in nested_functions(project).get(factory.qualname, ())
            if fn.qualname.rpartition(".<locals>.")[0] == factory.qualname]
    return made[0] if len(made) == 1 else None


def _reads_starter(project: Project, module, ev) -> bool:
    name = project.canonical(ev.name) or ""
    if ev.attr == "create":
        return name in _LIBRARY_STARTERS
    if ev.attr == "start":
        return name in _TASK_GROUP_STARTS
    if ev.attr in _SUBMITS:  # an executor's, not any `submit` (a form's, a client's): a library's
        # executor, or a class named one (`FuturesAwareThreadPoolExecutor`, `BoundedPoolExecutor`)
        return ev.attr == "run_in_executor" or (name.startswith(_EXECUTOR_PREFIXES) and "Executor()." in name) \
            or name.endswith("Executor().submit")
    if name.startswith(_STARTER_PREFIXES):
        return True
    # `self.loop.create_task(...)`, `tg.create_task(...)` on a loop or task group of unknown type;
    # not the project's own `create_task`, nor another library's object (a Cloud Tasks client's).
    if ev.attr != "create_task":
        return False
    own = project.function_for(name)
    if own is not None:  # the project's own: a starter only when it hands its parameter to one
        return any(e.kind == "call" and e.attr in ("create_task", "ensure_future") and e.args and e.args[0][0] != "call"
                   for e in own.events)
    return not name.rpartition(".create_task")[0].endswith("()")


def _sleeping_loops(project: Project, fn) -> set:
    """The loops of `fn` that run until stopped and wait between rounds (a `while True:` that reads
    a file chunk by chunk until it breaks is neither, and one that returns is waiting for a result:
    `while True: task = get_task(); if task.done: return task; sleep(1)`)."""
    forever = _until_stopped(fn)
    return {loop for ev in fn.events if ev.kind == "call" and (_sleeps(project, ev, takes=False) or _helper_waits(project, ev))
            for loop in forever.intersection(ev.loops)}


def _helper_waits(project: Project, ev, depth: int = 0) -> bool:
    """A call to an application function that waits each time it runs (a throttle:
    `self._throttle(self.process, 5)` runs the work and sleeps out the rest of the round), or
    that calls one: a sleep at the top of its body, in no branch, `try` or `except`, nor in a loop
    of a helper that has a `try` or can return from the loop (a sleep between retries waits only on
    failure; one in a branch, such as a pause before a restart, only sometimes); a countdown loop
    waits each time (`while duration > 0: self.heartbeat(); self.sleep(5)`). The call to the
    helper may sit in a branch (each state's round waits in its own throttle). Up to three calls
    down."""
    if depth > 2:
        return False
    memo = project.once("helper waits", dict)
    for fn in _run_by(project, ev):
        key = (fn.qualname, depth)  # the depth left decides: one answer per depth, never a guess
        found = memo.get(key)
        if found is None:
            # A sleep in a loop of a helper with no `try` waits each time too (`sleep_with_heartbeat`:
            # `while duration > 0: self.heartbeat(); self.sleep(step)`), unless the loop can be left
            # early (a poll until data arrives); in a retry loop it waits only after a failure.
            # A `try` that only hears the timeout ending a wait (`try: await asyncio.wait_for(
            # stop.wait(), timeout=seconds) except TimeoutError: return`) is no retry.
            timeouts = {h.try_id for h in fn.handlers
                        if h.types and all((t or "").rpartition(".")[2] in _TIMEOUTS for t in h.types)}
            tried = [bool(e.handlers or set(e.tries) - timeouts) for e in fn.events]
            left = {loop for loop, *_ in fn.breaks} | set(fn.returning)
            # A helper named for sleeping sleeps, however it cuts its sleep short
            # (`_interruptible_sleep(seconds)`: naps until a deadline or a stop). So does one named for polling or waiting, whose sleep comes when it found nothing
            # (`_poll_for_queues`: `if not self._did_work: time.sleep(interval)`).
            # One named for listening waits in its take of the next message, told how long
            # (`_listen_for_broadcast_task`: `pubsub.get_message(timeout=1.0)`).
            first = name_words(fn.name)[:1]
            named = _named_for_sleeping(fn) or first in (("poll",), ("wait",), ("listen",))
            found = memo[key] = (named and any(
                e.kind == "call" and not e.handlers and _sleeps(project, e, takes=first == ("listen",))
                for e in fn.events)) or any(
                e.kind == "call" and not tried[i]
                and not (e.loops and (any(tried) or set(e.loops) & left))
                and ((not e.branch and _sleeps(project, e, takes=False)) or _helper_waits(project, e, depth + 1))
                for i, e in enumerate(fn.events))
        if found:
            return True
    return False


_TIMEOUTS = frozenset({"TimeoutError", "Timeout", "TimeoutExpired"})
_SLEEP_WORDS = frozenset({"sleep", "pause", "nap"})


def _named_for_sleeping(fn) -> bool:
    return bool(_SLEEP_WORDS.intersection(name_words(fn.name)))


def _only_waits(project: Project, ev, depth: int = 0) -> bool:
    """A helper that does nothing but wait (`def pause(): time.sleep(3600)`), itself or through
    helpers of its own that only wait: no work."""
    run = _run_by(project, ev)
    return depth <= 2 and all(
        all(e.kind != "call" or _sleeps(project, e) or _logs(project, e) or _only_waits(project, e, depth + 1)
            for e in fn.events)
        for fn in run) and bool(run)


def _run_by(project: Project, ev, fn=None) -> list:
    """What a call in a loop's round runs: each callee, or, of a method its class leaves to
    subclasses (`while self.should_keep_looping(): self.tick()`), the subclasses' implementations,
    where the round's work and wait are; of a callback the instance holds (`await
    self.on_discovered(server)`), what its users set there (`set_callbacks(on_discovered=...)`)."""
    found = [impl for named in project.callees(ev) for impl in project.implementations(named)]
    cls = project.classes.get(fn.class_qualname) if fn is not None and fn.class_qualname else None
    if found or cls is None:
        return found
    held, method = _on_the_instance(project, cls, ev)
    return _set_callbacks(project, cls, held) if held and not method else []


def _set_callbacks(project: Project, cls, attr: str) -> list:
    """The functions the application hands a method of `cls` (not its constructor) that keeps the
    parameter in `self.<attr>`: `def set_callbacks(self, on_lost=None): self.on_lost = on_lost`
    called as `engine.set_callbacks(on_lost=self._on_server_lost)`."""
    out = []
    for owner in project._mro(cls):
        for name in owner.methods:
            setter = project.functions.get(f"{owner.qualname}.{name}")
            if setter is None or name == "__init__":
                continue
            for param in {v[1] for a, _, receiver, _, v in setter.stores
                          if a == attr and receiver == "self" and v and v[0] == "param"}:
                for site in calls_of(project, setter):
                    given = project.functions.get(target(project, site.module, bound_argument(setter, site.event, param)) or "")
                    if given is not None and given not in out:
                        out.append(given)
    return out


def _logs(project: Project, ev) -> bool:
    """Output for a person: a log line, a print, a terminal write (a spinner's `sys.stdout.write`)."""
    name = project.canonical(ev.name) or ""
    return name == "print" or name.startswith(("logging.", "sys.stdout.", "sys.stderr.")) or ev.attr in LOG_METHODS


def _until_stopped(fn) -> set:
    """The loops of `fn` that run until stopped, less those that end once something holds: a
    loop that returns (waiting for a result) or raises under a condition of its own (`if status
    is not None: raise RuntimeError(...)`, a start-up watch), not re-raising what it caught (in
    the handler, or kept for later: `raise error`)."""
    if not fn.forever:
        return set()
    forever = set(fn.forever) - set(fn.returning)
    for ev in fn.events:
        # (`if self._stop_requested: raise KeyboardInterrupt()` is how it is stopped; `if error:
        # raise error`, a failure the round kept, is how it fails: no condition of its own)
        if ev.kind == "raise" and forever.intersection(ev.loops) and not is_cancellation(ev.name) \
                and not (ev.name is None and (ev.attr or "")[:1].islower()):
            for loop in forever.intersection(ev.loops):
                inside = [i for i, _ in ev.branch if i > loop]
                caught = [i for i in (*ev.tries, *ev.handlers) if i > loop]
                if inside and not caught:
                    forever.discard(loop)
    return forever


def _sleeps(project: Project, ev, takes: bool = True) -> bool:
    """A wait between rounds: a sleep, `stop.wait(5)`, or (`takes`) a queue's `get(timeout=0.5)`
    (or `get()` on a queue known as one) or `pop(blocking=True, timeout=1)`
    (a worker taking the next item, waking up to check whether it should stop). A callable a
    worker calls with what it took is a handler of those items, not work repeated each round."""
    name = project.canonical(ev.name) or ""
    # `stop.wait(5)` waits five seconds; `asyncio.wait(tasks)` waits for the tasks, not for time.
    timed = "timeout" in ev.kwargs or (bool(ev.args) and name not in _WAITS_FOR_TASKS)
    if name in _SLEEPS and ev.args and lit(ev.args[0], None) == 0:
        return False  # `sleep(0)` yields to other work: no wait between rounds
    # A `.get(timeout=1.0)` with nothing else is a queue's, whatever holds it (a queue handed to a
    # thread's constructor has no type here); `requests.get(url, timeout=5)` names what it gets.
    # A work queue's blocking `pop(blocking=True, timeout=1)` (Redis-backed queues) waits the same way.
    queue_get = name in _QUEUE_GETS or (ev.attr in ("get", "pop") and not ev.args and not name.startswith(_RESULT_GETS))
    # Redis's blocking pops wait for the next item of a list (`rc.blpop([FIFO])`), and a stream's
    # read given `block=` for the next entry, whatever holds the client.
    blocking_pop = ev.attr in _BLOCKING_POPS or (ev.attr in ("xread", "xreadgroup") and "block" in ev.kwargs)
    # kombu's and py-amqp's connection waits for the next message for its consumers' callbacks.
    blocking_pop = blocking_pop or (ev.attr == "drain_events" and "timeout" in ev.kwargs)
    # A pub/sub's wait for its next message, told how long (redis-py's `get_message(timeout=1.0)`),
    # and an MQTT client's network loop (paho's `client.loop(timeout=1.0)`: it waits for traffic,
    # running the message callbacks).
    blocking_pop = blocking_pop or (ev.attr == "get_message" and "timeout" in ev.kwargs) \
        or (name == "paho.mqtt.client.Client().loop" and bool(ev.args or ev.kwargs))
    # A call named for taking the next item, told how long to wait for one (`await
    # broker.dequeue(queues, timeout=2.0)`, `consumer.receive(timeout=1)`), waits for it.
    blocking_pop = blocking_pop or (bool(ev.attr) and bool(_WAIT_KEYWORDS.intersection(ev.kwargs))
                                    and (name_words(ev.attr) or ("",))[0] in _TAKING_WORDS)
    # `await asyncio.wait_for(self._shutting_down.wait(), timeout=interval)`: a sleep that stopping
    # cuts short, or that an event of the library's wakes early (`stop: asyncio.Event`, read by its
    # type); not a wait for something of no known kind that brings work: `renavigated.wait()`.
    waited = str(ev.args[0][1]) if ev.args and ev.args[0][0] == "call" else ""
    stop_wait = (name == "asyncio.wait_for" and ("timeout" in ev.kwargs or len(ev.args) > 1)
                 and waited.endswith(".wait") and (names_stopping(waited.rpartition(".")[0].rpartition(".")[2])
                                                   or project.canonical(waited) in _EVENT_WAITS))
    # A library's clock named for sleeping, given how long (`await self._clock.sleep_async(delay)`,
    # an injectable clock's), sleeps; the application's own such methods are read by their bodies.
    library_sleep = bool(ev.attr and (ev.args or ev.kwargs) and "sleep" in name_words(ev.attr)
                         and project.function_for(name) is None and name.partition(".")[0] not in analysed_tops(project))
    # `select.select([wakeup_fd], [], [], seconds)`: a sleep a self-pipe can cut short.
    selects = name == "select.select" and (len(ev.args) > 3 or "timeout" in ev.kwargs)
    # ... and a selector's `select(timeout)`, waiting for its descriptors or the time given.
    selects = selects or (_SELECTOR.fullmatch(name) is not None and bool(ev.args or "timeout" in ev.kwargs))
    # `await asyncio.wait({stop_task, read_task}, return_when=FIRST_COMPLETED)`: a race of what the
    # round started (the next message, a sleep) with the stop event, waiting for the first to end.
    given = ev.kwargs.get("return_when")
    raced = name in _WAITS_FOR_TASKS and bool(given) and str(given[1]).endswith("FIRST_COMPLETED")
    # A program that waits, run to its end (`subprocess.run(["inotifywait", "-e", "CREATE", spool])`,
    # `["sleep", "60"]`): the next round starts when it returns.
    program = ev.args[0] if ev.args and name in _SUBPROCESS_RUNS else None
    runs_a_wait = bool(program and program[0] == "seq" and program[1]
                       and lit(program[1][0], "").rpartition("/")[2] in _WAITING_PROGRAMS)
    # A queue known as one waits for its next item, given a timeout or not (`await self._queue.get()`);
    # an event of the library's, untimed, waits to be woken for the next round (`self._wake.wait()`
    # after `self._wake.clear()`: a worker others wake when there is work).
    return name in _SLEEPS or (ev.attr == "wait" and (timed or name in _EVENT_WAITS)) or stop_wait or library_sleep \
        or selects or runs_a_wait or raced or (
        takes and (blocking_pop or (queue_get and "timeout" in ev.kwargs) or (name in _QUEUE_GETS and not ev.args)))


_SELECTOR = re.compile(r"selectors\.\w*Selector\(\)\.select")
_SUBPROCESS_RUNS = ("subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output")
_WAITING_PROGRAMS = frozenset({"inotifywait", "sleep", "fswatch"})
_EVENT_WAITS = ("asyncio.Event().wait", "asyncio.locks.Event().wait", "threading.Event().wait", "anyio.Event().wait",
                "trio.Event().wait")
# Exceptions saying there is nothing to take (Django's `DoesNotExist`, `queue.Empty`, SQLAlchemy's
# `NoResultFound`): a poll waiting in their `except` waits for work, it retries no failure.
_EMPTY = re.compile(r"(DoesNotExist|Empty|NoResultFound)$")


def repeats_forever(project: Project, fn, plainly: bool = False) -> bool:
    """A loop that runs until stopped, sleeps between rounds (or waits for a stream's next
    message) and does some work in them (a loop that only sleeps is a process waiting to be
    interrupted, not a job). `plainly`, for a loop
    nothing shown starts: not left once something of its own holds (`if status == "done":
    break`), nor a retry loop (`while True: try: post(); break; except: sleep(5)`); each round
    waits outside an `except` (or in one for an empty queue: `except Job.DoesNotExist: sleep(5)`)
    and works outside a condition, beyond a builtin's call."""
    forever = _until_stopped(fn)
    if plainly:
        forever = forever - set(fn.ended) - {loop[0] for loop in fn.retry_loops}
    if not forever:
        return False
    sleeps = bool(forever.intersection(fn.streams))  # each round waits for the stream's next message
    works = False
    idle = {h.try_id for h in fn.handlers if any(_EMPTY.search(t) for t in h.types)} if plainly else set()
    for ev in fn.events:
        if ev.kind != "call" or not forever.intersection(ev.loops) or (plainly and not idle.issuperset(ev.handlers)):
            continue
        if _sleeps(project, ev):
            # Not a last wait before leaving (`if resets > 3: await asyncio.sleep(delay); break`):
            # no next round follows it.
            sleeps = sleeps or not (ev.branch and any(loop == ev.loops[-1] and arms == ev.branch and line > ev.line
                                                      for loop, arms, line, _ in fn.breaks))
        elif not _logs(project, ev) and (project.canonical(ev.name) or "").partition("#")[0] not in _TAKEN \
                and not _stays_in_process(project, ev):
            # (calling what a queue gave, `fn(*args)` after `fn, args = work.get()`, runs its items:
            # the jobs are what is put there, `item_queues`; reading the clock is no work:
            # `remaining = deadline - time.monotonic()` in a nap cut short by a stop flag)
            waits = _helper_waits(project, ev)
            sleeps = sleeps or waits  # (a helper's wait in the loop's test too: `while await self.sleep(5):`)
            if not (plainly and (ev.in_test or (project.canonical(ev.name) or "") in BUILTINS)):
                works = works or not (waits and _only_waits(project, ev))
    return sleeps and works


FRAMEWORK = BackgroundLoops()
