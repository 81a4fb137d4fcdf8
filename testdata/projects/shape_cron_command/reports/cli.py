import click
import requests


@click.command("purge-exports")
def purge_exports():  # expect: JC501
    """Delete exports older than a week. Run nightly by cron."""
    requests.delete("https://storage.example/exports?older_than=7d")


@click.command("create-admin")
@click.argument("email")
def create_admin(email):
    """Create the first admin user (once, at install)."""
    print(email)


@click.command("rebuild-index")
def rebuild_index():
    """Rebuild the search index from scratch. Never run this from cron: it locks the table."""
    requests.post("https://search.example/rebuild")


@click.command("prune-stale-uploads")
def prune_stale_uploads():  # expect: JC501
    """Prune stale multipart uploads."""
    requests.delete("https://storage.example/uploads?stale=1")
