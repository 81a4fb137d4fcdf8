# jobcheck-test: select=JC201,JC501
# arq workers built in code: `Worker(functions=...)` and `run_worker(Settings)`, with the job list
# in a module-level variable and a job named by dotted string. `retry_jobs=False` turns retries off.
from arq import Retry
from arq.worker import Worker, func, run_worker
from django.core.mail import send_mail


async def welcome(ctx, address):  # expect: JC501
    send_mail("Welcome", "Hi", "shop@example.com", [address])  # expect: JC201
    raise Retry(defer=10)


async def goodbye(ctx, address):  # expect: JC501
    send_mail("Bye", "Bye", "shop@example.com", [address])
    raise Retry(defer=10)  # retry_jobs=False: never retried


JOBS = [func(welcome, max_tries=3)]


def build_worker(redis_settings):
    return Worker(functions=JOBS, redis_settings=redis_settings)


class QuietSettings:
    functions = ["worker_call.goodbye"]
    retry_jobs = False


def main():
    run_worker(QuietSettings)
