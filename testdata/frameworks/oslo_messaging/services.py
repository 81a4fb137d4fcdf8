# jobcheck-test: select=JC501
# Endpoints a service class holds in an attribute (`self.endpoints = [self]`: each subclass the
# application runs, less the service's own methods), and handlers passed to a constructor through a
# class method (`Service.create(topic, handlers)` -> `cls(...)` -> `__init__`). A subclass the
# application never uses is not served.
import oslo_messaging

TRANSPORT = oslo_messaging.get_rpc_transport(None)


def get_server(target, endpoints):
    return oslo_messaging.get_rpc_server(TRANSPORT, target, endpoints)


class RPCService:
    def __init__(self, topic):
        self.topic = topic
        self.endpoints = [self]

    def start(self):
        self.server = get_server(oslo_messaging.Target(topic=self.topic), self.endpoints)
        self.server.start()

    def stop(self):
        self.server.stop()


class ZoneWorker(RPCService):
    def create_zone(self, context, zone):  # expect: JC501
        self.backend.create(zone)

    def get_zone(self, context, zone_id):  # expect: JC501
        """Called (a request the client waits for): still run by the service's worker."""
        return self.backend.get(zone_id)

    def _backend(self):
        return self.backend


class UnusedWorker(RPCService):
    def purge(self, context):
        self.backend.purge()


class Service:
    def __init__(self, topic, server, handlers):
        target = oslo_messaging.Target(topic=topic, server=server)
        self._server = get_server(target, handlers)

    @classmethod
    def create(cls, topic, server, handlers):
        return cls(topic, server, handlers)


class ClusterHandler:
    def cluster_create(self, context, cluster):  # expect: JC501
        self.driver.create(cluster)


def main():
    ZoneWorker("worker").start()
    handlers = [ClusterHandler()]
    Service.create("conductor", "host-1", handlers)
