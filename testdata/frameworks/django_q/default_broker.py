# jobcheck-test: select=JC201,JC501
# django-q2 with its default Redis broker (no Q_CLUSTER broker key): `async_task` and `schedule`
# targets, by reference or by dotted string, are jobs; a failed task is not presented again, so
# no effect here is a retried effect. A hook is a callback the cluster's monitor runs once the
# task is done.
from django.core.mail import send_mail
from django_q.models import Schedule
from django_q.tasks import async_task, schedule


def send_welcome(address):  # expect: JC501
    send_mail("Welcome", "Hi", "shop@example.com", [address])


def refresh_rates():  # expect: JC501
    print("rates")


def purge_sessions():  # expect: JC501
    print("purged")


def archive(year):  # expect: JC501
    print("archived", year)


def print_result(task):  # expect: JC501
    print(task.result)


def signup(address):
    async_task(send_welcome, address, hook=print_result)
    async_task("math.copysign", 2, -2)  # not in this project


def install_schedules():
    schedule("default_broker.refresh_rates", schedule_type=Schedule.HOURLY)
    Schedule.objects.create(func="default_broker.purge_sessions", schedule_type=Schedule.DAILY)
    schedule(archive, 2024, name="archive-2024")  # ONCE by default: one delayed run
