# Airflow TaskFlow (`airflow.sdk`, Airflow 3): tasks take their retries from the DAG they are
# called in (`default_args`), unless they set their own; `@dag` functions are structure.
# jobcheck-test: select=JC201,JC501
from datetime import timedelta

import pendulum
import requests
from airflow.sdk import DAG, dag, setup, task, task_group, teardown

default_args = {"retries": 3, "retry_delay": timedelta(minutes=5), "retry_exponential_backoff": True}


def build_payload(report_id):
    # a helper the tasks call: not a task
    return {"id": report_id}


@task
def post_report(report_id):  # expect: JC501
    requests.post("https://reports.example/ingest", json=build_payload(report_id))  # expect: JC201


@task(retries=0)
def post_report_once(report_id):  # expect: JC501
    # retries=0 on the task overrides the DAG's default_args: nothing repeats the post
    requests.post("https://reports.example/ingest", json=build_payload(report_id))


@task
def post_report_with_key(report_id):  # expect: JC501
    requests.post(
        "https://reports.example/ingest",
        json=build_payload(report_id),
        headers={"Idempotency-Key": f"report-{report_id}"},
    )


@task
def count_rows(report_id):
    """Count the rows of one report.

    Reliability:
        Runs twice: safe; it only reads.
        Overlaps: yes, harmless.
        Dies mid-run: nothing was written; the retry starts over.
        Retries: 3 with exponential backoff from the DAG's default_args.
        Idempotent: yes.
    """
    return len(build_payload(report_id))


with DAG(
    dag_id="reports",
    schedule="@daily",
    start_date=pendulum.datetime(2024, 1, 1, tz="UTC"),
    catchup=False,
    default_args=default_args,
):
    post_report(1)
    post_report_once(1)
    post_report_with_key(1)
    count_rows(1)


@task
def notify_partner(batch_id):  # expect: JC501
    # called only in a DAG without retries: Airflow's default_task_retries is 0
    requests.post("https://partner.example/batches", json={"batch": batch_id})


with DAG(dag_id="partner", schedule=None, start_date=pendulum.datetime(2024, 1, 1, tz="UTC")):
    notify_partner(7)


@dag(schedule="@hourly", start_date=pendulum.datetime(2024, 1, 1, tz="UTC"), default_args={"retries": 2})
def sync_orders():
    # the DAG factory runs when the file is parsed: structure, not work

    @task.virtualenv(requirements=["requests"])
    def push_orders():  # expect: JC501
        import requests as http

        http.post("https://erp.example/orders", json=[])  # expect: JC201

    @task.branch()
    def choose(flag: bool) -> str:  # expect: JC501
        return "push" if flag else "skip"

    @task
    def mark_synced():  # expect: JC501
        requests.post("https://erp.example/synced")

    @task.sensor(poke_interval=60, timeout=600, mode="reschedule")
    def wait_for_erp():  # expect: JC501
        return True

    choose(True) >> push_orders()
    wait_for_erp()
    # `.override` sets task arguments where the task is created
    mark_synced.override(retries=0)()


sync_orders()


@dag(schedule=None, start_date=pendulum.datetime(2024, 1, 1, tz="UTC"))
def maintenance():
    @setup
    def create_cluster():  # expect: JC501
        return "cluster-1"

    @teardown
    def delete_cluster(cluster_id):  # expect: JC501
        requests.delete(f"https://cloud.example/clusters/{cluster_id}")

    @task_group(default_args={"retries": 4})
    def backfill():
        # a task group only arranges tasks; its default_args reach the tasks created in it
        @task
        def load_day(day):  # expect: JC501
            requests.post("https://warehouse.example/load", json={"day": day})  # expect: JC201

        load_day.expand(day=[1, 2, 3])

    cluster = create_cluster()
    backfill()
    delete_cluster(cluster)


maintenance()
