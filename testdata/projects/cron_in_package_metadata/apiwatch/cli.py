# jobcheck-test: select=JC501
"""An installed package: its README is the body of `*.dist-info/METADATA`, which says cron runs
`apiwatch check` (the console script named in `entry_points.txt`) and, in the Markdown code block
after a paragraph about cron, `apiwatch digest`; `report` is run by hand."""
import click
import requests


@click.group()
def main():
    pass


@main.command()
@click.option("--alert", default=None)
def check(alert):  # expect: JC501
    requests.get("https://api.example/health")


@main.command()
def report():
    print("history")


@main.command()
@click.option("--to")
def digest(to):  # expect: JC501
    requests.post("https://mail.example/send", json={"to": to})
