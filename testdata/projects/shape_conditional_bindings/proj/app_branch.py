# jobcheck-test: select=JC201,JC501
# The application object is made in one arm and left `None` in the other.
import requests
from celery import Celery

from proj import settings

if settings.USE_CELERY:
    app = Celery("proj")
else:
    app = None


@app.task(autoretry_for=(ConnectionError,), max_retries=5)
def charge(invoice_id):  # expect: JC501
    requests.post("https://psp.example/charges", json={"invoice": invoice_id})  # expect: JC201
