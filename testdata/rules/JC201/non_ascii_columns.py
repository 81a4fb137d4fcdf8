# Columns count characters: the é before the call must not shift the reported column.
import requests
from celery import shared_task


@shared_task(autoretry_for=(Exception,))
def café(order_id):
    réponse = requests.post("https://partner.example/", json={"o": order_id})  # expect: JC201
    return réponse
