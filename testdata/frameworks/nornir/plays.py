# Nornir: `nr.run(task=f)` runs `f` once per host in Nornir's runner, keeping each host's exception
# in the result; the `*_completed` hooks of the processors it is given run as hosts finish. A
# task's own `task.run(task=...)` is part of that task, and a `*_started` hook only announces.
# jobcheck-test: select=JC501
import requests
from nornir import InitNornir
from nornir.core.task import Result, Task


def fetch_config(task: Task) -> Result:
    return Result(host=task.host, result=requests.get(f"https://{task.host.hostname}/config").text)


def backup(task: Task) -> Result:  # expect: JC501
    config = task.run(task=fetch_config)
    with open(f"/backups/{task.host.name}.cfg", "w") as out:
        out.write(config.result)
    return Result(host=task.host, result="saved")


class SaveResults:
    def __init__(self, store):
        self.store = store

    def task_started(self, task):
        print("started", task.name)

    def task_instance_started(self, task, host):
        print("started", host.name)

    def task_instance_completed(self, task, host, result):  # expect: JC501
        self.store.save(host.name, result.failed)


class PrintOnly:
    def task_instance_started(self, task, host):
        print(host.name)


def backup_all(store):
    with InitNornir(config_file="nornir.yaml") as nr:
        results = nr.with_processors([SaveResults(store), PrintOnly()]).run(task=backup, name="BACKUP")
    return results.failed
