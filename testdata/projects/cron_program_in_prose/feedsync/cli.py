# A console script (`feedsync = feedsync.cli:main`) the documentation says a crontab runs.
import requests


def main():  # expect: JC501
    requests.post("https://feeds.example/sync")
