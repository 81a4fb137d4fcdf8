# jobcheck-test: select=JC501
import argparse

import requests


def purge(args):  # expect: JC501
    requests.delete("https://helpdesk.example/tickets?closed=1")


def export(args):
    requests.post("https://helpdesk.example/export")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=["purge", "export"])
    args = parser.parse_args()
    {"purge": purge, "export": export}[args.command](args)
