# The app re-exported by the package: `from proj import app`.
from .celery import app

__all__ = ["app"]
