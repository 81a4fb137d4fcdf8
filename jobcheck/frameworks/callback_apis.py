"""Libraries that run a function handed to them later, in the background: a catalog, as data.

    background_tasks.add_task(send_welcome, user.email)          # FastAPI / Starlette, after the response
    channel.basic_consume(queue="orders", on_message_callback=handle_order)   # pika
    subscriber.subscribe(path, callback=on_event)                 # Google Cloud Pub/Sub
    Clock.schedule_interval(self.refresh, 30)                     # kivy, and GLib, Home Assistant...

    @tasks.loop(minutes=5)                                        # discord.py
    async def refresh_feeds(self): ...

    @background(schedule=60)                                      # django-background-tasks
    def notify_user(user_id): ...

Each entry names the library's call (resolved, so `BackgroundTasks` as a parameter annotation
counts), where the function goes, and what kind of job it makes. The function is a job whatever
it is called, a method or a module function; a call whose argument is not a function of the
project (a lambda, a value computed at run time) makes none.

Retries: none of these callbacks is run again when it raises, except by django-background-tasks,
which runs a failed task again up to `BACKGROUND_TASK_MAX_ATTEMPTS` times in all (25 by
default), waiting attempts**4 + 5 seconds. A message consumer that raises before acknowledging
sees the message again (the broker redelivers it): whether that happens depends on how it acks,
which is not read here, so no retry is assumed.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..analysis.decorators import decorated_functions
from ..analysis.delivery import AT_MOST_ONCE, Delivery
from ..analysis.jobs import Registration, RetryLimit
from ..analysis.names import canonical_in, target
from ..analysis.program import calls_named
from ..analysis.project import Project
from ..analysis.values import lit
from .base import job_from_function, matches, policy


@dataclass(frozen=True)
class CallbackCall:
    """A call that runs the function given at one of `positions` or `keywords` (whichever names
    a function of the project); a list there (`callbacks=[a, b]`) gives each."""

    names: tuple[str, ...]  # resolved names; a trailing `*` is a prefix, `*` inside any run
    positions: tuple[int, ...]
    keywords: tuple[str, ...]
    kind: str
    trigger: str


CALLS = (
    # FastAPI / Starlette: run in the same process after the response is sent; a crash loses it.
    CallbackCall(("fastapi.BackgroundTasks().add_task", "fastapi.background.BackgroundTasks().add_task",
                  "starlette.background.BackgroundTasks().add_task", "starlette.background.BackgroundTask",
                  "litestar.background_tasks.BackgroundTask", "litestar.background_tasks.BackgroundTasks().add_task"),
                 (0,), ("func", "fn"), "task", "enqueue"),
    # Message consumers: pika (`basic_consume(queue, on_message_callback)`; before 1.0 the callback
    # came first), aio-pika, kombu, Google Cloud Pub/Sub, NATS, paho-mqtt.
    CallbackCall(("pika.*.basic_consume",), (1, 0), ("on_message_callback", "consumer_callback"), "consumer", "enqueue"),
    CallbackCall(("aio_pika.*.consume",), (0,), ("callback",), "consumer", "enqueue"),
    CallbackCall(("kombu.Consumer", "kombu.messaging.Consumer", "kombu.*.Consumer"), (), ("callbacks", "on_message"),
                 "consumer", "enqueue"),
    CallbackCall(("google.cloud.pubsub_v1.*.subscribe", "google.cloud.pubsub.*.subscribe"), (1,), ("callback",),
                 "consumer", "enqueue"),
    CallbackCall(("nats.*.subscribe",), (2,), ("cb",), "consumer", "enqueue"),
    CallbackCall(("paho.mqtt.client.Client().message_callback_add",), (1,), ("callback",), "consumer", "enqueue"),
    # Repeating timers of event loops and application frameworks.
    CallbackCall(("kivy.clock.Clock.schedule_interval",), (0,), ("callback",), "periodic", "schedule"),
    CallbackCall(("gi.repository.GLib.timeout_add", "gi.repository.GLib.timeout_add_seconds",
                  "gi.repository.GObject.timeout_add", "gi.repository.GObject.timeout_add_seconds",
                  "gobject.timeout_add", "gobject.timeout_add_seconds", "glib.timeout_add", "glib.timeout_add_seconds"),
                 (1,), ("function",), "periodic", "schedule"),
    CallbackCall(("twisted.application.internet.TimerService",), (1,), ("callable",), "periodic", "schedule"),
    CallbackCall(("homeassistant.helpers.event.async_track_time_interval", "homeassistant.helpers.event.track_time_interval",
                  "homeassistant.helpers.event.async_track_time_change", "homeassistant.helpers.event.track_time_change",
                  "homeassistant.helpers.event.async_track_utc_time_change", "homeassistant.helpers.event.track_utc_time_change"),
                 (1,), ("action",), "periodic", "schedule"),
    CallbackCall(("errbot.BotPlugin().start_poller", "errbot.botplugin.BotPlugin().start_poller"), (1,), ("method",),
                 "periodic", "schedule"),
)


@dataclass(frozen=True)
class JobDecorator:
    names: tuple[str, ...]
    kind: str
    trigger: str


DECORATORS = (
    JobDecorator(("discord.ext.tasks.loop",), "periodic", "schedule"),
    JobDecorator(("uwsgidecorators.timer", "uwsgidecorators.rbtimer", "uwsgidecorators.cron",
                  "uwsgidecorators.filemon"), "periodic", "schedule"),
    JobDecorator(("uwsgidecorators.spool", "uwsgidecorators.spoolforever", "uwsgidecorators.spoolraw",
                  "uwsgidecorators.mulefunc"), "task", "enqueue"),
    JobDecorator(("aiocron.crontab",), "periodic", "schedule"),
    JobDecorator(("timeloop.Timeloop().job",), "periodic", "schedule"),
    JobDecorator(("background_task.background", "background_task.tasks.background"), "task", "enqueue"),
)
_BACKGROUND_TASK = DECORATORS[-1].names
BACKGROUND_TASK_ATTEMPTS = 25  # django-background-tasks' default MAX_ATTEMPTS, the first run included


class CallbackApis:
    name = "callbacks"

    @staticmethod
    def reads_decorator(name: str) -> bool:
        return any(name in d.names for d in DECORATORS)

    def find_jobs(self, project: Project) -> list:
        sites = []
        for d in decorated_functions(project, self.name):
            spec = next((s for s in DECORATORS if d.name in s.names), None)
            if spec is None:
                continue
            site = job_from_function(project, d.function, self.name, spec.kind, triggers={spec.trigger})
            if d.name in _BACKGROUND_TASK:
                site.retry = policy(f"django-background-tasks: BACKGROUND_TASK_MAX_ATTEMPTS ({BACKGROUND_TASK_ATTEMPTS} attempts by default)",
                                    d.anchor, retries=_background_task_retries(project), on=None, from_default=True,
                                    backoff="exponential")
            sites.append(site)
        return sites

    def find_registrations(self, project: Project) -> list[Registration]:
        tails = tuple({n.rpartition(".")[2] for spec in CALLS for n in spec.names})
        regs = []
        for site in calls_named(project, tails):
            name = canonical_in(project, site.module, site.event.name) or ""
            spec = next((s for s in CALLS if matches_any(name, s.names)), None)
            if spec is None:
                continue
            found = {target(project, site.module, value) for value in _callbacks(site.event, spec)}
            regs.extend(Registration(qualname, self.name, spec.trigger, site.anchor, kind=spec.kind)
                        for qualname in sorted(found - {None}))
        return regs

    @staticmethod
    def delivery(project: Project, site) -> Delivery | None:
        """A timer fires once per tick, and a background task runs once, in the process that
        answered the request: a crash loses the run, nothing repeats it. A consumer's depends on
        when it acknowledges (unknown)."""
        if site.kind == "periodic":
            return Delivery(AT_MOST_ONCE, "a library timer fires once per tick")
        if site.kind == "task" and site.retry is None:
            return Delivery(AT_MOST_ONCE, "run once in the process, after the response")
        return None


def matches_any(name: str, patterns: tuple[str, ...]) -> bool:
    """`matches`, and a `*` inside a pattern standing for any run of a chained call
    (`pika.*.basic_consume` is `pika.BlockingConnection().channel().basic_consume`)."""
    for pattern in patterns:
        head, star, tail = pattern.partition(".*.")
        if star and name.startswith(head + ".") and name.endswith("." + tail):
            return True
    return matches(name, patterns)


def _callbacks(ev, spec: CallbackCall) -> list:
    """The values that may name the callback, most explicit first; a list's items each."""
    values = [ev.kwargs[k] for k in spec.keywords if k in ev.kwargs]
    values += [ev.args[i] for i in spec.positions if i < len(ev.args)]
    out = []
    for value in values:
        if value and value[0] == "seq":
            out.extend(value[1])
        else:
            out.append(value)
    return out


def _background_task_retries(project: Project) -> RetryLimit:
    """`BACKGROUND_TASK_MAX_ATTEMPTS` from the settings when written as a number, else the default."""
    for mod in project.modules.values():
        assigned = mod.assigns.get("BACKGROUND_TASK_MAX_ATTEMPTS")
        attempts = lit(assigned[0]) if assigned else None
        if type(attempts) is int and attempts > 0:
            return RetryLimit.known(attempts - 1)
    return RetryLimit.known(BACKGROUND_TASK_ATTEMPTS - 1)


FRAMEWORK = CallbackApis()
