# jobcheck-test: select=JC201,JC501
# oslo.messaging, read from the client's side: the manager's server is loaded by its dotted path
# from configuration, so its endpoints cannot be followed, but the client names what it calls
# (`cctxt.cast(ctxt, "start_backup", ...)`, through a helper's parameter, or a conditional
# `cast`/`call`). A class implementing most of one client's names serves them; a driver sharing
# two verbs with the client, the client itself and the REST controller calling it do not.
import oslo_messaging
import requests
from oslo_config import cfg

CONF = cfg.CONF


def get_client(target):
    return oslo_messaging.get_rpc_client(None, target)


class BackupAPI:
    target = oslo_messaging.Target(topic="backup", version="1.0")

    def _cast(self, ctxt, method, **kwargs):
        get_client(self.target).prepare().cast(ctxt, method, **kwargs)

    def start_backup(self, ctxt, backup_id):
        self._cast(ctxt, "start_backup", backup_id=backup_id)

    def delete_backup(self, ctxt, backup_id, wait=False):
        cctxt = get_client(self.target).prepare()
        send = cctxt.call if wait else cctxt.cast
        return send(ctxt, "delete_backup", backup_id=backup_id)

    def restore(self, ctxt, backup_id):
        self._cast(ctxt, "restore", backup_id=backup_id)


class BackupController:
    def __init__(self):
        self.api = BackupAPI()

    def start_backup(self, request, backup_id):
        self.api.start_backup(request.context, backup_id)

    def delete_backup(self, request, backup_id):
        self.api.delete_backup(request.context, backup_id)


class BackupManager:  # served by `service.Service.create(manager=CONF.backup_manager)`
    def __init__(self):
        self.store = BackupStore()

    def start_backup(self, ctxt, backup_id):  # expect: JC501
        requests.post("https://storage.example/snapshots", json={"backup": backup_id})
        self.store.start_backup(ctxt, backup_id)

    def delete_backup(self, ctxt, backup_id):  # expect: JC501
        requests.delete(f"https://storage.example/snapshots/{backup_id}")
        self.store.delete_backup(ctxt, backup_id)

    def restore(self, ctxt, backup_id):  # expect: JC501
        print("restore", backup_id)
        self.store.restore(ctxt, backup_id)

    def _helper(self):
        print("not called over RPC")


class MySqlBackupManager(BackupManager):  # the manager a MySQL deployment loads
    def start_backup(self, ctxt, backup_id):  # expect: JC501
        requests.post("https://mysql.example/dumps", json={"backup": backup_id})


class SwiftDriver:  # two of the client's three verbs: a driver the manager calls
    def start_backup(self, backup_id):
        print("a driver's verb")

    def restore(self, backup_id):
        print("another")


class Stopwatch:  # `start` and `stop` alone: a service's life cycle, no evidence of serving
    def start(self):
        print("tick")

    def stop(self):
        print("tock")


class AgentAPI:
    def __init__(self):
        self.client = get_client(oslo_messaging.Target(topic="agent"))

    def start(self, ctxt):
        self.client.prepare(fanout=True).cast(ctxt, "start")

    def stop(self, ctxt):
        self.client.prepare(fanout=True).cast(ctxt, "stop")


def flush_disks():
    import subprocess

    subprocess.call("sync")  # another library's `call`: names no RPC method


class Node:
    def sync(self):
        print("not an endpoint")

    def reboot(self):
        print("not one either")


class BackupAPIv2(BackupAPI):  # a subclass of the client is the client
    def start_backup(self, ctxt, backup_id):
        super().start_backup(ctxt, backup_id)

    def restore(self, ctxt, backup_id):
        super().restore(ctxt, backup_id)


class BackupStore:  # the manager's storage, implementing the same verbs: not the server
    def start_backup(self, ctxt, backup_id):
        print("row")

    def delete_backup(self, ctxt, backup_id):
        print("row")

    def restore(self, ctxt, backup_id):
        print("row")


class ComputeAPI:
    def build_instance(self, ctxt, instance):
        get_client(oslo_messaging.Target(topic="compute")).prepare().cast(ctxt, "build_instance", instance=instance)


class ConductorAPI:
    def schedule_and_build(self, ctxt, instance):
        get_client(oslo_messaging.Target(topic="conductor")).prepare().cast(ctxt, "schedule_and_build", instance=instance)

    def rebuild(self, ctxt, instance):
        get_client(oslo_messaging.Target(topic="conductor")).prepare().cast(ctxt, "rebuild", instance=instance)


class ConductorManager:  # relays to the compute service under other names: still a server
    def __init__(self):
        self.compute = ComputeAPI()

    def schedule_and_build(self, ctxt, instance):  # expect: JC501
        self.compute.build_instance(ctxt, instance)

    def rebuild(self, ctxt, instance):  # expect: JC501
        self.compute.build_instance(ctxt, instance)
