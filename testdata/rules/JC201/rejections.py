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
