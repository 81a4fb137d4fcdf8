# jobcheck-test: select=JC501
import requests

from ircbot import schedule


def upkeep():  # expect: JC501
    requests.post("https://status.example/upkeep")


def start():
    schedule.schedule.add_periodic_event(upkeep, 3600, "upkeep")
