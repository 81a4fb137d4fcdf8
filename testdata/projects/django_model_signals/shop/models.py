from django.db import models


class Order(models.Model):
    state = models.CharField(max_length=20)


class Invoice(models.Model):
    number = models.CharField(max_length=20)


class Visit(models.Model):
    path = models.CharField(max_length=200)
