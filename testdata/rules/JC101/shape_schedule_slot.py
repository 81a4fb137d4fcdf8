# A scheduler's tick keyed by the cron instant it is due for: the clock, rounded to the schedule's
# slot by croniter (here through a helper), is the same for every attempt in that slot, so a
# retry or a second replica makes the same key. The clock itself as the key is not.
from datetime import datetime, timezone

from celery import shared_task
from croniter import croniter

from ledger import append_event


def latest_fire_time(cron_expression, *, at):
    return croniter(cron_expression, at).get_prev(datetime)


def tick_key(scheduled_at):
    return f"tick:{scheduled_at.isoformat()}"


@shared_task
def produce_tick(trigger_id, cron_expression):
    now = datetime.now(timezone.utc)
    scheduled_at = latest_fire_time(cron_expression, at=now)
    append_event(trigger_id=trigger_id, dedupe_key=tick_key(scheduled_at))


@shared_task
def produce_tick_now(trigger_id):
    now = datetime.now(timezone.utc)  # expect: JC101
    append_event(trigger_id=trigger_id, dedupe_key=f"tick:{now.isoformat()}")  # expect: JC101
