# jobcheck-test: select=JC501
# oslo.messaging: the endpoints handed to an RPC server (each public method is a job) or to a
# notification listener (its methods named for a priority), written at the call, held in a local
# list, or passed through a helper of the application's own. Other classes' methods, private
# methods, and a notification endpoint's other methods are not jobs.
import oslo_messaging


class ScopeEndpoint:
    target = oslo_messaging.Target(version="1.0")

    def reset_state(self, ctxt, res_data):  # expect: JC501
        print("reset")

    def _lock(self, scope):
        print("a helper, not an RPC method")


class RatingEndpoint:
    def quote(self, ctxt, res_data):  # expect: JC501
        return 0


class AlarmEndpoint:
    def sample(self, notifications):  # expect: JC501
        print("alarm changed")

    def filter_rule(self):
        print("not a priority")


class ManagerEndpoint:
    def process_notification(self, context, notification):  # expect: JC501
        print("recover")


class NotAnEndpoint:
    def reset_state(self, ctxt):
        print("never handed to a server")


def get_server(target, endpoints, serializer=None):
    return oslo_messaging.get_rpc_server(None, target, endpoints, executor="threading", serializer=serializer)


class Orchestrator:
    def start(self, transport, target):
        endpoints = [ScopeEndpoint(), RatingEndpoint()]
        self.server = oslo_messaging.get_rpc_server(transport, target, endpoints, executor="threading")
        self.listener = oslo_messaging.get_batch_notification_listener(
            transport, [target], [AlarmEndpoint()], allow_requeue=False, batch_size=10)


class Service:
    def start(self, target):
        self.rpcserver = get_server(target, [ManagerEndpoint()])


class QuotaEndpoint:
    def recompute(self, ctxt, project_id):  # expect: JC501
        print("recompute")


class Processor:
    def __init__(self):
        self._quota_endpoint = QuotaEndpoint()

    def _init_messaging(self, target):
        endpoints = [
            self._quota_endpoint,
        ]
        self.server = get_server(target=target, endpoints=endpoints)


class BaseEndpoint:
    def ping(self, ctxt):  # expect: JC501
        return "pong"

    @property
    def target(self):
        return oslo_messaging.Target(version="1.0")

    @classmethod
    def create(cls):
        return cls()


class ModuleEndpoint(BaseEndpoint):
    def reload(self, ctxt):  # expect: JC501
        print("reload")


class Target2:
    def not_an_endpoint(self):
        print("the server's target, built first in the function: not an endpoint")


ENDPOINTS = [ModuleEndpoint()]


class Helpers:
    @staticmethod
    def make_server(target, endpoints):
        return oslo_messaging.get_rpc_server(None, target, endpoints)


class StaticEndpoint:
    def via_static(self, ctxt):  # expect: JC501
        print("static")


class Launcher:
    def start(self, transport):
        self.first = Helpers.make_server(Target2(), [StaticEndpoint()])
        self.second = oslo_messaging.get_rpc_server(transport, Target2(), ENDPOINTS)


class MonitorConfig:
    """Handed to the endpoint's constructor: no endpoint itself."""

    def reload(self, ctxt):
        print("reload")


class HostEndpoint:
    def __init__(self, config):
        self.config = config

    def info(self, ctxt, publisher_id, event_type, payload, metadata):  # expect: JC501
        print("host down")

    def handle_notification(self, priority, payload):
        print("a helper of the priorities, not one")


class NotificationMonitor:
    """The endpoints are what a method of its own returns."""

    def __init__(self, transport, targets):
        self.listener = oslo_messaging.get_notification_listener(
            transport, targets, self._get_endpoints(), executor="threading")

    def _get_endpoints(self):
        return [HostEndpoint(MonitorConfig())]
