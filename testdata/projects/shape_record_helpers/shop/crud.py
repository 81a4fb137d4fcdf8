from shop.db import db


async def mark_webhook_sent(payment_hash, status):
    await db.execute("UPDATE payments SET webhook_status = :s WHERE hash = :h", {"s": status, "h": payment_hash})


def update(cert_id, **kwargs):
    Cert.objects.filter(pk=cert_id).update(**kwargs)


def remember(reminder):
    reminder.sent = True
    reminder.save()


def log_sent(reminder):
    print("sent", reminder.pk)


def email_sent_event(order):
    OrderEvent.objects.create(order=order, type="email_sent")


def process(notifications):
    for notification in notifications:
        notification.save()


def mark_processing_completed(notifications):
    for notification in notifications:
        notification.processing_completed = True
        notification.save()


def mark_task_completed(task_id):
    Task.objects.filter(pk=task_id).update(status="done")
