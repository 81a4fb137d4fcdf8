# jobcheck-test: select=JC201
# Code written for Python 2 and 3 imports the standard library through six: `six.moves.urllib`
# is `urllib`, so `request.urlopen(Request(url, data))` is the same POST.
from celery import shared_task
from six.moves.urllib import parse, request


@shared_task(default_retry_delay=120)
def notify_hubs(feed_url, hubs):
    data = parse.urlencode({"hub.mode": "publish", "hub.url": feed_url}).encode()
    for hub in hubs:
        try:
            request.urlopen(request.Request(hub, data))  # expect: JC201
        except request.URLError as exc:
            return notify_hubs.retry(exc=exc)


@shared_task(default_retry_delay=120)
def read_hubs(hubs):
    for hub in hubs:
        try:
            request.urlopen(hub)  # a GET: safe to repeat
        except request.URLError as exc:
            return read_hubs.retry(exc=exc)
