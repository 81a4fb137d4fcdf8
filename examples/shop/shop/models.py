from django.db import models


class Customer(models.Model):
    active = models.BooleanField(default=True)
    open_invoice_id = models.IntegerField()


class Invoice(models.Model):
    amount = models.IntegerField()
    email = models.EmailField()
    stripe_customer = models.CharField(max_length=64)
    status = models.CharField(max_length=16)


class ProcessedCharge(models.Model):
    key = models.CharField(max_length=128, unique=True)
