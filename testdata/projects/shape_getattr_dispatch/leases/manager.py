# jobcheck-test: select=JC201,JC501
import requests
from celery import Celery
from oslo_service import service

app = Celery("leases")


class LeaseManager(service.Service):
    def start(self):
        super().start()
        self.tg.add_timer(10, self._process_events)

    def _process_events(self):  # expect: JC501
        for event in self._due():
            self._run_event(event)

    def _run_event(self, event):
        # Which method runs is written where the event is stored: {"event_type": "start_lease"}.
        handler = getattr(self, event["event_type"], None)
        if handler is not None:
            handler(lease_id=event["lease_id"])

    def _due(self):
        return []

    def create_lease(self, values):
        self.events.append({"event_type": "start_lease", "lease_id": values["id"]})
        self.events.append(dict(event_type="end_lease", lease_id=values["id"]))

    def start_lease(self, lease_id):  # expect: JC501
        requests.post("https://compute.example/reserve", json={"lease": lease_id})

    def end_lease(self, lease_id):  # expect: JC501
        requests.post("https://compute.example/release", json={"lease": lease_id})

    def list_leases(self):  # no event names it: not dispatched
        return []


class Commands:
    def run(self, message):
        # Not a job: what it dispatches to is no job either.
        getattr(self, "do_" + message["op"])()

    def do_sync(self):
        requests.post("https://mirror.example/sync")


class Webhooks:
    def deliver(self, kind, body):
        getattr(self, f"on_{kind}")(body)

    # A name built from a pattern runs one of the class's methods as part of the job (their
    # effects are the job's), but is no message protocol: they are no jobs of their own.
    def on_paid(self, body):
        requests.post("https://crm.example/paid", json=body)

    def on_refunded(self, body):
        requests.post("https://crm.example/refunded", json=body)

    def handle(self, name):
        getattr(self, name)()  # a name from anywhere: nothing is known


@app.task(autoretry_for=(ConnectionError,), max_retries=3)
def deliver_webhook(kind, body):  # expect: JC501
    # A retry repeats whichever `on_*` the kind names: both post.
    Webhooks().deliver(kind, body)  # expect: JC201


def _delete_person(handle):
    requests.delete(f"https://tree.example/people/{handle}")


def _delete_family(handle):
    requests.delete(f"https://tree.example/families/{handle}")


DELETERS = {"person": _delete_person, "family": _delete_family}


@app.task
def delete_objects(kind, handles):  # expect: JC501
    # A module-level table is the task's own toolbox: its entries are part of this job, no jobs.
    for handle in handles:
        DELETERS[kind](handle)
