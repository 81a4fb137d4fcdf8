"""A runner built on an anyio task group: `tg.start(self._watch_jobs)` starts the watcher as a
task (once it says it started), `tg.start_soon(self._run_actor)` the actor loop, which the base
leaves to subclasses (it only raises: `raise RuntimeError("override me")`). A server's `start`
handed a handler starts nothing here: no task group's."""
import anyio
import requests


class Server:
    def start(self, handler):
        self.handler = handler


class Runner:
    def __init__(self, link):
        self.link = link
        self.server = Server()

    async def run(self):
        async with anyio.create_task_group() as tg:
            await tg.start(self._watch_jobs)
            tg.start_soon(self._run_actor)
            self.server.start(self.handle_request)

    async def _watch_jobs(self, *, task_status=anyio.TASK_STATUS_IGNORED):
        task_status.started()
        requests.post("https://link.example/subscribe")

    async def _run_actor(self):
        raise RuntimeError("override me")

    def handle_request(self, request):
        requests.post("https://link.example/answer", json=request)


class SingleRunner(Runner):
    async def _run_actor(self):
        requests.post("https://link.example/actor/join")


def main():
    anyio.run(SingleRunner("https://link.example").run)
