from .runtime import celery_class

app = celery_class("proj")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
