# jobcheck-test: select=JC501
# CKAN: ckanext-harvest's queue consumers run a harvester's gather, fetch and import stages for
# each harvest job and object they take, also on a subclass of the application's own harvester;
# ckan-service-provider runs an asynchronous job on its worker after the request that submitted
# it (a synchronous one runs in that request).
import ckanserviceprovider.job as job
import requests
from ckan.plugins import SingletonPlugin, implements
from ckanext.harvest.harvesters.base import HarvesterBase
from ckanext.harvest.interfaces import IHarvester


class CatalogueHarvester(HarvesterBase):
    def info(self):  # the harvester's description: no stage
        return {"name": "catalogue"}

    def import_stage(self, harvest_object):  # expect: JC501
        requests.post("https://ckan.example/api/action/package_create", json={"id": harvest_object.guid})
        return True


class CswHarvester(CatalogueHarvester, SingletonPlugin):
    implements(IHarvester)

    def gather_stage(self, harvest_job):  # expect: JC501
        return [harvest_job.id]

    def fetch_stage(self, harvest_object):  # expect: JC501
        harvest_object.content = requests.get(harvest_object.url).text
        return True

    def _identifiers(self, url):  # a helper the stages call: no job of its own
        return requests.get(url).json()


class Loader:
    def gather_stage(self, harvest_job):  # a class of its own with a method of the same name: no stage
        return []


@job.asynchronous
def push_to_datastore(task_id, input, dry_run=False):  # expect: JC501
    requests.post("https://ckan.example/api/action/datastore_create", json=input)


@job.synchronous
def check_resource(task_id, input):
    return requests.get(input["url"]).status_code
