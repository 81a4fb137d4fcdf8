"""Leases in Redis (redis-py), for runners on several machines.

Per resource two keys share a hash tag (so they live in one cluster slot):

* ``<prefix>:{<resource>}:token`` - a counter with no TTL, bumped with INCR on every
  acquisition. It never expires, so tokens never repeat.
* ``<prefix>:{<resource>}:lease`` - a hash (token, holder) with a PX TTL: Redis itself drops it
  when the holder stops renewing, on the server's clock.

Each operation is one Lua script, so check and change happen atomically on the server.
Tokens only stay monotonic while the token key survives: run Redis with ``noeviction`` (or a
``volatile-*`` policy, which never evicts keys without a TTL) and with persistence, or a restart
or failover can lose the counter.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta, timezone
from typing import Any

from .lease import LeaseBackend, LeaseInfo

__all__ = ["RedisLeases"]

_ACQUIRE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return false end
local token = redis.call('INCR', KEYS[2])
redis.call('HSET', KEYS[1], 'token', token, 'holder', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
local now = redis.call('TIME')
return {token, now[1], now[2]}
"""

_RENEW = """
local v = redis.call('HMGET', KEYS[1], 'token', 'holder')
if v[1] ~= ARGV[1] or v[2] ~= ARGV[2] then return false end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
local now = redis.call('TIME')
return {now[1], now[2]}
"""

_RELEASE = """
local v = redis.call('HMGET', KEYS[1], 'token', 'holder')
if v[1] ~= ARGV[1] or v[2] ~= ARGV[2] then return 0 end
redis.call('DEL', KEYS[1])
return 1
"""

# Read (and with ARGV[1] == 'clear', delete) the lease atomically with the counter and clock.
_INFO = """
local token = redis.call('GET', KEYS[2])
if not token then return false end
local holder = redis.call('HGET', KEYS[1], 'holder')
local pttl = redis.call('PTTL', KEYS[1])
if ARGV[1] == 'clear' then redis.call('DEL', KEYS[1]) end
local now = redis.call('TIME')
return {token, holder, pttl, now[1], now[2]}
"""


def _server_time(seconds: Any, micros: Any) -> datetime:
    return datetime.fromtimestamp(int(seconds) + int(micros) / 1e6, tz=timezone.utc)


def _text(value: Any) -> str | None:
    if value is None or value is False:
        return None
    return value.decode() if isinstance(value, bytes) else str(value)


def _ms(ttl: float) -> int:
    # Round up: the server-side expiry must never come before the holder's local deadline.
    return max(1, math.ceil(ttl * 1000))


class RedisLeases(LeaseBackend):
    """Leases in Redis under ``prefix``; ``client`` is a redis-py client or a ``redis://`` URL."""

    kind = "redis"

    def __init__(self, client: Any, *, prefix: str = "jobcheck") -> None:
        self._owns_client = isinstance(client, str)
        if isinstance(client, str):
            client = self.client_from_url(client)
        self.client = client
        self.prefix = prefix
        self._acquire = client.register_script(_ACQUIRE)
        self._renew_script = client.register_script(_RENEW)
        self._release_script = client.register_script(_RELEASE)
        self._info_script = client.register_script(_INFO)

    @staticmethod
    def client_from_url(url: str) -> Any:
        try:
            import redis
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ImportError("Redis support needs redis-py: pip install 'jobcheck[redis]'") from exc
        return redis.Redis.from_url(url)

    def __repr__(self) -> str:
        return f"RedisLeases(prefix={self.prefix!r})"

    def _keys(self, resource: str) -> list[str]:
        base = f"{self.prefix}:{{{resource}}}"
        return [f"{base}:lease", f"{base}:token"]

    def _try_acquire(self, resource: str, ttl: float, holder: str) -> tuple[int, datetime | None] | None:
        got = self._acquire(keys=self._keys(resource), args=[holder, _ms(ttl)])
        if got is None:
            return None
        token, secs, micros = got
        return int(token), _server_time(secs, micros) + timedelta(seconds=ttl)

    def _renew(self, resource: str, token: int, holder: str, ttl: float) -> tuple[bool, datetime | None]:
        got = self._renew_script(keys=self._keys(resource)[:1], args=[str(token), holder, _ms(ttl)])
        if got is None:
            return False, None
        return True, _server_time(*got) + timedelta(seconds=ttl)

    def _release(self, resource: str, token: int, holder: str) -> bool:
        return bool(self._release_script(keys=self._keys(resource)[:1], args=[str(token), holder]))

    def _info(self, resource: str, mode: str) -> LeaseInfo | None:
        got = self._info_script(keys=self._keys(resource), args=[mode])
        if got is None:
            return None
        token, holder, pttl, secs, micros = got
        holder = _text(holder)
        pttl = int(pttl)
        held = holder is not None and pttl > 0
        expires = _server_time(secs, micros) + timedelta(milliseconds=pttl) if pttl > 0 else None
        return LeaseInfo(resource, int(token), holder, expires, held)

    def clear(self, resource: str) -> LeaseInfo | None:
        return self._info(resource, "clear")

    def get(self, resource: str) -> LeaseInfo | None:
        return self._info(resource, "get")

    def list(self) -> list[LeaseInfo]:
        head, tail = f"{self.prefix}:{{", "}:token"
        resources = set()
        for key in self.client.scan_iter(match=f"{head}*{tail}", count=500):
            key = _text(key) or ""
            if key.startswith(head) and key.endswith(tail):
                resources.add(key[len(head) : -len(tail)])
        infos = (self.get(r) for r in sorted(resources))
        return [i for i in infos if i is not None]

    def close(self) -> None:
        if self._owns_client:  # a client passed in belongs to the caller
            self.client.close()
