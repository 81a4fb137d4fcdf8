# jobcheck-test: select=JC201,JC501
# Celery's decorator handed out by a function of the application's (an optional dependency imported
# where it is needed: `from celery import shared_task; return shared_task`), and tasks declared
# inside a registration function with it: each is a Celery task.
import requests


def _shared_task():
    try:
        from celery import shared_task
    except ImportError as exc:
        raise RuntimeError("install the celery extra") from exc
    return shared_task


def register_tasks():
    shared_task = _shared_task()

    @shared_task(name="sync.push", autoretry_for=(requests.RequestException,), max_retries=3)
    def push(item_id):  # expect: JC501
        requests.post("https://erp.example/items", json={"id": item_id}, timeout=10)  # expect: JC201

    @shared_task(name="sync.sweep")
    def sweep():  # expect: JC501
        return requests.get("https://erp.example/due", timeout=10).json()

    return {"push": push, "sweep": sweep}


def _formatter():
    from json import dumps
    return dumps


def render(item):
    dump = _formatter()
    return dump({"id": item})
