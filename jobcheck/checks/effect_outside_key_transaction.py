"""JC103 effect-outside-key-transaction: the idempotency key is recorded in one transaction and
the effect's writes happen outside it (or the key is recorded with no transaction at all).

Then a crash or a failure between the two leaves the key recorded without the effect (the work
is lost: the next attempt sees the key and skips) or the effect without the key (the next
attempt does it again). Recording the key and writing the effect in one transaction makes them
happen together or not at all.
"""

from __future__ import annotations

from ..analysis.guards import orm_manager
from ..analysis.names import short
from ..analysis.program import exclusive, left_before
from ..model import Confidence
from .context import CheckContext, event_anchor

CODES = ("JC103",)


def run(ctx: CheckContext):
    project = ctx.project
    for qualname, fn in ctx.reached_functions():
        records = project.key_records(fn)
        if not records or project.function_is_transactional(fn):
            continue
        txns = project.transaction_regions(fn)
        tables = {t for r in records for t in _key_tables(project, fn, fn.events[r], 0)}
        for i, ev in enumerate(fn.events):
            if ev.kind != "call" or i in records:
                continue
            write = _write(ctx, fn, ev)
            if write is None:
                continue
            confidence, chain = write
            if orm_manager(chain[-1]) in tables:
                continue  # the key's own row (`release(key)` deleting the claim after a failure): no work of its own
            for r in records:
                record = fn.events[r]
                if exclusive(record, ev) or left_before(record, ev) or project.same_transaction(fn, record, ev):
                    continue
                where = "with no transaction around both"
                if txns.intersection(record.regions):
                    where = f"in a transaction (line {record.line})"
                elif not project.records_key(record, fn):
                    where = "in a transaction of its own"  # a helper's, `@transaction.atomic`
                what = " -> ".join(short(c) for c in chain)
                yield ctx.finding(
                    "JC103",
                    event_anchor(project, qualname, i),
                    f"`{what}` writes outside the transaction that records the key: the key is recorded "
                    f"by `{short(project.event_name(record) or '?')}` {where}; a crash between them loses "
                    f"the work or repeats it. Record the key and make this write in one transaction",
                    confidence=confidence,
                    job=ctx.job_of(qualname),
                    chain=chain,
                    function=qualname,
                )
                break


def _write(ctx: CheckContext, fn, ev):
    """(confidence, chain) if this call writes to the database, itself or through a helper."""
    project = ctx.project
    name = project.event_name(ev)
    confidence = project.writes_db(ev, fn)
    if confidence is not None:
        if confidence is Confidence.LOW:
            return None
        return confidence, (name or ev.attr or "?",)
    for callee in project.callees(ev):
        inner = _helper_write(ctx, callee.qualname, set())
        if inner is not None:
            return inner[0], (callee.qualname, *inner[1])
    return None


def _helper_write(ctx: CheckContext, qualname: str, seen: set):
    if qualname in seen or len(seen) > 8:
        return None
    seen.add(qualname)
    project = ctx.project
    fn = project.functions[qualname]
    for ev in fn.events:
        if ev.kind != "call":
            continue
        name = project.event_name(ev)
        confidence = project.writes_db(ev, fn)
        if confidence is not None and confidence is not Confidence.LOW:
            return confidence, (name or "?",)
        for callee in project.callees(ev):
            inner = _helper_write(ctx, callee.qualname, seen)
            if inner is not None:
                return inner[0], (callee.qualname, *inner[1])
    return None


def _key_tables(project, fn, record, depth: int) -> set[str]:
    """The managers of the tables a key record writes, itself or in the helper it calls (`claim(key)`
    creating a `DeliveryReceipt`)."""
    if project.records_key(record, fn):
        manager = orm_manager(project.event_name(record))
        return {manager} if manager else set()
    if depth > 2:
        return set()
    return {t for callee in project.callees(record) for ev in callee.events if ev.kind == "call"
            for t in _key_tables(project, callee, ev, depth + 1)}
