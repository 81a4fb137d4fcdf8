"""Reading settings out of summary Values (["lit", 3], ["call", "rq.Retry", ...])."""

from __future__ import annotations

_MISSING = object()


def lit(value: list | None, default=None):
    """The Python literal a Value holds, or `default`."""
    if not value:
        return default
    if value[0] == "lit":
        return value[1]
    if value[0] == "seq":
        items = [lit(v, _MISSING) for v in value[1]]
        return default if any(i is _MISSING for i in items) else tuple(items)
    return default


def options(value: list) -> list:
    """The Values an "either" may be (chosen in `if` arms); any other Value itself."""
    return value[1] if value[0] == "either" else [value]


def literals(value: list) -> list:
    """The literals a Value is (one, or each an "either" may be), else [None]: not known."""
    return [o[1] for o in options(value)] if all(o[0] == "lit" for o in options(value)) else [None]


def is_lit(value: list | None) -> bool:
    return bool(value) and value[0] == "lit"


def names(value: list | None) -> tuple[str, ...] | None:
    """Resolved names in a Value that is a name or a sequence of names (autoretry_for=(A, B))."""
    if not value:
        return None
    if value[0] == "name":
        return (value[1],)
    if value[0] == "seq":
        out: list[str] = []
        for v in value[1]:
            sub = names(v)
            if sub is None:
                return None
            out.extend(sub)
        return tuple(out)
    return None


def leaves_within(value: list | None, depth: int = 0):
    """Every Value a Value is made of, through the calls and sequences holding it, a few levels down."""
    if not value or depth > 3:
        return
    if value[0] == "seq":
        for v in value[1]:
            yield from leaves_within(v, depth + 1)
    elif value[0] == "call":
        for v in (*value[2], *value[3].values()):
            yield from leaves_within(v, depth + 1)
    else:
        yield value


def names_within(value: list | None):
    """Every name a Value mentions, in the calls and sequences it is made of
    (`isinstance(e, (requests.Timeout, requests.ConnectionError))`'s types)."""
    return (v[1] for v in leaves_within(value) if v[0] in ("name", "ref") and isinstance(v[1], str))


def call_name(value: list | None) -> str | None:
    return value[1] if value and value[0] == "call" else None


def call_kwargs(value: list | None) -> dict:
    return value[3] if value and value[0] == "call" else {}


def call_args(value: list | None) -> list:
    return value[2] if value and value[0] == "call" else []


def dict_items(value: list | None) -> list:
    return value[1] if value and value[0] == "dict" else []


def render(value: list | None) -> str:
    """A short source-like rendering, for messages and the job inventory."""
    if not value:
        return "?"
    tag = value[0]
    if tag == "lit":
        return repr(value[1])
    if tag == "name":
        return (value[1] or "?").rpartition(".")[2] if value[1] and value[1].count(".") > 1 else str(value[1])
    if tag == "call":
        func = (value[1] or "?").rpartition(".")[2]
        parts = [render(a) for a in value[2]] + [f"{k}={render(v)}" for k, v in value[3].items()]
        return f"{func}({', '.join(parts)})"
    if tag == "seq":
        inner = ", ".join(render(v) for v in value[1])
        return f"({inner},)" if len(value[1]) == 1 else f"({inner})"
    if tag == "dict":
        return "{...}"
    if tag == "param":
        return str(value[1])  # a parameter, by its name (`max_retries=retry_limit`)
    return "..."
