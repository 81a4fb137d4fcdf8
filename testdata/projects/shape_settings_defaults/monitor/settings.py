from django.conf import settings

from . import conf


def get_settings_value(option, default=None):
    return getattr(settings, f"MONITOR_{option}", default)


RETRY_OPTIONS = get_settings_value(
    "WRITE_RETRY_OPTIONS",
    dict(max_retries=None, retry_backoff=True, retry_backoff_max=600, retry_jitter=True),
)
BOUNDED_OPTIONS = get_settings_value("BOUNDED_OPTIONS", dict(max_retries=5, retry_backoff=True))
CONFIGURED_OPTIONS = getattr(conf, "CONFIGURED_OPTIONS", dict(max_retries=None, retry_backoff=True))
REEXPORTED_OPTIONS = getattr(conf, "IMPORTED_OPTIONS", dict(max_retries=None))
