# huey, RQ, APScheduler and a cron-run command: contradicted answers and the ones that hold.
import click
import requests
from apscheduler.schedulers.blocking import BlockingScheduler
from huey import RedisHuey, crontab
from redis import Redis
from rq import Retry
from rq.decorators import job
from twilio.rest import Client

huey = RedisHuey("ops")
redis = Redis()
scheduler = BlockingScheduler()
twilio = Client()


@huey.periodic_task(crontab(minute="*/5"))
def poll_feeds():  # expect: JC503
    """Reliability:
        Runs twice: harmless; feeds are upserted.
        Can it overlap itself? Never.
        Dies mid-run: the next run polls again.
        Retries: none.
        Idempotent: yes.
    """
    for url in ("https://a.example/feed", "https://b.example/feed"):
        requests.get(url)


@job("default", connection=redis, retry=Retry(max=3, interval=[10, 60, 300]))
def page_oncall(phone):  # expect: JC503
    """Reliability:
        Runs twice: it pages again.
        Overlaps: harmless.
        Dies mid-run: the page may or may not have gone out.
        **Retries:** no
        **Idempotent:** yes
    """
    twilio.messages.create(to=phone, from_="+15550000", body="Disk full")


@click.command(help="Run hourly by cron: rebuilds the search index.")
def rebuild_index():  # expect: JC503
    """Reliability:
        Runs twice: safe.
        Overlaps: cannot.
        Dies mid-run: the next run rebuilds it.
        Retries: none.
        Idempotent: yes.
    """
    for name in ("orders", "customers"):
        print(name)


def sync_rates():
    """APScheduler runs one instance of a job at a time by default: "no" holds.

    Reliability:
        Runs twice: safe.
        Overlaps: no.
        Dies mid-run: the next run fetches again.
        Retries: none.
        Idempotent: yes.
    """
    requests.get("https://rates.example/today")


scheduler.add_job(sync_rates, "interval", minutes=5)


@huey.periodic_task(crontab(minute="0"), retries=2)
def hourly_export():
    """Reliability:
        Runs twice: harmless; the export file is replaced.
        Overlaps: no; guarded by huey's lock.
        Dies mid-run: the partial file is replaced on the next run.
        Retries: two, a minute apart.
        Idempotent: yes.
    """
    with huey.lock_task("export"):
        open("/tmp/export.csv", "w").write("...")
