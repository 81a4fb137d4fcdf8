"""A minimal SMTP server on loopback that records each delivered message as email effects.

It speaks enough of RFC 5321 for smtplib and typical mail libraries (EHLO/HELO, AUTH PLAIN and
LOGIN accepting any credentials, MAIL, RCPT, DATA with dot-unstuffing, RSET, NOOP, QUIT). No
TLS: point the job at it in tests only. When the harness asks for a failure after delivery,
the sink drops the connection *after* accepting the message and before answering, so the
sender sees an error although the mail went out - the case retries get wrong.
"""

from __future__ import annotations

import email
import email.policy
import re
import socket
import socketserver
from typing import Any

from .recorders import GO, ServerSink

__all__ = ["EmailSink"]

_ADDRESS = re.compile(r"<([^>]*)>")


def _address(argument: str) -> str:
    found = _ADDRESS.search(argument)
    value = found.group(1) if found else argument.split(":", 1)[-1].split()[0] if ":" in argument else argument
    return value.strip().lower()


class _SMTPHandler(socketserver.StreamRequestHandler):
    server: Any

    def reply(self, *lines: str) -> None:
        self.wfile.write("".join(line + "\r\n" for line in lines).encode())
        self.wfile.flush()

    def readline(self) -> str | None:
        raw = self.rfile.readline(65537)
        return raw.decode("utf-8", "replace").rstrip("\r\n") if raw else None

    def handle(self) -> None:
        sink: EmailSink = self.server.sink
        self.reply("220 jobcheck-sink ESMTP ready")
        sender: str | None = None
        recipients: list[str] = []
        while (line := self.readline()) is not None:
            verb, _, argument = line.partition(" ")
            verb = verb.upper()
            if verb == "EHLO":
                self.reply("250-jobcheck-sink", "250-8BITMIME", "250-SMTPUTF8", "250-AUTH PLAIN LOGIN", "250 HELP")
            elif verb == "HELO":
                self.reply("250 jobcheck-sink")
            elif verb == "AUTH":
                self.authenticate(argument)
            elif verb == "MAIL":
                sender, recipients = _address(argument), []
                self.reply("250 OK")
            elif verb == "RCPT":
                if sender is None:
                    self.reply("503 MAIL first")
                    continue
                recipients.append(_address(argument))
                self.reply("250 OK")
            elif verb == "DATA":
                if not recipients:
                    self.reply("503 RCPT first")
                    continue
                self.reply("354 End data with <CR><LF>.<CR><LF>")
                data = self.read_data()
                if data is None:
                    return
                if sink.deliver(self.server.slot, sender or "", recipients, data) != GO:
                    # Delivered, but the sender never hears so (or is already dead).
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                self.reply("250 OK: queued")
                sender, recipients = None, []
            elif verb == "RSET":
                sender, recipients = None, []
                self.reply("250 OK")
            elif verb == "NOOP":
                self.reply("250 OK")
            elif verb == "VRFY":
                self.reply("252 Cannot VRFY user")
            elif verb == "STARTTLS":
                self.reply("454 TLS not available")
            elif verb == "QUIT":
                self.reply("221 Bye")
                return
            else:
                self.reply("502 Command not implemented")

    def authenticate(self, argument: str) -> None:
        mechanism, _, initial = argument.partition(" ")
        mechanism = mechanism.upper()
        if mechanism == "PLAIN":
            if not initial:
                self.reply("334 ")
                self.readline()
        elif mechanism == "LOGIN":
            if not initial:
                self.reply("334 VXNlcm5hbWU6")  # "Username:"
                self.readline()
            self.reply("334 UGFzc3dvcmQ6")  # "Password:"
            self.readline()
        else:
            self.reply("504 Unrecognized authentication type")
            return
        self.reply("235 Authentication successful")

    def read_data(self) -> bytes | None:
        lines = []
        while True:
            raw = self.rfile.readline(1 << 20)
            if not raw:
                return None
            if raw in (b".\r\n", b".\n"):
                return b"".join(lines)
            lines.append(raw[1:] if raw.startswith(b"..") else raw)  # undo dot-stuffing


class EmailSink(ServerSink):
    """Counts each delivered message once per recipient, as ``email`` effects.

    ``dedupe_message_id=True`` models a receiver that drops a message whose Message-ID it has
    already delivered (most don't: leave it off unless yours does).
    """

    name = "smtp"
    handler = _SMTPHandler

    def __init__(self, *, dedupe_message_id: bool = False) -> None:
        super().__init__()
        self.dedupe_message_id = dedupe_message_id

    def endpoint(self, slot: str) -> tuple[str, int]:
        return ("127.0.0.1", self.port(slot))

    def deliver(self, slot: str, sender: str, recipients: list[str], data: bytes) -> str:
        message = email.message_from_bytes(data, policy=email.policy.default)
        message_id = str(message.get("Message-ID", "")).strip() or None
        detail = {"from": sender, "subject": str(message.get("Subject", "")), "message_id": message_id}
        key = ("smtp", message_id) if self.dedupe_message_id and message_id else None
        action, _ = self.effect(slot, "email", recipients, detail, key)
        return action
