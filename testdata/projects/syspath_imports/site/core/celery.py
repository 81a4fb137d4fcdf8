# A sibling called celery.py: `from celery import Celery` here is the library, not this file.
from celery import Celery

app = Celery("site")
