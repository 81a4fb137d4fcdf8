# jobcheck-test: select=JC501
# Job factories of the application's own: `add_job(tracked(app, "rates", sync_rates))` schedules
# the closure `tracked` returns, the generic part of every job it makes (timing, logging); what
# the closure runs is the job. Also through a provider the closure calls for it (a lazy import
# `import_func=_import_purge`, or one returning a lambda around the job). A callable that only
# supplies a value (an action name) or computes metadata is no job; a closure that runs two
# functions it is given is itself the job, and so is one that loops until stopped.
import time

import requests
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.cron import CronTrigger

scheduler = BackgroundScheduler()


def sync_rates(db, config):  # expect: JC501
    requests.post("https://rates.example/sync", json={"db": db})


def purge_orders(db, config):  # expect: JC501
    requests.post("https://shop.example/purge", json={"db": db})


def rebuild_index(db, config):  # expect: JC501
    requests.post("https://search.example/rebuild", json={"db": db})


def log_activity(action, metadata):
    requests.post("https://audit.example/activity", json={"action": action, "metadata": metadata})


def tracked(app, name, func):
    def wrapper():
        started = time.time()
        result = func(app.db, app.config)
        log_activity(name, {"seconds": time.time() - started})
        return result

    return wrapper


def tracked_lazy(app, name, import_func, import_action, extract_metadata):
    def wrapper():
        action = import_action()
        result = _invoke(import_func(), app.db, app.config)
        log_activity(action, extract_metadata(result))

    return wrapper


def _invoke(job, db, config):
    return job(db, config)


def both(first, second):
    def wrapper():  # expect: JC501
        first(None, None)
        second(None, None)

    return wrapper


def every(seconds, func):
    def loop():  # expect: JC501
        while True:
            func(None, None)
            time.sleep(seconds)

    return loop


def register(app):
    scheduler.add_job(tracked(app, "rates", sync_rates), CronTrigger(hour=1))

    def _import_purge():
        from job_factories import purge_orders

        return purge_orders

    def _import_rebuild():
        from job_factories import rebuild_index

        return lambda db, config: rebuild_index(db, config)

    def _purge_action():
        return "purge"

    scheduler.add_job(tracked_lazy(app, "purge", _import_purge, _purge_action, lambda r: {"n": r}), CronTrigger(hour=2))
    scheduler.add_job(tracked_lazy(app, "rebuild", import_func=_import_rebuild, import_action=_purge_action,
                                   extract_metadata=lambda r: {}), CronTrigger(hour=3))
    scheduler.add_job(both(sync_rates, purge_orders), CronTrigger(hour=4))
    scheduler.add_job(every(60, rebuild_index), CronTrigger(hour=5))
