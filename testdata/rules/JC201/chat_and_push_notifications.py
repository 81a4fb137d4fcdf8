# jobcheck-test: select=JC201
# A message posted to a chat channel or pushed to a phone is read by people: a retry after the
# post went out posts it again. The libraries' calls that send one (Discord webhooks, Telegram
# bots, Apprise, Microsoft Teams cards, Expo and FCM push, Pusher) are effects like an email.
import apprise
import pymsteams
import telegram
from celery import shared_task
from dhooks_lite import Webhook
from discord_webhook import DiscordWebhook
from discordproxy.client import DiscordClient
from discordproxy.exceptions import DiscordProxyTimeoutError
from exponent_server_sdk import PushClient, PushMessage
from pyfcm import FCMNotification


@shared_task(autoretry_for=(ConnectionError,), max_retries=5, retry_backoff=True)
def announce_fleet(webhook_url, text):
    DiscordWebhook(url=webhook_url, content=text).execute()  # expect: JC201


@shared_task(autoretry_for=(ConnectionError,), max_retries=5, retry_backoff=True)
def relay_notification(webhook_url, text):
    hook = Webhook(webhook_url)
    hook.execute(content=text)  # expect: JC201


@shared_task(autoretry_for=(ConnectionError,), max_retries=5, retry_backoff=True)
def push_receipt(token, body):
    PushClient().publish(PushMessage(to=token, body=body))  # expect: JC201


@shared_task(autoretry_for=(ConnectionError,), max_retries=5, retry_backoff=True)
def push_android(token, title):
    FCMNotification(service_account_file="sa.json", project_id="app").notify(fcm_token=token, notification_title=title)  # expect: JC201


@shared_task(autoretry_for=(ConnectionError,), max_retries=5, retry_backoff=True)
def tell_chat(chat_id, text):
    telegram.Bot("token").send_message(chat_id=chat_id, text=text)  # expect: JC201


@shared_task(autoretry_for=(ConnectionError,), max_retries=5, retry_backoff=True)
def alert_everyone(text):
    notifier = apprise.Apprise()
    notifier.add("mailto://ops@example.com")
    notifier.notify(body=text)  # expect: JC201


@shared_task(autoretry_for=(ConnectionError,), max_retries=5, retry_backoff=True)
def post_card(url, text):
    card = pymsteams.connectorcard(url)
    card.text(text)
    card.send()  # expect: JC201


@shared_task(bind=True)
def forward_to_discord(self, user_id, text):
    # Retried on the send's own timeout: the message may have gone out before the deadline.
    try:
        DiscordClient(target="localhost:50051", timeout=30).create_direct_message(user_id=user_id, content=text)  # expect: JC201
    except DiscordProxyTimeoutError as exc:
        raise self.retry(exc=exc, countdown=60)


# Not retried: the post goes out once, or not at all.
@shared_task
def announce_once(webhook_url, text):
    DiscordWebhook(url=webhook_url, content=text).execute()


# Retried, but only for what happens before the post: a failure of the post itself is not retried
# by the task (the rule reads the retry as covering the body; the post is last and nothing after it
# can fail).
@shared_task(autoretry_for=(ConnectionError,), max_retries=5, retry_backoff=True)
def preview(webhook_url, text):
    hook = Webhook(webhook_url)
    return hook.url, text
