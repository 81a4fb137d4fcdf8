from django.utils.module_loading import import_string

# The Celery class is chosen by a setting at run time: no static name says "Celery".
celery_class = import_string("celery.Celery")
