# Prefect waits `retry_delay_seconds` (default 0); Airflow `retry_delay` (default 5 minutes).
from datetime import datetime, timedelta

import requests
from airflow import DAG
from airflow.operators.python import PythonOperator
from prefect import flow, task
from prefect.tasks import exponential_backoff


@task(retries=5)  # expect: JC203
def fetch_rates():
    return requests.get("https://rates.example.com", timeout=10).json()


@task(retries=3, retry_delay_seconds=[0, 0, 0])  # expect: JC203
def fetch_prices():
    return requests.get("https://prices.example.com", timeout=10).json()


@flow(retries=3, retry_delay_seconds=0.1)  # expect: JC203
def nightly_rates():
    fetch_rates()
    fetch_prices()


def push_report():
    requests.post("https://reports.example.com", timeout=10)


def push_report_again():
    requests.post("https://reports.example.com/again", timeout=10)


with DAG("reports", start_date=datetime(2024, 1, 1),  # expect: JC203
         default_args={"retries": 5, "retry_delay": timedelta(seconds=0)}):
    PythonOperator(task_id="push", python_callable=push_report)
    PythonOperator(task_id="push_again", python_callable=push_report_again)


# Clean: exponential backoff, growing delays, a real constant delay, Airflow's default delay.

@task(retries=5, retry_delay_seconds=exponential_backoff(backoff_factor=10))
def exponential():
    return requests.get("https://rates.example.com/a", timeout=10).json()


@task(retries=3, retry_delay_seconds=[10, 60, 300])
def growing():
    return requests.get("https://rates.example.com/b", timeout=10).json()


@task(retries=3, retry_delay_seconds=30)
def constant_delay():
    return requests.get("https://rates.example.com/c", timeout=10).json()


def archive_report():
    requests.post("https://reports.example.com/archive", timeout=10)


with DAG("archive", start_date=datetime(2024, 1, 1), default_args={"retries": 3}):
    PythonOperator(task_id="archive", python_callable=archive_report)
