"""The questions the checks ask of a linked program: its jobs (found by the frameworks), what
retries them, what each function's calls run (Django signals included), the external effects a
function reaches with no idempotency guard, and the functions each job reaches."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cached_property

from ..effects.catalog import ENQUEUE_METHODS, EXTERNAL_KINDS
from ..effects.catalog import (
    SQL_TEXT_BUILDERS,
    SQL_WRITE_STATEMENTS,
    TRANSACTION_CONNECTS,
    TRANSACTION_ENDS,
    UNIQUE_VIOLATIONS,
    UNIT_OF_WORK_CONNECTIONS,
)
from ..effects.classify import Catalog, db_write
from ..model import Confidence, Failure
from .decorators import RECEIVER, RECEIVER_DECORATORS, decorated_functions
from .forwarding import is_transparent_wrapper, retry_by_wrapper
from .jobs import JobSite, Registration, RetryPolicy
from .keys import is_key_name, is_record_key_field
from .names import canonical_in, origin, target
from .program import (
    Program,
    calls_a_function,
    calls_named,
    deco_name,
    exclusive,
)
from .summary import MODULE_CODE, Event, FunctionSummary, ModuleSummary


@dataclass(frozen=True)
class EffectPath:
    """An effect reachable from a function: its kind, how sure we are, and the calls leading to it."""

    kind: str
    chain: tuple[str, ...]  # qualified names: helper, helper, ..., the effect's catalog name
    confidence: Confidence


@dataclass(frozen=True)
class CallEffect:
    """An event in a function through which an unguarded effect happens."""

    event_index: int
    path: EffectPath


class Project(Program):
    def __init__(self, modules: list[ModuleSummary], catalog: Catalog, frameworks: list, entry_points: dict | None = None) -> None:
        super().__init__(modules)
        self.catalog = catalog
        self.frameworks = frameworks
        self.entry_points = entry_points or {}
        self.failures: list[Failure] = []  # frameworks that failed (their jobs are missing)
        self.call_edges: dict[str, list[str] | None] = {}
        self._reach: dict[str, list[EffectPath]] = {}
        self._call_effects: dict[str, list[CallEffect]] = {}
        self._computing: set[str] = set()
        self._walks: list[tuple[int, dict[str, list[CallEffect]]]] = []  # (cycle, its members' effects so far)

    def decorator_claims(self, mod: ModuleSummary, value: list, name: str | None = None) -> frozenset[str]:
        """Who reads this decorator: the frameworks whose `reads_decorator` takes one of its
        spellings (as written, as resolved, with the sys.path fallback), and `RECEIVER` for
        Django's `receiver`. Each framework sees only its own (`decorated_functions`)."""

        written = deco_name(value)
        if not written:
            return frozenset()
        # A name's answer, once: a project repeats a few decorators thousands of times.
        claimed = self.once("decorator claims", dict)
        out: frozenset[str] = frozenset()
        for n in (written, name or self.canonical(written), canonical_in(self, mod, written)):
            if not n:
                continue
            found = claimed.get(n)
            if found is None:
                found = claimed[n] = frozenset(
                    [fw.name for fw in self.frameworks if hasattr(fw, "reads_decorator") and fw.reads_decorator(n)]
                    + ([RECEIVER] if n in RECEIVER_DECORATORS else []))
            out |= found
        return out

    @cached_property
    def jobs(self) -> dict[str, JobSite]:
        """Every entry point, keyed by the function that runs, with registrations merged in."""
        sites: dict[str, JobSite] = {}
        registrations: list[Registration] = []
        for fw in self.frameworks:
            try:
                found, registered = fw.find_jobs(self), fw.find_registrations(self)
            except Exception as exc:  # one framework's bug must not hide the others' jobs
                self.failures.append(Failure(f"framework {fw.name}", Failure.describe(exc)))
                continue
            for site in found:
                existing = sites.get(site.function)
                if existing is None:
                    sites[site.function] = site
                else:
                    existing.triggers |= site.triggers
                    if existing.retry is None:
                        existing.retry = site.retry
            registrations.extend(registered)
        registrations = self._expand_forwards(registrations)
        registrations = [r for reg in registrations for r in self._through_subclasses(reg)]
        for reg in registrations:
            site = sites.get(reg.target)
            if site is None:
                fn = self.functions[reg.target]
                if is_transparent_wrapper(fn):
                    continue  # a decorator's wrapper enqueueing itself: the job is what it decorates
                owner = self.classes.get(reg.owner) if reg.owner else None
                site = JobSite(
                    function=fn.qualname, framework=reg.framework, kind=reg.kind,
                    path=self.function_module[fn.qualname].path,
                    anchor=self.class_anchor(owner) if owner else self.anchor_of(fn),
                    display=owner.qualname if owner else fn.qualname, doc_owner=owner.qualname if owner else fn.qualname,
                )
                sites[reg.target] = site
            site.triggers.add(reg.trigger)
            site.settings.update(reg.settings)
            if reg.retry is not None and (site.retry is None or site.retry.from_default):
                site.retry = reg.retry
        self._add_signal_receivers(sites)
        return sites

    def _through_subclasses(self, reg: Registration) -> list[Registration]:
        """`queue.enqueue(self.handle)` in a base class whose `handle` calls `self.run()`, a
        method the base leaves abstract (it raises NotImplementedError): every subclass's `run` is
        a job, and the base's `handle` is not (its work is always a subclass's)."""
        fn = self.functions.get(reg.target)
        cls = self.classes.get(fn.class_qualname) if fn is not None and fn.class_qualname else None
        if cls is None:
            return [reg]
        mine = (f"{cls.qualname}().", "@self.")
        abstract = sorted({ev.attr for ev in fn.events if ev.kind == "call" and (ev.name or "").startswith(mine)
                           and ev.attr in cls.methods and self._abstract(f"{cls.qualname}.{ev.attr}")})
        if not abstract:
            return [reg]
        return [replace(reg, target=f"{sub.qualname}.{attr}", owner=sub.qualname)
                for sub in self.subclasses(cls.qualname) for attr in abstract if attr in sub.methods]

    def subclasses(self, base: str) -> list:
        """The project's classes deriving from `base`, at any depth."""
        index = self.once("subclasses", lambda: {
            c.qualname: self.class_bases(c) for c in self.classes.values()})
        return [self.classes[q] for q, bases in index.items() if base in bases]

    def _abstract(self, qualname: str) -> bool:
        fn = self.functions.get(qualname)
        return fn is not None and any(ev.kind == "raise" and (ev.name or "").endswith("NotImplementedError") for ev in fn.events)

    def _add_signal_receivers(self, sites: dict[str, JobSite]) -> None:
        """A signal a job sends runs its receivers in that job (`tick_hourly` sending `hourly`):
        each receiver is a job of the sender's kind and triggers. Their effects stay the sender's
        too (`callees`), so a retry of the sender is reported where it sends."""
        for sender in list(sites.values()):
            fn = self.functions.get(sender.function)
            if fn is None:
                continue
            for ev in fn.events:
                if not (ev.kind == "call" and ev.ref and ev.attr in _SEND_METHODS):
                    continue
                for receiver in self.callees(ev):
                    if receiver.qualname not in sites:
                        sites[receiver.qualname] = JobSite(
                            function=receiver.qualname, framework=sender.framework, kind=sender.kind,
                            path=self.function_module[receiver.qualname].path, anchor=self.anchor_of(receiver),
                            display=receiver.qualname, doc_owner=receiver.qualname, triggers=set(sender.triggers),
                        )

    def _expand_forwards(self, registrations: list[Registration], depth: int = 0) -> list[Registration]:
        """A helper that enqueues its parameter registers whatever its callers pass there."""
        out: list[Registration] = []
        pending: list[Registration] = []
        for reg in registrations:
            (pending if reg.forward else out).append(reg)
        for reg in pending:
            helper_name, index, param = reg.forward
            helper = self.functions.get(helper_name)
            if helper is None:
                continue
            offset = 1 if helper.class_qualname and helper.params and helper.params[0] in ("self", "cls") else 0
            further: list[Registration] = []
            for site in calls_named(self, (helper.name,), calls_a_function):
                if self.function_for(site.name) is not helper:
                    continue
                ev = site.event
                value = ev.kwargs.get(param)
                if value is None and 0 <= index - offset < len(ev.args):
                    value = ev.args[index - offset]
                qualname = target(self, site.module, value)
                if qualname:
                    out.append(replace(reg, target=qualname, anchor=site.anchor, forward=None))
                elif value and value[0] == "param" and depth < 3 and site.function.name != MODULE_CODE:
                    further.append(replace(reg, forward=(site.function.qualname, value[2], value[1])))
            if further:
                out.extend(self._expand_forwards(further, depth + 1))
        return out

    @cached_property
    def retry_wrappers(self) -> dict[str, RetryPolicy]:
        """Functions retried by a decorator (tenacity, backoff, stamina), job or not."""
        out: dict[str, RetryPolicy] = {}
        for fw in self.frameworks:
            finder = getattr(fw, "find_retry_wrappers", None)
            if finder is not None:
                try:
                    out.update(finder(self))
                except Exception as exc:
                    self.failures.append(Failure(f"framework {fw.name} (retry decorators)", Failure.describe(exc)))
        for mod in self.modules.values():
            for fn in mod.functions.values():
                for value, *_ in fn.decorators:
                    name = self.canonical(deco_name(value))
                    if fn.qualname not in out and name and self.function_for(name) is not None:
                        found = retry_by_wrapper(self, mod, value, name)
                        if found is not None:
                            out[fn.qualname] = found
        return out

    def retry_of(self, qualname: str) -> RetryPolicy | None:
        """The policy that really retries this function: a job's, or a retry decorator's."""
        site = self.jobs.get(qualname)
        policy = site.retry if site is not None else None
        if policy is not None and not policy.disabled and self.triggers_retry(qualname, policy):
            return policy
        wrapper = self.retry_wrappers.get(qualname)
        if wrapper is not None and not wrapper.disabled:
            return wrapper
        return None

    def triggers_retry(self, qualname: str, policy: RetryPolicy) -> bool:
        """Settings that configure retries but that nothing triggers are dead configuration."""
        if policy.on is None or policy.on:
            return True
        return bool(self.explicit_retry_points(qualname))

    def explicit_retry_points(self, qualname: str) -> list[int]:
        """Events in the body that ask for a retry: `self.retry(...)`, `raise Retry(...)`."""
        fn = self.functions[qualname]
        points = []
        for i, ev in enumerate(fn.events):
            name = self.event_name(ev) or ""
            if ev.kind == "call" and ev.attr == "retry" and (
                name.startswith("@self") or name == f"{qualname}.retry" or name.startswith(("celery.", "celery.current_task"))
                or name.endswith("Task().retry")
            ):
                points.append(i)
            elif ev.kind == "raise" and name.rpartition(".")[2] in ("Retry", "RetryTask", "RetryError", "RetryLater", "RetryRequested"):
                points.append(i)
        return points

    def callees(self, event: Event) -> list[FunctionSummary]:
        """What a call runs: the function it names, or the receivers of a Django signal it sends
        (`send` runs every receiver in the sender's process, so their effects are the sender's)."""
        callee = self.callee(event)
        if callee is not None:
            return [callee]
        if event.kind == "call" and event.ref and event.attr in _SEND_METHODS:

            signal = event.ref.rpartition(".")[0]
            receivers = self.signal_receivers.get(signal)
            if receivers is None:
                module = self.modules.get(signal.rpartition(".")[0])
                resolved = origin(self, module, signal) if module is not None else signal
                receivers = self.signal_receivers.get(resolved or signal, [])
            return [self.functions[q] for q in receivers if q in self.functions]
        return []

    @cached_property
    def signal_receivers(self) -> dict[str, list[str]]:
        """Django signal (where it is defined: `shop.signals.order_paid`) -> receiver functions,
        from `@receiver(signal)` and `signal.connect(func)`."""

        out: dict[str, list[str]] = {}

        def add(module: ModuleSummary, value: list | None, function: str) -> None:
            for v in (value[1] if value and value[0] == "seq" else [value]):
                if not v or v[0] not in ("name", "ref"):
                    continue
                dotted = v[2] if v[0] == "name" and len(v) > 2 else v[1]
                if dotted:
                    out.setdefault(origin(self, module, dotted) or dotted, []).append(function)

        for d in decorated_functions(self, RECEIVER):
            if d.is_call and d.name in RECEIVER_DECORATORS:
                add(d.module, d.value[3].get("signal") or (d.value[2][0] if d.value[2] else None), d.function.qualname)
        for site in calls_named(self, ("connect",), _reads_receiver_connect):
            ev = site.event
            fn = self.function_for(self.canonical(ev.args[0][1])) if ev.args and ev.args[0][0] == "name" else None
            if ev.ref and fn is not None:
                signal = ev.ref.rpartition(".")[0]
                out.setdefault(origin(self, site.module, signal) or signal, []).append(fn.qualname)
        for mod in self.modules.values():  # blinker: `@hourly.connect`, `@hourly.connect_via(sender)`
            for fn in mod.functions.values():
                for value, *_ in fn.decorators:
                    written = deco_name(value) or ""
                    signal, _, method = written.rpartition(".")
                    if method in ("connect", "connect_via") and _is_signal_object(self, self.deref(["ref", signal])):
                        out.setdefault(origin(self, mod, signal) or signal, []).append(fn.qualname)
        return out

    def callee(self, event: Event) -> FunctionSummary | None:
        if event.kind != "call":
            return None
        return self.function_for(self.event_name(event))

    def direct_effect(self, fn: FunctionSummary, event: Event) -> EffectPath | None:
        """The external effect this call makes itself, if any (guards not considered)."""
        if event.kind != "call":
            return None
        name = self.event_name(event)
        if not name:
            return None
        first = event.args[0][1] if event.args and event.args[0][0] == "lit" else None
        if first is None and "method" in event.kwargs and event.kwargs["method"][0] == "lit":
            first = event.kwargs["method"][1]
        hit = self.catalog.effect(name, first)
        if hit is None and event.name != name:
            hit = self.catalog.effect(event.name, first)  # as written: `Mailer().deliver` before it became a method
        if hit is not None:
            return EffectPath(hit.kind, (hit.name,), hit.confidence)
        if event.attr in ENQUEUE_METHODS:
            target = name.rpartition(".")[0]
            if target in self.jobs:
                return EffectPath("enqueue", (name,), Confidence.HIGH)
        return None

    def is_guarded(self, fn: FunctionSummary, index: int) -> bool:
        """Does something make this call idempotent? A key passed to the far end, a key recorded
        in the same transaction before it, a dedup marker set before it, or a configured guard."""
        event = fn.events[index]
        for kw in event.kwargs:
            if is_key_name(kw):
                return True
        if any(kw in ("headers", "extra_headers", "**", "request_options", "options") for kw in event.kwargs):
            if any(s.kind == "dictkey" and is_key_name(s.name) and s.line <= event.end_line for s in fn.sinks):
                return True
            if any(m <= event.end_line for m in self.key_marks(fn)):
                return True
        if self._key_in_body(fn, event) or self.sends_a_read(fn, index):
            return True
        if any(fn.events[g].attr in _CREATED_FLAGS for g in event.gated):
            return True  # runs only when `get_or_create` created the row: once
        for j in range(index):
            other = fn.events[j]
            if other.kind != "call" or exclusive(other, event):
                continue
            name = self.event_name(other)
            if name in self.catalog.guards:
                return True
            if name in self.catalog.markers or (other.attr == "set" and "nx" in other.kwargs):
                return True
            if self.records_key(other) and self.same_transaction(fn, other, event):
                return True
        for deco in fn.decorators:
            if self.canonical(deco_name(deco[0])) in self.catalog.guards:
                return True
        return False

    def _key_in_body(self, fn: FunctionSummary, event: Event) -> bool:
        """An idempotency key sent in the request body: `json={"idempotency_key": ...}`, or a body
        given as a variable where a dict with a key-named field was built before the call."""
        for kw in ("json", "data"):
            value = event.kwargs.get(kw)
            if not value:
                continue
            if _has_key_field(value):
                return True
            if value[0] != "dict" and any(s.kind == "dictkey" and is_key_name(s.name) and s.line <= event.end_line
                                          for s in fn.sinks):
                return True
        return False

    def sends_a_read(self, fn: FunctionSummary, index: int) -> bool:
        """An HTTP call that only reads is idempotent: a method given as a variable, or a request
        built elsewhere (`session.send(prepared)`, `urlopen(Request(url, data=...))`), that the
        call sites of the application's own helpers make a GET (`_request("GET", ...)`, `_call(path)`
        leaving `payload=None`)."""
        return self._http_conditions(fn, index, 0) == ()

    def _http_conditions(self, fn: FunctionSummary, index: int, depth: int) -> tuple | None:
        """When this call's HTTP effects are only reads: () always; None never (a write, or not
        known); else the conditions on `fn`'s parameters, each of which must hold: `("method",
        param, call)` (the literal method its callers pass reads) or `("body", param)` (its callers
        pass None, or leave a None default: no body, so urllib sends a GET)."""
        memo = self.once("http read conditions", dict)
        key = (fn.qualname, index)
        if key in memo:
            return memo[key]
        memo[key] = None  # on a cycle: a write
        found = memo[key] = self._http_conditions_of(fn, index, depth) if depth < 8 else None
        return found

    def _http_conditions_of(self, fn: FunctionSummary, index: int, depth: int) -> tuple | None:
        event = fn.events[index]
        direct = self.direct_effect(fn, event)
        if direct is not None:
            return self._request_conditions(fn, event, direct) if direct.kind == "http" else None
        callees = self.callees(event)
        if len(callees) != 1:
            return None
        callee = callees[0]
        effects = self.call_effects(callee.qualname) if callee.qualname != fn.qualname else []
        if not effects:
            return None
        out: list = []
        for ce in effects:
            inner = self._http_conditions(callee, ce.event_index, depth + 1)
            if inner is None:
                return None
            for cond in inner:
                given = _bound(callee, event, cond[1])
                if given is not None and given[0] == "param":
                    out.append((cond[0], given[1], *cond[2:]))
                elif self._condition_writes(cond, given):
                    return None
        return tuple(out)

    def _condition_writes(self, cond: tuple, given: list | None) -> bool:
        """Does a call site that passes `given` (None: not known) for the condition's parameter write?"""
        if given is None or given[0] != "lit":
            return True
        if cond[0] == "method":
            return self.catalog.method_writes(cond[2], given[1])
        return given[1] is not None

    def _request_conditions(self, fn: FunctionSummary, event: Event, effect: EffectPath) -> tuple | None:
        """The conditions under which a direct HTTP call reads (see `_http_conditions`)."""
        name = effect.chain[-1]
        if name not in self.catalog.senders:
            method = event.args[0] if event.args else event.kwargs.get("method")
            return (("method", method[1], name),) if method and method[0] == "param" else None
        out: list = []
        own = self.catalog.builders.get(name)
        if own is not None:
            body = _argument(event.args, event.kwargs, own[1])
            if body is not None and body != ["lit", None]:
                found = self._body_conditions(fn, body, _sources(event, own[1]))
                if found is None:
                    return None
                out.extend(found)
        request = event.args[0] if event.args else None
        built = None
        if request and request[0] == "call" and self.canonical(request[1]) in self.catalog.builders:
            built = (self.canonical(request[1]), request[2], request[3], None)
        else:
            for j in (event.argsrc[0] if event.argsrc else ()):
                other = fn.events[j]
                other_name = self.event_name(other) if other.kind == "call" else None
                if other_name in self.catalog.builders and other_name not in self.catalog.senders:
                    built = (other_name, other.args, other.kwargs, other)
                    break
        if built is None:
            return tuple(out)  # a URL: a GET (a request given from elsewhere is not followed)
        builder, args, kwargs, made = built
        method_at, body_at = self.catalog.builders[builder]
        method = _argument(args, kwargs, method_at) if method_at else None
        if method is not None and method != ["lit", None]:
            if method[0] == "param":
                return (*out, ("method", method[1], builder))
            return None if self._condition_writes(("method", None, builder), method) else tuple(out)
        body = _argument(args, kwargs, body_at) if body_at else None
        if body is None or body == ["lit", None]:
            return tuple(out)
        found = self._body_conditions(fn, body, _sources(made, body_at) if made is not None else ())
        return None if found is None else (*out, *found)

    def _body_conditions(self, fn: FunctionSummary, body: list, sources) -> list | None:
        """A body that is a parameter, or is made from parameters (`json.dumps(payload).encode()`):
        empty when the callers pass None for them. Any other body writes (None)."""
        if body[0] == "param":
            return [("body", body[1])]
        if body[0] == "lit":
            return None
        params = {a[1] for j in sources for a in (*fn.events[j].args, *fn.events[j].kwargs.values())
                  if a and a[0] == "param"}
        return [("body", p) for p in sorted(params)] or None

    def key_marks(self, fn: FunctionSummary) -> list[int]:
        """Lines where a key-named value is written without a call feeding it (dict keys)."""
        return [s.line for s in fn.sinks if is_key_name(s.name)]

    def records_key(self, event: Event, fn: FunctionSummary | None = None) -> bool:
        """A database write that records an idempotency key.

        The row must say so: a key-named field (`idempotency_key=`, `dedup_id=`), or a plain key
        field (`key=`, `event_key=`) in a table named for it (`ProcessedEvent`, `IdempotencyKey`,
        `Outbox`) or with evidence that it gates the work (`_key_gates`). A product's `key`, a
        settings table's `create(key=...)` or a log row is not a key record. `fn` is the function
        the event is in (looked up when not given).
        """
        if event.kind != "call" or self.writes_db(event, fn) is None:
            return False
        name = self.event_name(event)
        if event.attr in ("create", "get_or_create", "update_or_create", "add", "bulk_create"):
            fields = list(event.kwargs)
            model = (name or "").split(".objects")[0].rpartition(".")[2]
            if event.attr == "add" and event.args and event.args[0][0] == "call":
                # SQLAlchemy: session.add(ProcessedEvent(key=...))
                fields = list(event.args[0][3])
                model = (event.args[0][1] or "").rpartition(".")[2]
            if self._records_by_fields(event, fn, fields, model):
                return True
        statement = self._core_statement(event, fn)
        if statement is not None and statement[0] == "insert":
            # SQLAlchemy Core: conn.execute(insert(processed_events).values(key=...))
            if self._records_by_fields(event, fn, statement[2], statement[1]):
                return True
        if event.sql and event.sql in ("insert", "upsert", "merge"):
            first = event.args[0] if event.args else None
            if first and first[0] == "call" and first[2]:
                first = first[2][0]  # text("INSERT ..."), sql.SQL("INSERT ...")
            text = first[1] if first and first[0] == "lit" else ""
            if isinstance(text, str) and _KEY_MODEL.search(text):
                return True
        return False

    def _records_by_fields(self, event: Event, fn: FunctionSummary | None, fields: list, table: str) -> bool:
        if any(is_key_name(k) for k in fields):
            return True
        keyed = [k for k in fields if k != "**" and is_record_key_field(k)]
        return bool(keyed) and bool(_KEY_MODEL.search(table) or self._key_gates(event, fn, keyed))

    def _key_gates(self, event: Event, fn: FunctionSummary | None, fields: list[str]) -> bool:
        """Evidence that a row with a plain key field is a dedup record: `get_or_create`'s
        `created` tested, the write in a try that catches a unique violation, or a check of the
        same model by the same field before it (`if X.objects.filter(key=k).exists(): return`)."""
        if event.flag_tested and event.attr in ("get_or_create", "update_or_create"):
            return True
        fn = fn or self._function_of(event)
        if fn is None:
            return False
        if event.tries:
            for h in fn.handlers:
                if h.try_id in event.tries and any(t and t.rpartition(".")[2] in UNIQUE_VIOLATIONS for t in h.types):
                    return True
        name = self.event_name(event) or ""
        if ".objects." not in name:
            return False
        manager = name.split(".objects.")[0] + ".objects."
        for other in fn.events:
            if other is event:
                break
            if (other.in_test and other.kind == "call" and any(k in other.kwargs for k in fields)
                    and (self.event_name(other) or "").startswith(manager)):
                return True
        return False

    def _function_of(self, event: Event) -> FunctionSummary | None:
        """The function an event is in (for callers that ask about an event alone)."""
        owners = self.once("functions by event", lambda: {id(ev): fn for fn in self.functions.values() for ev in fn.events})
        return owners.get(id(event))

    def writes_db(self, event: Event, fn: FunctionSummary | None = None) -> Confidence | None:
        """A database write, and how sure we are: `classify.db_write`, plus SQLAlchemy Core
        statements executed (`conn.execute(update(t)...)`) and sessions from a sessionmaker
        (`SessionLocal.begin().add`), less what only looks like one: `text("UPDATE ...")` (the
        `execute` that runs it writes) and `update` on a row or dict a query returned
        (`X.objects.values().first().update(...)`)."""
        if event.kind != "call":
            return None
        name = self.event_name(event) or ""
        attr = event.attr
        if attr == "text" or name in SQL_TEXT_BUILDERS or name.partition("()")[0] in SQL_WRITE_STATEMENTS:
            return None  # builds a statement; executing it writes
        if self._core_statement(event, fn) is not None:
            return Confidence.HIGH
        found = db_write(name or None, attr, event.sql)
        if found is not None and not event.sql and _ROW_RESULT.search(name.rpartition(".")[0]):
            if attr == "update" or _VALUES_ROW.search(name):
                return None  # a dict's or a row's method, not a queryset's
        if found is None and attr in ("add", "add_all", "merge", "delete") and self._is_session(name.rpartition(".")[0]):
            return Confidence.MEDIUM
        return found

    def _core_statement(self, event: Event, fn: FunctionSummary | None) -> tuple[str, str, list] | None:
        """(verb, table, fields) of a SQLAlchemy Core statement an `execute` runs."""
        if event.attr not in ("execute", "exec", "execute_async") or not event.args:
            return None
        first = event.args[0]
        if first[0] not in ("call", "name") or not first[1]:
            return None
        verb = SQL_WRITE_STATEMENTS.get(first[1].partition("()")[0])
        if verb is None:
            return None
        fields = list(first[3]) if first[0] == "call" else []
        table = ""
        fn = fn or self._function_of(event)
        if fn is not None and event.argsrc:
            for j in event.argsrc[0]:
                src = fn.events[j] if j < len(fn.events) else None
                if src is None or src.kind != "call":
                    continue
                if src.attr == "values":
                    fields.extend(k for k in src.kwargs if k not in fields)
                if src.name in SQL_WRITE_STATEMENTS and src.args and src.args[0][0] in ("name", "ref"):
                    table = (src.args[0][1] or "").rpartition(".")[2]
        return verb, table, fields

    def _is_session(self, receiver: str) -> bool:
        return bool(_SESSION.search(receiver)) and not receiver.startswith(_NOT_DB_SESSIONS)

    def _decorated_transaction(self, fn: FunctionSummary) -> bool:
        return any(self.catalog.is_transaction(self.canonical(deco_name(d[0]))) for d in fn.decorators)

    def transaction_regions(self, fn: FunctionSummary) -> set[int]:
        """`with` regions that are one transaction: `transaction.atomic()`, `session.begin()`,
        `conn.transaction()`, `with psycopg.connect(dsn) as conn:` (not with autocommit=True)."""
        out = set()
        for r in fn.regions:
            name = self.canonical(r.name)
            if name in TRANSACTION_CONNECTS or (name and name.endswith("()") and name[:-2] in TRANSACTION_CONNECTS):
                auto = r.kwargs.get("autocommit")
                if auto and auto[0] == "lit" and auto[1] is True:
                    continue
                out.add(r.id)
            elif self.catalog.is_transaction(name):
                out.add(r.id)
        return out

    def function_is_transactional(self, fn: FunctionSummary) -> bool:
        """A decorator runs it in one transaction (`@transaction.atomic`), or every call of it in
        the program is inside one (a helper only an atomic function calls)."""
        return self._decorated_transaction(fn) or self._always_in_transaction(fn.qualname, 0)

    def _always_in_transaction(self, qualname: str, depth: int) -> bool:
        memo = self.once("always in a transaction", dict)
        if qualname in memo:
            return memo[qualname]
        memo[qualname] = False  # on a cycle: not shown
        if qualname in self.jobs or qualname in self.retry_wrappers:
            return False  # the framework calls it too
        sites = self._call_sites().get(qualname)
        if not sites or depth > 4:
            return False
        for caller, ev in sites:
            if caller.name == MODULE_CODE:
                return False
            if self._decorated_transaction(caller) or self.transaction_regions(caller).intersection(ev.regions):
                continue
            if not self._always_in_transaction(caller.qualname, depth + 1):
                return False
        memo[qualname] = True
        return True

    def _call_sites(self) -> dict[str, list[tuple[FunctionSummary, Event]]]:
        """Function -> every (caller, call event) of the program that runs it."""
        def build() -> dict:
            out: dict[str, list] = {}
            for fn in self.functions.values():
                for ev in fn.events:
                    callee = self.callee(ev)
                    if callee is not None and callee is not fn:
                        out.setdefault(callee.qualname, []).append((fn, ev))
            return out
        return self.once("call sites", build)

    def key_records(self, fn: FunctionSummary) -> list[int]:
        """Events of a function that record an idempotency key: a write that does itself
        (`records_key`), or a call of a helper that records one in a transaction of its own
        (`@transaction.atomic def record_key(...)`), which the caller's writes are then outside
        unless a transaction of the caller holds both."""
        out = []
        for i, ev in enumerate(fn.events):
            if ev.kind != "call":
                continue
            if self.records_key(ev, fn):
                out.append(i)
                continue
            callee = self.callee(ev)
            if callee is not None and callee is not fn and self._records_key_in_transaction(callee.qualname, False, 0):
                out.append(i)
        return out

    def _records_key_in_transaction(self, qualname: str, inside: bool, depth: int) -> bool:
        memo = self.once("records a key in a transaction", dict)
        key = (qualname, inside)
        if key in memo:
            return memo[key]
        memo[key] = False
        fn = self.functions.get(qualname)
        if fn is None:
            return False
        inside = inside or self._decorated_transaction(fn)
        txns = self.transaction_regions(fn)
        found = False
        for ev in fn.events:
            if ev.kind != "call":
                continue
            held = inside or bool(txns.intersection(ev.regions))
            if self.records_key(ev, fn):
                found = held
            elif depth < 3:
                callee = self.callee(ev)
                found = callee is not None and callee is not fn and self._records_key_in_transaction(callee.qualname, held, depth + 1)
            if found:
                break
        memo[key] = found
        return found

    def same_transaction(self, fn: FunctionSummary, a: Event, b: Event) -> bool:
        """Are two events of a function in one database transaction? Both in one transaction
        region, the function run in one, or two writes on one session or connection with no
        `commit()` of it between them (autobegin: `session.add(...)` twice, then `commit()`). A
        call of a helper that opens its own transaction shares none outside it."""
        if self.function_is_transactional(fn):
            return True
        txns = self.transaction_regions(fn)
        in_a, in_b = txns.intersection(a.regions), txns.intersection(b.regions)
        if in_a & in_b:
            return True
        if in_a or in_b:
            return False
        return self._one_unit_of_work(fn, a, b)

    def _one_unit_of_work(self, fn: FunctionSummary, a: Event, b: Event) -> bool:
        """Two writes on one session or non-autocommit connection, no commit between them."""
        if a.kind != "call" or b.kind != "call" or self.writes_db(a, fn) is None or self.writes_db(b, fn) is None:
            return False
        unit = self._unit_of(fn, a)
        if unit is None or unit != self._unit_of(fn, b) or self._autocommit(fn, unit):
            return False
        receiver = (self.event_name(a) or "").rpartition(".")[0]
        positions = [i for i, ev in enumerate(fn.events) if ev is a or ev is b]
        if len(positions) != 2:
            return False
        ends = [i for i, ev in enumerate(fn.events)
                if ev.kind == "call" and ev.attr in TRANSACTION_ENDS and self._unit_of(fn, ev) == unit]
        known = self._is_session(receiver) or receiver.startswith(UNIT_OF_WORK_CONNECTIONS)
        if not known and not any(fn.events[i].attr == "commit" for i in ends):
            return False  # nothing says its statements wait for a commit
        return not any(positions[0] < i < positions[1] for i in ends)

    def _unit_of(self, fn: FunctionSummary, ev: Event) -> tuple | None:
        """Which session or connection a call is made on: the call that made it, the `with` that
        bound it, or its resolved name."""
        receiver = (self.event_name(ev) or "").rpartition(".")[0]
        if not receiver:
            return None
        if ev.receiver_src:
            return ("call", min(ev.receiver_src))
        for r in fn.regions:  # outermost first
            if r.id in ev.regions and r.name:
                made = f"{self.canonical(r.name)}()"
                if receiver == made or receiver.startswith(made + "."):
                    return ("with", r.id)
        return ("name", receiver)

    def _autocommit(self, fn: FunctionSummary, unit: tuple) -> bool:
        kwargs = {}
        if unit[0] == "call" and unit[1] < len(fn.events):
            kwargs = fn.events[unit[1]].kwargs
        elif unit[0] == "with":
            kwargs = next((r.kwargs for r in fn.regions if r.id == unit[1]), {})
        auto = kwargs.get("autocommit")
        return bool(auto) and auto[0] == "lit" and auto[1] is True

    def call_effects(self, qualname: str) -> list[CallEffect]:
        """Each unguarded external effect of a function, through the event in its body that makes it.

        On a call cycle, each function's effects are those of a walk that starts from it: the
        cycle's other functions are answered within that walk and remembered only for it. So
        what a function of a cycle reaches does not depend on which of them was asked first."""
        cached = self._call_effects.get(qualname)
        if cached is not None:
            return cached
        cycle = self.cycles.get(qualname)
        if cycle is not None and self._walks and self._walks[-1][0] == cycle:
            members = self._walks[-1][1]
            found = members.get(qualname)
            if found is None:
                members[qualname] = []  # in progress: a call back here finds nothing more
                found = members[qualname] = self._effects_of(qualname)
            return found
        if qualname in self._computing:
            return []  # a cycle outside the jobs' reach (not numbered): ends here
        self._computing.add(qualname)
        if cycle is not None:
            self._walks.append((cycle, {qualname: []}))
        try:
            out = self._effects_of(qualname)
        finally:
            self._computing.discard(qualname)
            if cycle is not None:
                self._walks.pop()
        self._call_effects[qualname] = out
        return out

    def _effects_of(self, qualname: str) -> list[CallEffect]:
        fn = self.functions[qualname]
        out: list[CallEffect] = []
        seen: set[tuple[int, str, str]] = set()
        for i, ev in enumerate(fn.events):
            if ev.kind != "call":
                continue
            direct = self.direct_effect(fn, ev)
            paths: list[EffectPath] = []
            if direct is not None and direct.kind in EXTERNAL_KINDS:
                paths.append(direct)
            else:
                for callee in self.callees(ev):
                    if callee.qualname != qualname and callee.name != MODULE_CODE:
                        for sub in self.reachable_effects(callee.qualname):
                            paths.append(EffectPath(sub.kind, (callee.qualname, *sub.chain), sub.confidence))
            if not paths or self.is_guarded(fn, i):
                continue
            for p in paths:
                key = (i, p.kind, p.chain[-1])
                if key not in seen:
                    seen.add(key)
                    out.append(CallEffect(i, p))
        return out

    def reachable_effects(self, qualname: str) -> list[EffectPath]:
        """Unguarded external effects anywhere below a function (one path per kind and target)."""
        cached = self._reach.get(qualname)
        if cached is not None:
            return cached
        paths: dict[tuple[str, str], EffectPath] = {}
        for ce in self.call_effects(qualname):
            paths.setdefault((ce.path.kind, ce.path.chain[-1]), ce.path)
        result = list(paths.values())
        if qualname in self._call_effects:  # final, not a walk's answer or a cycle's end
            self._reach[qualname] = result
        return result

    @cached_property
    def cycles(self) -> dict[str, int]:
        """Functions the jobs reach that lie on a call cycle (through two or more functions), each
        mapped to its cycle's number."""
        return call_cycles(self.job_context, self.call_edges)

    def job_roots(self) -> list[str]:
        return list(self.jobs) + [q for q in self.retry_wrappers if q not in self.jobs]

    def callees_of(self, qualname: str) -> list[str] | None:
        """The functions a function's calls run, in the order of its events (None: no such
        function), remembered in `call_edges`."""
        fn = self.functions.get(qualname)
        edges = None
        if fn is not None:
            edges = [callee.qualname for ev in fn.events for callee in self.callees(ev) if callee.name != MODULE_CODE]
        self.call_edges[qualname] = edges
        return edges

    @cached_property
    def job_context(self) -> dict[str, str]:
        """Functions that run as part of a job (entry points, retried functions, their callees),
        each mapped to one job it belongs to."""
        return owners(self.job_roots(), self.callees_of)


def owners(roots: list[str], callees_of) -> dict[str, str]:
    """Every function reached from `roots` (depth first, in order), mapped to the first root
    that reaches it. `callees_of(q)` is asked once per function reached."""
    owner: dict[str, str] = {}
    for root in roots:
        stack = [root]
        while stack:
            q = stack.pop()
            if q in owner:
                continue
            owner[q] = root
            for callee in callees_of(q) or ():
                if callee not in owner:
                    stack.append(callee)
    return owner


def call_cycles(reached: dict[str, str], edges: dict) -> dict[str, int]:
    """The reached functions on a call cycle through two or more functions, each mapped to its
    cycle's number (Tarjan's strongly connected components, iteratively; `edges`: callees)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: dict[str, int] = {}
    counter = found = 0
    for start in reached:
        if start in index:
            continue
        work = [(start, iter(edges.get(start) or ()))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in reached:
                    continue
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges.get(child) or ())))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        out.update(dict.fromkeys(component, found))
                        found += 1
    return out


# ORM calls that return (row, created): work under `if created:` runs for the first caller only.
_CREATED_FLAGS = ("get_or_create", "aget_or_create", "update_or_create", "aupdate_or_create")


def _has_key_field(value: list, depth: int = 0) -> bool:
    """A dict Value with a key-named field, at any depth (`{"data": {"idempotency_key": k}}`)."""
    if not value or value[0] != "dict" or depth > 4:
        return False
    for k, v in value[1]:
        if k and k[0] == "lit" and isinstance(k[1], str) and is_key_name(k[1]):
            return True
        if _has_key_field(v, depth + 1):
            return True
    return False


def _argument(args: list, kwargs: dict, at: tuple | None) -> list | None:
    """The Value passed at (position, keyword), if any."""
    if at is None:
        return None
    position, keyword = at
    if keyword in kwargs:
        return kwargs[keyword]
    return args[position] if position < len(args) else None


def _sources(event: Event, at: tuple | None) -> tuple:
    """The events feeding the argument at (position, keyword)."""
    if at is None:
        return ()
    position, keyword = at
    if keyword in event.kwsrc:
        return tuple(event.kwsrc[keyword])
    return tuple(event.argsrc[position]) if position < len(event.argsrc) else ()


def _bound(callee: FunctionSummary, event: Event, param: str) -> list | None:
    """The Value a call passes for `callee`'s parameter (its default when it passes none); None
    when not known."""
    if param not in callee.params:
        return None
    if param in event.kwargs:
        return event.kwargs[param]
    offset = 1 if callee.class_qualname and callee.params[0] in ("self", "cls") else 0
    position = callee.params.index(param) - offset
    if position < 0:
        return None
    if position < len(event.args):
        return event.args[position]
    if "**" in event.kwargs:
        return None
    return callee.defaults.get(param)


# Tables whose rows record that work was done (or is to be done exactly once).
_KEY_MODEL = re.compile(r"(?i)idempot|dedup|processed|handled|outbox|inbox")
# A row or dict a query returned (`.first()`, `.get()`): its `update` is not a queryset's.
_ROW_RESULT = re.compile(r"\.a?(get|first|last|latest|earliest)\(\)$")
_VALUES_ROW = re.compile(r"\.values(_list)?\(\)\.")
# A SQLAlchemy session as resolved: `Session()`, `SessionLocal()`, `SessionLocal.begin()`, `db.session`.
_SESSION = re.compile(r"(?i)(^|\.)@?\w*session\w*(\(\))?(\.begin\(\))?$")
_NOT_DB_SESSIONS = ("requests.", "httpx.", "aiohttp.", "niquests.", "flask.", "werkzeug.", "boto3.", "aioboto3.", "botocore.")


_SEND_METHODS = ("send", "send_robust", "asend", "asend_robust")
_SIGNAL_CLASSES = ("blinker.signal", "blinker.Signal", "blinker.base.Signal", "blinker.Namespace().signal",
                   "django.dispatch.Signal", "django.dispatch.dispatcher.Signal")


def _is_signal_object(project: Project, value: list | None) -> bool:
    return bool(value) and value[0] == "call" and (project.canonical(value[1]) or value[1]) in _SIGNAL_CLASSES


def _reads_receiver_connect(project: Project, module: ModuleSummary, event: Event) -> bool:
    """`signal.connect(handler)` with a function of the project (not `engine.connect()`)."""
    args = event.args
    return bool(event.ref and args and args[0][0] == "name"
                and project.function_for(project.canonical(args[0][1])) is not None)
