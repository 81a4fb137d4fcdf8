# jobcheck-test: select=JC201,JC501
import requests

from workers.base import BaseCleanup, BaseWorker, Exporter, SyncTask, Watchdog, app


class CleanupWorker(BaseWorker):  # expect: JC501
    def _work(self):
        requests.delete("https://store.example/tmp")


class QuietWorker(BaseWorker):  # expect: JC501
    def enabled(self):
        return bool(requests.get("https://flags.example/quiet").json())

    def _work(self):
        requests.get("https://store.example/health")  # a read: safe to repeat


class LedgerSync(SyncTask):
    def sync(self, account_id):  # expect: JC501
        requests.post("https://ledger.example/sync", json={"account": account_id})  # expect: JC201


class CsvExport(Exporter):
    def render(self):
        return requests.post("https://render.example/csv").text


LedgerSync = app.register_task(LedgerSync())


def start():
    CleanupWorker().start()
    QuietWorker().start()
    TmpCleanup().start()
    PagerWatchdog().start()


class TmpCleanup(BaseCleanup):  # expect: JC501
    def _run(self):
        requests.delete("https://store.example/tmp")


class PagerWatchdog(Watchdog):  # expect: JC501
    def alert(self):
        requests.post("https://pager.example/alert")


class ReportWorker(BaseWorker):
    """Not a job: the application never uses it (a configuration could name it at run time)."""

    def _work(self):
        requests.post("https://reports.example/build")
