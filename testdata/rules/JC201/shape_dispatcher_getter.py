# jobcheck-test: select=JC201
# A retried task asks a helper for the function that sends through the configured provider (the
# helper returns an entry of a table it writes), then calls it: each function the table holds can
# run, so a retry repeats whichever sent. Clean look-alikes: a table whose functions only read, and
# a helper returning a value of its table that is no function (a URL).
import requests
from celery import shared_task


def _send_with_mailgun(config, message, to):
    requests.post(f"https://api.mailgun.net/v3/{config['domain']}/messages", data={"to": to, "text": message})


def _send_with_twilio(config, message, to):
    requests.post(f"https://api.twilio.com/2010-04-01/Accounts/{config['sid']}/Messages.json",
                  data={"To": to, "Body": message})


def _get_dispatcher(service_type):
    handler = {
        "mailgun": _send_with_mailgun,
        "twilio": _send_with_twilio,
    }
    return handler.get(service_type)


@shared_task(autoretry_for=(requests.RequestException,), max_retries=3, retry_backoff=True)
def dispatch_message(service_type, config, message, to):
    dispatcher = _get_dispatcher(service_type)
    if not dispatcher:
        raise ValueError(f"no dispatcher for {service_type}")
    dispatcher(config, message, to)  # expect: JC201


def _status_from_mailgun(config):
    return requests.get(f"https://api.mailgun.net/v3/{config['domain']}/stats").json()


def _status_from_twilio(config):
    return requests.get(f"https://api.twilio.com/2010-04-01/Accounts/{config['sid']}.json").json()


def _get_status_reader(service_type):
    return {"mailgun": _status_from_mailgun, "twilio": _status_from_twilio}[service_type]


def _get_endpoint(service_type):
    return {"mailgun": "https://api.mailgun.net/v3", "twilio": "https://api.twilio.com"}.get(service_type)


@shared_task(autoretry_for=(requests.RequestException,), max_retries=3, retry_backoff=True)
def check_provider(service_type, config):
    reader = _get_status_reader(service_type)
    status = reader(config)
    requests.get(_get_endpoint(service_type), timeout=5)
    return status


def _handler_for(task):
    """Names the handler in its arms rather than in a table."""
    if task["type"] == "training":
        return _send_with_twilio
    return _send_with_mailgun


def _reader_for(task):
    if task["type"] == "training":
        return _status_from_twilio
    return _status_from_mailgun


@shared_task(autoretry_for=(requests.RequestException,), max_retries=3, retry_backoff=True)
def process_task(task, config):
    handler = _handler_for(task)
    handler(config, task["message"], task["to"])  # expect: JC201
    reader = _reader_for(task)
    reader(config)
