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
