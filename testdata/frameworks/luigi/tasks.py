# Luigi: the worker calls a Task's `run`; `retry_count` lets the scheduler retry a failed task.
# jobcheck-test: select=JC201,JC501
import luigi
import luigi.contrib.postgres
import luigi.contrib.spark
import requests


class ExportOrders(luigi.Task):  # expect: JC501
    date = luigi.DateParameter()

    def output(self):
        return luigi.LocalTarget(f"/data/orders-{self.date}.csv")

    def run(self):
        with self.output().open("w") as out:
            out.write(requests.get("https://shop.example/orders").text)


class PushOrders(luigi.Task):  # expect: JC501
    date = luigi.DateParameter()
    retry_count = 3

    def requires(self):
        return ExportOrders(self.date)

    def run(self):
        with self.input().open() as data:
            requests.post("https://erp.example/orders", data=data.read())  # expect: JC201


class NotifyOrders(luigi.Task):  # expect: JC501
    # no retry_count: the default worker does not retry
    date = luigi.DateParameter()

    def run(self):
        requests.post("https://chat.example/orders", json={"date": str(self.date)})


class RetriedBase(luigi.Task):
    # a base class of ours: no run, so not an entry point; its retry_count is inherited
    retry_count = 5


class PublishOrders(RetriedBase):  # expect: JC501
    def run(self):
        requests.post("https://partner.example/orders", json={}, headers={"Idempotency-Key": "orders"})


class AnnounceOrders(RetriedBase):
    """Post a note that the orders are out.

    Reliability:
        Runs twice: the note is posted twice; harmless.
        Overlaps: no; one scheduler.
        Dies mid-run: the task reruns.
        Retries: up to 4 by the scheduler.
        Idempotent: no, and it does not need to be.
    """

    def run(self):
        requests.post("https://chat.example/announce")  # expect: JC201


class OrdersExternal(luigi.ExternalTask):
    # produced elsewhere: Luigi never runs it
    def output(self):
        return luigi.LocalTarget("/data/external.csv")


class OrdersToDatabase(luigi.contrib.postgres.CopyToTable):
    # Luigi's own run copies the input rows: nothing of ours runs
    table = "orders"
    columns = [("id", "INT")]


class OrderStats(luigi.contrib.spark.PySparkTask):  # expect: JC501
    # Luigi's run starts Spark, which calls main
    def main(self, sc, *args):
        sc.textFile("/data/orders.csv").count()


class Everything(luigi.WrapperTask):
    def requires(self):
        return [PushOrders(), NotifyOrders()]
