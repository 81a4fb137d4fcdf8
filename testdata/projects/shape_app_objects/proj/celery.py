from celery import Celery, Task

app = Celery("proj")  # re-exported by proj/__init__.py


class BaseTask(Task):
    acks_late = True


generic_app = Celery[BaseTask]("generic")  # a subscripted generic constructor (celery-types)
