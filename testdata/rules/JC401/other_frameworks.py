# RQ, Dramatiq, huey and APScheduler jobs: effect, then marker.
import dramatiq
import requests
import smtplib
from apscheduler.schedulers.background import BackgroundScheduler
from huey import RedisHuey, crontab
from redis import Redis
from rq.decorators import job
from sqlalchemy.orm import Session
from twilio.rest import Client

from shop.db import engine
from shop.models import Alert, Subscriber

huey = RedisHuey("shop")
redis = Redis()
scheduler = BackgroundScheduler()
twilio = Client()


@job("default", connection=redis)
def text_alert(alert_id):
    with Session(engine) as session:
        alert = session.get(Alert, alert_id)
        twilio.messages.create(to=alert.phone, from_="+15550000", body=alert.text)  # expect: JC401
        alert.texted = True
        session.commit()


@dramatiq.actor(max_retries=0)
def welcome(subscriber_id):
    subscriber = Subscriber.objects.get(pk=subscriber_id)
    with smtplib.SMTP("localhost") as smtp:
        smtp.sendmail("shop@example.com", [subscriber.email], "Welcome")  # expect: JC401
    subscriber.welcomed_at = None
    Subscriber.objects.filter(pk=subscriber.pk).update(welcome_sent=True)


@huey.periodic_task(crontab(minute="*/5"))
def publish_alerts(conn):
    for alert_id, url in conn.execute("SELECT id, url FROM alerts WHERE published = 0"):
        requests.post(url, json={"alert": alert_id})  # expect: JC401
        conn.execute("UPDATE alerts SET published = 1 WHERE id = %s", (alert_id,))


def post_digest(digest_id):
    requests.post("https://chat.example/hook", json={"digest": digest_id})  # expect: JC401
    redis.set("digest_sent", digest_id)


scheduler.add_job(post_digest, "interval", minutes=10)


# --- clean idioms ---------------------------------------------------------------------------


@dramatiq.actor(max_retries=0)
def claim_then_text(alert_id):
    # SQLAlchemy: the claim is committed before the effect; the record after it is the second step.
    with Session(engine) as session:
        alert = session.get(Alert, alert_id)
        alert.status = "sending"
        session.commit()
        twilio.messages.create(to=alert.phone, from_="+15550000", body=alert.text)
        alert.status = "sent"
        session.commit()


@huey.task()
def relay_with_key(conn):
    # An outbox relay that sends the row's own key: the far end drops a repeat.
    for row_id, url, key in conn.execute("SELECT id, url, key FROM outbox WHERE sent_at IS NULL"):
        requests.post(url, json={"row": row_id}, headers={"Idempotency-Key": key})
        conn.execute("UPDATE outbox SET sent_at = now() WHERE id = %s", (row_id,))


@job("default", connection=redis)
def fetch_then_mark(alert_id):
    # A read is not an effect: repeating it changes nothing outside.
    with Session(engine) as session:
        alert = session.get(Alert, alert_id)
        requests.get(alert.url)
        alert.checked = True
        alert.processed = True
        session.commit()
