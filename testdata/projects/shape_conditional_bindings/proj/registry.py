# jobcheck-test: select=JC501
# Globals and locals that are no scheduler stay quiet: a global set from a parameter (its type is
# the caller's; nothing in the call says it is APScheduler's, as a trigger argument would), a
# global of the application's own class, a local that shadows a global.
from apscheduler.schedulers.background import BackgroundScheduler


class Registry:
    def add_job(self, func, *args, **kwargs):
        return func


registry = None
installed = None
scheduler = BackgroundScheduler()


def setup():
    global registry
    registry = Registry()


def install(given):
    global installed
    installed = given


def register():
    registry.add_job(rebuild_index, "interval", minutes=5)
    installed.add_job(rebuild_index, priority=5)


def local_only():
    scheduler = Registry()
    scheduler.add_job(rebuild_index, "interval", minutes=5)


def rebuild_index():
    print("rebuild")
