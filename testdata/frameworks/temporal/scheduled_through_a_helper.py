# Activities scheduled through a helper named as Temporal's call (`execute_activity(...)` of a
# library wrapping `workflow.execute_activity`), in a workflow module, whatever decorates them
# (the wrapper's own `@activity_defn`): activities. Their retry policy is the helper's, not known
# here, so no retry finding is made of them. A function the workflows never schedule is no activity.
# jobcheck-test: select=JC201,JC202,JC501
from datetime import timedelta

import httpx
from ourlib.temporal import activity_defn, execute_activity
from temporalio import workflow


class ExportActivities:
    @activity_defn(name="export.upload")
    async def upload(self, batch: list[str]) -> None:  # expect: JC501
        await httpx.AsyncClient().post("https://store.example/uploads", json={"batch": batch})

    @activity_defn(name="export.cleanup")
    async def cleanup(self, batch: list[str]) -> None:
        await httpx.AsyncClient().post("https://store.example/cleanup", json={"batch": batch})


@workflow.defn(name="export")
class ExportWorkflow:  # expect: JC501
    @workflow.run
    async def run(self, batch: list[str]) -> None:
        await execute_activity(ExportActivities.upload, args=[batch], start_to_close=timedelta(minutes=5))
