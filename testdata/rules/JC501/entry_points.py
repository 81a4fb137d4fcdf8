# Job entry points with and without the five questions.
from celery import Celery, Task, shared_task

app = Celery("proj")


@app.task
def no_docstring(order_id):  # expect: JC501
    pass


@shared_task
def plain_docstring(order_id):  # expect: JC501
    """Recalculate the order totals."""


@app.task(bind=True)
def answered(self, order_id):
    """Recalculate the order totals.

    Reliability:
        Can it run twice? Yes; totals are recomputed from the lines.
        Overlap: harmless; both runs write the same totals.
        Machine dies: the next run recomputes.
        Retry: none configured.
        Idempotency: yes.
    """


class ExportTask(Task):  # expect: JC501
    def run(self, export_id):
        pass


class AnsweredOnRun(Task):
    def run(self, export_id):
        """Export one report.

        Reliability:
            Runs twice: safe; the file name is the export id.
            Overlaps: no; exports are serialised per id.
            Dies mid-run: the partial file is replaced on the next run.
            Retries: none.
            Idempotent: yes.
        """


def helper(order_id):
    """Not a job: no questions asked."""
