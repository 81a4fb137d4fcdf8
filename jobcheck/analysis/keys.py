"""What counts as an idempotency key by name: variables, keywords, dict keys and headers."""

from __future__ import annotations

import re

# Names that declare themselves keys: idempotency_key, dedup_id, MessageDeduplicationId,
# IdempotencyToken, AWS's ClientRequestToken / ClientToken and MTurk's UniqueRequestToken, ...
# (matched with case and separators removed). `dedup_cutoff` and `is_idempotent` name other things.
_KEY_NAME = re.compile(
    r"(idempotency|idempotent|idem|dedup|dedupe|deduplication)(key|id|token|ref)?$|^clientrequesttoken$|^clienttoken$"
    r"|^uniquerequesttoken$"
)
_SEPARATORS = re.compile(r"[^a-z0-9]")
# HTTP headers that carry an idempotency key to the far end; Standard Webhooks' (and Svix's)
# message id is the same on every redelivery of a message, and receivers deduplicate on it, as on
# a vendor's delivery id (GitHub's `X-GitHub-Delivery`) or event id (`X-Shop-Event-Id`). Not an
# event's type (`X-GitHub-Event`), nor an email's `Message-ID`.
_KEY_HEADER = re.compile(
    r"^(x-)?idempotency-key$|^paypal-request-id$|^idempotency_key$|^(webhook|svix)-id$"
    r"|^x-([a-z0-9]+-)+delivery(-id)?$|^(x-)?([a-z0-9]+-)*(delivery|event|notification)-id$",
    re.I,
)
# Names ending in `_key` that are secrets or structure, never idempotency keys.
_NOT_KEYS = re.compile(
    r"(api|secret|access|private|public|encryption|signing|sign|ssh|auth|license|sort|partition|"
    r"primary|foreign|cache|storage|s3|object|bucket|dict|map|lookup|hash|meta|order_by|group)_?key$",
    re.I,
)


def is_key_name(name: str) -> bool:
    """A name that says "I am an idempotency/dedup key"."""
    if _KEY_HEADER.match(name):
        return True
    flat = _SEPARATORS.sub("", name.lower())
    if flat.startswith(("is", "has", "should", "use", "allow", "enable", "require")):
        return False  # a flag about idempotency, not a key
    return bool(_KEY_NAME.search(flat))


# A request body's field naming the message itself (`{"notification_id": entry.pk}`): the same
# on every redelivery, so receivers deduplicate on it, as on Standard Webhooks' `webhook-id`.
# Only in a body: as a keyword (`forward_message(message_id=...)`) it names another message.
_MESSAGE_ID = re.compile(r"^(notification|delivery|webhook|message|msg|event_?delivery)_?id$", re.I)


def is_message_id(name: str) -> bool:
    return bool(_MESSAGE_ID.match(name))


def is_key_header(name: str) -> bool:
    return bool(_KEY_HEADER.match(name))


def is_record_key_field(name: str) -> bool:
    """A model field or marker argument that records a key: `key=`, `event_key=`, `idempotency_key=`."""
    if is_key_name(name):
        return True
    low = name.lower()
    return (low == "key" or low.endswith("_key")) and not _NOT_KEYS.search(low)
