"""Mail a job sends with :mod:`smtplib`, observed in the job's own process.

:class:`SmtplibMail` wraps ``smtplib.SMTP.sendmail`` in each run's child (``send_message`` and
``SMTP_SSL``/``LMTP`` go through it), so a job talking to whatever SMTP server it is configured
for is observed without pointing it at the :class:`EmailSink`. Each message the server accepts
is one ``email`` effect per accepted recipient, recorded after the server said yes: a kill
there is the crash between "sent" and "marked sent"; an injected failure there reaches the job
as ``SMTPServerDisconnected``, the lost reply after which a retry sends again.
"""

from __future__ import annotations

import email.parser
import email.policy
import smtplib
from typing import TYPE_CHECKING, Any

from .errors import InjectedFailure
from .recorders import Recorder, outermost_send, record_email

if TYPE_CHECKING:  # pragma: no cover
    from .runs import RunEnv

__all__ = ["SmtplibMail"]

_HEADERS = email.parser.BytesHeaderParser(policy=email.policy.default)


def _headers(msg: str | bytes) -> Any:
    raw = msg.encode("utf-8", "replace") if isinstance(msg, str) else bytes(msg)
    return _HEADERS.parsebytes(raw)


class SmtplibMail(Recorder):
    """Observe the mail a job sends through :mod:`smtplib` (see the module docstring).

    Mail sent to the harness's own :class:`EmailSink` is left to the sink, so both can be used
    in one harness without counting a message twice.
    """

    name = "smtplib"

    def __init__(self, *, dedupe_message_id: bool = False) -> None:
        self.dedupe_message_id = dedupe_message_id

    def child_start(self, env: RunEnv) -> None:
        sink = env.endpoints.get("smtp")
        original = smtplib.SMTP.sendmail
        dedupe = self.dedupe_message_id

        def sendmail(client: smtplib.SMTP, from_addr: str, to_addrs: str | list[str], msg: str | bytes,
                     *args: Any, **kwargs: Any) -> dict:
            with outermost_send() as outermost:
                refused = original(client, from_addr, to_addrs, msg, *args, **kwargs)
            if not outermost or (sink is not None and _peer(client) == tuple(sink)):
                return refused
            wanted = [to_addrs] if isinstance(to_addrs, str) else list(to_addrs)
            headers = _headers(msg)
            message_id = str(headers.get("Message-ID", "")).strip() or None
            try:
                record_email([r for r in wanted if r not in refused], from_addr, str(headers.get("Subject", "")),
                               message_id, dedupe_message_id=dedupe)
            except InjectedFailure as exc:
                client.close()  # as after a lost connection: the client must reconnect
                raise smtplib.SMTPServerDisconnected(f"connection lost after the server accepted the message ({exc})") from exc
            return refused

        smtplib.SMTP.sendmail = sendmail  # type: ignore[method-assign]


def _peer(client: smtplib.SMTP) -> tuple[str, int] | None:
    try:
        host, port = client.sock.getpeername()[:2]
    except (AttributeError, OSError):
        return None
    return host, port
