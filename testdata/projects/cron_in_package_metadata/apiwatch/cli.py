# jobcheck-test: select=JC501
"""An installed package: its README is the body of `*.dist-info/METADATA`, which says cron runs
`apiwatch check` (the console script named in `entry_points.txt`); `report` is run by hand."""
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
