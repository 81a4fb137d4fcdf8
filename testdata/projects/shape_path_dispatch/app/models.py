from django.db import models


class Task(models.Model):
    name = models.TextField()
    args = models.JSONField()


class TaskSchedule(models.Model):
    name = models.TextField()
    task_name = models.TextField()
    interval = models.DurationField()


class AuditEntry(models.Model):
    action = models.TextField()
