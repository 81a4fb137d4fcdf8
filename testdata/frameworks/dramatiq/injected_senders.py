# jobcheck-test: select=JC201,JC501
# A task base class takes the function that sends other actors as a constructor parameter, with
# the real one as its default (tests pass a fake): what runs is the default. It sends whichever
# actor it is given (`task.send(...)` on a `dramatiq.Actor` parameter): an enqueue.
import dramatiq
import requests


def send_task(task: dramatiq.Actor, *args, **kwargs):
    task.send(*args, **kwargs)


def describe(task):
    return task.actor_name


class TaskBase:
    def __init__(self, send=send_task, name=describe):
        self.send_task = send
        self.name_of = name

    def __call__(self, *args, **kwargs):
        return self.run(*args, **kwargs)


class DeliverTask(TaskBase):
    def run(self, hook_id):  # expect: JC501
        requests.post("https://hooks.example/deliver", json={"id": hook_id})  # expect: JC201


deliver = dramatiq.actor(DeliverTask())


class TriggerTask(TaskBase):
    def run(self, hook_ids):  # expect: JC501
        for hook_id in hook_ids:
            self.send_task(deliver, hook_id)  # expect: JC201


trigger = dramatiq.actor(TriggerTask())


class NameTask(TaskBase):
    def run(self):  # expect: JC501
        return self.name_of(deliver)


names = dramatiq.actor(NameTask())
