"""Luigi: `Task` subclasses; the worker calls `run` (kind "task"), documented on the class.

A subclass of a Luigi task class (`luigi.Task`, `luigi.WrapperTask`, `luigi.contrib.*` tasks;
also `luigi.ExternalTask` when it defines `run`, since Luigi then runs it) is an entry point
when it defines `run` itself. Tasks whose `run` is Luigi's own call a method of ours instead:
`PySparkTask.main`, Hadoop `JobTask.mapper` / `reducer`, `CopyToTable.rows`, `CopyToIndex.docs`;
that method is the entry point. A subclass that only changes parameters or outputs runs its
base's code and is not a second entry point. Tasks that run only an external program
(`SparkSubmitTask`, `HadoopJarJobTask`, `ExternalProgramTask`) have no Python of ours to check.

Retries: a failed task is retried by the central scheduler only while a worker keeps running
(`keep_alive`), up to `retry_count` failures (scheduler default 999999999) spaced by the
scheduler's `retry_delay` (900 s). A task with no `retry_count` of its own is treated as not
retried (the default worker exits when no work is left); `retry_count = N` allows N failures,
so N - 1 retries.
"""

from __future__ import annotations

from ..analysis.jobs import JobSite, Registration, RetryLimit
from ..analysis.program import classes_where
from ..analysis.project import Project
from ..analysis.values import render
from .base import int_or_none, policy

# Luigi's own `run` calls this method of the subclass (checked in order).
HOOKS = {
    "luigi.contrib.spark.PySparkTask": ("main",),
    "luigi.contrib.hadoop.JobTask": ("reducer", "mapper"),
    "luigi.contrib.postgres.CopyToTable": ("rows",),
    "luigi.contrib.rdbms.CopyToTable": ("rows",),
    "luigi.contrib.sqla.CopyToTable": ("rows",),
    "luigi.contrib.mysqldb.CopyToTable": ("rows",),
    "luigi.contrib.esindex.CopyToIndex": ("docs",),
}
TASK_CLASSES = ("CopyToTable", "CopyToIndex")
DEFAULT_RETRY_DELAY_S = 900.0


def _is_task_base(name: str) -> bool:
    if not name.startswith("luigi."):
        return False
    last = name.rpartition(".")[2]
    return last.endswith("Task") or last in TASK_CLASSES


class Luigi:
    name = "luigi"

    def find_jobs(self, project: Project) -> list[JobSite]:
        sites = []
        def wanted(cls) -> bool:
            return any(_is_task_base(b.removesuffix("()")) for b in project.class_bases(cls))

        for cls in classes_where(project, wanted):
            bases = [b.removesuffix("()") for b in project.class_bases(cls)]
            method = "run" if "run" in cls.methods else None
            if method is None:
                for base in bases:
                    method = next((m for m in HOOKS.get(base, ()) if m in cls.methods), None)
                    if method is not None:
                        break
            if method is None:
                continue
            anchor = project.class_anchor(cls)
            site = JobSite(
                function=f"{cls.qualname}.{method}", framework=self.name, kind="task", path=anchor.path,
                anchor=anchor, display=cls.qualname, doc_owner=cls.qualname, triggers={"schedule"},
            )
            site.retry = self._retry(project, cls, anchor)
            sites.append(site)
        return sites

    def _retry(self, project: Project, cls, anchor):
        """`retry_count`, on the class or a base class of ours."""
        for owner in [cls, *(project.classes.get(b) for b in project.class_bases(cls))]:
            if owner is None or "retry_count" not in owner.attrs:
                continue
            value, line, col = owner.attrs["retry_count"]
            count = int_or_none(project.deref(value), None)
            if count is None or count < 1:
                break  # not a constant we can read
            where = project.class_anchor(owner)
            setting_anchor = type(where)(where.path, line, col, line, col + len("retry_count"))
            return policy(f"retry_count={render(value)}", setting_anchor, retries=RetryLimit.known(count - 1), on=None,
                          backoff="constant", delay=DEFAULT_RETRY_DELAY_S)
        return policy("no retry_count (treated as not retried: Luigi retries only under a keep-alive worker)",
                      anchor, retries=RetryLimit.known(0), on=None, from_default=True, backoff="constant",
                      delay=DEFAULT_RETRY_DELAY_S)

    def find_registrations(self, project: Project) -> list[Registration]:
        return []


FRAMEWORK = Luigi()
