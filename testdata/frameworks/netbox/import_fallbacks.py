# A plugin written for NetBox 4 that still loads on older releases: `JobRunner` imported from
# `netbox.jobs`, with fallbacks in `except ImportError:` for where older versions kept it. The
# body's import is what the code is written for, so the class is a NetBox background job.
# jobcheck-test: select=JC501
import requests

try:
    from netbox.jobs import JobRunner
except ImportError:
    try:
        from extras.jobs import JobRunner
    except ImportError:
        from extras.jobs import Job as JobRunner


class DashboardSync(JobRunner):  # expect: JC501
    class Meta:
        name = "Dashboard sync"

    def run(self, *args, **kwargs):
        requests.get("https://dashboard.example/api/networks")
