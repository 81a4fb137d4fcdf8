"""A row written after a check that no such row exists, by the same fields and values, before the
effect: an attempt run again finds the row and skips the effect. A check of other values, of
another model, or in another loop guards nothing."""

from celery import shared_task
from django.db import models


class DailyRun(models.Model):
    parent_id = models.IntegerField()
    day = models.DateField()


class AuditEntry(models.Model):
    parent_id = models.IntegerField()
    day = models.DateField()


@shared_task(bind=True, max_retries=2)
def fan_out_days(self, parent_id, days):
    try:
        for day in days:
            if not DailyRun.objects.filter(parent_id=parent_id, day=day).exists():
                run = DailyRun.objects.create(parent_id=parent_id, day=day)
                run_day.delay(run.id)
    except Exception as exc:
        raise self.retry(exc=exc)


@shared_task(bind=True, max_retries=2)
def fan_out_days_checked_other_day(self, parent_id, days, first_day):
    try:
        for day in days:
            if not DailyRun.objects.filter(parent_id=parent_id, day=first_day).exists():
                run = DailyRun.objects.create(parent_id=parent_id, day=day)
                run_day.delay(run.id)  # expect: JC201
    except Exception as exc:
        raise self.retry(exc=exc)


@shared_task(bind=True, max_retries=2)
def fan_out_days_checked_other_model(self, parent_id, days):
    try:
        for day in days:
            if not AuditEntry.objects.filter(parent_id=parent_id, day=day).exists():
                run = DailyRun.objects.create(parent_id=parent_id, day=day)
                run_day.delay(run.id)  # expect: JC201
    except Exception as exc:
        raise self.retry(exc=exc)


@shared_task(bind=True, max_retries=2)
def fan_out_days_unchecked(self, parent_id, days):
    try:
        for day in days:
            run = DailyRun.objects.create(parent_id=parent_id, day=day)
            run_day.delay(run.id)  # expect: JC201
    except Exception as exc:
        raise self.retry(exc=exc)


@shared_task
def run_day(run_id):
    DailyRun.objects.filter(id=run_id).update(day=None)
