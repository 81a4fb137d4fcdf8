import requests

from app.queueing import run_later, start_job_async_or_sync


def export_to_partner(export_id):  # expect: JC501
    requests.post("https://partner.example/exports", json={"id": export_id})  # expect: JC201


def rebuild_index(project_id):  # expect: JC501
    pass


def not_a_job(x):
    requests.post("https://partner.example/other", json={"x": x})


def on_export(export_id, project_id):
    start_job_async_or_sync(export_to_partner, export_id)
    run_later(rebuild_index, project_id)


def reindex(project_id):  # expect: JC501
    pass


def on_save(project_id):
    from app.queueing import start_later

    start_later(reindex, project_id)


def refresh_thumbnails(project_id):  # expect: JC501
    pass


def not_queued(project_id):
    pass


def on_upload(project_id):
    from app.queueing import enqueue, log_later

    enqueue(refresh_thumbnails, project_id)
    log_later(not_queued, project_id)


def on_import(project_id):
    from app.queueing import enqueue, run_synchronously

    enqueue(run_synchronously, project_id)
