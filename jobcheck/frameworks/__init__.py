"""One module per framework: each finds its entry points and reads its retry settings.

A framework object has `name`, `find_jobs(project) -> [JobSite]` and
`find_registrations(project) -> [Registration]`; it may have
`find_retry_wrappers(project) -> {qualname: RetryPolicy}` for retry decorators that apply to any
function. Frameworks recognise resolved names (`celery.Celery().task`), never spellings alone.
"""

from __future__ import annotations

# Scans that ask whether a module imports a library, by the import's dotted value: Airflow's
# (does the project use it at all), arq's and RQ's (is a module's queue theirs). `recheck`
# lets an edit change a module's imports when it leaves `gate_imports` equal, or when the scans
# run again (a replay asks the edited module anew: `sources`).
GATE_PREFIXES = ("airflow", "arq", "rq", "django_rq", "flask_rq2")


def gate_imports(mod) -> set[str]:
    """The imports of a module that those scans can see."""
    return {v for v in mod.imports.values() if v.partition(".")[0].startswith(GATE_PREFIXES)}


def all_frameworks(config=None) -> list:
    from . import apscheduler, celery, custom, dramatiq, huey, retrying, rq
    from . import airflow, dagster, luigi, prefect, temporal
    from . import arq, django_q, schedule_lib, taskiq

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
