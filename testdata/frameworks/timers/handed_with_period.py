# jobcheck-test: select=JC501
# A function handed to a scheduler jobcheck does not know, in a call that says how often to run
# it (`interval=`, `period=`, `poll_interval=`...), is a periodic job; a call whose name says it
# waits or retries, a period keyword about retries or deadlines, or no period at all, is not.
import requests

from taskmanager import TaskManager


class Community(TaskManager):
    def start(self, scheduler):
        self.register_task("announce", self.announce, interval=60)
        scheduler.schedule(self.flush_metrics, period=1)
        self.watch(self.refresh_peers, poll_interval=5)
        wait_until(self.ready, interval=1)
        self.call_with_retry(self.connect, retry_interval=2)
        self.register_task("once", self.bootstrap, interval=None)
        self.register_task("greet", self.greet)

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

    def greet(self):
        requests.post("https://tracker.example/hello")


def wait_until(condition, interval):
    while not condition():
        pass
