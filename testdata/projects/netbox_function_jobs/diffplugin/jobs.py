# jobcheck-test: select=JC501
# Functions NetBox's worker runs: handed to `Job.enqueue(func, ...)` (NetBox's older API), by
# reference or by a dotted path a caller completes (`enqueue_job(request, "push_configs")` ->
# `import_string(f"diffplugin.jobs.{job_name}")`), once or on an `interval`.
import logging

logger = logging.getLogger(__name__)


def collect_diffs(job, request, *args, **kwargs):  # expect: JC501
    job.start()
    logger.info("collecting")


def push_configs(job, request, *args, **kwargs):  # expect: JC501
    job.start()
    logger.info("pushing")


def prune_results(job, *args, **kwargs):  # expect: JC501
    job.start()


def render_preview(job, request, *args, **kwargs):
    # Enqueued by no one: a helper the views call in the request.
    return job.data
