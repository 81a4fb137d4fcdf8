# jobcheck-test: select=JC201,JC501
# Airflow operators whose retry settings are assigned after construction: `op.retries = 3` on the
# operator object, which Airflow reads when the task runs. Assigning 0 turns off the retries the
# DAG's default_args gave.
from datetime import datetime

import requests
from airflow import DAG
from airflow.operators.python import PythonOperator


def post_invoices():  # expect: JC501
    requests.post("https://ledger.example/invoices", json={})  # expect: JC201


def post_refunds():  # expect: JC501
    requests.post("https://payments.example/refunds", json={})  # op.retries = 0 turns off default_args retries


def post_credits():  # expect: JC501
    requests.post("https://payments.example/credits", json={})  # todo-expect: JC201


with DAG("ledger", schedule="@daily", start_date=datetime(2024, 1, 1), catchup=False) as dag:
    invoices = PythonOperator(task_id="invoices", python_callable=post_invoices)
    invoices.retries = 3

refund_dag = DAG("refunds", schedule=None, start_date=datetime(2024, 1, 1), default_args={"retries": 4})
refunds = PythonOperator(task_id="refunds", python_callable=post_refunds, dag=refund_dag)
refunds.retries = 0

credits_dag = DAG("credits", schedule=None, start_date=datetime(2024, 1, 1))
credits = PythonOperator(task_id="credits", python_callable=post_credits, dag=credits_dag)
for task in credits_dag.tasks:
    task.retries = 2
