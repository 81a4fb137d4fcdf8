"""Reading LSP messages from a stream whose framing may be broken.

pygls reads a `Content-Length` header and then exactly that many bytes. A message framed wrongly
(no length, a negative or non-numeric one, one that is too short or too long, garbage between
messages) desynchronises it: the server stays alive but hears nothing more, and
`Content-Length: 99999999999999` makes it allocate the body up front and die of MemoryError
(pygls 2.1). `FramedStdin` stands between stdin and pygls's reader: it finds each message itself
and hands pygls the same message framed correctly, so pygls's own loop never sees bad framing.

It resynchronises on the next `Content-Length:` header. Those bytes cannot occur inside a JSON
message (a newline in a JSON string is escaped, and the text cannot stand between JSON tokens),
so a header found inside a body means the body ended there: its length was declared too long.
A body is read as it arrives, never allocated from the declared length, and a length above
`MAX_BODY` is refused.
"""

from __future__ import annotations

import logging
import os
import re

log = logging.getLogger(__name__)

MAX_BODY = 256 * 1024 * 1024
_CHUNK = 1 << 16
_LENGTH = re.compile(rb"Content-Length:[ \t]*([^\r\n]*?)[ \t]*\r?\n", re.IGNORECASE)
_OTHER_HEADER = re.compile(rb"[A-Za-z0-9-]+:[^\r\n]*\r?\n")
_BLANK = re.compile(rb"\r?\n")
_LONGEST_HEADER = 64  # overlap kept when scanning a body for the next header as it arrives


class Framer:
    """The bodies of the messages in `stream`, one by one; `None` at the end of the stream."""

    def __init__(self, stream, limit: int = MAX_BODY) -> None:
        self.stream = stream
        self.limit = limit
        self.buffer = bytearray()
        self.ended = False

    def next_body(self) -> bytes | None:
        while True:
            header = self._next_header()
            if header is None:
                return None
            body_start = self._end_of_headers(header.end())
            if body_start is None:
                continue  # not a header block after all: look for the next one
            value = header.group(1)
            if not value.isdigit() or int(value) > self.limit or int(value) == 0:
                log.warning("jobcheck lsp: skipped a message with Content-Length %r", value[:40].decode("latin-1"))
                self._skip(body_start)
                continue
            body = self._body(body_start, int(value))
            if body:
                return body

    def _next_header(self) -> re.Match | None:
        """The next `Content-Length` header, moved to the start of the buffer (what came before
        it dropped); None at the end of the stream."""
        while True:
            header = _LENGTH.search(self.buffer)
            if header is not None:
                self._skip(header.start())
                return _LENGTH.match(self.buffer)
            self._skip(max(0, len(self.buffer) - _LONGEST_HEADER))  # garbage; keep a header's start
            if not self._read():
                self._skip(len(self.buffer))
                return None

    def _end_of_headers(self, pos: int) -> int | None:
        """Where the body starts, after the header lines from `pos` and the blank line; None
        (and the bytes up to `pos` dropped) if what follows is not header lines."""
        while True:
            while b"\n" not in self.buffer[pos:] and self._read():
                pass
            blank = _BLANK.match(self.buffer, pos)
            if blank is not None:
                return blank.end()
            other = _OTHER_HEADER.match(self.buffer, pos)
            if other is None or _LENGTH.match(self.buffer, pos):
                self._skip(pos)
                return None
            pos = other.end()

    def _body(self, start: int, length: int) -> bytes:
        """`length` bytes from `start`, or fewer when the next message's header comes first."""
        scanned, end = start, start + length
        while True:
            header = _LENGTH.search(self.buffer, scanned)  # what arrived, even past the body
            if header is not None and header.start() < end:
                log.warning("jobcheck lsp: a message was shorter than its Content-Length (%d)", length)
                end = header.start()
                break
            arrived = 0 if len(self.buffer) >= end else self._read()
            if not arrived:
                break
            scanned = max(start, len(self.buffer) - arrived - _LONGEST_HEADER)
        end = min(end, len(self.buffer))
        body = bytes(self.buffer[start:end])
        del self.buffer[:end]
        return body

    def _read(self) -> int:
        """Append what the stream has (waiting for something); how many bytes, 0 at its end."""
        if self.ended:
            return 0
        read1 = getattr(self.stream, "read1", None)
        data = read1(_CHUNK) if read1 is not None else os.read(self.stream.fileno(), _CHUNK)
        if not data:
            self.ended = True
        self.buffer += data
        return len(data)

    def _skip(self, count: int) -> None:
        """Drop `count` bytes that are no message (said in the log unless they are headers)."""
        dropped = bytes(self.buffer[:count])
        del self.buffer[:count]
        if dropped.strip() and not _headers_only(dropped):
            log.warning("jobcheck lsp: skipped %d bytes that are not a framed message", len(dropped))


def _headers_only(data: bytes) -> bool:
    pos = 0
    while pos < len(data):
        line = _OTHER_HEADER.match(data, pos) or _BLANK.match(data, pos)
        if line is None:
            return False
        pos = line.end()
    return True


class FramedStdin:
    """What pygls reads instead of stdin (`readline` and `read`): the messages of `stream`, each
    framed as `Content-Length: N\\r\\n\\r\\n` and its body."""

    def __init__(self, stream, limit: int = MAX_BODY) -> None:
        self.framer = Framer(stream, limit)
        self.pending = b""

    def readline(self) -> bytes:
        if not self.pending:
            body = self.framer.next_body()
            if body is None:
                return b""
            self.pending = b"Content-Length: %d\r\n\r\n" % len(body) + body
        cut = self.pending.find(b"\n") + 1 or len(self.pending)
        line, self.pending = self.pending[:cut], self.pending[cut:]
        return line

    def read(self, size: int) -> bytes:
        data, self.pending = self.pending[:size], self.pending[size:]
        return data
