# jobcheck-test: select=JC501
# What the cluster runs around each task beside the task itself: the receivers of the signals it
# sends in its worker and monitor processes (`pre_execute`, `post_execute`, `post_spawn`), however
# connected, and the hooks a task names, also in an options dict spread into the call. The
# receivers of `pre_enqueue` run in the code that enqueues, and a Django signal of the
# application's own is not the cluster's.
from django.dispatch import Signal, receiver
from django_q.signals import post_execute, post_spawn, pre_enqueue, pre_execute
from django_q.tasks import async_task

order_paid = Signal()


@receiver(pre_execute)
def open_context(sender, func, task, **kwargs):  # expect: JC501
    print("start", task["id"])


def record_result(sender, task, **kwargs):  # expect: JC501
    print("done", task["id"])


@receiver(post_spawn)
def warm_cache(sender, proc_name, **kwargs):  # expect: JC501
    print("spawned", proc_name)


@receiver(pre_enqueue)
def stamp(sender, task, **kwargs):
    task["stamped"] = True


@receiver(order_paid)
def thank(sender, **kwargs):
    print("thanks")


def on_timeout(task):  # expect: JC501
    print("timed out", task["id"])


def rebuild(index):  # expect: JC501
    print("rebuilt", index)


def ready():
    post_execute.connect(record_result, dispatch_uid="record-result")


def request_rebuild(index):
    options = {"timeout_hook": on_timeout, "group": "indexes"}
    async_task(rebuild, index, **options)
