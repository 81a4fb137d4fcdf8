# jobcheck-test: select=JC104
# Square takes its key in the request (a keyword in the current SDK, a `body` field in the older
# one); Adyen's library takes `idempotency_key=`. Dramatiq actors are at least once.
import Adyen
import dramatiq
from square import Square
from square.client import Client

square = Square(token="token")
legacy = Client(access_token="token")
adyen = Adyen.Adyen()


@dramatiq.actor
def take_payment(order_id, source, amount):
    square.payments.create(source_id=source, amount_money={"amount": amount, "currency": "EUR"},  # expect: JC104
                           location_id="L1")


@dramatiq.actor
def take_payment_keyed(order_id, source, amount):
    square.payments.create(source_id=source, idempotency_key=f"order-{order_id}",
                           amount_money={"amount": amount, "currency": "EUR"})


@dramatiq.actor
def take_payment_legacy(order_id, source, amount):
    legacy.payments.create_payment(body={"source_id": source, "idempotency_key": f"order-{order_id}",
                                         "amount_money": {"amount": amount, "currency": "EUR"}})


@dramatiq.actor
def authorise(order_id, request):
    adyen.checkout.payments_api.payments(request)  # expect: JC104


@dramatiq.actor
def authorise_keyed(order_id, request):
    adyen.checkout.payments_api.payments(request, idempotency_key=f"authorise-{order_id}")
