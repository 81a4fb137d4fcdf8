# jobcheck-test: select=JC104
# arq keeps a job queued until it ends (at least once). RQ and huey are at most once: quiet
# unless a retry policy runs the job again.
import gocardless_pro
import stripe
from huey import RedisHuey
from redis import Redis
from rq import Queue, Retry

client = gocardless_pro.Client(access_token="token", environment="live")
huey = RedisHuey("payments")


async def collect(ctx, mandate, amount):
    client.payments.create(params={"amount": amount, "links": {"mandate": mandate}})  # expect: JC104


async def collect_keyed(ctx, payment_id, mandate, amount):
    client.payments.create(params={"amount": amount, "links": {"mandate": mandate}},
                           headers={"Idempotency-Key": f"collect-{payment_id}"})


class WorkerSettings:
    functions = [collect, collect_keyed]


def charge_rq(customer, amount):
    stripe.Charge.create(customer=customer, amount=amount)


def charge_rq_retried(customer, amount):
    stripe.Charge.create(customer=customer, amount=amount)  # expect: JC104


queue = Queue(connection=Redis())
queue.enqueue(charge_rq, "cus_1", 100)
queue.enqueue(charge_rq_retried, "cus_1", 100, retry=Retry(max=3, interval=60))


@huey.task()
def refund_huey(charge):
    stripe.Refund.create(charge=charge)


@huey.task(retries=2, retry_delay=30)
def refund_huey_retried(charge):
    stripe.Refund.create(charge=charge)  # expect: JC104
