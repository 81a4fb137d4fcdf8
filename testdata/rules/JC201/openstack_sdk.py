# jobcheck-test: select=JC201
# openstacksdk: a proxy's `create_*` POSTs a new resource (a port, a server, a volume); Neutron and
# Nova do not deduplicate by name, so a create retried after a lost response leaves a second one.
# Its `update_*` and `delete_*` are PUT and DELETE: idempotent, not reported.
import openstack
import tenacity
from openstack.connection import Connection
from openstack.network.v2._proxy import Proxy


class NetworkDriver:
    def __init__(self, conn: Connection):
        self.network_proxy: Proxy = conn.network

    @tenacity.retry(retry=tenacity.retry_if_exception_type(), stop=tenacity.stop_after_attempt(15))
    def create_vip_port(self, network_id, name):
        return self.network_proxy.create_port(network_id=network_id, name=name)  # expect: JC201

    @tenacity.retry(stop=tenacity.stop_after_attempt(5))
    def set_port_name(self, port_id, name):
        return self.network_proxy.update_port(port_id, name=name)

    @tenacity.retry(stop=tenacity.stop_after_attempt(5))
    def delete_port(self, port_id):
        self.network_proxy.delete_port(port_id, ignore_missing=True)


@tenacity.retry(stop=tenacity.stop_after_attempt(3))
def boot(name):
    conn = openstack.connect(cloud="envvars")
    return conn.compute.create_server(name=name, image_id="img", flavor_id="small")  # expect: JC201


@tenacity.retry(stop=tenacity.stop_after_attempt(3))
def boot_cloud_layer(name):
    conn = openstack.connect(cloud="envvars")
    return conn.create_server(name=name, image="img", flavor="small")  # expect: JC201


@tenacity.retry(stop=tenacity.stop_after_attempt(3))
def upload(container, name, data):
    """Swift's create_object is a PUT of that name: idempotent."""
    conn = openstack.connect(cloud="envvars")
    conn.object_store.create_object(container, name, data=data)
