# jobcheck-test: select=JC501
# A name whose class an `assert issubclass(...)` / `assert isinstance(...)` states is of that
# class past it: what is enqueued is that class's method (`jobclass.run` is `Job.run`). A name
# already of a known class keeps it.
import django_rq
import requests


class Job:
    @classmethod
    def run(cls, task_id):  # expect: JC501
        requests.post("https://jobs.example/run", json={"task": task_id})


class Exporter:
    def run(self, task_id):  # expect: JC501
        requests.post("https://exports.example/run", json={"task": task_id})


class BaseExporter:
    def run(self, task_id):
        requests.post("https://exports.example/base", json={"task": task_id})


class Task:
    def get_jobclass(self):
        """Overridden by each task."""

    def submit(self):
        jobclass = self.get_jobclass()
        assert issubclass(jobclass, Job)
        django_rq.get_queue().enqueue(jobclass.run, task_id=1)

    def export(self):
        exporter = Exporter()
        assert isinstance(exporter, BaseExporter)
        django_rq.get_queue().enqueue(exporter.run, task_id=2)
