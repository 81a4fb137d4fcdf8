"""An HTTP server on loopback standing in for the APIs a job calls (payments, mail, webhooks).

Every write request (POST, PUT, PATCH, DELETE) is an effect; reads answer ``{"ok": true}`` and
record nothing. A request carrying an ``Idempotency-Key`` already seen for the same method and
path is answered with the first response and counted as *absorbed*, not as a new effect - what
Stripe-style APIs do, and what makes an HTTP effect safe to repeat.

``routes`` name effects: ``{"POST /v1/charges": ("charge", lambda r: r.json["customer"])}`` makes
each charge an effect ``charge <customer>``; unrouted writes are ``http "POST /path"``. A route
key may end in ``*`` to match a path prefix, and may omit the method.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import urlsplit

from .recorders import GO, ServerSink

__all__ = ["HttpSink", "HttpRequest"]

_WRITES = ("POST", "PUT", "PATCH", "DELETE")


@dataclass(frozen=True)
class HttpRequest:
    method: str
    path: str
    query: str
    headers: dict[str, str]  # lower-cased names
    body: bytes

    @property
    def json(self) -> Any:
        try:
            return json.loads(self.body or b"null")
        except ValueError:
            return None


Route = tuple[str, Callable[[HttpRequest], Any]]


class _HTTPHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as real clients expect
    server: Any

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        pass

    def send_json(self, status: int, payload: Any) -> None:
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def read_body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):  # trailers
                        pass
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def do_GET(self) -> None:
        self.send_json(200, {"ok": True})

    do_HEAD = do_GET

    def do_write(self) -> None:
        sink: HttpSink = self.server.sink
        parts = urlsplit(self.path)
        request = HttpRequest(
            self.command, parts.path, parts.query, {k.lower(): v for k, v in self.headers.items()}, self.read_body()
        )
        action, response = sink.handle(self.server.slot, request)
        if action != GO:
            # The far end acted; the caller never hears back (or is already dead).
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        self.send_json(200, response)

    do_POST = do_PUT = do_PATCH = do_DELETE = do_write


class HttpSink(ServerSink):
    """Counts write requests as effects; honours ``idempotency_header`` (None to ignore it)."""

    name = "http"
    handler = _HTTPHandler

    def __init__(self, routes: dict[str, Route] | None = None, *, idempotency_header: str | None = "Idempotency-Key") -> None:
        super().__init__()
        self.routes = dict(routes or {})
        self.idempotency_header = idempotency_header.lower() if idempotency_header else None

    def endpoint(self, slot: str) -> str:
        return f"http://127.0.0.1:{self.port(slot)}"

    def route(self, request: HttpRequest) -> tuple[str, str]:
        for pattern, (kind, target) in self.routes.items():
            method, _, path = pattern.rpartition(" ")
            if method and method.upper() != request.method:
                continue
            if path == request.path or (path.endswith("*") and request.path.startswith(path[:-1])):
                return kind, str(target(request))
        return "http", f"{request.method} {request.path}"

    def handle(self, slot: str, request: HttpRequest) -> tuple[str, dict[str, Any]]:
        kind, target = self.route(request)
        idem = request.headers.get(self.idempotency_header) if self.idempotency_header else None
        key = ("http", request.method, request.path, idem) if idem else None
        detail = {"method": request.method, "path": request.path, "idempotency_key": idem}
        action, effects = self.effect(slot, kind, [target], detail, key)
        seq = effects[0].seq if effects else 0
        return action, {"ok": True, "id": f"{kind}_{seq}"}
