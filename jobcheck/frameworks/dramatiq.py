"""Dramatiq: `@dramatiq.actor` and `GenericActor`. Actors retry by default: the Retries
middleware gives every actor `max_retries=20` with exponential backoff (from 15 s) on any
exception; `max_retries=0` disables it; `retry_when` replaces the decision."""

from __future__ import annotations

from ..jobs import JobSite, Registration
from ..project import Project, decorated_functions
from .base import describe, int_or_none, job_from_function, matches, policy
from .values import lit

ACTOR_DECORATORS = ("dramatiq.actor", "dramatiq.actor.actor", "dramatiq.actor*", "django_dramatiq.actor", "periodiq.cron*")
ACTOR_BASES = ("dramatiq.GenericActor", "dramatiq.generic.GenericActor")
DEFAULT_MAX_RETRIES = 20
DEFAULT_MIN_BACKOFF_S = 15.0


def actor_policy(kwargs: dict, anchor):
    max_retries = int_or_none(kwargs.get("max_retries"), DEFAULT_MAX_RETRIES)
    min_backoff = lit(kwargs.get("min_backoff"), DEFAULT_MIN_BACKOFF_S * 1000)
    written = describe(kwargs, ("max_retries", "min_backoff", "max_backoff", "retry_when"))
    return policy(
        written or "Dramatiq's default: max_retries=20 with exponential backoff",
        anchor,
        max_retries=max_retries,
        on=None,
        from_default="max_retries" not in kwargs and "retry_when" not in kwargs,
        backoff="exponential",
        delay=float(min_backoff) / 1000 if isinstance(min_backoff, (int, float)) else None,
    )


class Dramatiq:
    name = "dramatiq"

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites = []
        for d in decorated_functions(project):
            if d.name.startswith("periodiq"):
                continue
            if not matches(d.name, ACTOR_DECORATORS):
                continue
            kwargs = d.value[3] if d.is_call else {}
            site = job_from_function(project, d.function, self.name, "actor", triggers={"enqueue"})
            site.retry = actor_policy(kwargs, d.anchor)
            if any(k in kwargs for k in ("periodic",)):
                site.triggers.add("schedule")
            sites.append(site)
        for cls in project.classes.values():
            if "perform" not in cls.methods or not any(matches(b, ACTOR_BASES) for b in project.class_bases(cls)):
                continue
            anchor = project.class_anchor(cls)
            meta = project.classes.get(f"{cls.qualname}.Meta")
            kwargs = {k: v[0] for k, v in meta.attrs.items()} if meta is not None else {}
            sites.append(
                JobSite(
                    function=f"{cls.qualname}.perform", framework=self.name, kind="actor", path=anchor.path,
                    anchor=anchor, display=cls.qualname, doc_owner=cls.qualname, triggers={"enqueue"},
                    retry=actor_policy(kwargs, anchor),
                )
            )
        return sites

    def find_registrations(self, project: Project) -> list[Registration]:
        return []
