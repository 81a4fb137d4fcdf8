"""Other apps of the project, each obtained in a way that names no `Celery(...)` call directly."""
import typing

from celery import Celery
from platform_commons.celery import make_app  # an installed helper, not analysed

registry = {}


def create_app(name):
    instance = Celery(name, broker="redis://localhost")
    instance.conf.task_default_queue = name
    return instance


reports_app: Celery = make_app("reports")  # only the annotation says what it is
mail_app = typing.cast(Celery, registry.get("mail"))
sync_app = create_app("sync")  # a factory of the project returning Celery(...)
