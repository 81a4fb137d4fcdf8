# jobcheck-test: select=JC201,JC501
# Hatchet (hatchet-sdk v1), as its documentation writes it: standalone `@hatchet.task(...)`,
# tasks of a workflow `@wf.task(...)` (and durable tasks), cron triggers with `on_crons=`, and the
# v0 style of a `@hatchet.workflow()` class whose `@hatchet.step(...)` methods are the tasks.
# `retries=` (default 0) makes Hatchet run a failed task again.
import requests
from hatchet_sdk import Context, EmptyModel, Hatchet
from pydantic import BaseModel

hatchet = Hatchet()


class OrderInput(BaseModel):
    order_id: int


@hatchet.task(name="push-order", input_validator=OrderInput, retries=3)
def push_order(input: OrderInput, ctx: Context) -> None:  # expect: JC501
    requests.post("https://erp.example/orders", json={"id": input.order_id})  # expect: JC201


@hatchet.task(name="ping", on_crons=["*/5 * * * *"])
def ping(input: EmptyModel, ctx: Context) -> None:  # expect: JC501
    requests.post("https://monitor.example/ping", json={})  # retries=0 by default


fulfilment = hatchet.workflow(name="fulfilment", input_validator=OrderInput)


@fulfilment.task(retries=2)
def reserve_stock(input: OrderInput, ctx: Context) -> dict:  # expect: JC501
    requests.post("https://wms.example/reservations", json={"id": input.order_id})  # expect: JC201
    return {"reserved": True}


@fulfilment.task(parents=[reserve_stock])
def label(input: OrderInput, ctx: Context) -> None:  # expect: JC501
    requests.post("https://carrier.example/labels", json={"id": input.order_id})  # not retried


@fulfilment.durable_task(retries=1)
async def wait_for_pickup(input: OrderInput, ctx) -> None:  # expect: JC501
    requests.post("https://carrier.example/pickups", json={"id": input.order_id})  # expect: JC201


@hatchet.workflow(on_events=["user:create"])
class Onboarding:
    @hatchet.step(timeout="30s", retries=3)
    def welcome(self, context):  # expect: JC501
        requests.post("https://mail.example/send", json={"to": context.workflow_input()["email"]})  # expect: JC201

    @hatchet.step(parents=["welcome"])
    def tag(self, context):  # expect: JC501
        requests.post("https://crm.example/tags", json={})  # not retried


def main():
    worker = hatchet.worker("worker", workflows=[push_order, ping, fulfilment])
    worker.start()
