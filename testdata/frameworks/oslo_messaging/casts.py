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
    def start_backup(self, ctxt, backup_id):  # expect: JC501
        requests.post("https://storage.example/snapshots", json={"backup": backup_id})

    def delete_backup(self, ctxt, backup_id):  # expect: JC501
        requests.delete(f"https://storage.example/snapshots/{backup_id}")

    def restore(self, ctxt, backup_id):  # expect: JC501
        print("restore", backup_id)

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
