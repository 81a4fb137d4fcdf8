"""The application's own configuration module."""
CONFIGURED_OPTIONS = {"max_retries": 4, "retry_backoff": True}
