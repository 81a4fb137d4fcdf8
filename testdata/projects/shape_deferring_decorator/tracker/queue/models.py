from django.db import models


class Usage(models.Model):
    name = models.TextField()
    at = models.DateTimeField(auto_now_add=True)


class Task(models.Model):
    task_name = models.TextField()
    args = models.TextField()
    kwargs = models.TextField()
