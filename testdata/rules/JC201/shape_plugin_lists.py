# jobcheck-test: select=JC201
"""Effects reached through the objects a class keeps in a list of its own: `for mod in
self.modules: mod.send_msg(msg)` runs that method of each class whose instances it puts there
(`self.modules.append(Webhook())`, `self.handlers = [Webhook(), Log()]`)."""
import time

import requests
from celery import shared_task


class Webhook:
    def __init__(self, url):
        self.url = url

    def send_msg(self, msg):
        attempts = 0
        success = False
        while not success and attempts <= 3:
            if attempts:
                time.sleep(1)
            attempts += 1
            try:
                requests.post(self.url, json=msg, timeout=5)  # expect: JC201
                success = True
            except requests.RequestException:
                pass


class Log:
    def send_msg(self, msg):
        print(msg)


class Archive:
    def send_msg(self, msg):
        attempts = 0
        while attempts < 3:
            attempts += 1
            try:
                requests.put("https://archive.example/messages", json=msg, timeout=5)
                return
            except requests.RequestException:
                time.sleep(1)


class RPCManager:
    def __init__(self, url):
        self.modules = []
        self.modules.append(Webhook(url))
        self.modules.append(Log())
        self.archives = [Log()]

    def send_msg(self, msg):
        for mod in self.modules:
            mod.send_msg(msg)
        for archive in self.archives:  # Clean: Archive is never put there (and PUT repeats safely)
            archive.send_msg(msg)


@shared_task
def notify(msg):
    RPCManager("https://hooks.example").send_msg(msg)



class Pager:
    def send_msg(self, msg):
        for _ in range(3):
            try:
                requests.post("https://pager.example/page", json=msg, timeout=5)  # expect: JC201
                return
            except requests.RequestException:
                time.sleep(1)


class Sender(RPCManager):
    """Filled by the base, read here; and a table's values."""

    def __init__(self, url):
        super().__init__(url)
        self.table = {"pager": Pager()}

    def fan_out(self, msg):
        for mod in self.modules:
            mod.send_msg(msg)

    def page(self, msg):
        for entry in self.table.values():
            entry.send_msg(msg)


@shared_task(autoretry_for=(Exception,))
def fan_out(msg):
    Sender("https://hooks.example").fan_out(msg)  # expect: JC201


@shared_task
def page(msg):
    Sender("https://hooks.example").page(msg)
