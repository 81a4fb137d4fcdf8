"""Modal (`modal`): the functions of a `modal.App()` (or the older `modal.Stub()`) decorated
`@app.function(...)`. A function with `schedule=` (`modal.Period(hours=1)`, `modal.Cron("0 * * * *")`)
is periodic; the others run when called remotely (`f.remote(...)`, `f.spawn(...)`, `f.map(...)`).

Retries: `retries=` on the decorator, none by default (a failed input is not run again).
`retries=N` runs a failed input up to N more times, 1 s apart; `retries=modal.Retries(max_retries=N,
backoff_coefficient=..., initial_delay=..., max_delay=...)` says the delays, which grow by the
coefficient (2.0 when not given) up to `max_delay` (60 s).
"""

from __future__ import annotations

from ..analysis.decorators import decorated_functions
from ..analysis.jobs import Anchor, JobSite, Registration, RetryLimit, RetryPolicy
from ..analysis.names import canonical_in
from ..analysis.project import Project
from ..analysis.values import call_kwargs, call_name, lit
from .base import describe, job_from_function, kwargs_of, matches, policy, retry_limit

APPS = ("modal.App()", "modal.app.App()", "modal.Stub()", "modal.stub.Stub()")
FUNCTIONS = tuple(f"{app}.function" for app in APPS)
RETRIES = ("modal.Retries", "modal.retries.Retries")
SETTINGS = ("schedule", "timeout", "retries", "max_containers", "concurrency_limit", "name")


class Modal:
    name = "modal"

    @staticmethod
    def reads_decorator(name: str) -> bool:
        return matches(name, FUNCTIONS)

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites: dict[str, JobSite] = {}
        for d in decorated_functions(project, self.name):
            name = canonical_in(project, d.module, d.value[1]) or d.name
            if d.function.qualname in sites or not matches(name, FUNCTIONS):
                continue
            kwargs = kwargs_of(d)
            periodic = "schedule" in kwargs and lit(kwargs["schedule"], object()) is not None
            site = job_from_function(project, d.function, self.name, "periodic" if periodic else "function",
                                     triggers={"schedule"} if periodic else {"enqueue"})
            site.retry = retry_policy(project, d.module, kwargs, d.anchor)
            site.settings = {k: v for k, v in kwargs.items() if k in SETTINGS}
            sites[d.function.qualname] = site
        return list(sites.values())

    def find_registrations(self, project: Project) -> list[Registration]:
        return []  # `remote` / `spawn` / `map` take no retry option


def retry_policy(project: Project, module: str, kwargs: dict, anchor: Anchor) -> RetryPolicy:
    value = kwargs.get("retries")
    if value is None:
        return policy("no retries= (Modal's default: a failed input is not run again)", anchor,
                      retries=RetryLimit.known(0), on=None, from_default=True, backoff="none")
    if value[0] == "call" and canonical_in(project, module, call_name(value) or "") in RETRIES:
        options = call_kwargs(value)
        limit = retry_limit(options.get("max_retries"), RetryLimit.unknown_count("max_retries"), unlimited=())
        coefficient = lit(options.get("backoff_coefficient"), 2.0)
        delay = lit(options.get("initial_delay"), 1.0)
        growing = isinstance(coefficient, (int, float)) and coefficient > 1
        return policy(describe(kwargs, ("retries",)), anchor, retries=limit, on=None,
                      backoff="exponential" if growing else "constant",
                      delay=float(delay) if isinstance(delay, (int, float)) else None)
    limit = retry_limit(value, RetryLimit.unknown_count("retries"), unlimited=())
    return policy(describe(kwargs, ("retries",)), anchor, retries=limit, on=None, backoff="constant", delay=1.0)


FRAMEWORK = Modal()
