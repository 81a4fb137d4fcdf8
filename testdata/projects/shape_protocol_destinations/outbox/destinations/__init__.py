from django.utils.module_loading import import_string

from .base import Destination

DESTINATIONS = {"webhook": ("outbox.destinations.webhook.WebhookDestination", {"url": "https://hooks.example/in"})}


def get_destination(name: str) -> Destination:
    """Built from the configuration: the annotation says what it is."""
    path, options = DESTINATIONS[name]
    factory = import_string(path)
    return factory(**options)
