"""One module per framework: each finds its entry points and reads its retry settings.

A framework object has `name`, `find_jobs(project) -> [JobSite]` and
`find_registrations(project) -> [Registration]`; it may have
`find_retry_wrappers(project) -> {qualname: RetryPolicy}` for retry decorators that apply to any
function. Frameworks recognise resolved names (`celery.Celery().task`), never spellings alone.
"""

from __future__ import annotations


def all_frameworks(config=None) -> list:
    from . import (
        airflow,
        apscheduler,
        arq,
        celery,
        custom,
        dagster,
        django_q,
        dramatiq,
        huey,
        luigi,
        prefect,
        retrying,
        rq,
        schedule_lib,
        taskiq,
        temporal,
    )

    frameworks = [
        celery.Celery(),
        rq.RQ(),
        dramatiq.Dramatiq(),
        huey.Huey(),
        apscheduler.APScheduler(),
        retrying.RetryDecorators(),
        airflow.Airflow(),
        prefect.Prefect(),
        dagster.Dagster(),
        temporal.Temporal(),
        luigi.Luigi(),
        arq.Arq(),
        schedule_lib.Schedule(),
        django_q.DjangoQ(),
        taskiq.Taskiq(),
    ]
    if config is not None and config.entry_points:
        frameworks.append(custom.Custom(config.entry_points))
    if config is not None and config.frameworks:
        frameworks = [f for f in frameworks if f.name in config.frameworks or f.name in ("custom", "retry")]
    return frameworks
