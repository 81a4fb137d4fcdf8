# jobcheck-test: select=JC501
# cotyledon services: a `Service` subclass's `run` that repeats its work until stopped, sleeping
# between rounds (here in a helper), is a periodic job; one that starts a server and returns is not.
import time

import cotyledon


class Processor(cotyledon.Service):
    def __init__(self, worker_id):
        super().__init__(worker_id)
        self.period = 3600

    def run(self):  # expect: JC501
        while True:
            self.process_once()

    def process_once(self):
        time.sleep(self.period)
        self.rate()

    def rate(self):
        self.storage.push(self.collect())


class ApiServer(cotyledon.Service):
    def run(self):
        print("serve requests until stopped")


class NotAService:
    def run(self):
        while True:
            time.sleep(60)
            print("not started by cotyledon")
