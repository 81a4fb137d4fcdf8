# jobcheck-test: select=JC501
# Webhook receivers: request handlers named for a webhook, or routed at one, do the work a
# provider's event announces, and the provider sends the event again until it gets a 2xx. A
# function that sends webhooks, a class that is no view, and a view named for something else are
# no receivers.
import requests
from django.http import HttpResponse
from django.views import View
from django.views.decorators.csrf import csrf_exempt
from fastapi import APIRouter
from rest_framework.views import APIView

from billing.models import Charge

router = APIRouter()


class StripeWebhookView(APIView):
    def post(self, request):  # expect: JC501
        Charge.objects.filter(stripe_id=request.data["id"]).update(paid=True)
        return HttpResponse(status=200)

    def get(self, request):
        return HttpResponse("ok")


@csrf_exempt
def telegram_webhook(request, bot_id):  # expect: JC501
    Charge.objects.filter(bot=bot_id).update(seen=True)
    return HttpResponse(status=200)


@router.post("/webhooks/paystack")
async def paystack_events(payload: dict):  # expect: JC501
    Charge.objects.filter(reference=payload["reference"]).update(paid=True)


def send_webhook(url, event):
    requests.post(url, json=event, timeout=10)


class WebhookSender:
    def post(self, url, event):
        requests.post(url, json=event, timeout=10)


class ChargeListView(View):
    def post(self, request):
        Charge.objects.create(amount=request.POST["amount"])
        return HttpResponse(status=201)


# The management of the application's own webhooks: a route that reads, a path whose only
# "webhook" is a parameter's name, a handler named for managing one.
@router.get("/webhooks/{webhook_id}/deliveries")
async def deliveries(webhook_id: str):
    return list(Charge.objects.filter(hook=webhook_id))


@router.post("/{webhook_id}/pause")
async def pause_hook(webhook_id: str):
    Charge.objects.filter(hook=webhook_id).update(paused=True)


@router.post("/hooks/{hook_id}:regenerate-secret")
async def regenerate_webhook_secret(hook_id: str):
    Charge.objects.filter(hook=hook_id).update(secret="new")
