# jobcheck-test: select=JC201,JC501
# arq, as its documentation writes it: coroutines listed in `WorkerSettings.functions` (bare or
# wrapped in `func(...)`) and `cron_jobs`. A job runs again only when it raises `Retry`, up to
# `max_tries` (the function's, else the worker's, default 5; cron jobs default to 1).
import httpx
from arq import Retry, cron
from arq.worker import func
from django.core.mail import send_mail


async def download(ctx, url):  # expect: JC501
    response = await ctx["session"].get(url)
    if response.status_code != 200:
        raise Retry(defer=ctx["job_try"] * 5)
    return len(response.text)


async def notify_partner(ctx, order_id):  # expect: JC501
    async with httpx.AsyncClient() as client:
        response = await client.post("https://partner.example/hook", json={"order": order_id})  # expect: JC201
    if response.status_code >= 500:
        # The POST already happened: the retry repeats it.
        raise Retry(defer=30)


async def send_receipt(ctx, address, ready):  # expect: JC501
    if not ready:
        raise Retry(defer=60)  # before the email: a retry repeats nothing
    send_mail("Receipt", "Thanks", "shop@example.com", [address])


async def send_reminder(ctx, address):  # expect: JC501
    send_mail("Reminder", "Your cart", "shop@example.com", [address])
    raise Retry(defer=3600)  # max_tries=1 below: arq never runs it again


async def nightly_report(ctx):  # expect: JC501
    send_mail("Report", "...", "shop@example.com", ["ops@example.com"])


async def startup(ctx):
    ctx["session"] = httpx.AsyncClient()


async def shutdown(ctx):
    await ctx["session"].aclose()


class WorkerSettings:
    functions = [download, notify_partner, func(send_receipt, name="receipt"), func(send_reminder, max_tries=1)]
    cron_jobs = [cron(nightly_report, hour=3, minute=0)]
    on_startup = startup
    on_shutdown = shutdown
    max_tries = 10


async def main(redis):
    await redis.enqueue_job("download", "https://example.com")
    await redis.enqueue_job("receipt", "a@example.com", True, _job_id="receipt-42")
