"""The delivery guarantee of a job: can the platform itself run it twice, retries aside?

"at least once": the message is acknowledged after the work, so a worker that dies mid-run leaves
it to be delivered again, and the job can run twice with nothing in its code asking for it.
"at most once": acknowledged (or popped, or fired) before the work, so a run that dies is lost, not
repeated. Retry policies are a separate question (`RetryPolicy`): this is only what the broker or
scheduler does.

Each framework has a default here, with the documentation that says so. A framework whose settings
change it (Celery's `acks_late`) answers for its jobs with a `delivery(project, site)` method;
`None` from it means "the default". Frameworks not listed are not modelled: "unknown".
"""

from __future__ import annotations

from dataclasses import dataclass

AT_LEAST_ONCE = "at-least-once"
AT_MOST_ONCE = "at-most-once"
UNKNOWN = "unknown"


@dataclass(frozen=True)
class Delivery:
    guarantee: str  # AT_LEAST_ONCE | AT_MOST_ONCE | UNKNOWN
    because: str  # the setting or default that decides it, as `jobcheck jobs` shows it
    by_retries: bool = False  # the platform runs it again through the job's retry policy

    @property
    def at_least_once(self) -> bool:
        return self.guarantee == AT_LEAST_ONCE


# Framework name -> (kind or None for every kind) -> the default.
DEFAULTS: dict[str, dict[str | None, Delivery]] = {
    # Early acknowledgement: "the task won't be redelivered to another worker if the machine loses
    # power, or the worker instance is abruptly killed, mid-execution" (Celery glossary, "early
    # acknowledgment", docs.celeryq.dev/en/stable/glossary.html).
    "celery": {None: Delivery(AT_MOST_ONCE, "acks_late=False (Celery's default: acknowledged before the task runs)")},
    # "Messages are only ever acknowledged to the broker when they have finished being processed";
    # in-flight messages of a killed worker "are going to be redelivered later" (dramatiq.io,
    # Advanced Topics, Message Persistence).
    "dramatiq": {None: Delivery(AT_LEAST_ONCE, "Dramatiq acknowledges after processing (its default)")},
    # "Jobs may be called more than once!": pessimistic execution keeps a job in the queue until it
    # succeeded or failed; a worker that shuts down leaves it to run again (arq-docs.helpmanual.io).
    "arq": {None: Delivery(AT_LEAST_ONCE, "arq's pessimistic execution: a job stays queued until it ends")},
    # RQ never re-runs a job whose worker died: it leaves the StartedJobRegistry for the
    # FailedJobRegistry (python-rq.org/docs/job_registries, /docs/exceptions; rq/rq#152: "RQ never
    # automatically retries executing jobs").
    "rq": {None: Delivery(AT_MOST_ONCE, "RQ pops the job: a worker that dies sends it to the failed registry")},
    # "A task interrupted by SIGKILL (or a power loss) is lost" (huey.readthedocs.io, Deploying to
    # Production, Shutdown Signals).
    "huey": {None: Delivery(AT_MOST_ONCE, "huey dequeues before running: an interrupted task is lost")},
    # Activities have a default Retry Policy and a timed-out Activity Task is scheduled again
    # (docs.temporal.io/encyclopedia/retry-policies): a worker dying mid-activity runs it again.
    # Workflows are replayed, not re-run: their delivery is not this question.
    "temporal": {"activity": Delivery(AT_LEAST_ONCE, "Temporal activities run again after a timeout or a lost worker",
                                      by_retries=True)},
    # Schedulers that call the job in their own process: a missed or crashed run is not repeated
    # (APScheduler skips runs later than misfire_grace_time, apscheduler.readthedocs.io, "Missed job
    # executions and coalescing"); cron and loops likewise fire once per trigger.
    "apscheduler": {None: Delivery(AT_MOST_ONCE, "APScheduler fires once per trigger; a missed run is skipped")},
    "schedule": {None: Delivery(AT_MOST_ONCE, "schedule runs the job in its own loop, once per trigger")},
    "loop": {None: Delivery(AT_MOST_ONCE, "a loop in the process, once per iteration")},
    "own_decorator": {None: Delivery(UNKNOWN, "run by the application's own runner, whose delivery is not known")},
    "background": {None: Delivery(AT_MOST_ONCE, "started once in the process: lost if the process dies")},
    "futurist": {None: Delivery(AT_MOST_ONCE, "a futurist periodic worker runs it once per tick")},
    "oslo_service": {None: Delivery(AT_MOST_ONCE, "the service's timer runs it once per tick")},
    "cotyledon": {None: Delivery(AT_MOST_ONCE, "a loop in the service's worker process, once per iteration")},
    "command": {None: Delivery(AT_MOST_ONCE, "cron starts the command once per trigger")},
    # A provider sends an event again until it is answered with a 2xx: Stripe "attempts to deliver a
    # given event to your webhook endpoint for up to three days with an exponential back off"
    # (docs.stripe.com/webhooks, "Retry behavior"); Telegram and GitHub likewise.
    "webhook": {None: Delivery(AT_LEAST_ONCE, "the provider sends the event again until it gets a 2xx")},
    "django_cron": {None: Delivery(AT_MOST_ONCE, "cron starts runcrons (or the crontab line) once per trigger")},
    "django_extensions": {None: Delivery(AT_MOST_ONCE, "cron starts runjobs once per trigger")},
    # Tryton's cron worker runs a scheduled action once per tick; its queue worker's redelivery
    # depends on its configuration, not the code.
    "tryton": {"periodic": Delivery(AT_MOST_ONCE, "Tryton's cron worker runs the action once per tick"),
               None: Delivery(UNKNOWN, "Tryton's queue worker, configured outside the code")},
    # A platform's signal sent from its scheduled run (pretix's and pretalx's `periodic_task`).
    "platform_signal": {None: Delivery(AT_MOST_ONCE, "the platform sends the signal once per scheduled run")},
    # InvenTree's worker is django-q on the ORM broker (acknowledged after the work) unless a Redis
    # cache is configured, which becomes the broker and pops tasks (InvenTree/settings.py, Q_CLUSTER).
    "inventree": {None: Delivery(UNKNOWN, "InvenTree's django-q broker: the ORM or a Redis cache, as deployed")},
    # A function under a retry decorator (tenacity, backoff...) is no job: its caller's run decides.
    "retry": {None: Delivery(UNKNOWN, "a function its caller runs: the caller's delivery applies")},
    # A task instance runs once per try; what runs it again is `retries`, the retry policy.
    "airflow": {None: Delivery(AT_MOST_ONCE, "Airflow runs a task instance once per try (reruns are `retries`)")},
}


def default_of(framework: str, kind: str) -> Delivery:
    table = DEFAULTS.get(framework, {})
    found = table.get(kind) or table.get(None)
    return found or Delivery(UNKNOWN, f"not modelled for {framework}")


def delivery_of(project, site) -> Delivery:
    """What the job's framework and settings give it (see the module's docstring)."""
    for fw in getattr(project, "frameworks", ()):
        if fw.name == site.framework and hasattr(fw, "delivery"):
            found = fw.delivery(project, site)
            if found is not None:
                return found
    found = default_of(site.framework, site.kind)
    if found.by_retries and site.retry is not None and site.retry.disabled:
        return Delivery(AT_MOST_ONCE, f"{site.retry.setting}: no retry, so a lost worker's run is not repeated")
    return found
