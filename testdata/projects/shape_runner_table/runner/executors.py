# jobcheck-test: select=JC201
"""An in-house queue: the worker claims a row and runs the executor its kind names in a table.
Each executor is the runner's unit of work (kind `dispatched`); a table of one entry, an entry
taken by a literal key, and a table only a request reads dispatch nothing."""
import shutil
import threading
import time

import requests

from runner.store import claim_next, finish


def send_invoice(payload):
    requests.post("https://billing.example/invoices", json=payload)


def purge_exports(payload):
    shutil.rmtree(payload["folder"])


def ping(payload):
    requests.get("https://health.example/ping")


def to_csv(rows):
    return "\n".join(",".join(map(str, row)) for row in rows)


def to_json(rows):
    return repr(rows)


EXECUTORS = {"invoice": send_invoice, "purge": purge_exports}
PINGS = {"ping": ping}
FORMATS = {"csv": to_csv, "json": to_json}


def run_one(job_id, kind, payload):
    executor = EXECUTORS.get(kind)
    if executor is None:
        return
    executor(payload)
    PINGS[kind](payload)
    finish(job_id)


def work_forever():
    while True:
        job = claim_next()
        if job is None:
            time.sleep(5)
            continue
        run_one(*job)


def export_view(request):
    return FORMATS[request.GET["format"]](request.rows)


threading.Thread(target=work_forever, daemon=True).start()
