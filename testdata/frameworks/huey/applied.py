# jobcheck-test: select=JC202,JC501
# A huey decorator applied by a call, as an application that builds its huey at run time does
# (`huey.task(retries=0)(exec_job)`): the function is a task with those options. A wrapper the
# call is given inside a decorator factory stands for what the factory decorates.
import functools

import requests
from huey import RedisHuey, SqliteHuey
from huey.exceptions import RetryTask


def exec_job(name):  # expect: JC501
    response = requests.post("https://jobs.example/run", json={"job": name})
    if response.status_code == 503:
        raise RetryTask(delay=5)


def render(name):
    return requests.get("https://jobs.example/render", params={"job": name}).text


def instance(key, redis_url=None):
    if redis_url:
        huey = RedisHuey(key, url=redis_url)
    else:
        huey = SqliteHuey(key)
    submit = huey.task(retries=0)(exec_job)  # expect: JC202
    return huey, submit


def traced(huey):
    def decorate(func):
        @functools.wraps(func)
        def run(*args):
            return func(*args)

        return huey.task()(run)

    return decorate
