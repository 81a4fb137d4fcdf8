# jobcheck-test: select=JC501
# A service that serves itself (`[self]` at the server call, or `self.endpoints = [self]` set in a
# base): its own handlers and its subclasses' are endpoints, its life cycle (`start`, `stop`,
# `init_host`) is not; endpoints a subclass adds, and handlers passed through a subclass's
# constructor or `super().__init__`, are read too.
import oslo_messaging

TRANSPORT = oslo_messaging.get_rpc_transport(None)


class UsageListener:
    def start(self):
        targets = [oslo_messaging.Target(topic="notifications")]
        self.listener = oslo_messaging.get_notification_listener(TRANSPORT, targets, [self])
        self.listener.start()

    def info(self, ctxt, publisher_id, event_type, payload, metadata):  # expect: JC501
        self.store.add(payload)


class L3Agent:
    def start(self):
        target = oslo_messaging.Target(topic="l3", server="h")
        self.server = oslo_messaging.get_rpc_server(TRANSPORT, target, [self])

    def stop(self):
        self.server.stop()

    def router_deleted(self, context, router_id):  # expect: JC501
        self.routers.remove(router_id)


class L3AgentWithStateReport(L3Agent):
    def agent_updated(self, context, payload):  # expect: JC501
        self.state.update(payload)


class BaseService:
    def __init__(self, topic):
        self.topic = topic
        self.endpoints = [self]

    def stop(self):
        self.server.stop()


class RPCService(BaseService):
    def start(self):
        target = oslo_messaging.Target(topic=self.topic, server="h")
        self.server = oslo_messaging.get_rpc_server(TRANSPORT, target, self.endpoints)

    def init_host(self):
        """Called at start-up, not over RPC."""


class PoolManager(RPCService):
    def __init__(self):
        super().__init__("pool")
        self.endpoints = [self, PoolAdmin()]

    def update_pool(self, context, pool):  # expect: JC501
        self.backend.update(pool)


class PoolAdmin:
    def reset_pool(self, context, pool):  # expect: JC501
        self.backend.reset(pool)


class HandlerService:
    def __init__(self, topic, handlers):
        target = oslo_messaging.Target(topic=topic, server="h")
        self.server = oslo_messaging.get_rpc_server(TRANSPORT, target, handlers)


class ConductorService(HandlerService):
    def __init__(self):
        super().__init__("conductor", [ConductorEndpoint()])


class ApiService(HandlerService):
    pass


class ConductorEndpoint:
    def cluster_create(self, context, cluster):  # expect: JC501
        self.driver.create(cluster)


class ApiEndpoint:
    def api_call(self, context):  # expect: JC501
        return self.driver.status()


def main():
    UsageListener().start()
    L3AgentWithStateReport().start()
    PoolManager().start()
    ConductorService()
    ApiService("api", [ApiEndpoint()])
