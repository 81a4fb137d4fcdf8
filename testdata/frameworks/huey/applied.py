# jobcheck-test: select=JC202,JC501
# A huey decorator applied by a call, as an application that builds its huey at run time does
# (`huey.task(retries=0)(exec_job)`): the function is a task with those options. A wrapper the
# call is given inside a decorator factory stands for what the factory decorates; a decorator held
# in a name (`RETRYING(f)`: its options are not read there) and a retry decorator applied to one
# call leave the function alone.
import functools

import tenacity

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


HUEY = SqliteHuey("jobs")
RETRYING = HUEY.task(retries=5, retry_delay=30)


def archive(name):
    requests.post("https://jobs.example/archive", json={"job": name})


def fetch(url):
    return requests.get(url).text


def configure():
    RETRYING(archive)
    return tenacity.retry(stop=tenacity.stop_after_attempt(3))(fetch)("https://jobs.example/list")


def metered(func):
    def run(*args):
        return _call(func, args)

    return HUEY.task(retries=3)(run)


def _call(func, args):
    return func(*args)
