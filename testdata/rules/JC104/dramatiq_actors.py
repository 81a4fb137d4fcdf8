# jobcheck-test: select=JC104
# Dramatiq acknowledges after processing: every actor is at least once. The call in a helper is
# reported where the key has to be passed.
import dramatiq
import stripe


def create_intent(order):
    return stripe.PaymentIntent.create(amount=order.total, currency="eur")  # expect: JC104


@dramatiq.actor(max_retries=0)
def start_payment(order_id):
    order = load(order_id)
    create_intent(order)


@dramatiq.actor(max_retries=0)
def start_payment_keyed(order_id):
    order = load(order_id)
    stripe.PaymentIntent.create(amount=order.total, currency="eur", idempotency_key=f"intent-{order_id}")


@dramatiq.actor
def pay_out(account, amount):
    client = stripe.StripeClient("sk_test")
    client.v1.transfers.create(params={"amount": amount, "destination": account},  # expect: JC104
                               options={"stripe_account": account})


@dramatiq.actor
def pay_out_keyed(transfer_id, account, amount):
    client = stripe.StripeClient("sk_test")
    client.v1.transfers.create(params={"amount": amount, "destination": account},
                               options={"idempotency_key": f"transfer-{transfer_id}"})


def load(order_id):
    return order_id
