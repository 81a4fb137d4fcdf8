# jobcheck-test: select=JC501
from typing import TYPE_CHECKING

import requests

if TYPE_CHECKING:
    from lab.socket import RootSocket


class StatsSocket:
    def __init__(self, root: "RootSocket"):
        self.root = root

    def start(self, session):
        self.root.jobs.add("update_stats", "stats.update_stats", session, unique=True)
        self.root.jobs.add("purge", f"stats.purge_old", session)
        self.root.jobs.add("label", "stats.not_a_method", session)
        self.root.jobs.audit("stats.report", session)

    def update_stats(self):  # expect: JC501
        requests.post("https://stats.example/update")

    def purge_old(self):  # expect: JC501
        requests.delete("https://stats.example/old")

    def report(self):  # named only in an audit row
        requests.get("https://stats.example/report")
