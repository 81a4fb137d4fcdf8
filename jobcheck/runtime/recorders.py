"""Ways for the harness to observe a job's effects.

* :class:`EmailSink` (``smtp_sink``) - an SMTP server on loopback; each delivered message is one
  ``email`` effect per recipient.
* :class:`HttpSink` (``http_sink``) - an HTTP server on loopback; each write request is an effect,
  deduplicated by ``Idempotency-Key`` like a payment API would.
* :class:`DbState` - a snapshot of the end state, compared with a clean run's.
* :class:`SmtplibMail` (``smtplib_mail``), :class:`DjangoMail` (``django_mail``) - patch a mail
  library in the job's process and record each message sent through it.
* :class:`PostgresSchema` (``postgres_schema``) - a schema per scenario and its end state.
* ``record_effect`` (``control``) - the plain callable hook, for anything else.

Each sink listens on one port per runner slot, so the harness knows which run made a request
and can pause, fail or kill exactly that run at that moment.
"""

from __future__ import annotations

import contextvars
import email.utils
import socketserver
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from . import control

if TYPE_CHECKING:  # pragma: no cover
    from .harness import RunEnv

__all__ = ["FAIL", "GO", "KILL", "DbState", "Recorder", "ServerSink", "outermost_send", "record_email", "sqlite_state"]

# What the harness tells a sink (or a job's hook) to do after an effect.
GO, FAIL, KILL = "go", "fail", "kill"


class Recorder:
    """Something the harness starts once and consults in every scenario."""

    #: key under which the recorder's endpoint appears in RunEnv.endpoints
    name = "recorder"

    def start(self, slots: list[str]) -> None:
        """Start listening (called once, in the harness process, before any run)."""

    def bind(self, hub: Any) -> None:
        """Route the next scenario's events to ``hub`` (None between scenarios)."""

    def endpoint(self, slot: str) -> Any:
        """What a runner in ``slot`` needs to reach this recorder (None if nothing)."""
        return None

    def prepare(self, env: RunEnv) -> None:
        """Prepare a scenario's store, before the harness's ``setup`` runs (in the harness
        process; for recorders that own the store they observe, as ``PostgresSchema``)."""

    def child_start(self, env: RunEnv) -> None:
        """Prepare the run's child process, before the job starts (for recorders that patch
        a library in the job's process and report through ``record_effect``)."""

    def close(self) -> None:
        """Stop listening."""


_SENDING = contextvars.ContextVar("jobcheck_sending", default=False)


@contextmanager
def outermost_send() -> Iterator[bool]:
    """Mark a send in progress; yields whether it is the outermost one.

    Library recorders nest (Django's SMTP backend calls smtplib): only the outermost records
    the message, so observing both libraries never counts one message twice.
    """
    outer = not _SENDING.get()
    token = _SENDING.set(True)
    try:
        yield outer
    finally:
        _SENDING.reset(token)


def record_email(recipients: Iterable[str], sender: str, subject: str, message_id: str | None,
                 *, dedupe_message_id: bool) -> None:
    """Record one sent message as an ``email`` effect per recipient, as the EmailSink counts.

    With ``dedupe_message_id`` a repeated Message-ID is absorbed, as by a receiver that dedupes.
    The recipients are one event: the message reached them all before the harness may act.
    """
    key = f"message-id {message_id}" if dedupe_message_id and message_id else None
    detail = {"from": _address(sender), "subject": subject, "message_id": message_id}
    control.record_effect("email", [_address(r) for r in recipients], key=key, **detail)


def _address(value: str) -> str:
    return (email.utils.parseaddr(value)[1] or value).strip().lower()


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, handler: type, sink: ServerSink, slot: str) -> None:
        self.sink = sink
        self.slot = slot
        super().__init__(("127.0.0.1", 0), handler)


class ServerSink(Recorder):
    """A loopback TCP server per runner slot, each served by a daemon thread."""

    handler: type = socketserver.BaseRequestHandler

    def __init__(self) -> None:
        self.hub: Any = None
        self._servers: dict[str, _Server] = {}

    def start(self, slots: list[str]) -> None:
        for slot in slots:
            server = _Server(self.handler, self, slot)
            self._servers[slot] = server
            threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True,
                             name=f"jobcheck-{self.name}-{slot}").start()

    def bind(self, hub: Any) -> None:
        self.hub = hub  # per-scenario state (seen idempotency keys) lives in the hub's ledger

    def port(self, slot: str) -> int:
        return self._servers[slot].server_address[1]

    def effect(self, slot: str, kind: str, targets: list[str], detail: dict[str, Any], key: Any = None) -> tuple[str, list[Any]]:
        """Hand an effect to the current scenario; returns (GO/FAIL/KILL, ledger effects)."""
        hub = self.hub
        if hub is None:  # a stray request between scenarios: accept it, record nothing
            return GO, []
        return hub.effect(slot, kind, targets, detail, key)

    def close(self) -> None:
        for server in self._servers.values():
            server.shutdown()
            server.server_close()
        self._servers.clear()


class DbState(Recorder):
    """The end state of a store, as a snapshot that must equal a clean run's.

    ``snapshot(env)`` runs in the harness process after a scenario's runs have finished and
    returns something comparable with ``==`` and readable with ``repr`` (dicts of row lists
    are ideal). Leave out what legitimately differs between runs: surrogate ids, timestamps,
    fencing tokens.
    """

    def __init__(self, snapshot: Callable[[RunEnv], Any], *, name: str = "database") -> None:
        self.snapshot = snapshot
        self.name = name


def sqlite_state(path: Callable[[RunEnv], Any], **queries: str) -> DbState:
    """A :class:`DbState` running named queries on a SQLite file: ``invoices="SELECT ..."``.

    Each query's rows become a list of tuples; order them (ORDER BY) for a stable comparison.
    """

    def snapshot(env: RunEnv) -> dict[str, list[tuple]]:
        conn = sqlite3.connect(path(env))
        try:
            return {name: [tuple(r) for r in conn.execute(sql)] for name, sql in queries.items()}
        finally:
            conn.close()

    return DbState(snapshot)
