# jobcheck-test: select=JC201,JC501
from datetime import timedelta

import requests

from org.core.settings import REPORT_TIMEOUT  # another distribution of the namespace: not in the tree
from org.portal.celery import app
from org.portal.progress import recorded_task


@recorded_task
def render_report(report_id, recorder=None):  # expect: JC501
    requests.post("https://render.example/reports", json={"id": report_id}, timeout=REPORT_TIMEOUT)


@app.task(run_every=timedelta(days=1), autoretry_for=(requests.RequestException,), max_retries=3)
def purge_reports():  # expect: JC501
    requests.post("https://render.example/reports/purge", json={})  # expect: JC201
