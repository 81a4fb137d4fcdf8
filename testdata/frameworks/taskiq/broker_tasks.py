# jobcheck-test: select=JC201,JC501
# taskiq, as its documentation writes it: `@broker.task` on a broker with a retry middleware.
# A task retries on error only with the `retry_on_error` label (or the middleware's
# `default_retry_label`); `max_retries` overrides the middleware's count. A `schedule` label makes
# a task periodic. `register_task` registers a plain function.
import httpx
from django.core.mail import send_mail
from taskiq import SimpleRetryMiddleware, TaskiqScheduler
from taskiq.schedule_sources import LabelScheduleSource
from taskiq_redis import ListQueueBroker

broker = ListQueueBroker("redis://localhost:6379").with_middlewares(SimpleRetryMiddleware(default_retry_count=3))
scheduler = TaskiqScheduler(broker=broker, sources=[LabelScheduleSource(broker)])


@broker.task(retry_on_error=True, max_retries=5)
async def post_webhook(url: str, payload: dict) -> None:  # expect: JC501
    async with httpx.AsyncClient() as client:
        await client.post(url, json=payload)  # expect: JC201


@broker.task
async def send_digest(address: str) -> None:  # expect: JC501
    send_mail("Digest", "...", "news@example.com", [address])  # no retry label: not retried


@broker.task(task_name="refresh", schedule=[{"cron": "*/5 * * * *"}])
async def refresh_cache() -> None:  # expect: JC501
    print("refreshed")


async def export_orders(day: str) -> None:  # expect: JC501
    async with httpx.AsyncClient() as client:
        await client.post("https://warehouse.example/orders", json={"day": day})  # expect: JC201


broker.register_task(export_orders, task_name="export", retry_on_error=True)


async def helper() -> None:
    await post_webhook.kiq("https://example.com", {})
