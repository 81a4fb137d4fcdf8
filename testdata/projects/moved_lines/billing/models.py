from django.db import models


class Invoice(models.Model):
    status = models.CharField(max_length=20)


class ProcessedInvoice(models.Model):
    key = models.CharField(max_length=80, unique=True)
