# jobcheck-test: select=JC501
# A worker loop that uses the backend it was constructed with (claims, marks done) works itself:
# a periodic job. One that only asks what it was given to run (`self.action.run()`) is a runner.
import time

import requests


class Worker:
    """Polls its backend for the next job: it uses the backend it was given, it does not run it."""

    def __init__(self, backend, handlers):
        self.backend = backend
        self.handlers = handlers
        self.stopped = False

    def run_forever(self, interval=1.0):  # expect: JC501
        while not self.stopped:
            job = self.backend.claim_next()
            if job is not None:
                self.handlers[job.kind](job)
                self.backend.mark_done(job.id)
            time.sleep(interval)


class Scheduler:
    """Runs the action it was given every cycle: the job is the action."""

    def __init__(self, action, cycle=60):
        self.action = action
        self.cycle = cycle

    def loop(self):
        while True:
            self.action.run()
            time.sleep(self.cycle)


class Cleanup:
    def run(self):
        requests.delete("https://files.example/tmp")


Scheduler(Cleanup(), cycle=300)
