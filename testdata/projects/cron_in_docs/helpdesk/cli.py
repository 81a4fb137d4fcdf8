# jobcheck-test: select=JC501
import click
import requests


@click.group()
def tickets():
    """Ticket commands."""


@tickets.command()
@click.option("--max", default=100)
def send_reminders(max):  # expect: JC501
    requests.post("https://mail.example/reminders", json={"max": max})


@tickets.command("import-csv")
def import_csv():
    requests.post("https://helpdesk.example/import")


@tickets.command("close-stale")
def close_stale():  # expect: JC501
    requests.post("https://helpdesk.example/close-stale")


@tickets.command()
def renew():
    """Renew a customer's subscription now (certbot's renew in the docs is another program)."""
    requests.post("https://billing.example/renew")
