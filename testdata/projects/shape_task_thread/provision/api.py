# jobcheck-test: select=JC501
import requests

from .tasks import Progress, TaskThread, start_task


class Reporter:
    def flush(self):
        requests.post("https://metrics.example/flush")


class Api:
    def background_sync(self, options):
        def runner(task):  # expect: JC501
            requests.post("https://dns.example/sync", json=task.options)

        return start_task(runner, options)

    def background_import(self, options):
        def runner(task):  # expect: JC501
            requests.post("https://mirror.example/import", json=task.options)

        def announce(task):  # expect: JC501
            requests.post("https://chat.example/imported")

        return start_task(runner, options, on_done=announce)

    def rebuild_now(self, options):
        TaskThread("rebuild", options, rebuild).start()

    def report(self):
        Progress(Reporter()).start()


def rebuild(task):  # expect: JC501
    requests.post("https://builder.example/rebuild")
