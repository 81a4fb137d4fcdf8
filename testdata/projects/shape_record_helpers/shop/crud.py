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
