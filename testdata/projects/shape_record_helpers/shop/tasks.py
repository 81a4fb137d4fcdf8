# jobcheck-test: select=JC401
"""The write that records an effect, made by a helper of the application: a marker keyword it is
handed, its own name, or a marker it saves itself."""
import httpx
from celery import shared_task
from django.core.mail import send_mail

from shop import crud


@shared_task
async def dispatch_webhook(payment):
    async with httpx.AsyncClient() as client:
        await client.post(payment.webhook, json={"hash": payment.payment_hash})  # expect: JC401
    await crud.mark_webhook_sent(payment.payment_hash, "200")


@shared_task
def give_up(cert):
    send_mail("Failed", "x", "a@b.c", ["ops@b.c"])  # expect: JC401
    crud.update(cert.id, notified=True)


@shared_task
def remind(reminder):
    send_mail("Reminder", "x", "a@b.c", [reminder.email])  # expect: JC401
    crud.remember(reminder)


@shared_task
def claim_then_send(reminder):
    """The helper's marker is saved first: a claim."""
    crud.remember(reminder)
    send_mail("Reminder", "x", "a@b.c", [reminder.email])


@shared_task
def send_then_fail(cert):
    """A failure value is no record that the email went out."""
    send_mail("Failed", "x", "a@b.c", ["ops@b.c"])
    crud.update(cert.id, notified=False)


@shared_task
def send_then_log(reminder):
    """A helper named for the effect that writes nothing is no record."""
    send_mail("Reminder", "x", "a@b.c", [reminder.email])
    crud.log_sent(reminder)


@shared_task
def send_with_audit(order):
    """An audit event of the email is not the record the job selects by."""
    send_mail("Order", "x", "a@b.c", [order.email])
    crud.email_sent_event(order)


@shared_task
def process_all(notifications):
    """The admins' email reports a failure; the marker after it records the processing."""
    try:
        crud.process(notifications)
    except Exception:
        send_mail("Processing failed", "x", "a@b.c", ["admins@b.c"])
    crud.mark_processing_completed(notifications)


class PushDown(Exception):
    pass


@shared_task
def remind_shift(shift):
    """A marker whose name holds `event` elsewhere than at its end is a marker."""
    send_mail("Your shift", "x", "a@b.c", [shift.email])  # expect: JC401
    shift.event_reminder_sent = True
    shift.save()


@shared_task
def remind_by_push_or_mail(shift):
    """The email is the fallback channel of one error: it is what the marker records."""
    try:
        httpx.post("https://push.example/", json={"shift": shift.pk})  # expect: JC401
    except PushDown:
        send_mail("Your shift", "x", "a@b.c", [shift.email])  # expect: JC401
    shift.reminder_sent = True
    shift.save()


@shared_task
def analyse(task_id, creds):
    """A helper named for the task's end records the task, not the call made on the way (a
    POST that fetches remote configuration)."""
    httpx.post("https://remoteconfig.example/fetch", json={"app": creds})
    crud.mark_task_completed(task_id)
