from celery import Celery

app = Celery("shop")
app.conf.beat_schedule = {
    "nightly-billing": {"task": "shop.billing.bill_all_customers", "schedule": 86400.0},
}
