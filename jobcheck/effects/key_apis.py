"""The APIs that accept an idempotency key (JC104), as data."""

from __future__ import annotations

# Effects whose API accepts an idempotency key (JC104): the call, how the key is passed (as the
# message names it), and a keyword the call must have for the entry to apply (SQS and SNS take a
# `MessageDeduplicationId` only on a FIFO queue or topic, which `MessageGroupId` marks), or None.
# Stripe: every POST takes `idempotency_key=` (StripeClient: `options={"idempotency_key": ...}`),
# docs.stripe.com/api/idempotent_requests. Adyen: `idempotency_key=` on the library's calls,
# docs.adyen.com/development-resources/api-idempotency. Square: `idempotency_key` in the request.
# GoCardless: an `Idempotency-Key` header; the client adds a random one per call, new on each run
# (pypi.org/project/gocardless-pro). SQS/SNS FIFO: docs.aws.amazon.com, SendMessage/Publish.
IDEMPOTENCY_KEY_APIS: tuple[tuple[str, str, str | None], ...] = (
    ("stripe.StripeClient().*", 'options={"idempotency_key": ...}', None),
    ("stripe.*", "idempotency_key=", None),
    ("Adyen.Adyen().*", "idempotency_key=", None),
    ("square.*", "idempotency_key", None),
    ("gocardless_pro.Client().*", 'headers={"Idempotency-Key": ...}', None),
    ("*.client(sqs).send_message", "MessageDeduplicationId=", "MessageGroupId"),
    ("*.client(sns).publish", "MessageDeduplicationId=", "MessageGroupId"),
)
