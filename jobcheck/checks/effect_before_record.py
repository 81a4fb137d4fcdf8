"""JC401 effect-before-record: a function a job reaches makes an external effect (email, HTTP
write, payment, SMS, publish) with no idempotency guard and only then writes the marker that
records it was done (`row.sent = True; row.save()`): a crash between the two repeats the effect
on the next run. What counts as the record, and the idioms that stay quiet, are
`analysis.records`'."""

from __future__ import annotations

from ..analysis.names import short
from ..analysis.records import RECORDED_KINDS, records_after
from .context import CheckContext, event_anchor

CODES = ("JC401",)
_NOUNS = {"email": "email", "sms": "SMS", "http": "HTTP write", "payment": "payment", "publish": "message publish"}


def run(ctx: CheckContext):
    project = ctx.project
    for qualname, fn in ctx.reached_functions():
        seen: set[int] = set()
        for ce in project.call_effects(qualname):
            if ce.path.kind not in RECORDED_KINDS or ce.event_index in seen:
                continue
            record = records_after(project, fn, ce.event_index)
            if record is None:
                continue
            seen.add(ce.event_index)
            effect = fn.events[ce.event_index]
            chain = (qualname, *ce.path.chain)
            noun = _NOUNS[ce.path.kind]
            yield ctx.finding(
                "JC401",
                event_anchor(project, qualname, ce.event_index),
                f"the {noun} ({' -> '.join(short(c) for c in chain)}, line {effect.line}) happens before the write "
                f"that records it: {record.text} at line {record.line} marks `{record.field}`; a crash between the "
                f"two repeats the {noun} on the next run. Record the intent first (an outbox row, or a 'sending' "
                f"state saved before the call) or pass the provider a key derived from the row",
                confidence=ce.path.confidence,
                job=ctx.job_of(qualname),
                chain=chain,
                function=qualname,
            )
