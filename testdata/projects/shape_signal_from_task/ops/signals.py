import django.dispatch
from blinker import signal

hourly = signal("hourly")  # sent by the beat task `tasks.tick_hourly`
nightly = django.dispatch.Signal()  # sent by the beat task `tasks.tick_nightly`
user_signed_up = django.dispatch.Signal()  # sent by the signup view: request time
