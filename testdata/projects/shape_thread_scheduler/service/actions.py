# jobcheck-test: select=JC501
"""What the scheduler runs."""
import requests


class ShowUpdater:
    def run(self, force=False):  # expect: JC501
        requests.get("https://tvdb.example/updates")


class Base:
    def run(self, force=False):  # expect: JC501
        self.sync()

    def sync(self):
        requests.post("https://trakt.example/sync")


class TraktChecker(Base):
    """Inherits `run`: the job is Base.run."""


class Healthcheck:
    """Run once by a one-shot thread: not a job."""

    def run(self):
        requests.get("https://health.example/")


class Unused:
    def run(self, force=False):
        requests.get("https://unused.example/")
