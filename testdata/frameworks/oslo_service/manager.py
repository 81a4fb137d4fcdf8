# jobcheck-test: select=JC501
# oslo.service periodic tasks: methods of a `PeriodicTasks` manager decorated
# `@periodic_task.periodic_task`, with or without arguments. Other methods are not jobs.
from oslo_service import periodic_task


class Manager(periodic_task.PeriodicTasks):
    @periodic_task.periodic_task(spacing=600, run_immediately=True)
    def _process_unfinished(self, context):  # expect: JC501
        print("retry the unfinished")

    @periodic_task.periodic_task
    def _expire(self, context):  # expect: JC501
        print("expire")

    def process_notification(self, context, notification):
        print("called over RPC, not periodic")
