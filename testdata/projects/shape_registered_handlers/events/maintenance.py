# jobcheck-test: select=JC201,JC501
# An in-house scheduler: `register(name, func, every)` keeps each function in a dict written out
# (`{"func": func, ...}`) under its name, or in a tuple (`(func, every)`), and the loop started at
# startup runs the due ones in a thread (`await asyncio.to_thread(self.run_due)`). What the
# application registers runs in that loop, listed beside it as dispatched: a function given
# directly, through a lambda (also one building a one-entry dict, the result the runner wants),
# or a method of a module-level instance.
import asyncio
import time


class Maintenance:
    def __init__(self):
        self._tasks = {}
        self._hourly = []

    def register(self, name, func, every):
        self._tasks[name] = {"func": func, "every": every, "last": 0.0}

    def hourly(self, func, label):
        self._hourly.append((func, label))

    def run_due(self):
        now = time.monotonic()
        for name, entry in list(self._tasks.items()):
            if now - entry["last"] >= entry["every"]:
                entry["func"]()
                entry["last"] = now
        for func, _label in self._hourly:
            func()

    def describe(self):
        # Asks for names only: a label is no function run.
        return [label for _func, label in self._hourly]


class Uploads:
    def prune_stale(self):
        return 0


uploads = Uploads()
maintenance = Maintenance()


def purge_tokens():
    return 1


def mark_offline_nodes():
    return 2


def vacuum():
    return 3


def rotate_logs():
    return 4


def setup():
    maintenance.register("tokens", purge_tokens, 3600)
    maintenance.register("offline", lambda: {"offline": mark_offline_nodes()}, 30)
    maintenance.register("uploads", uploads.prune_stale, 3600)
    maintenance.hourly(vacuum, "vacuum")
    maintenance.hourly(rotate_logs, "logs")


async def maintenance_loop():  # expect: JC501
    while True:
        await asyncio.to_thread(maintenance.run_due)
        await asyncio.sleep(5)


async def startup():
    setup()
    asyncio.create_task(maintenance_loop())
