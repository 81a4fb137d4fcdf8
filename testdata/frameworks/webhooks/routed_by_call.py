# jobcheck-test: select=JC501
# A handler a routing call gives a path that says webhook is a receiver, whatever its name:
# Starlette's `Route(path, endpoint)`, Django's `path(route, View.as_view())`, Flask's
# `add_url_rule`. A route at such a path that only reads (`methods=["GET"]`), and a handler routed
# at another path, receive nothing; nor does a page a person signs in to see at such a path
# (`@login_required`): a function a route with no methods gives the path is a receiver when its
# decorators say it takes a provider's POST (`@csrf_exempt`) or its name says webhook.
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.urls import path
from django.views import View
from django.views.decorators.csrf import csrf_exempt
from flask import Flask
from starlette.routing import Route

from billing.models import Charge

app = Flask(__name__)


class DeliveryMixin:
    def routes(self):
        return [
            Route("/webhook/{token}", self._deliver, methods=["POST"]),
            Route("/webhooks", self._list, methods=["GET"]),
            Route("/charges", self._create, methods=["POST"]),
        ]

    async def _deliver(self, request):  # expect: JC501
        Charge.objects.filter(token=request.path_params["token"]).update(paid=True)

    async def _list(self, request):
        return list(Charge.objects.all())

    async def _create(self, request):
        Charge.objects.create(amount=1)


class GatewayEvents(View):
    def post(self, request):  # expect: JC501
        Charge.objects.filter(ref=request.POST["ref"]).update(paid=True)
        return HttpResponse(status=200)


def github_events():  # expect: JC501
    Charge.objects.filter(kind="github").update(seen=True)
    return "", 204


@csrf_exempt
def stripe_events(request):  # expect: JC501
    Charge.objects.filter(ref=request.POST["id"]).update(paid=True)
    return HttpResponse(status=200)


@login_required
def settings_page(request):
    return HttpResponse("the organization's webhooks, for a person to edit")


urlpatterns = [
    path("gateway/webhook/", GatewayEvents.as_view()),
    path("hooks/stripe-webhook/", stripe_events),
    path("organization/webhooks", settings_page),
]
app.add_url_rule("/hooks/github-webhook", view_func=github_events, methods=["POST"])
