"""Reads resolved calls against the catalogs: is this an effect, a clock, a transaction?"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from functools import lru_cache

from ..model import Confidence
from . import catalog
from .key_apis import IDEMPOTENCY_KEY_APIS


class PatternSet:
    """Exact names in a set, globs in one compiled regex: one lookup per call, whatever the size."""

    def __init__(self, patterns: tuple[str, ...] | list[str]) -> None:
        self.exact = {p for p in patterns if "*" not in p}
        globs = [fnmatch.translate(p) for p in patterns if "*" in p]
        self.glob = re.compile("|".join(f"(?:{g})" for g in globs)) if globs else None

    def __contains__(self, name: str | None) -> bool:
        if not name:
            return False
        return name in self.exact or (self.glob is not None and self.glob.match(name) is not None)


@dataclass(frozen=True)
class EffectHit:
    kind: str
    name: str  # the catalog's spelling of what was called
    confidence: Confidence


_METHOD_SPLIT = re.compile(r"^(.*):([A-Z]+)$")


class Catalog:
    """The catalogs of `catalog`, extended by configuration, compiled once per run."""

    def __init__(self, extra_effects: dict[str, list[str]] | None = None, guards: list[str] | None = None) -> None:
        extra_effects = extra_effects or {}
        self.kinds: dict[str, PatternSet] = {}
        self.method_kinds: list[tuple[str, PatternSet, str]] = []  # (kind, names, HTTP method)
        by_kind: dict[str, list[str]] = {k: list(v) for k, v in catalog.EFFECTS.items()}
        for kind, names in extra_effects.items():
            by_kind.setdefault(kind, []).extend(names)
        for kind, names in by_kind.items():
            plain = [n for n in names if not _METHOD_SPLIT.match(n)]
            self.kinds[kind] = PatternSet(plain)
            with_method: dict[str, list[str]] = {}
            for n in names:
                m = _METHOD_SPLIT.match(n)
                if m:
                    with_method.setdefault(m.group(2), []).append(m.group(1))
            for method, ns in with_method.items():
                self.method_kinds.append((kind, PatternSet(ns), method))
        self.senders = PatternSet(catalog.REQUEST_SENDERS)
        self.builders = dict(catalog.REQUEST_BUILDERS)
        self.enqueue_calls = PatternSet(catalog.ENQUEUE_CALLS)
        self.key_apis = [(PatternSet((name,)), how, needs) for name, how, needs in IDEMPOTENCY_KEY_APIS]
        self.clocks = PatternSet(catalog.CLOCKS)
        self.random = PatternSet(catalog.RANDOM)
        self.transactions = PatternSet(catalog.TRANSACTIONS)
        self.markers = PatternSet(catalog.MARKER_CALLS)
        self.guards = PatternSet(tuple(guards or ()))
        self.broad = set(catalog.BROAD_EXCEPTIONS)
        self.rejections = _Rejections(catalog.REJECTIONS)
        self._effect = lru_cache(maxsize=None)(self._effect_uncached)

    def effect(self, name: str | None, first_arg: object = None) -> EffectHit | None:
        """The effect a call to `name` makes, if any (without looking at guards)."""
        if not name:
            return None
        return self._effect(name, first_arg if isinstance(first_arg, str) else None)

    def _effect_uncached(self, name: str, first_arg: str | None) -> EffectHit | None:
        confidence = Confidence.MEDIUM if "()" in name else Confidence.HIGH
        for kind, names in self.kinds.items():
            if name in names:
                return EffectHit(kind, name, confidence)
        if first_arg:
            for kind, names, method in self.method_kinds:
                if first_arg.upper() == method and name in names:
                    return EffectHit(kind, f"{name}({method})", confidence)
        else:
            # The method is not a literal here: a write, unless a call site decides (`Project.is_guarded`).
            for kind, names, method in self.method_kinds:
                if method in catalog.HTTP_WRITE_METHODS and name in names:
                    return EffectHit(kind, name, confidence)
        if name in self.senders:
            return EffectHit("http", name, confidence)  # what it sends decides (`Project.is_guarded`)
        if name in self.enqueue_calls:
            return EffectHit("enqueue", name, confidence)
        return None

    def method_writes(self, name: str, method: object) -> bool:
        """Does an HTTP call `name` with this literal method write? A method the catalog lists
        for `name` decides; for a call it does not list, POST and PATCH do."""
        if not isinstance(method, str):
            return True
        if any(name in names for _, names, _ in self.method_kinds):
            return self._effect(name, method) is not None
        return method.upper() in catalog.HTTP_WRITE_METHODS

    def accepts_key(self, name: str | None, kwargs: dict) -> str | None:
        """How the API called as `name`, with these keywords, takes an idempotency key (the first
        entry of `IDEMPOTENCY_KEY_APIS` that applies), or None if it takes none."""
        for names, how, needs in self.key_apis:
            if name in names and (needs is None or needs in kwargs):
                return how
        return None

    def is_transaction(self, name: str | None) -> bool:
        return name in self.transactions


def db_write(name: str | None, attr: str | None, sql: str | None) -> Confidence | None:
    """A database write, and how sure we are it is one.

    Django managers and querysets (`X.objects...update()`), SQLAlchemy sessions, DB-API `execute`
    of INSERT/UPDATE/DELETE. A bare `.save()` / `.delete()` on something we cannot type is a low
    confidence write.
    """
    if sql:
        return Confidence.HIGH
    if not attr or attr not in catalog.ORM_WRITE_METHODS:
        return None
    if name and (".objects" in name or "._default_manager" in name or ".all_objects" in name):
        return Confidence.HIGH
    if name and "django.db.models.Model()." in name:
        return Confidence.MEDIUM  # a related manager or a row of some model: order.payments.create()
    if name and re.search(r"(?i)session\(?\)?\.(add|add_all|merge|delete)$", name):
        return Confidence.MEDIUM
    if attr in ("save", "delete") and name and not name.startswith(("requests", "httpx", "PIL", "pathlib", "os")):
        return Confidence.LOW
    return None


class _Rejections(set):
    """The exceptions that say a request was refused: those listed, and those named for a rate
    limit (`catalog.REJECTION_NAMES`), wherever they are defined."""

    _named = re.compile(catalog.REJECTION_NAMES)

    def __contains__(self, name: object) -> bool:
        return super().__contains__(name) or (isinstance(name, str) and bool(self._named.search(name.rpartition(".")[2])))
