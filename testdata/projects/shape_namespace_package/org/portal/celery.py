from celery import Celery

app = Celery("portal")
app.config_from_object("django.conf:settings", namespace="CELERY")
