# jobcheck-test: select=JC303
# Airflow DAGs that let several runs work at once on the same data, and the clean forms.
from datetime import datetime

from airflow import DAG
from airflow.decorators import dag, task
from airflow.operators.bash import BashOperator
from airflow.operators.python import PythonOperator


def export_everything():
    print("export")


def export_one_day(ds):
    print(ds)


with DAG("export", schedule="@hourly", start_date=datetime(2024, 1, 1), max_active_runs=4):  # expect: JC303
    PythonOperator(task_id="export", python_callable=export_everything)


@dag(schedule="@hourly", start_date=datetime(2024, 1, 1), max_active_runs=3)  # expect: JC303
def sync_accounts():
    @task
    def sync():
        print("sync")

    sync()


sync_accounts()


# ---- clean ----


with DAG("export_daily", schedule="@daily", start_date=datetime(2024, 1, 1), max_active_runs=4):
    PythonOperator(task_id="export", python_callable=export_one_day)


with DAG("dump", schedule="@daily", start_date=datetime(2024, 1, 1), max_active_runs=8):
    BashOperator(task_id="dump", bash_command="pg_dump --where \"day = '{{ ds }}'\" > /dumps/{{ ds_nodash }}.sql")


with DAG("one_at_a_time", schedule="@hourly", start_date=datetime(2024, 1, 1), max_active_runs=1):
    PythonOperator(task_id="export", python_callable=export_everything)


@dag(schedule="@hourly", start_date=datetime(2024, 1, 1), max_active_runs=3)
def partitioned_taskflow():
    @task
    def sync(data_interval_start=None, data_interval_end=None):
        print(data_interval_start, data_interval_end)

    sync()


partitioned_taskflow()
