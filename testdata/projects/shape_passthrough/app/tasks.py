from apscheduler.schedulers.blocking import BlockingScheduler
from celery import shared_task

from app.http import post

sched = BlockingScheduler()
sched.add_job("app:run_cmd", "cron", hour=1, args=(["true"],))


@shared_task(autoretry_for=(Exception,), max_retries=3)
def push_report(report_id):  # expect: JC501
    post("https://partner.example/reports", json={"id": report_id})  # expect: JC201
