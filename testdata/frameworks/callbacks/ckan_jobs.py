# jobcheck-test: select=JC501
# CKAN's background jobs: `toolkit.enqueue_job(fn, args)` runs `fn` in a `ckan jobs worker`, and
# the RQ callbacks handed on in `rq_kwargs` run there after it (`on_failure` when it raised).
# Other keys of `rq_kwargs` name no callback.
import ckan.plugins.toolkit as tk
import requests


def transform(resource_id):  # expect: JC501
    requests.post("https://convert.example/api", json={"resource": resource_id})


def mark_failed(job, connection, type, value, traceback):  # expect: JC501
    requests.post("https://status.example/failed", json={"job": job.id})


def describe(job):
    return job.id


def on_resource_update(resource):
    tk.enqueue_job(transform, [resource["id"]], rq_kwargs={"timeout": 600, "on_failure": mark_failed,
                                                           "meta": describe})
