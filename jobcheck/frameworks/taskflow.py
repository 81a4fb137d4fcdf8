"""TaskFlow tasks: a `taskflow.task.Task` subclass's `execute` is a unit of work that an engine
runs as part of a flow (`engines.run(flow)`, a conductor claiming a job from a jobboard). When a
later task fails the engine reverts what ran (`revert`) rather than running it again, unless the
flow has a retry controller (`retry.Times(3)`, read by no rule yet); a retry decorator on
`execute` itself retries it as anywhere else.
"""

from __future__ import annotations

from ..analysis.jobs import JobSite
from ..analysis.program import classes_where
from ..analysis.project import Project
from .base import job_from_function

TASK_BASES = ("taskflow.task.Task", "taskflow.task.BaseTask", "taskflow.task.FunctorTask")


class TaskFlow:
    name = "taskflow"

    def find_jobs(self, project: Project) -> list[JobSite]:
        def wanted(cls) -> bool:
            return "execute" in cls.methods and any(b in TASK_BASES for b in project.class_bases(cls))

        return [job_from_function(project, project.functions[f"{cls.qualname}.execute"], self.name, "task",
                                  triggers={"enqueue"})
                for cls in classes_where(project, wanted) if f"{cls.qualname}.execute" in project.functions]

    def find_registrations(self, project: Project) -> list:
        return []


FRAMEWORK = TaskFlow()
