import django.dispatch

# Sent every few minutes by a cron-run management command.
periodic_task = django.dispatch.Signal()
user_registered = django.dispatch.Signal()
