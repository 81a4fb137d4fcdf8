# A module named in a clause about cron that is no program the package installs: no job.
import requests


def main():
    requests.post("https://feeds.example/work")
