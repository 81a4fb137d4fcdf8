# NetBox background jobs: NetBox's RQ worker calls a `JobRunner`'s `run` (enqueued with
# `enqueue()`, or by NetBox itself on the interval of `@system_job`), and a custom script's `run`;
# the method runs wherever Python finds it (a base class of the application's own). No retries.
# jobcheck-test: select=JC201,JC501
import requests
from extras.scripts import Script
from netbox.jobs import JobRunner, system_job


class ScanBase(JobRunner):  # expect: JC501
    """Scan base: its `run` runs for every job built on it that keeps it."""

    def run(self, *args, **kwargs):
        self.scan()

    def scan(self):
        raise NotImplementedError


class PrefixScan(ScanBase):
    class Meta:
        name = "Prefix scan"

    def scan(self):
        requests.get("https://ipam.example/prefixes")


@system_job(interval=1440)
class Cleanup(JobRunner):  # expect: JC501
    def run(self, *args, **kwargs):
        requests.delete("https://ipam.example/stale")


class Base(JobRunner):  # expect: JC501
    """Its `run` runs on the interval of the `@system_job` subclass that keeps it."""

    def run(self, *args, **kwargs):
        requests.post("https://ipam.example/refresh")


@system_job(interval=60)
class Refresh(Base):
    pass


class Report(Script):  # expect: JC501
    def run(self, data, commit):
        requests.post("https://mail.example/send", json=data)


class Helper:
    """No job: a helper with a `run` of its own."""

    def run(self, data):
        requests.post("https://audit.example/forms", json=data)


class Abstract(JobRunner):
    """NetBox's own `run` (nothing here defines one): no job of the application's."""

    class Meta:
        name = "abstract"
