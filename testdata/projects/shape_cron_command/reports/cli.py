import click
import requests


@click.command("purge-exports")
def purge_exports():  # todo-expect: JC501
    """Delete exports older than a week. Run nightly by cron."""
    requests.delete("https://storage.example/exports?older_than=7d")


@click.command("create-admin")
@click.argument("email")
def create_admin(email):
    """Create the first admin user (once, at install)."""
    print(email)
