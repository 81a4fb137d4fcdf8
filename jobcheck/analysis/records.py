"""Effect before record: an external effect, then the write that records it was done.

A job that sends and only then marks the row (`send_mail(...)`, then `row.sent = True;
row.save()`) repeats the send when it dies between the two: the next run selects the row again.
The record is a write of a *marker field* — one named for the effect being done (`sent`,
`notified_at`, `processed`), or a generic state (`status`, `state`, a timestamp) that the
function selected its rows by (`filter(status="pending")`) — made by:

- a queryset update naming it (`X.objects.filter(pk=...).update(sent_at=now())`), `bulk_update`
  with it among the fields, `save(update_fields=["sent"])`;
- an attribute store on a row followed by that row's `save()`, or by a session's `commit()`/`flush()`;
- SQL text `UPDATE ... SET sent = ...`;
- a cache or Redis `set` whose key's text names it (`set(f"sent:{id}", 1)`).

What stays quiet: a write of the same field before the effect (a claim: intent first, a
"sending" state, the marker written in the transaction whose commit sends), effects with a guard
(a key the provider deduplicates on: `Project.call_effects` leaves them out), enqueues (what the
enqueued job does decides), writes on the failure path (an `except` around the effect), effects
that report a failure (made in an `except` handler the write is not in), and audit trails of the
effect (`email_sent_event(order)`: a field or helper named for an event, a history, an activity).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .program import exclusive
from .summary import Event, FunctionSummary

# Effects whose repetition someone outside sees; an enqueue's harm depends on the job it starts.
RECORDED_KINDS = ("email", "sms", "http", "payment", "publish")

# Words of a field that says the effect was done, as tokens of its name (`reminder_sent_at`).
_DONE = frozenset((
    "sent", "notified", "emailed", "mailed", "delivered", "published", "posted", "charged", "billed",
    "invoiced", "paid", "reminded", "processed", "done", "completed", "handled", "synced", "pushed",
    "dispatched", "alerted", "messaged", "texted", "announced", "exported", "uploaded", "submitted",
    "reported", "broadcasted", "fired", "acknowledged", "refunded", "captured", "informed", "warned",
    "transmitted", "forwarded", "relayed", "resolved",
))
# Done-words that say the work is over, not that an effect was made: a helper named so
# (`mark_task_completed`) records the task, whatever effects it made on the way.
_GENERIC_DONE = frozenset(("processed", "done", "completed", "handled", "resolved", "finished"))
# A state the job may select its work by: a record only with that evidence.
_STATE = frozenset(("status", "state", "stage", "phase", "step"))
# Tokens of counters, errors and bookkeeping: `emails_sent_count`, `last_error`, `updated_at`.
_NOT_MARKERS = frozenset((
    "count", "counter", "total", "num", "number", "attempts", "attempt", "tries", "retries", "error",
    "errors", "failures", "failed", "fail", "updated", "modified", "changed", "created", "touched",
    "response", "result", "results", "reason", "message", "msg", "log", "id", "ids", "by", "to",
))
# A name ending so is an audit trail of the effect (`email_sent_event`), not the record the job
# selects by (`event_reminder_sent` is one).
_AUDIT = frozenset(("event", "events", "audit", "history", "activity"))
# Values a failure path stores: not a record that the effect was done.
_FAILURE_VALUE = re.compile(r"(?i)fail|error|retry|pending|queued|new|skip|cancel|bounce|invalid|todo|open")
_TIMESTAMP = re.compile(r"(?i)(_at|_on|_time|_date|_ts)$")
_SQL_SET = re.compile(r"(?is)\bset\b(.*?)(\bwhere\b|\breturning\b|$)")
_SQL_FIELD = re.compile(r"(\w+)\s*=")
_CACHE_SETS = ("set", "setex", "hset", "sadd", "set_many")
_SESSION_ENDS = ("commit", "flush")


@dataclass(frozen=True)
class Record:
    """The write after an effect that records it: the event, the field, and how it reads."""

    index: int  # the write's event in the function
    field: str
    text: str  # "row.sent = True saved by row.save()", "update(sent_at=...)"
    line: int


def marker_kind(name: str) -> str | None:
    """"done" for a field named for an effect done (`sent`, `notified_at`, `is_processed`),
    "state" for a generic state or timestamp (`status`, `last_run_at`), None for anything else."""
    tokens = [t for t in re.split(r"[^a-z0-9]+", re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()) if t]
    if not tokens or _NOT_MARKERS.intersection(tokens) or tokens[-1] in _AUDIT:
        return None
    if _DONE.intersection(tokens):
        return "done"
    if _STATE.intersection(tokens) or _TIMESTAMP.search(name):
        return "state"
    return None


def _names_an_effect(name: str) -> bool:
    """A marker name that says an effect was made (`webhook_sent`), not only that work is over."""
    words = set(re.split(r"[^a-z0-9]+", re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()))
    return marker_kind(name) == "done" and bool((words & _DONE) - _GENERIC_DONE)


def records_after(project, fn: FunctionSummary, effect_index: int) -> Record | None:
    """The first write after the effect at `effect_index` that records it, if the function has one
    and wrote no such field before the effect (a claim)."""
    effect = fn.events[effect_index]
    selected = _selected_fields(project, fn, effect_index)
    before, after = [], []
    for record in _marker_writes(project, fn):
        kind = marker_kind(record.field)
        if kind is None or (kind == "state" and record.field not in selected):
            continue
        if record.index == effect_index:
            continue  # the effect's own call: what it writes inside is its own order
        ev = fn.events[record.index]
        if (ev.line, ev.col) < (effect.line, effect.col):
            before.append(record)
        elif not exclusive(ev, effect) and not _on_failure_path(ev, effect) and not _reports_failure(fn, effect, ev):
            after.append(record)
    claimed = {r.field for r in before}
    return next((r for r in after if r.field not in claimed), None)


def _on_failure_path(write: Event, effect: Event) -> bool:
    """The write runs in an `except` of a try around the effect: the effect failed."""
    return bool(set(write.handlers) & set(effect.tries))


def _reports_failure(fn: FunctionSummary, effect: Event, write: Event) -> bool:
    """The effect is made in a handler that catches every exception (`except Exception:
    mail_admins("sending failed")`) and the write is not: the write records the work the `try`
    did, not the report of its failure. A handler of one error may send by another channel
    (`except PushDown: send_mail(...)`): that is the effect the write records."""
    broad = {h.try_id for h in fn.handlers if not h.types or any(
        t.rpartition(".")[2] in ("Exception", "BaseException") for t in h.types)}
    return bool(broad.intersection(effect.handlers)) and not set(write.handlers) & set(effect.handlers)


def _selected_fields(project, fn: FunctionSummary, effect_index: int) -> set[str]:
    """Fields a query before the effect selects by (`filter(status="pending")`, `sent_at__isnull=True`)."""
    out = set()
    for ev in fn.events[:effect_index]:
        if ev.kind == "call" and ev.attr in ("filter", "exclude", "filter_by", "get", "where", "select_for_update"):
            out.update(k.split("__")[0] for k in ev.kwargs if k != "**")
    return out


def _marker_writes(project, fn: FunctionSummary, through_helpers: bool = True) -> list[Record]:
    memo = project.once("marker writes", dict)
    key = (fn.qualname, through_helpers)
    found = memo.get(key)
    if found is None:
        found = memo[key] = list(_find_marker_writes(project, fn, through_helpers))
    return found


def _helper_records(project, i: int, ev: Event):
    """A call to an application function that writes the database, recording the effect for its
    caller: a marker keyword it is handed (`service.update(cert.id, notified=True)`), its own
    name (`mark_webhook_sent(hash)`), or a marker it writes itself (`reminder.sent = True;
    reminder.save()` inside). Each must name an effect made (`sent`, `notified`): a helper that
    says the work is over (`mark_task_completed`) records the task, whatever it called on the way."""
    for helper in project.callees(ev):
        inner = _marker_writes(project, helper, through_helpers=False)
        if not inner and not any(project.writes_db(e, helper) is not None or e.attr in _SESSION_ENDS
                                 for e in helper.events if e.kind == "call"):
            continue
        for field, value in ev.kwargs.items():
            if field != "**" and _names_an_effect(field) and not _failure_value(value):
                yield Record(i, field, f"{helper.name}({field}=...)", ev.line)
        if _names_an_effect(helper.name):
            field = re.sub(r"^(mark|set|flag|record|save|update|store)_", "", helper.name)
            yield Record(i, field, f"{helper.name}(...)", ev.line)
        for record in inner:
            if _names_an_effect(record.field):
                yield Record(i, record.field, f"{helper.name}(...)", ev.line)


def _find_marker_writes(project, fn: FunctionSummary, through_helpers: bool):
    stores = [s for s in fn.stores if marker_kind(s[0]) and not _failure_value(s[4])]
    for i, ev in enumerate(fn.events):
        if ev.kind != "call":
            continue
        attr = ev.attr
        if through_helpers and attr not in _CACHE_SETS and project.writes_db(ev, fn) is None:
            helped = list(_helper_records(project, i, ev))
            if helped:
                yield from helped
                continue
        if attr in _CACHE_SETS and ev.args:
            for field in _key_words(ev.args[0]):
                yield Record(i, field, f"{attr}({field!r}...)", ev.line)
            continue
        if project.writes_db(ev, fn) is None and attr not in (*_SESSION_ENDS, "save", "asave"):
            continue  # an untyped row's `save()` counts only with a marker stored on it (below)
        if attr in ("update", "aupdate"):
            for field, value in ev.kwargs.items():
                if field != "**" and not _failure_value(value):
                    yield Record(i, field, f"update({field}=...)", ev.line)
        elif attr == "bulk_update" and len(ev.args) > 1:
            for field in _literals(ev.args[1]):
                yield Record(i, field, f"bulk_update(..., [{field!r}])", ev.line)
        elif ev.sql == "update":
            for field in _sql_set_fields(ev):
                yield Record(i, field, f"UPDATE ... SET {field} = ...", ev.line)
        elif attr in ("save", "asave", *_SESSION_ENDS):
            only = set(_literals(ev.kwargs["update_fields"])) if "update_fields" in ev.kwargs else None
            for store in _stores_saved(fn, stores, ev):
                if only is None or store[0] in only:
                    receiver = f"{store[2]}." if store[2] else ""
                    yield Record(i, store[0], f"`{receiver}{store[0]} = ...` (line {store[1]}) saved by {attr}()", ev.line)
            for field in only or ():
                if not any(s[0] == field for s in stores):
                    yield Record(i, field, f"save(update_fields=[{field!r}])", ev.line)


def _stores_saved(fn: FunctionSummary, stores: list, save: Event) -> list:
    """The marker stores this save or commit persists: stores before it, on the same row for a
    `save()` (the receiver's sources agree), any row for a session's `commit()`, and no earlier
    persisting call of that row between the store and this one."""
    out = []
    for store in stores:
        if store[1] > save.line:
            continue
        if save.attr in ("save", "asave") and tuple(save.receiver_src) != tuple(store[3]):
            continue
        between = [ev for ev in fn.events if ev.kind == "call" and store[1] < ev.line < save.line
                   and (ev.attr in _SESSION_ENDS or (ev.attr in ("save", "asave")
                                                     and tuple(ev.receiver_src) == tuple(store[3])))]
        if not between:
            out.append(store)
    return out


def _failure_value(value: list | None) -> bool:
    if not value or value[0] != "lit":
        return False
    v = value[1]
    return v is None or v is False or v == 0 or v == "" or (isinstance(v, str) and bool(_FAILURE_VALUE.search(v)))


def _literals(value: list | None) -> list[str]:
    if not value:
        return []
    if value[0] == "lit" and isinstance(value[1], str):
        return [value[1]]
    if value[0] == "seq":
        return [v[1] for v in value[1] if v and v[0] == "lit" and isinstance(v[1], str)]
    return []


def _key_words(value: list) -> list[str]:
    """The marker words in a cache key's literal text (`"sent:%s"`, `f"done:{id}"`)."""
    if value and value[0] == "fstr":
        text = " ".join(str(p[1]) for p in value[1] if p and p[0] == "lit")
    elif value and value[0] == "lit" and isinstance(value[1], str):
        text = value[1]
    else:
        return []
    return [w for w in re.split(r"[^A-Za-z0-9_]+", text) if w and marker_kind(w) == "done"]


def _sql_set_fields(ev: Event) -> list[str]:
    first = ev.args[0] if ev.args else None
    if first and first[0] == "call" and first[2]:
        first = first[2][0]
    text = first[1] if first and first[0] == "lit" and isinstance(first[1], str) else ""
    match = _SQL_SET.search(text)
    return _SQL_FIELD.findall(match.group(1)) if match else []
