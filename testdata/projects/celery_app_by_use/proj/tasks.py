import requests

from proj.celery import app


@app.task(autoretry_for=(Exception,), max_retries=3)
def push(order_id):  # expect: JC501
    requests.post("https://partner.example/", json={"order": order_id})  # expect: JC201


def helper(order_id):
    requests.post("https://partner.example/", json={"order": order_id})
