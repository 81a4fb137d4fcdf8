# jobcheck-test: select=JC201
"""Request handlers Google Cloud pushes to, told by the headers only the deliverer sets: a push
queue's task (retried on any non-2xx answer) and Cloud Scheduler's / App Engine cron's runs, also
behind a decorator of the application's that checks the header. A middleware letting those
requests in, and a view reading another header, run no job."""
import functools

import requests
from django.http import HttpResponse, HttpResponseForbidden

LOGGED_HEADERS = ("X-CloudTasks-TaskName", "X-AppEngine-Cron")  # the module itself handles no request


def send_receipt(request):
    attempt = int(request.headers.get("X-CloudTasks-TaskRetryCount", "0"))
    requests.post("https://mail.example/send", json={"order": request.POST["order"], "attempt": attempt})  # expect: JC201
    return HttpResponse(status=204)


def reindex(request):
    if request.META.get("HTTP_X_APPENGINE_QUEUENAME") != "search":
        return HttpResponseForbidden()
    requests.put("https://search.example/index", json={"full": True})
    return HttpResponse(status=204)


def nightly_report(request):
    if request.headers.get("X-CloudScheduler-JobName") is None:
        return HttpResponseForbidden()
    requests.post("https://reports.example/nightly")
    return HttpResponse(status=204)


def cron_only(view):
    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.headers.get("X-Appengine-Cron") != "true":
            return HttpResponseForbidden()
        return view(request, *args, **kwargs)

    return wrapper


@cron_only
def purge_sessions(request):
    requests.delete("https://sessions.example/expired")
    return HttpResponse(status=204)


class CronAuthMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path.startswith("/cron/") and "X-AppEngine-Cron" not in request.headers:
            return HttpResponseForbidden()
        return self.get_response(request)


def profile(request):
    return HttpResponse(request.headers.get("X-Request-Id", ""))
