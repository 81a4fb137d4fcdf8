# jobcheck-test: select=JC501
# pulpcore's scheduler dispatches the task a `TaskSchedule` row names by its dotted path; a path
# of nothing in the project registers nothing.
import requests


def start_report(report_pk):  # expect: JC501
    requests.post("https://reports.example/api/runs", json={"report": report_pk})


def describe_report(report_pk):
    return report_pk
