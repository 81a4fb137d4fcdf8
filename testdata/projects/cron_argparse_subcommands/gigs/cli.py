# jobcheck-test: select=JC501
"""An argparse program whose README runs two of its subcommands from cron (`python3 -m gigs
scan`, `gigs-ctl prune`): the jobs are the handlers those subcommands are given
(`set_defaults(func=cmd_scan)`), named for them; `report` is run by hand."""
import argparse

import requests


def cmd_scan(args):  # expect: JC501
    requests.post("https://alerts.example/new", json={"feed": args.feed})


def cmd_report(args):
    print("history")


def _cmd_prune(args):  # expect: JC501
    requests.delete("https://store.example/old")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="gigs")
    sub = parser.add_subparsers(dest="command")
    p_scan = sub.add_parser("scan", help="fetch the feeds once and alert")
    p_scan.add_argument("--feed")
    p_scan.set_defaults(func=cmd_scan)
    sub.add_parser("report", help="print the history").set_defaults(func=cmd_report)
    sub.add_parser("prune", help="drop old entries").set_defaults(func=_cmd_prune)
    args = parser.parse_args(argv)
    return args.func(args)
