# jobcheck-test: select=JC501
# A function handed to a scheduler jobcheck does not know, in a call that says how often to run
# it (`interval=`, `period=`, `poll_interval=`...), or to the application's own scheduler whose name
# says it adds periodic work and which keeps the function for later (`addPeriodicTask(120, f)`), is
# a periodic job; a call whose name says it waits, retries or hands its keywords on to the function
# (`df.apply(f, flush_interval=...)`), a period keyword about retries or about something else
# (`ssh_alive_interval_s=`), an event callback passed by keyword (`on_line_cb=`), or no period at
# all, is not.
import requests

import websockets
from matplotlib import animation
from ssh import SshStream
from taskmanager import TaskManager

frame = None


class TaskScheduler:
    """The application's own scheduler: it keeps the functions it is given, a loop elsewhere runs them."""

    def __init__(self):
        self.tasks = {}

    def addPeriodicTask(self, period, func):
        self.tasks[func] = period

    def addSingleTask(self, func):
        self.tasks[func] = 0

    def remove_periodic_task(self, func):
        self.tasks.pop(func, None)

    def add_periodic_retry(self, func):
        for _ in range(3):
            func()


TASKS = TaskScheduler()


class Community(TaskManager):
    def start(self, scheduler):
        self.register_task("announce", self.announce, interval=60)
        scheduler.schedule(self.flush_metrics, period=1)
        self.schedule_every(self.refresh_peers, poll_interval_seconds=5)
        self.watch(self.ready, poll_interval=5)  # `watch` does not say it schedules
        self.pool.submit(self.connect, period=7)  # a keyword handed on to the function
        websockets.serve(self.greet, "0.0.0.0", 8765, ping_interval=20)  # the period of something else
        animation.FuncAnimation(None, self.tag_row, frames=100, interval=50)
        wait_until(self.ready, interval=1)
        self.call_with_retry(self.connect, retry_interval=2)
        self.register_task("once", self.bootstrap, interval=None)
        self.register_task("greet", self.greet)
        frame.apply(self.tag_row, axis=1, flush_interval=500)
        SshStream(self, ssh_alive_interval_s=30, on_line_cb=self.on_line)
        self.register_task("every", func=self.refresh_index, interval=120)
        TASKS.addPeriodicTask(120, self.store_host_info)  # its name says it adds periodic work
        TASKS.addSingleTask(self.cleanup_once)  # its name says nothing of a period
        TASKS.remove_periodic_task(self.cleanup_once)  # removes, does not add
        TASKS.add_periodic_retry(self.cleanup_once)  # calls what it is given: read by its body
        scheduler.add_periodic_callback(self.cleanup_once, 1000)  # not defined here: not known
        scheduler.schedule_non_repeating(delay=15, callback=self.cleanup_once)  # once, later

    def announce(self):  # expect: JC501
        requests.post("https://tracker.example/announce")

    def flush_metrics(self):  # expect: JC501
        requests.post("https://metrics.example/flush")

    def refresh_peers(self):  # expect: JC501
        requests.get("https://tracker.example/peers")

    def ready(self):
        return requests.get("https://tracker.example/ready").ok

    def connect(self):
        requests.post("https://tracker.example/connect")

    def bootstrap(self):
        requests.post("https://tracker.example/bootstrap")

    def tag_row(self, row):
        requests.post("https://tags.example/row", json=row)

    def on_line(self, line):
        requests.post("https://tracker.example/line", data=line)

    def refresh_index(self):  # expect: JC501
        requests.post("https://tracker.example/index")

    def greet(self):
        requests.post("https://tracker.example/hello")

    def store_host_info(self):  # expect: JC501
        requests.post("https://monitoring.example/host")

    def cleanup_once(self):
        requests.delete("https://tracker.example/tmp")


def poll_method(func):
    return Poller(func)


class Poller:
    """The application's own poller: the object runs the method it was made from."""

    def __init__(self, func):
        self.func = func

    def __call__(self):
        return self.func()

    def start(self, interval):
        self.interval = interval


class ChangeSource:
    def __init__(self):
        self._poller = Poller(self.refresh)

    @poll_method
    def do_poll(self):  # expect: JC501
        requests.get("https://vcs.example/changes")

    def refresh(self):
        requests.get("https://vcs.example/refresh")

    def activate(self):
        self.do_poll.start(interval=60)  # the method the decorator made a poller of
        self._poller.start(interval=60)  # an object: what it runs is not named here


def wait_until(condition, interval):
    while not condition():
        pass
