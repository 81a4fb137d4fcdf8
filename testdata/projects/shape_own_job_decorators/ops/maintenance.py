from celery import shared_task
from ops.jobs import (background_task, command, job, log_task, periodic, queued, registered, schedule_often,
                      schedule_request, system_job, task, worker_task)


@schedule_often(every=30)
def send_pending_mail(runner):  # expect: JC501
    pass


@background_task(hour=3)
def purge_sessions(runner):  # expect: JC501
    pass


@background_task()
def rebuild_index(runner):  # expect: JC501
    pass


@job(name="export", max_workers=2)
def export_report(report_id):  # expect: JC501
    pass


@system_job
def vacuum():  # expect: JC501
    pass


@periodic
async def health_check(scheduler, state):  # expect: JC501
    pass


@queued
def reindex(collection_id):  # expect: JC501
    pass


@queued(queue="exports")
def export_csv(collection_id):  # expect: JC501
    pass


@registered(name="system.run_command", max_retries=1)
async def run_command(command):  # expect: JC501
    pass


@command
def show_version():
    pass


@log_task
def helper():
    pass


@task
def not_a_job():
    pass


class Editor:
    @schedule_request
    def hover(self, position):
        pass


@shared_task(max_retries=3)
@job(name="mirror")
def mirror(item_id):  # expect: JC501
    pass  # Celery's task: the framework says how it runs


@worker_task("reports.compact")
def compact_reports():  # expect: JC501
    pass
