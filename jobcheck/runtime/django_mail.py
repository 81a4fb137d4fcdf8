"""Mail a job sends with Django's mail API, observed in the job's own process.

:class:`DjangoMail` wraps every connection ``django.core.mail.get_connection`` hands out in
each run's child: ``send_mail``, ``send_mass_mail``, ``mail_admins``, ``EmailMessage.send()``
and code calling ``get_connection()`` itself, whatever ``EMAIL_BACKEND`` is (the locmem backend
of Django's tests still fills ``mail.outbox``). Messages go to the backend one at a time, and
each one the backend reports sent is one ``email`` effect per recipient (to, cc and bcc),
recorded after the backend returned: a kill or an injected failure there comes after the mail
went out, the moment a retry sends it again.

A backend instantiated directly, without ``get_connection``, is not observed.
"""

from __future__ import annotations

import socket
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .recorders import Recorder, outermost_send, record_email

if TYPE_CHECKING:  # pragma: no cover
    from .runs import RunEnv

__all__ = ["DjangoMail"]


class DjangoMail(Recorder):
    """Observe the mail a job sends through ``django.core.mail`` (see the module docstring).

    Django must be importable in the job's process; the job (or the test module, before the
    harness forks) configures its settings. Django's SMTP backend talking to the harness's own
    :class:`EmailSink` is left to the sink, so a message is never counted twice.
    """

    name = "django_mail"

    def __init__(self, *, dedupe_message_id: bool = False) -> None:
        self.dedupe_message_id = dedupe_message_id

    def child_start(self, env: RunEnv) -> None:
        from django.core import mail

        original = mail.get_connection
        sink = env.endpoints.get("smtp")
        dedupe = self.dedupe_message_id

        def get_connection(*args: Any, **kwargs: Any) -> Any:
            connection = original(*args, **kwargs)
            if _is_sink(connection, sink):
                return connection
            connection.send_messages = _observed(connection.send_messages, dedupe)
            return connection

        mail.get_connection = get_connection


def _is_sink(connection: Any, sink: Any) -> bool:
    """Does the SMTP backend talk to the harness's own EmailSink (which records the mail itself),
    by whatever name (`localhost`) it gives the sink's loopback address?"""
    host, port = getattr(connection, "host", None), getattr(connection, "port", None)
    if sink is None or not host or port != sink[1]:
        return False
    try:
        return socket.gethostbyname(host) == sink[0]
    except OSError:
        return False


def _observed(send_messages: Any, dedupe: bool) -> Any:
    def send_each(messages: Sequence[Any]) -> int:
        sent = 0
        for message in messages:
            with outermost_send() as outermost:
                count = send_messages([message])
            if count == 0:  # not sent (fail_silently)
                continue
            sent += 1 if count is None else count
            if outermost:
                record_email(message.recipients(), message.from_email or "", str(message.subject),
                               _message_id(message), dedupe_message_id=dedupe)
        return sent

    return send_each


def _message_id(message: Any) -> str | None:
    """The Message-ID the sender chose (Django mints a new one per send when none is given)."""
    for name, value in (getattr(message, "extra_headers", None) or {}).items():
        if name.lower() == "message-id":
            return str(value).strip() or None
    return None
