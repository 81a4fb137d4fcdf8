"""The application's own job machinery: a registrar decorator and a job base class."""


def register_task(func=None, job_id=None, queue="default", retry_on=None):
    def wrap(f):
        return f

    return wrap(func) if func is not None else wrap


class BaseJob:
    def execute(self):
        raise NotImplementedError
