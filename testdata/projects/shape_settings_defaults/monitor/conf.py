"""The application's own configuration module."""
CONFIGURED_OPTIONS = {"max_retries": 4, "retry_backoff": True}
from .defaults import IMPORTED_OPTIONS  # noqa: E402,F401  (re-exported: not read through getattr)
