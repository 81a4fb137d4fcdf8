# jobcheck-test: select=JC501
# A middleware's hooks run in the worker, around every message and as it boots or stops; the
# hooks around enqueueing run in the code that sends, and a class with the same method names that
# is no middleware is nobody's hook. A broker's consumer is polled by the worker's consumer thread
# (`next(consumer)`) for as long as it runs; an iterator that is no consumer is nobody's.
import dramatiq
import requests
from dramatiq.broker import Consumer
from dramatiq.middleware import Middleware


class AdminMiddleware(Middleware):
    def before_enqueue(self, broker, message, delay):
        print("enqueued", message.message_id)

    def before_process_message(self, broker, message):  # expect: JC501
        requests.post("https://admin.example/running", json={"id": message.message_id})

    def after_process_message(self, broker, message, *, result=None, exception=None):  # expect: JC501
        requests.post("https://admin.example/done", json={"id": message.message_id})

    after_skip_message = after_process_message


class Warmup(dramatiq.Middleware):
    def after_worker_boot(self, broker, worker):  # expect: JC501
        requests.get("https://cache.example/warm")


class Recorder:
    def before_process_message(self, broker, message):
        print(message)


class TableConsumer(Consumer):
    def __init__(self, conn, queue):
        self.conn = conn
        self.queue = queue

    def __next__(self):  # expect: JC501
        return self.conn.execute("UPDATE queue SET state = 'consumed' WHERE id = (SELECT id FROM queue LIMIT 1) RETURNING *")


class Rows:
    def __next__(self):
        return requests.get("https://rows.example/next").json()
