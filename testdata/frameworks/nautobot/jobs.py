# Nautobot Jobs: Nautobot's `run_job` Celery task calls a Job's `run`, a job button receiver's
# `receive_job_button`, a job hook receiver's `receive_job_hook`; the method runs wherever Python
# finds it (a base class of the application's own), and nautobot-ssot's sync bases are Jobs too.
# A Git repository's sync calls the `callback` of each `DatasourceContent` an application declares.
# jobcheck-test: select=JC201,JC501
import requests
from nautobot.apps.datasources import DatasourceContent
from nautobot.apps.jobs import BooleanVar, Job, JobButtonReceiver, JobHookReceiver, register_jobs
from nautobot.extras.jobs import ObjectVar
from nautobot_ssot.jobs import DataSource


class SyncMixin(Job):  # expect: JC501
    """Sync base: its `run` runs for every job built on it that keeps it."""

    dryrun = BooleanVar(default=True)

    def run(self, dryrun):
        self.load()
        self.logger.info("done")

    def load(self):
        raise NotImplementedError


class SyncFromCMDB(SyncMixin):
    def load(self):  # expect: JC501
        requests.get("https://cmdb.example/devices")


class PushToMonitoring(Job):  # expect: JC501
    device = ObjectVar(model=None)

    def run(self, device):
        requests.post("https://monitoring.example/hosts", json={"name": device.name})


class FormMixin:
    """No Job: a form helper its subclasses mix in."""

    def run(self, data):
        requests.post("https://audit.example/forms", json=data)


class RestartButton(JobButtonReceiver):  # expect: JC501
    def receive_job_button(self, obj):
        requests.post(f"https://ops.example/devices/{obj.pk}/restart")


class PowerCycleButton(JobButtonReceiver):  # expect: JC501
    """Overrides `run` itself: that is what the worker runs."""

    def run(self, object_pk, object_model_name, **kwargs):
        requests.post(f"https://ops.example/devices/{object_pk}/power-cycle")


class AnnounceChange(JobHookReceiver):  # expect: JC501
    def receive_job_hook(self, change, action, changed_object):
        requests.post("https://chat.example/messages", json={"text": f"{action}: {changed_object}"})


class ImportFromIPAM(DataSource):  # expect: JC501
    def run(self, dryrun, memory_profiling, *args, **kwargs):
        super().run(dryrun=dryrun, memory_profiling=memory_profiling, *args, **kwargs)


class ImportFromDNS(DataSource):  # expect: JC501
    def load_source_adapter(self):
        self.source_adapter = requests.get("https://dns.example/zones").json()

    def load_target_adapter(self):
        self.target_adapter = {}


class VariablesOnly(PushToMonitoring):
    """Changes only the form: the job's code is PushToMonitoring's."""

    device = ObjectVar(model=None, required=False)


def refresh_templates(repository_record, job_result, delete=False):  # expect: JC501
    requests.post("https://render.example/templates/refresh", json={"repo": str(repository_record.pk)})


def refresh_rules(repository_record, job_result, delete=False):  # expect: JC501
    requests.post("https://render.example/rules/refresh", json={"repo": str(repository_record.pk)})


def not_a_callback(repository_record):
    return repository_record.pk


datasource_contents = [
    ("extras.gitrepository", DatasourceContent(name="templates", content_identifier="app.templates",
                                              callback=refresh_templates)),
    ("extras.gitrepository", DatasourceContent("rules", "app.rules", "mdi-file", refresh_rules)),
]

register_jobs(SyncFromCMDB, PushToMonitoring, RestartButton, AnnounceChange, ImportFromIPAM, ImportFromDNS, VariablesOnly)
