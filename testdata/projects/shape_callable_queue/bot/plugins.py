# jobcheck-test: select=JC501
import time

import requests

from .schedule import schedule


def flush_feeds():  # expect: JC501
    requests.post("https://feeds.example/flush")


def send_reminder():  # expect: JC501
    requests.post("https://chat.example/remind")


def describe():
    requests.get("https://chat.example/help")


def setup():
    schedule.add_periodic_event(flush_feeds, 3600, name="flush")
    schedule.add_event(send_reminder, time.time() + 60)
    schedule.remember("help", describe)
