"""Libraries that run a function handed to them later, in the background: a catalog, as data.

    background_tasks.add_task(send_welcome, user.email)          # FastAPI / Starlette, after the response
    channel.basic_consume(queue="orders", on_message_callback=handle_order)   # pika
    subscriber.subscribe(path, callback=on_event)                 # Google Cloud Pub/Sub
    Clock.schedule_interval(self.refresh, 30)                     # kivy, and Home Assistant, errbot...
    TaskSchedule.objects.create(task_name="app.tasks.sync", ...)  # pulpcore, by the task's dotted path

    @tasks.loop(minutes=5)                                        # discord.py
    async def refresh_feeds(self): ...

    @background(schedule=60)                                      # django-background-tasks
    def notify_user(user_id): ...

    @job.asynchronous                                             # ckan-service-provider
    def push_to_datastore(task_id, input, dry_run=False): ...

Twisted's queue consumer, `self.queue.get().addCallback(self.on_message)` on a queue the object
holds (a `DeferredQueue`, txAMQP's), runs the callback for each message it takes.

An object handed to a library that calls its methods when a message arrives is read the same way:

    conn.set_listener("fts3", Receiver(broker))                   # stomp.py: Receiver.on_message

where the call is the library's (resolved, or on an object of no known type in a module that
imports the library: `for conn in conns: conn.set_listener(...)`) and the object is an instance
of a class of the project: its method (its own or a base's) is the job.

So is a subclass of a library's consumer class that defines the method the library calls per
message (`class BuildConsumer(fedmsg.consumers.FedmsgConsumer): def consume(self, message)`) or
per file-system event (watchdog's `FileSystemEventHandler`: `dispatch`, `on_created`, ...), and a
handler of a crawl's signals (Scrapy's `spider_opened`, `spider_closed`: once per crawl),
wherever the library is told to load it (moksha reads its consumers from entry points), and a
stage of a library's pipeline, which the library starts as a task of its own beside the other
stages (`class DebFirstStage(pulpcore.plugin.stages.Stage): async def run(self)`), and a CKAN
harvester's stages (`class CSWHarvester(HarvesterBase): def gather_stage(self, harvest_job)`,
`fetch_stage`, `import_stage`), which ckanext-harvest's queue consumers run.

Each entry names the library's call (resolved, so `BackgroundTasks` as a parameter annotation
counts), where the function goes, and what kind of job it makes. The function is a job whatever
it is called, a method or a module function, or what a lambda given there calls (`lambda:
self.refresh()`); a call whose argument is no function of the project (a value computed at run
time, a lambda calling a library) makes none.

Retries: none of these callbacks is run again when it raises (Pulp's tasks included), except
- django-background-tasks, which runs a failed task again up to the `MAX_ATTEMPTS` setting
  times in all (25 by default), waiting attempts**4 + 5 seconds;
- uWSGI's spooler: a spooler function that raises is run again at every spooler pass, with no
  limit (returning `uwsgi.SPOOL_OK` is how it ends); `@spoolforever` always runs again;
- discord.py's `tasks.loop`, which with `reconnect=True` (the default) runs an iteration that
  raised a connection error (OSError, aiohttp.ClientError, asyncio.TimeoutError, discord's
  ConnectionClosed and GatewayNotFound) again, backing off exponentially with no limit.
A message consumer that raises before acknowledging sees the message again (the broker
redelivers it): whether that happens depends on how it acks, which is not read here, so no retry
is assumed.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..analysis.decorators import decorated_functions
from ..analysis.delivery import AT_MOST_ONCE, Delivery
from ..analysis.jobs import Anchor, Registration, RetryLimit
from ..analysis.names import canonical_in, forwarded, target
from ..analysis.program import calls_named
from ..analysis.project import Project
from ..analysis.values import dict_items, lit
from .base import job_from_function, matches, policy
from .rq import callbacks as rq_callbacks


@dataclass(frozen=True)
class CallbackCall:
    """A call that runs the function given at one of `positions` or `keywords` (whichever names
    a function of the project); a list there (`callbacks=[a, b]`) gives each."""

    names: tuple[str, ...]  # resolved names; a trailing `*` is a prefix, `*` inside any run
    positions: tuple[int, ...]
    keywords: tuple[str, ...]
    kind: str
    trigger: str
    rq_kwargs: str | None = None  # a keyword whose dict the call hands RQ (its `on_failure=` callbacks run too)


CALLS = (
    # FastAPI / Starlette: run in the same process after the response is sent; a crash loses it.
    CallbackCall(("fastapi.BackgroundTasks().add_task", "fastapi.background.BackgroundTasks().add_task",
                  "starlette.background.BackgroundTasks().add_task", "starlette.background.BackgroundTask",
                  "litestar.background_tasks.BackgroundTask"),
                 (0,), ("func", "fn"), "task", "enqueue"),
    # Pulp's tasking system (pulpcore and its plugins): `dispatch(func, exclusive_resources=[...])`
    # runs `func` once in a worker; a task that fails or is abandoned is not run again.
    CallbackCall(("pulpcore.plugin.tasking.dispatch", "pulpcore.tasking.tasks.dispatch"), (0,), ("func",), "task",
                 "enqueue"),
    # pulpcore's task schedules: a `TaskSchedule` row names the task by its dotted path
    # (`task_name="pulp_x.app.tasks.sync"`), and pulpcore's scheduler dispatches it at
    # `next_dispatch`, then every `dispatch_interval` (once where there is none); not retried.
    CallbackCall(("pulpcore.*.TaskSchedule.objects.create", "pulpcore.*.TaskSchedule.objects.get_or_create",
                  "pulpcore.*.TaskSchedule.objects.update_or_create", "pulpcore.*.TaskSchedule"),
                 (), ("task_name",), "periodic", "schedule"),
    # CKAN's background jobs (RQ underneath): `toolkit.enqueue_job(fn, args)` runs `fn` once in a
    # `ckan jobs worker`; nothing retries it unless its `rq_kwargs` say so.
    CallbackCall(("ckan.plugins.toolkit.enqueue_job", "ckan.lib.jobs.enqueue", "ckantoolkit.enqueue_job"), (0,), ("fn",),
                 "task", "enqueue", rq_kwargs="rq_kwargs"),
    # Message consumers: pika (`basic_consume(queue, on_message_callback)`; before 1.0 the callback
    # came first), aio-pika, py-amqp, kombu, Google Cloud Pub/Sub, NATS, paho-mqtt, pyzmq.
    CallbackCall(("pika.*.basic_consume",), (1, 0), ("on_message_callback", "consumer_callback"), "consumer", "enqueue"),
    CallbackCall(("aio_pika.*.consume",), (0,), ("callback",), "consumer", "enqueue"),
    # py-amqp (`amqp.Channel().basic_consume(queue, tag, ..., callback=on_message)`).
    CallbackCall(("amqp.*.basic_consume",), (6,), ("callback",), "consumer", "enqueue"),
    # Fedora Messaging: `api.consume(callback)` (and `twisted_consume`) calls it for each message.
    CallbackCall(("fedora_messaging.api.consume", "fedora_messaging.api.twisted_consume"), (0,), ("callback",),
                 "consumer", "enqueue"),
    CallbackCall(("kombu.Consumer", "kombu.messaging.Consumer", "kombu.*.Consumer"), (), ("callbacks", "on_message"),
                 "consumer", "enqueue"),
    CallbackCall(("google.cloud.pubsub_v1.*.subscribe", "google.cloud.pubsub.*.subscribe"), (1,), ("callback",),
                 "consumer", "enqueue"),
    CallbackCall(("nats.*.subscribe",), (2,), ("cb",), "consumer", "enqueue"),
    CallbackCall(("paho.mqtt.client.Client().message_callback_add",), (1,), ("callback",), "consumer", "enqueue"),
    # pyzmq's event-loop stream: `stream.on_recv(self.dispatch)` runs it for each message received.
    CallbackCall(("zmq.eventloop.zmqstream.ZMQStream().on_recv", "zmq.eventloop.zmqstream.ZMQStream().on_recv_stream"),
                 (0,), ("callback",), "consumer", "enqueue"),
    # Celery's event receiver calls its handlers for each event the workers send (`app.events.
    # Receiver(conn, handlers={"*": on_event})`, then `capture()` or draining the connection).
    CallbackCall(("celery.events.EventReceiver", "celery.events.receiver.EventReceiver", "celery.*.events.Receiver",
                  "*.app.events.Receiver"), (),
                 ("handlers",), "consumer", "enqueue"),
    # Slack's Socket Mode client calls each of its request listeners for every event it receives.
    CallbackCall(("slack_sdk.socket_mode.*.socket_mode_request_listeners.append",), (0,), (), "consumer", "enqueue"),
    # Repeating timers of event loops and application frameworks (not GLib's `timeout_add`: it
    # repeats only while the callback returns True, and most return nothing, to run once).
    CallbackCall(("kivy.clock.Clock.schedule_interval",), (0,), ("callback",), "periodic", "schedule"),
    CallbackCall(("homeassistant.helpers.event.async_track_time_interval", "homeassistant.helpers.event.track_time_interval",
                  "homeassistant.helpers.event.async_track_time_change", "homeassistant.helpers.event.track_time_change",
                  "homeassistant.helpers.event.async_track_utc_time_change", "homeassistant.helpers.event.track_utc_time_change"),
                 (1,), ("action",), "periodic", "schedule"),
    CallbackCall(("errbot.BotPlugin().start_poller", "errbot.botplugin.BotPlugin().start_poller"), (1,), ("method",),
                 "periodic", "schedule"),
)


@dataclass(frozen=True)
class ListenerCall:
    """A call that takes an object (at `position`, or by `keyword`) whose `methods` the library
    calls for each message."""

    library: str
    attr: str
    position: int
    keyword: str
    methods: tuple[str, ...]
    kind: str
    trigger: str


LISTENERS = (
    # stomp.py: `Connection().set_listener(name, listener)`; the listener's `on_message(frame)` runs
    # on the receiver thread for each message (ack mode decides redelivery: not read).
    ListenerCall("stomp", "set_listener", 1, "listener", ("on_message",), "consumer", "enqueue"),
)


# A library's base class -> the methods it calls, and what kind of job each makes: a consumer's,
# for each message; a pipeline stage's, started as a task beside the other stages of the job that
# builds the pipeline (Pulp's sync: `class DebFirstStage(Stage): async def run(self)`).
_CONSUMER = ("consumer", "enqueue")
_STAGE = ("background", "start")
_HARVEST_STAGES = ("gather_stage", "fetch_stage", "import_stage")
_FILE_EVENTS = ("dispatch", "on_any_event", "on_created", "on_modified", "on_deleted", "on_moved", "on_closed",
                "on_closed_no_write", "on_opened")
BASE_HOOKS = {
    "fedmsg.consumers.FedmsgConsumer": (("consume",), *_CONSUMER),
    "moksha.hub.api.consumer.Consumer": (("consume",), *_CONSUMER),
    "moksha.hub.api.Consumer": (("consume",), *_CONSUMER),
    "stomp.ConnectionListener": (("on_message",), *_CONSUMER),
    "stomp.listener.ConnectionListener": (("on_message",), *_CONSUMER),
    "stomp.PrintingListener": (("on_message",), *_CONSUMER),
    "stomp.listener.PrintingListener": (("on_message",), *_CONSUMER),
    # watchdog's observer thread calls a handler's `dispatch`, which calls the `on_*` for the event.
    **{f"watchdog.events.{base}": (_FILE_EVENTS, *_CONSUMER) for base in (
        "FileSystemEventHandler", "PatternMatchingEventHandler", "RegexMatchingEventHandler", "LoggingEventHandler")},
    "pulpcore.plugin.stages.Stage": (("run",), *_STAGE),
    "pulpcore.plugin.stages.api.Stage": (("run",), *_STAGE),
    # pulpcore calls it in the task that creates a repository version, before the version is kept.
    "pulpcore.plugin.models.Repository": (("finalize_new_version",), *_STAGE),
    "pulpcore.app.models.Repository": (("finalize_new_version",), *_STAGE),
    "pulpcore.app.models.repository.Repository": (("finalize_new_version",), *_STAGE),
    # pulpcore's upload task validates the content in the worker, where there is no request.
    "pulpcore.plugin.serializers.SingleArtifactContentUploadSerializer": (("deferred_validate",), *_STAGE),
    "pulpcore.plugin.serializers.NoArtifactContentUploadSerializer": (("deferred_validate",), *_STAGE),
    "pulpcore.plugin.serializers.content.UploadSerializerFieldsMixin": (("deferred_validate",), *_STAGE),
    "pulpcore.plugin.serializers.UploadSerializerFieldsMixin": (("deferred_validate",), *_STAGE),
    # ckanext-harvest's gather and fetch consumers run a harvester's stages for each job and object
    # taken from their queues (the import stage in the fetch consumer, after the fetch stage).
    **{base: (_HARVEST_STAGES, *_CONSUMER) for base in (
        "ckanext.harvest.harvesters.base.HarvesterBase", "ckanext.harvest.harvesters.HarvesterBase")},
}


@dataclass(frozen=True)
class JobDecorator:
    names: tuple[str, ...]
    kind: str
    trigger: str


DISCORD_LOOP = ("discord.ext.tasks.loop",)
SPOOL = ("uwsgidecorators.spool", "uwsgidecorators.spoolraw")
BACKGROUND_TASK = ("background_task.background", "background_task.tasks.background")
DECORATORS = (
    JobDecorator(DISCORD_LOOP, "periodic", "schedule"),
    JobDecorator(("uwsgidecorators.timer", "uwsgidecorators.rbtimer", "uwsgidecorators.cron",
                  "uwsgidecorators.filemon", "uwsgidecorators.spoolforever"), "periodic", "schedule"),
    JobDecorator((*SPOOL, "uwsgidecorators.mulefunc"), "task", "enqueue"),
    JobDecorator(("aiocron.crontab",), "periodic", "schedule"),
    JobDecorator(("timeloop.Timeloop().job",), "periodic", "schedule"),
    JobDecorator(BACKGROUND_TASK, "task", "enqueue"),
    # ckan-service-provider (CKAN's DataPusher): an asynchronous job runs on the service's worker
    # after the request that submitted it returns (a synchronous one runs in that request).
    JobDecorator(("ckanserviceprovider.job.asynchronous",), "task", "enqueue"),
)
BACKGROUND_TASK_ATTEMPTS = 25  # django-background-tasks' default MAX_ATTEMPTS, the first run included
# What discord.py's loop retries with `reconnect=True` (discord/ext/tasks/__init__.py).
DISCORD_RECONNECT = ("OSError", "discord.GatewayNotFound", "discord.ConnectionClosed", "aiohttp.ClientError",
                     "asyncio.TimeoutError")


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
            site.retry = _retry_policy(project, d)
            sites.append(site)
        for cls in project.classes.values():
            if not project.the_applications(project.module_of_class(cls)):
                continue
            hooks = {(m, kind, trigger) for base in project.class_bases(cls)
                     for methods, kind, trigger in [BASE_HOOKS.get(base.removesuffix("()"), ((), "", ""))] for m in methods}
            for method, kind, trigger in sorted(hooks):
                if method in cls.methods and not project.abstract(f"{cls.qualname}.{method}"):
                    sites.append(job_from_function(project, project.functions[f"{cls.qualname}.{method}"], self.name,
                                                   kind, triggers={trigger}))
        return sites

    def find_registrations(self, project: Project) -> list[Registration]:
        tails = tuple({n.rpartition(".")[2] for spec in CALLS for n in spec.names})
        regs = []
        for site in calls_named(project, tails):
            name = canonical_in(project, site.module, site.event.name) or ""
            spec = next((s for s in CALLS if matches_any(name, s.names)), None)
            if spec is None:
                continue
            values = _callbacks(site.event, spec)
            found = {target(project, site.module, value) for value in values}
            regs.extend(Registration(qualname, self.name, spec.trigger, site.anchor, kind=spec.kind)
                        for qualname in sorted(found - {None}))
            if spec.rq_kwargs:
                handed = {lit(k): v for k, v in dict_items(site.event.kwargs.get(spec.rq_kwargs))}
                regs.extend(rq_callbacks(project, site, handed, self.name))
            # `def _handle(self, request, task_function): dispatch(task_function, ...)`: what its
            # callers pass there.
            forwards = {forwarded(site, value) for value in values if value and value[0] == "param"}
            # `func = partial(self._handle_message, message_class, callback)` registered, where the
            # handler calls the `callback` it is bound to: also what the helper's callers pass there.
            forwards |= {forwarded(site, bound) for value in values for bound in _bound_callables(project, site, value)}
            regs.extend(Registration("", self.name, spec.trigger, site.anchor, kind=spec.kind, forward=forward)
                        for forward in sorted(forwards - {None}))
        for spec in LISTENERS:
            for site in calls_named(project, (spec.attr,)):
                name = canonical_in(project, site.module, site.event.name) or ""
                if not project.the_applications(site.module) or not (
                        name.startswith(spec.library + ".") or (spec.library in site.module.imported and _untyped(name))):
                    continue  # (a test's listener is the test's)
                ev = site.event
                value = ev.kwargs.get(spec.keyword) or (ev.args[spec.position] if len(ev.args) > spec.position else None)
                regs.extend(Registration(fn.qualname, self.name, spec.trigger, site.anchor, kind=spec.kind)
                            for fn in _listener_methods(project, site.module, value, spec.methods))
        regs.extend(_queue_consumers(project, self.name))
        regs.extend(_crawl_signal_handlers(project, self.name))
        regs.extend(_configured_consumers(project, self.name))
        return regs

    @staticmethod
    def delivery(project: Project, site) -> Delivery | None:
        """A timer fires once per tick, and a task handed over runs once (in the process that
        answered the request, or in a worker): a crash loses the run, nothing repeats it. A consumer's depends on
        when it acknowledges (unknown)."""
        if site.kind == "periodic":
            return Delivery(AT_MOST_ONCE, "a library timer fires once per tick")
        if site.kind == "task" and site.retry is None:
            return Delivery(AT_MOST_ONCE, "run once by what it was handed to (a background task, a worker's queue)")
        return None


def _bound_callables(project: Project, site, value: list | None) -> list:
    """The parameters of the registering function that a `functools.partial(handler, ...)` binds
    to the parameter the handler hands the message to (`partial(self._handle_message, message_class,
    callback)`, `_handle_message(message_class, callback, client, userdata, msg)` ending in
    `callback(message)`; by position or keyword). Not one whose result the handler passes on
    (`callback(parse(msg.payload))`: `parse` is a step of the handling)."""
    if not value or value[0] != "call" or not value[2] \
            or (canonical_in(project, site.module, value[1]) or "").rpartition(".")[2] != "partial":
        return []
    func = value[2][0]
    handler = project.functions.get(target(project, site.module, func) or "")
    if handler is None:
        return []
    # `partial(self.handle, ...)` binds after `self`; `partial(Subscriber.handle, self, ...)` binds it.
    bound_method = handler.class_qualname and func and func[0] == "name" and "()." in str(func[1])
    params = handler.params[1:] if bound_method and handler.params[:1] in (["self"], ["cls"]) else handler.params
    given = {**dict(zip(params, value[2][1:])), **value[3]}
    feeding = {i for ev in handler.events if ev.kind == "call"
               for src in (*ev.argsrc, *ev.kwsrc.values(), ev.receiver_src) for i in src}
    handed = {ev.attr for i, ev in enumerate(handler.events)
              if ev.kind == "call" and ev.name is None and ev.attr in params and i not in feeding}
    return [bound for param, bound in given.items() if param in handed and bound and bound[0] == "param"]


def matches_any(name: str, patterns: tuple[str, ...]) -> bool:
    """`matches`, and a `*` inside a pattern standing for any run of a chained call
    (`pika.*.basic_consume` is `pika.BlockingConnection().channel().basic_consume`), or first,
    for any start (`*.app.events.Receiver`: an object's `app` of no type known here)."""
    for pattern in patterns:
        if pattern.startswith("*.") and name.endswith(pattern[1:]):
            return True
        head, star, tail = pattern.partition(".*.")
        if star and name.startswith(head + ".") and name.endswith("." + tail):
            return True
    return matches(name, patterns)


def _untyped(name: str) -> bool:
    """A call on a local of no type known here (a loop's variable, a parameter: `conn.set_listener`),
    not on another library's object nor a class of the project's."""
    if not name:
        return True  # what it is called on was not resolved
    receiver = name.rpartition(".")[0]
    return bool(receiver) and "." not in receiver and not receiver.endswith("()")


def _listener_methods(project: Project, module, value, methods: tuple[str, ...]) -> list:
    """The methods an object Value (`Receiver(...)`, a name holding one) has among `methods`."""
    if not value or value[0] not in ("call", "name") or not isinstance(value[1], str):
        return []
    name = canonical_in(project, module, value[1]) or value[1]
    if value[0] == "name" and not name.endswith("()"):
        return []  # a name holding something else than an instance (a class, a function)
    cls = project.classes.get(name if value[0] == "call" else name.removesuffix("()"))
    if cls is None:
        return []
    out = []
    for method in methods:
        owner = next((c for c in project._mro(cls) if method in c.methods), None)
        if owner is not None:
            out.append(project.functions[f"{owner.qualname}.{method}"])
    return out


def _queue_consumers(project: Project, framework: str) -> list[Registration]:
    """Twisted's consumer of a queue an object holds: `self.queue.get().addCallback(self.on_message)`
    runs the callback on the next message (a `DeferredQueue`, txAMQP's queue), which re-arms it
    for the one after. Not a Deferred a library function returns (`treq.get(url)`), nor a test's."""
    regs = []
    for site in calls_named(project, ("addCallback",)):
        name = site.event.name or ""
        held = name[: -len(".get().addCallback")]
        if not name.endswith(".get().addCallback") or "()." not in held \
                or not site.event.args or not project.the_applications(site.module):
            continue
        kind = (project.canonical(held) or held).removesuffix("()")
        if not (kind in _DEFERRED_QUEUES or project.untyped(held)):
            continue  # a library's object (`self.redis.get(key)`: a Redis client)
        if any(ev.name == held + ".get" and ev.line == site.event.line and (ev.args or ev.kwargs)
               for ev in site.function.events):
            continue  # `client.get(url)`: a request, not the next message
        found = target(project, site.module, site.event.args[0])
        if found:
            regs.append(Registration(found, framework, "enqueue", site.anchor, kind="consumer"))
    return regs


def _configured_consumers(project: Project, framework: str) -> list[Registration]:
    """The consumer a configuration beside the code names (`callback = "app.consumer:Awarder"`,
    Fedora Messaging's; `schedule_text.configured_callbacks`): a function, or a class whose instance
    is called with each message."""
    regs = []
    for display, line, spec in project.configured_callbacks:
        dotted = spec.replace(":", ".")
        found = project.function_at(dotted)
        cls = project.referent(dotted)
        if found is None and cls in project.classes:
            called = project.function_for(f"{cls}().__call__")
            found = called.qualname if called is not None else None
        if found is not None:
            regs.append(Registration(found, framework, "enqueue", Anchor(display, line, 0, line, 0), kind="consumer"))
    return regs


# Scrapy sends these once per crawl: what is connected to them runs with each run of the spider.
_CRAWL_SIGNALS = ("spider_opened", "spider_closed", "spider_idle", "engine_started", "engine_stopped")


def _crawl_signal_handlers(project: Project, framework: str) -> list[Registration]:
    """`crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)`: Scrapy calls it
    once per crawl (not `item_scraped`: per item, a step of the crawl)."""
    regs = []
    for site in calls_named(project, ("connect",)):
        ev = site.event
        given = ev.kwargs.get("signal") or (ev.args[1] if len(ev.args) > 1 else None)
        signal = (canonical_in(project, site.module, given[1]) or "") if given and given[0] == "name" else ""
        if ev.args and signal.startswith("scrapy.signals.") and signal.rpartition(".")[2] in _CRAWL_SIGNALS \
                and project.the_applications(site.module):
            found = target(project, site.module, ev.args[0])
            if found:
                regs.append(Registration(found, framework, "enqueue", site.anchor, kind="callback"))
    return regs


_DEFERRED_QUEUES = ("twisted.internet.defer.DeferredQueue", "txamqp.queue.TimeoutDeferredQueue",
                    "txamqp.client.TwistedDelegate")


def _callbacks(ev, spec: CallbackCall) -> list:
    """The values that may name the callback, most explicit first; a list's items each, a dict's
    values each (`handlers={"task-failed": on_failed, "*": record}`)."""
    values = [ev.kwargs[k] for k in spec.keywords if k in ev.kwargs]
    values += [ev.args[i] for i in spec.positions if i < len(ev.args)]
    out = []
    for value in values:
        if value and value[0] == "seq":
            out.extend(value[1])
        elif value and value[0] == "dict":
            out.extend(v for _, v in value[1])
        else:
            out.append(value)
    return out


def _retry_policy(project: Project, d):
    """What runs the function again when it raises (see the module's docstring), or None."""
    kwargs = d.value[3] if d.is_call else {}
    if d.name in BACKGROUND_TASK:
        attempts, where = _max_attempts(project)
        return policy(f"django-background-tasks: MAX_ATTEMPTS = {attempts + 1 if attempts is not None else BACKGROUND_TASK_ATTEMPTS}",
                      where or d.anchor, retries=RetryLimit.known(attempts if attempts is not None else BACKGROUND_TASK_ATTEMPTS - 1),
                      on=None, from_default=where is None, backoff="exponential")
    if d.name in SPOOL:
        return policy("uWSGI spooler: a raising spooler function runs again at each pass", d.anchor,
                      retries=RetryLimit.unlimited(), on=None, from_default=True, backoff="constant")
    if d.name in DISCORD_LOOP and lit(kwargs.get("reconnect"), True) is not False:
        return policy("tasks.loop(reconnect=True): connection errors are retried", d.anchor,
                      retries=RetryLimit.unlimited(), on=DISCORD_RECONNECT, from_default="reconnect" not in kwargs,
                      backoff="exponential")
    return None


def _max_attempts(project: Project) -> tuple[int | None, object]:
    """The settings' `MAX_ATTEMPTS` as retries (attempts - 1) and where it is written, when a
    settings module (one that also sets `INSTALLED_APPS`) gives it as a number."""
    def read() -> tuple[int | None, object]:
        for mod in project.modules.values():
            assigned = mod.assigns.get("MAX_ATTEMPTS")
            if assigned and "INSTALLED_APPS" in mod.assigns:
                attempts = lit(assigned[0])
                if type(attempts) is int and attempts > 0:
                    line, col = assigned[1], assigned[2]
                    return attempts - 1, Anchor(mod.path, line, col, line, col + len("MAX_ATTEMPTS"))
        return None, None
    return project.once("background_task MAX_ATTEMPTS", read)


FRAMEWORK = CallbackApis()
