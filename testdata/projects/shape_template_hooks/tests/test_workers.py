import requests

from workers.base import BaseWorker


class FakeWorker(BaseWorker):
    def _work(self):
        requests.post("https://fake.example/work")
