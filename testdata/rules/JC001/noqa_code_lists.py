# jobcheck-test: select=JC201
# The only comments naming a rule of ours sit after other tools' codes.
import requests
from celery import shared_task


@shared_task(autoretry_for=(Exception,))
def post(order_id):
    requests.post("https://x.example/", json={"o": order_id})  # noqa: E501, JC201
    requests.post("https://x.example/", json={"o": order_id})  # noqa: E501,jc201
    requests.post("https://x.example/", json={"o": order_id})  # noqa: E501  # expect: JC201
    requests.post("https://x.example/", json={"o": order_id})  # noqa: F401 E501  # expect: JC201
