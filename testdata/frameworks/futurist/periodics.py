# jobcheck-test: select=JC501
# futurist periodics: functions decorated `@periodics.periodic(spacing=...)` that a
# `PeriodicWorker` runs, at module level, as methods, or defined in a service's `__init__` and
# added to the worker there. A function with another decorator of the same name is not a job.
import threading

from futurist import periodics


@periodics.periodic(spacing=60)
def purge_expired():  # expect: JC501
    print("purge")


class Evaluator:
    def __init__(self, interval):
        self.worker = periodics.PeriodicWorker([], schedule_strategy="last_finished")

        @periodics.periodic(spacing=interval, run_immediately=True)
        def evaluate():  # expect: JC501
            print("evaluate")

        @periodics.periodic(30)
        def heartbeat():  # expect: JC501
            print("beat")

        self.worker.add(evaluate)
        self.worker.add(heartbeat)
        threading.Thread(target=self.worker.start, daemon=True).start()

    @periodics.periodic(spacing=10)
    def check_health(self):  # expect: JC501
        print("health")


def periodic(spacing):
    def wrap(func):
        return func
    return wrap


@periodic(spacing=5)
def not_futurist():
    """An application's own decorator called `periodic` that schedules nothing."""


@periodics.periodic(spacing=60, enabled=False)
def switched_off():
    """`enabled=False`: the worker never runs it."""
