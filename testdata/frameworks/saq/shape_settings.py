# jobcheck-test: select=JC201,JC501
# SAQ, as its README writes it: the worker runs the functions listed in `settings["functions"]`
# (bare, or as a `(name, function)` pair) and the `CronJob`s of `settings["cron_jobs"]`. A job's
# `retries` is its number of attempts (default 1: run once); `retries=3` at the enqueue call or
# on the `CronJob` runs it up to three times.
import httpx
from saq import CronJob, Queue

queue = Queue.from_url("redis://localhost")


async def charge(ctx, *, order_id):  # expect: JC501
    async with httpx.AsyncClient() as client:
        await client.post("https://psp.example/charges", json={"order": order_id})  # expect: JC201


async def notify(ctx, *, user_id):  # expect: JC501
    async with httpx.AsyncClient() as client:
        await client.post("https://push.example/send", json={"user": user_id})  # one attempt


async def post_totals(ctx):  # expect: JC501
    async with httpx.AsyncClient() as client:
        await client.post("https://ledger.example/totals", json={})  # expect: JC201


async def heartbeat(ctx):  # expect: JC501
    async with httpx.AsyncClient() as client:
        await client.post("https://monitor.example/beat", json={})  # CronJob default: one attempt


async def startup(ctx):
    ctx["client"] = httpx.AsyncClient()


settings = {
    "queue": queue,
    "functions": [charge, ("notify_user", notify)],
    "cron_jobs": [
        CronJob(post_totals, cron="0 * * * *", retries=3),
        CronJob(heartbeat, cron="* * * * *"),
    ],
    "concurrency": 10,
    "startup": startup,
}


async def checkout(order_id, user_id):
    await queue.enqueue("charge", order_id=order_id, retries=3, timeout=30)
    await queue.enqueue("notify_user", user_id=user_id)
