# A name bound in sibling arms: the later binding is the one the summary keeps, and it is the
# connection that sends.
from celery import shared_task
from django.core.mail import EmailMessage, get_connection


@shared_task(bind=True, max_retries=3)
def send_one(self, event, organizer, to):
    if event:
        backend = event.get_mail_backend()
    elif organizer:
        backend = organizer.get_mail_backend()
    else:
        backend = get_connection(fail_silently=False)
    try:
        backend.send_messages([EmailMessage("s", "b", to=[to])])  # expect: JC201
    except OSError:
        self.retry()
