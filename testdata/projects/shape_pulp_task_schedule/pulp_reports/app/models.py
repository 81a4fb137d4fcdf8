from django.db import models


class Report(models.Model):
    label = models.TextField()
