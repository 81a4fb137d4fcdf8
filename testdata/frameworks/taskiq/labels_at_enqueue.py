# jobcheck-test: select=JC201,JC501
# Labels given when the task is sent: `.kicker().with_labels(retry_on_error=True).kiq(...)`
# makes that message retried by the broker's SmartRetryMiddleware.
from django.core.mail import send_mail
from taskiq import InMemoryBroker, SmartRetryMiddleware

broker = InMemoryBroker().with_middlewares(SmartRetryMiddleware(default_retry_count=2, use_delay_exponent=True))


@broker.task
async def send_receipt(address: str) -> None:  # expect: JC501
    send_mail("Receipt", "Thanks", "shop@example.com", [address])  # expect: JC201


async def checkout(address: str) -> None:
    await send_receipt.kicker().with_labels(retry_on_error=True).kiq(address)
