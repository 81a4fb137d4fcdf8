"""Storage-side fencing for Redis: check the token and write in one Lua script.

Redis runs a script atomically, so nothing can slip in between the token check and the writes.
The highest token seen per resource lives in ``<prefix>:{<resource>}:fence`` (no TTL). A stale
token makes the script return an error before any write; :class:`StaleTokenError` is raised.

Two ways to write:

* :meth:`RedisFence.write` - a list of plain commands ``(COMMAND, key, *args)``, each with its key
  in second position (SET, INCRBY, HSET, RPUSH, XADD, ...);
* :meth:`RedisFence.script` - your own Lua body, called as a function of ``KEYS`` and ``ARGV``
  after the check has passed.

On Redis Cluster every key must share the resource's hash tag, e.g. ``invoices:{2024-05}:sent``
for resource ``2024-05``. Note that Redis does not roll back a script that fails half-way
(a command on a key of the wrong type): writes before the failing command stay.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .errors import StaleTokenError

__all__ = ["RedisFence", "FencedScript"]

_STALE = "JCSTALE"

# KEYS[1] fence key; ARGV[1] token. Leaves `token` and the raw seen value for the caller.
_CHECK = f"""
local seen = redis.call('GET', KEYS[1])
if seen and tonumber(ARGV[1]) < tonumber(seen) then
  return redis.error_reply('{_STALE} ' .. seen)
end
if not seen or tonumber(ARGV[1]) > tonumber(seen) then
  redis.call('SET', KEYS[1], ARGV[1])
end
"""

# After the check: ARGV[2..] holds, per command, its extra-argument count, its name, the index
# of its key in KEYS, then the extra arguments.
_OPS = (
    _CHECK
    + """
local results = {}
local i = 2
while i <= #ARGV do
  local argc = tonumber(ARGV[i])
  local call = {ARGV[i + 1], KEYS[tonumber(ARGV[i + 2])]}
  for j = 1, argc do call[j + 2] = ARGV[i + 2 + j] end
  results[#results + 1] = redis.call(unpack(call))
  i = i + 3 + argc
end
return results
"""
)


class RedisFence:
    """Fenced writes to the Redis server behind ``client`` (a redis-py client)."""

    def __init__(self, client: Any, *, prefix: str = "jobcheck") -> None:
        self.client = client
        self.prefix = prefix
        self._ops = client.register_script(_OPS)

    def key(self, resource: str) -> str:
        return f"{self.prefix}:{{{resource}}}:fence"

    def current(self, resource: str) -> int | None:
        """The highest token accepted for ``resource`` (None if never fenced)."""
        value = self.client.get(self.key(resource))
        return None if value is None else int(value)

    def write(self, resource: str, token: int, *ops: Sequence[Any]) -> list[Any]:
        """Run ``ops`` if ``token`` is not older than the newest seen; return their replies."""
        keys = [self.key(resource)]
        args: list[Any] = [int(token)]
        for op in ops:
            if len(op) < 2:
                raise ValueError(f"a fenced op needs (COMMAND, key, *args), got {op!r}")
            command, key, *extra = op
            keys.append(key)
            args.extend([len(extra), command, len(keys), *extra])
        return _run(self._ops, keys, args, resource, token)

    def script(self, body: str) -> "FencedScript":
        """Wrap a Lua ``body`` (using KEYS/ARGV as usual) so it runs only with a fresh token."""
        return FencedScript(self, body)


class FencedScript:
    """A registered Lua script that first checks the fencing token, then runs your body."""

    def __init__(self, fence: RedisFence, body: str) -> None:
        self._fence = fence
        # The body becomes a function whose parameters shadow the globals, so its KEYS[1] is
        # the caller's first key, not the fence key.
        source = _CHECK + (
            "local function body(KEYS, ARGV)\n"
            f"{body}\n"
            "end\n"
            "return body({unpack(KEYS, 2)}, {unpack(ARGV, 2)})\n"
        )
        self._script = fence.client.register_script(source)

    def __call__(self, resource: str, token: int, keys: Sequence[str] = (), args: Sequence[Any] = ()) -> Any:
        return _run(self._script, [self._fence.key(resource), *keys], [int(token), *args], resource, token)


def _run(script: Any, keys: list[Any], args: list[Any], resource: str, token: int) -> Any:
    try:
        return script(keys=keys, args=args)
    except Exception as exc:
        message = str(exc)
        if type(exc).__name__ == "ResponseError" and message.startswith(_STALE):
            seen = message[len(_STALE) :].strip()
            raise StaleTokenError(resource, int(token), int(seen) if seen.isdigit() else None) from None
        raise
