# jobcheck-test: select=JC201,JC501
# `retry_on_error=True` on a broker with no retry middleware configures nothing: taskiq does not
# retry by itself. An object that merely has a `task` method is not a broker.
from django.core.mail import send_mail
from taskiq import InMemoryBroker

broker = InMemoryBroker()


@broker.task(retry_on_error=True, max_retries=3)
async def send_invite(address: str) -> None:  # expect: JC501
    send_mail("Invite", "Join", "team@example.com", [address])


class Planner:
    def task(self, func):
        return func


planner = Planner()


@planner.task
def not_a_job():
    send_mail("x", "y", "a@example.com", ["b@example.com"])
