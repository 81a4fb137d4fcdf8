from django.db import models


class Notification(models.Model):
    sent = models.BooleanField(default=False)
