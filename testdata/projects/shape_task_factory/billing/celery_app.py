from celery import Celery

app = Celery("billing")
