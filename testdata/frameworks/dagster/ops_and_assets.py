# Dagster: ops and assets retry only under a RetryPolicy — their own, the invocation's, or the
# job's `op_retry_policy`; schedules and sensors are evaluated by the daemon; jobs and graphs are
# structure.
# jobcheck-test: select=JC201,JC501
import dagster as dg
import requests
from dagster import Backoff, Jitter, RetryPolicy

SLACK = "https://hooks.slack.example/T000"
POLICY = RetryPolicy(max_retries=3, delay=0.5, backoff=Backoff.EXPONENTIAL, jitter=Jitter.PLUS_MINUS)


@dg.asset(retry_policy=POLICY)
def orders() -> list:  # expect: JC501
    return requests.get("https://shop.example/orders").json()


@dg.asset(retry_policy=dg.RetryPolicy(max_retries=2))
def order_summary(orders: list) -> None:  # expect: JC501
    requests.post(SLACK, json={"text": f"{len(orders)} orders"})  # expect: JC201


@dg.asset
def order_export(orders: list) -> None:  # expect: JC501
    # no retry policy: Dagster does not retry
    requests.post("https://warehouse.example/orders", json=orders)


@dg.op
def announce(context: dg.OpExecutionContext) -> None:  # expect: JC501
    # retried only through the job's op_retry_policy
    requests.post(SLACK, json={"text": "nightly run"})  # expect: JC201


@dg.op(retry_policy=RetryPolicy(max_retries=0))
def announce_once(context: dg.OpExecutionContext) -> None:  # expect: JC501
    # the op's own policy takes precedence over the job's
    requests.post(SLACK, json={"text": "once"})


@dg.op
def cleanup() -> None:  # expect: JC501
    requests.post("https://warehouse.example/vacuum")  # expect: JC201


@dg.op
def flaky_upload(context: dg.OpExecutionContext) -> None:  # expect: JC501
    # the explicit retry comes after the effect: the retry posts again
    requests.post("https://uploads.example/files", json={})  # expect: JC201
    if context.retry_number == 0:
        raise dg.RetryRequested(max_retries=2, seconds_to_wait=5)


@dg.op
def check_first(context: dg.OpExecutionContext) -> None:  # expect: JC501
    # the explicit retry comes before the effect: a retry repeats nothing
    if not context.op_config:
        raise dg.RetryRequested(max_retries=2)
    requests.post("https://uploads.example/ready")


@dg.graph
def maintenance():
    cleanup()


@dg.job(op_retry_policy=RetryPolicy(max_retries=3))
def nightly():
    announce()
    announce_once()
    maintenance()


@dg.job
def uploads():
    flaky_upload()
    check_first()


@dg.schedule(job=nightly, cron_schedule="0 3 * * *")
def nightly_schedule(context: dg.ScheduleEvaluationContext):  # expect: JC501
    return dg.RunRequest(run_key=context.scheduled_execution_time.isoformat())


@dg.sensor(job=nightly, minimum_interval_seconds=60)
def new_files(context: dg.SensorEvaluationContext):  # expect: JC501
    for name in requests.get("https://uploads.example/new").json():
        yield dg.RunRequest(run_key=name)


def build_definitions():
    # a plain helper: not an entry point
    return dg.Definitions(assets=[orders, order_summary, order_export], jobs=[nightly],
                          schedules=[nightly_schedule], sensors=[new_files])


defs = build_definitions()
