# jobcheck-test: select=JC201,JC501
import requests

from workers.base import BaseCleanup, BaseWorker, Exporter, SyncTask, app


class CleanupWorker(BaseWorker):  # expect: JC501
    def _work(self):
        requests.delete("https://store.example/tmp")


class QuietWorker(BaseWorker):  # expect: JC501
    def enabled(self):
        return bool(requests.get("https://flags.example/quiet").json())

    def _work(self):
        requests.get("https://store.example/health")  # a read: safe to repeat


class LedgerSync(SyncTask):  # expect: JC501
    def sync(self, account_id):
        requests.post("https://ledger.example/sync", json={"account": account_id})  # expect: JC201


class CsvExport(Exporter):
    def render(self):
        return requests.post("https://render.example/csv").text


LedgerSync = app.register_task(LedgerSync())


def start():
    CleanupWorker().start()
    QuietWorker().start()


class TmpCleanup(BaseCleanup):  # expect: JC501
    def _run(self):
        requests.delete("https://store.example/tmp")
