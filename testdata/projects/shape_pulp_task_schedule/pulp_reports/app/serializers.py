# jobcheck-test: select=JC501
from pulpcore.plugin.models import TaskSchedule

from .models import Report


class ReportSerializer:
    def create(self, validated_data):
        report = Report.objects.create(**validated_data)
        TaskSchedule.objects.create(
            name=f"pulp_reports.report:{report.pk}",
            task_name="pulp_reports.app.tasks.start_report",
            task_kwargs={"report_pk": str(report.pk)},
            dispatch_interval=report.interval,
        )
        TaskSchedule.objects.create(name="purge", task_name="pulpcore.app.tasks.purge.purge", dispatch_interval=86400)
        return report
