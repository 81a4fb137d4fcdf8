"""ModuleSummary <-> plain data and bytes, for the cache and for results from worker processes.

The plain form is nested tuples, lists, dicts, strings, numbers, booleans and None: what `marshal`
stores exactly (tuples stay tuples, integer dict keys stay integers) and what `json` can encode.
Each dataclass becomes one tuple of its field values in declaration order, so loading is one
positional constructor call per object — much faster than pickling slotted dataclasses, which
rebuilds every object through Python-level `__setstate__`.

The first element is a format tag that names every field of every summary class: a summary
written by a jobcheck whose summary classes differ is rejected (`FormatError`), never misread.
Any malformed input raises `FormatError` too; callers treat that as "not cached".
"""

from __future__ import annotations

import hashlib
import marshal
from dataclasses import fields
from operator import attrgetter

from .summary import (
    ClassSummary,
    Event,
    FunctionSummary,
    Handler,
    ModuleSummary,
    Region,
    Sink,
)


class FormatError(ValueError):
    """Data that is not a summary of this jobcheck's format."""


def _names(cls) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


_EVENT, _REGION, _SINK, _HANDLER = _names(Event), _names(Region), _names(Sink), _names(Handler)
_FUNCTION, _CLASS, _MODULE = _names(FunctionSummary), _names(ClassSummary), _names(ModuleSummary)

# Nested objects sit at these positions of their owner's tuple.
_FN_NESTED = {name: _FUNCTION.index(name) for name in ("events", "regions", "sinks", "handlers")}
_MOD_FUNCTIONS, _MOD_CLASSES = _MODULE.index("functions"), _MODULE.index("classes")

TAG = "jobcheck-summary/" + hashlib.blake2b(
    repr((_EVENT, _REGION, _SINK, _HANDLER, _FUNCTION, _CLASS, _MODULE)).encode(), digest_size=8
).hexdigest()

_get_event, _get_region, _get_sink, _get_handler = (
    attrgetter(*_EVENT), attrgetter(*_REGION), attrgetter(*_SINK), attrgetter(*_HANDLER)
)
_get_function, _get_class, _get_module = attrgetter(*_FUNCTION), attrgetter(*_CLASS), attrgetter(*_MODULE)
_EV, _RG, _SK, _HD = (_FN_NESTED[n] for n in ("events", "regions", "sinks", "handlers"))


def to_data(summary: ModuleSummary) -> tuple:
    """The plain form of a summary: (TAG, module fields...) with nested objects as tuples."""
    functions = []
    for fn in summary.functions.values():
        row = list(_get_function(fn))
        row[_EV] = [_get_event(e) for e in fn.events]
        row[_RG] = [_get_region(r) for r in fn.regions]
        row[_SK] = [_get_sink(s) for s in fn.sinks]
        row[_HD] = [_get_handler(h) for h in fn.handlers]
        functions.append(tuple(row))
    row = list(_get_module(summary))
    row[_MOD_FUNCTIONS] = functions
    row[_MOD_CLASSES] = [_get_class(c) for c in summary.classes.values()]
    return (TAG, *row)


def pack(summary: ModuleSummary) -> bytes:
    """Bytes for the cache and for results from worker processes (marshal keeps tuples, lists and
    integer keys exactly, and is the fastest loader the standard library has)."""
    return marshal.dumps(to_data(summary))


def unpack(blob: bytes) -> ModuleSummary:
    """The summary `pack` made; `FormatError` for anything else."""
    try:
        data = marshal.loads(blob)
    except (ValueError, EOFError, TypeError) as exc:
        raise FormatError(f"not marshalled summary data: {exc}") from exc
    return from_data(data)


def from_data(data) -> ModuleSummary:
    """The summary `to_data` made; `FormatError` for anything else."""
    if type(data) is not tuple or len(data) != len(_MODULE) + 1 or data[0] != TAG:
        raise FormatError("not a summary of this jobcheck's format")
    try:
        row = list(data[1:])
        functions = {}
        for f in row[_MOD_FUNCTIONS]:
            f = list(f)
            f[_EV] = [Event(*e) for e in f[_EV]]
            f[_RG] = [Region(*r) for r in f[_RG]]
            f[_SK] = [Sink(*s) for s in f[_SK]]
            f[_HD] = [Handler(*h) for h in f[_HD]]
            fn = FunctionSummary(*f)
            functions[fn.qualname] = fn
        classes = {}
        for c in row[_MOD_CLASSES]:
            cls = ClassSummary(*c)
            classes[cls.qualname] = cls
        row[_MOD_FUNCTIONS], row[_MOD_CLASSES] = functions, classes
        summary = ModuleSummary(*row)
    except (TypeError, ValueError, AttributeError, KeyError, IndexError) as exc:
        raise FormatError(f"malformed summary: {exc}") from exc
    if not isinstance(summary.path, str) or not isinstance(summary.module, str):
        raise FormatError("malformed summary: path and module must be strings")
    return summary
