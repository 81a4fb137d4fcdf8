# Airflow classic operators: the job is the callable an operator runs, or a custom operator's
# `execute`. Operators without Python of ours (BashOperator) are not entry points.
# jobcheck-test: select=JC201,JC501
import smtplib
from datetime import datetime, timedelta

import requests
from airflow import DAG
from airflow.models.baseoperator import BaseOperator
from airflow.operators.bash import BashOperator
from airflow.operators.python import BranchPythonOperator, PythonOperator
from airflow.sensors.base import BaseSensorOperator
from airflow.sensors.python import PythonSensor

DEFAULT_ARGS = {
    "owner": "billing",
    "retries": 2,
    "retry_delay": timedelta(minutes=10),
}


def send_statements(**context):  # expect: JC501
    with smtplib.SMTP("mail.example") as smtp:
        smtp.sendmail("billing@example", ["customer@example"], "statement")  # expect: JC201


def pick_branch(**context):  # expect: JC501
    return "send" if context["ds"] else "skip"


def alert_on_failure(context):
    # an on_failure_callback: Airflow calls it when a task fails, it is not a task
    requests.post("https://chat.example/alerts", json={"task": context["task_instance_key_str"]})


def upload_ready():  # expect: JC501
    return True


class PublishInvoicesOperator(BaseOperator):  # expect: JC501
    def __init__(self, *, batch_id, **kwargs):
        super().__init__(**kwargs)
        self.batch_id = batch_id

    def execute(self, context):
        requests.post("https://ledger.example/invoices", json={"batch": self.batch_id})  # expect: JC201


class WaitForLedgerSensor(BaseSensorOperator):  # expect: JC501
    def poke(self, context):
        return requests.get("https://ledger.example/ready").ok


class QuietBashOperator(BashOperator):
    # configures an operator whose code is Airflow's: not an entry point
    ui_color = "#eeeeee"


with DAG(
    "billing",
    default_args=DEFAULT_ARGS,
    schedule="0 6 * * *",
    start_date=datetime(2024, 1, 1),
    catchup=False,
    on_failure_callback=alert_on_failure,
) as dag:
    branch = BranchPythonOperator(task_id="branch", python_callable=pick_branch)
    send = PythonOperator(task_id="send", python_callable=send_statements)
    skip = BashOperator(task_id="skip", bash_command="echo skipped")
    publish = PublishInvoicesOperator(task_id="publish", batch_id=42)
    wait = WaitForLedgerSensor(task_id="wait", poke_interval=30)
    ready = PythonSensor(task_id="ready", python_callable=upload_ready)
    quiet = QuietBashOperator(task_id="quiet", bash_command="true")
    # a lambda has no def to document or check
    log = PythonOperator(task_id="log", python_callable=lambda: print("done"))
    branch >> [send, skip]


# The older style: a DAG object, operators attached with `dag=`.
archive_dag = DAG("archive", schedule=None, start_date=datetime(2024, 1, 1), default_args={"retries": 1})


def archive_statements():  # expect: JC501
    requests.post("https://archive.example/statements")  # expect: JC201


def purge_statements():  # expect: JC501
    # retries=0 on the operator wins over the DAG's default_args
    requests.post("https://archive.example/purge")


PythonOperator(task_id="archive", python_callable=archive_statements, dag=archive_dag)
PythonOperator(task_id="purge", python_callable=purge_statements, retries=0, dag=archive_dag)


# Operators built by a helper take the default_args of the DAG the helper is called in.
def refund_orders():  # expect: JC501
    requests.post("https://payments.example/refunds")  # expect: JC201


def add_refund_step(task_id):
    return PythonOperator(task_id=task_id, python_callable=refund_orders)


refunds_dag = DAG("refunds", schedule=None, start_date=datetime(2024, 1, 1), default_args={"retries": 5})
with refunds_dag:
    add_refund_step("refund")
