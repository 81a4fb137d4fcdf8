# jobcheck-test: select=JC201
# A retry repeats an effect only if a failure can reach it once the effect ran. A helper that keeps
# every failure from its send on (`try: send_mail(...) except Exception: log.exception(...)`, in a
# loop over recipients too) lets none out: the task's retry can only come before the send. One
# that raises again, or does more after its `try`, lets one out.
import logging
import time

import requests
from celery import shared_task
from django.core.mail import send_mail

logger = logging.getLogger(__name__)


class EmailService:
    def send(self, subject, body, recipients):
        try:
            send_mail(subject, body, "noreply@example.com", recipients)
        except Exception:
            logger.exception("failed to send")

    def send_loudly(self, subject, body, recipients):
        try:
            send_mail(subject, body, "noreply@example.com", recipients)
        except Exception:
            logger.exception("failed to send")
            raise

    def send_and_record(self, subject, body, recipients, log):
        try:
            send_mail(subject, body, "noreply@example.com", recipients)
        except Exception:
            logger.exception("failed to send")
        log.sent = True
        log.save()


class GatewayService:
    def send_all(self, numbers, text):
        for count, number in enumerate(numbers):
            if count and count % 100 == 0:
                time.sleep(20)
            try:
                requests.post("https://sms.example/send", data={"to": number, "text": text})
            except Exception as e:
                logger.exception("failed for %s: %s", number, e)


@shared_task(bind=True, max_retries=3)
def send_email_task(self, subject, body, recipients):
    try:
        EmailService().send(subject, body, recipients)
    except Exception as exc:
        raise self.retry(exc=exc)


@shared_task(bind=True, max_retries=3)
def send_sms_task(self, numbers, text):
    try:
        GatewayService().send_all(numbers, text)
    except Exception as exc:
        raise self.retry(exc=exc)


@shared_task(autoretry_for=(Exception,), max_retries=3)
def send_email_auto(subject, body, recipients):
    EmailService().send(subject, body, recipients)


@shared_task(bind=True, max_retries=3)
def send_email_loudly(self, subject, body, recipients):
    try:
        EmailService().send_loudly(subject, body, recipients)  # expect: JC201
    except Exception as exc:
        raise self.retry(exc=exc)


@shared_task(bind=True, max_retries=3)
def send_email_and_record(self, subject, body, recipients, log):
    try:
        EmailService().send_and_record(subject, body, recipients, log)  # expect: JC201
    except Exception as exc:
        raise self.retry(exc=exc)
