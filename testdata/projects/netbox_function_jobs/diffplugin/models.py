from core.models import Job
from django.utils.module_loading import import_string


class ConfigurationRequest:
    def enqueue_job(self, request, job_name, schedule_at=None):
        return Job.enqueue(
            import_string(f"diffplugin.jobs.{job_name}"),
            instance=self,
            user=request.user,
            schedule_at=schedule_at,
        )
