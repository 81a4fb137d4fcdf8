# Dagster: retry policies given where assets and ops are put into jobs.
# jobcheck-test: select=JC201,JC501
import smtplib

from dagster import Definitions, RetryPolicy, asset, define_asset_job, graph_asset, job, op, run_failure_sensor


@asset
def invoices_sent() -> None:  # expect: JC501
    with smtplib.SMTP("mail.example") as smtp:
        smtp.sendmail("billing@example", ["customer@example"], "invoice")  # expect: JC201


@asset
def invoice_stats() -> dict:  # expect: JC501
    return {}


@op
def fetch_rates() -> dict:  # expect: JC501
    return {}


@op
def email_rates(rates: dict) -> None:  # expect: JC501
    with smtplib.SMTP("mail.example") as smtp:
        smtp.sendmail("fx@example", ["desk@example"], str(rates))  # expect: JC201


@graph_asset
def rates_report():
    return email_rates(fetch_rates())


@job
def rates_job():
    # the policy given at the invocation applies to this use of the op
    email_rates.with_retry_policy(RetryPolicy(max_retries=2))(fetch_rates())


@run_failure_sensor
def page_on_failure(context):  # expect: JC501
    # who sees exhaustion: a failure sensor, not retried
    with smtplib.SMTP("mail.example") as smtp:
        smtp.sendmail("dagster@example", ["oncall@example"], context.failure_event.message)


invoice_job = define_asset_job(
    "invoice_job", selection=[invoices_sent, invoice_stats], op_retry_policy=RetryPolicy(max_retries=4)
)

defs = Definitions(assets=[invoices_sent, invoice_stats, rates_report], jobs=[invoice_job, rates_job],
                   sensors=[page_on_failure])
