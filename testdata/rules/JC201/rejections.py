# An API's refusal means the call that raised it did nothing; a later call raising it still
# repeats the earlier ones.
import backoff
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

client = WebClient(token="x")


@backoff.on_exception(backoff.expo, SlackApiError, max_tries=5)
def post_once(channel, text):
    client.chat_postMessage(channel=channel, text=text)


@backoff.on_exception(backoff.expo, SlackApiError, max_tries=5)
def upload_all(channel, files):
    for file in files:
        client.files_upload(channels=channel, file=file)  # expect: JC201


@backoff.on_exception(backoff.expo, SlackApiError, max_tries=5)
def post_then_pin(channel, text):
    response = client.chat_postMessage(channel=channel, text=text)  # expect: JC201
    client.pins_add(channel=channel, timestamp=response["ts"])


# An SMTP error reply means the server did not take the message; a dropped connection does not.
import smtplib

from celery import shared_task


@shared_task(bind=True, max_retries=5)
def send_receipt(self, to, body):
    with smtplib.SMTP("mail.example") as conn:
        try:
            conn.sendmail("shop@example.com", [to], body)
        except (smtplib.SMTPSenderRefused, smtplib.SMTPDataError):
            raise self.retry(countdown=60)


@shared_task(bind=True, max_retries=5)
def send_invoice(self, to, body):
    with smtplib.SMTP("mail.example") as conn:
        try:
            conn.sendmail("billing@example.com", [to], body)  # expect: JC201
        except smtplib.SMTPServerDisconnected:
            raise self.retry(countdown=60)
