# jobcheck-test: select=JC501
# A beat scheduler of the application's own: the beat service calls its `tick` again and again.
# A class with a `tick` that is no scheduler is nobody's job.
import requests
from celery.beat import PersistentScheduler


class ReportingScheduler(PersistentScheduler):
    def tick(self, *args, **kwargs):  # expect: JC501
        requests.post("https://ops.example/beat", json={"entries": len(self.schedule)})
        return super().tick(*args, **kwargs)


class Clock:
    def tick(self):
        requests.post("https://ops.example/clock")
