# jobcheck-test: select=JC501
# TaskFlow: a Task subclass's `execute` (directly or through a base of the application's own) is a
# job an engine runs; a base that only defines `revert`, and classes of other bases, are not.
from taskflow import task
from taskflow.patterns import linear_flow


class BaseRecoveryTask(task.Task):
    def revert(self, *args, **kwargs):
        print("undo")


class DisableComputeService(BaseRecoveryTask):
    def execute(self, host_name):  # expect: JC501
        print("disable", host_name)


class EvacuateInstances(task.Task):
    default_provides = "evacuated"

    def execute(self, host_name, instance_list):  # expect: JC501
        return [i for i in instance_list]


class NotATask:
    def execute(self):
        print("a command object, not a TaskFlow task")


def host_failure_flow():
    return linear_flow.Flow("host-failure").add(DisableComputeService(), EvacuateInstances())
