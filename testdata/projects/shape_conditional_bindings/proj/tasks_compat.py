# jobcheck-test: select=JC201,JC501
import requests

from proj.compat import Celery, post_plain, shared_task

app = Celery("compat")


@shared_task(bind=True, max_retries=3)
def refund(self, payment_id):  # expect: JC501
    try:
        requests.post("https://psp.example/refunds", json={"payment": payment_id})  # expect: JC201
    except requests.Timeout as exc:
        raise self.retry(exc=exc)


@app.task(autoretry_for=(ConnectionError,), retry_backoff=True)
def invoice(order_id):  # expect: JC501
    requests.post("https://erp.example/invoices", json={"order": order_id})  # expect: JC201


@app.task(autoretry_for=(ConnectionError,), retry_backoff=True)
def export(order_id):  # expect: JC501
    post_plain({"order": order_id})  # expect: JC201
