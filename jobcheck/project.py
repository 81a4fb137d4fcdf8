"""The whole-program phase: link module summaries, finish name resolution, find jobs, and
propagate effects along the call graph so a job knows what its helpers do."""

from __future__ import annotations

import re
from array import array
from dataclasses import dataclass
from functools import cached_property

from .effects.catalog import ENQUEUE_METHODS, EXTERNAL_KINDS
from .effects.classify import Catalog, db_write
from .jobs import Anchor, JobSite, Registration, RetryPolicy
from .keys import is_key_name
from .model import Confidence
from .relink import relink
from .summary import MODULE_CODE, ClassSummary, Event, FunctionSummary, ModuleSummary

_MAX_HOPS = 12


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


class Project:
    def __init__(self, modules: list[ModuleSummary], catalog: Catalog, frameworks: list, entry_points: dict | None = None) -> None:
        self.catalog = catalog
        self.frameworks = frameworks
        self.entry_points = entry_points or {}
        self.modules: dict[str, ModuleSummary] = {}
        for m in modules:
            if m.error is None:
                self.modules.setdefault(m.module, m)
        self.rewrites = relink(self.modules)  # module -> {top: package}
        self.functions: dict[str, FunctionSummary] = {}
        self.function_module: dict[str, ModuleSummary] = {}
        self.classes: dict[str, ClassSummary] = {}
        for m in self.modules.values():
            for q, f in m.functions.items():
                self.functions[q] = f
                self.function_module[q] = m
            for q, c in m.classes.items():
                self.classes[q] = c
        self.call_edges: dict[str, list[str] | None] = {}
        self._canon: dict[str, str | None] = {}
        self._memo: dict = {}
        self._reach: dict[str, list[EffectPath]] = {}
        self._call_effects: dict[str, list[CallEffect]] = {}
        self._computing: set[str] = set()
        self._walks: list[tuple[int, dict[str, list[CallEffect]]]] = []  # (cycle, its members' effects so far)

    def once(self, key, compute):
        """`compute()`, computed once per project (frameworks and checks share what they derive)."""
        try:
            return self._memo[key]
        except KeyError:
            value = self._memo[key] = compute()
            return value

    # ---- names -------------------------------------------------------------------------------

    def canonical(self, name: str | None, hops: int = 0) -> str | None:
        """Finish resolving a summary name across modules (re-exports, instances, methods)."""
        if not name or name[0] == "@":
            return name
        cached = self._canon.get(name, False)
        if cached is not False:
            return cached
        result = self._canonical(name, hops)
        self._canon[name] = result
        return result

    def _canonical(self, name: str, hops: int) -> str:
        if hops > _MAX_HOPS:
            return name
        parts = name.split(".")
        # The longest prefix that is a module of the analysed tree.
        for i in range(len(parts) - 1, 0, -1):
            mod = self.modules.get(".".join(parts[:i]))
            if mod is not None:
                return self._in_module(mod, parts[i:], name, hops)
        return name

    def _in_module(self, mod: ModuleSummary, rest: list[str], name: str, hops: int) -> str:
        head, instance = _strip_call(rest[0])
        tail = rest[1:]
        qual = f"{mod.module}.{head}"
        if qual in self.classes:
            return self._in_class(self.classes[qual], tail, instance, hops)
        if qual in self.functions:
            returned = self.functions[qual].return_type if instance else None
            if returned and tail and hops < _MAX_HOPS:
                # `build_mail(...).send()` where build_mail returns an EmailMultiAlternatives
                return self.canonical(".".join([returned, *tail]), hops + 1)
            return ".".join([qual + ("()" if instance else ""), *tail])
        target = mod.imports.get(head)
        if target is None:
            typ = mod.symbols.get(head)
            if typ and typ != qual and not typ.startswith(qual + "."):
                target = typ
        if target and target != name:
            if instance and not target.endswith("()"):
                target += "()"
            return self.canonical(".".join([target, *tail]), hops + 1)
        return name

    def _in_class(self, cls: ClassSummary, tail: list[str], instance: bool, hops: int) -> str:
        if not tail:
            return cls.qualname + ("()" if instance else "")
        head, call = _strip_call(tail[0])
        rest = tail[1:]
        if head in _MANAGERS and not instance:
            return self._through_manager(cls, tail, hops)
        member = self._member(cls, head, 0)
        if member is None:
            return ".".join([cls.qualname + ("()" if instance else ""), *tail])
        what, target = member
        if what == "method":
            # Keep the instance visible (`Mailer().deliver`): catalogs name effects that way;
            # `function_for` maps it back to the method.
            owner, _, method = target.rpartition(".")
            return ".".join([owner + ("()" if instance else ""), method + ("()" if call else ""), *rest])
        if what == "attr":
            return self.canonical(".".join([target + ("()" if call else ""), *rest]), hops + 1)
        if instance:
            return ".".join([f"{target}()", *tail])  # an instance's attribute from an external base
        # Class-level access keeps the class: `Post.objects.get`, `Post.DoesNotExist` name the model.
        return ".".join([cls.qualname, *tail])

    def _through_manager(self, cls: ClassSummary, tail: list[str], hops: int) -> str:
        """`Order.objects.filter(...).get(...).send_mail` is `Order().send_mail`: a Django manager
        keeps the model in the name, and the methods that return one row give an instance."""
        for i, part in enumerate(tail[1:], start=1):
            method, called = _strip_call(part)
            if called and method in _ROW_METHODS and i + 1 < len(tail):
                return self.canonical(".".join([cls.qualname + "()", *tail[i + 1 :]]), hops + 1)
        return ".".join([cls.qualname, *tail])

    def _member(self, cls: ClassSummary, head: str, depth: int) -> tuple[str, str] | None:
        """Where `head` comes from, looking up the bases as Python would (depth-first)."""
        if head in cls.methods:
            return "method", f"{cls.qualname}.{head}"
        if head in cls.attr_types:
            return "attr", cls.attr_types[head]
        attr = cls.attrs.get(head)
        if attr is not None and attr[0][0] == "call" and attr[0][1]:
            return "attr", attr[0][1] + "()"
        external = None
        if depth < 10:
            for base in cls.bases:
                base = self.canonical(base) if base else None
                if not base:
                    continue
                base_cls = self.classes.get(base.removesuffix("()"))
                if base_cls is None:
                    external = external or base.removesuffix("()")
                    continue
                found = self._member(base_cls, head, depth + 1)
                if found is not None and found[0] != "external":
                    return found
                external = external or (found[1] if found else None)
        return ("external", external) if external else None

    def event_name(self, event: Event) -> str | None:
        return self.canonical(event.name)

    def function_for(self, name: str | None) -> FunctionSummary | None:
        """The analysed function a resolved call name denotes, if any."""
        if not name:
            return None
        fn = self.functions.get(name)
        if fn is None and "()." in name:
            base, _, attr = name.rpartition(".")
            fn = self.functions.get(f"{base.removesuffix('()')}.{attr}")
        if fn is None and name.endswith("()"):
            cls = self.classes.get(name[:-2])
            if cls is not None and "__call__" in cls.methods:
                return self.functions.get(f"{cls.qualname}.__call__")
        return fn

    def resolve_target(self, value: list | None, module: ModuleSummary) -> str | None:
        """A job target given as a function reference, a dotted string, or a signature `f.s()`."""
        if not value:
            return None
        tag = value[0]
        if tag == "name":
            name = self.canonical(value[1])
            return name if name in self.functions else None
        if tag == "lit" and isinstance(value[1], str):
            return self.function_by_path(value[1])
        if tag == "call" and value[1]:
            callee = self.canonical(value[1])
            if callee and callee.rpartition(".")[2] in ("s", "si", "signature", "message", "message_with_options"):
                base = callee.rpartition(".")[0]
                return base if base in self.functions else None
        return None

    def function_by_path(self, dotted: str) -> str | None:
        """`"app.tasks.send"` / `"app.tasks:send"`: a function named by string, as schedulers do."""
        dotted = dotted.replace(":", ".")
        if dotted in self.functions:
            return dotted
        canon = self.canonical(dotted)
        if canon in self.functions:
            return canon
        return self.job_names.get(dotted)

    def deref(self, value: list | None, hops: int = 0) -> list | None:
        """The Value a module-level variable was assigned, where `value` names one
        (`default_args=default_args`, `retry_policy=POLICY`, an imported settings dict); else `value`."""
        while value and hops < _MAX_HOPS:
            if value[0] == "ref":
                dotted = value[1]
            elif value[0] == "name" and len(value) > 2:
                dotted = value[2]
            elif value[0] == "name" and value[1]:
                dotted = value[1]  # imported from another module: `from .settings import DEFAULTS`
            else:
                return value
            assigned = self._module_assign(dotted)
            if assigned is None:
                return value
            value, hops = assigned, hops + 1
        return value

    def _module_assign(self, dotted: str, hops: int = 0) -> list | None:
        """The Value assigned to the module-level variable `pkg.mod.NAME`, following re-exports."""
        module, _, var = dotted.rpartition(".")
        mod = self.modules.get(module)
        if mod is None or hops > _MAX_HOPS:
            return None
        if var in mod.assigns:
            return mod.assigns[var][0]
        target = mod.imports.get(var)
        return self._module_assign(target, hops + 1) if target and target != dotted else None

    @cached_property
    def job_names(self) -> dict[str, str]:
        """Explicit task names (`@app.task(name="billing.send")`) to functions."""
        def named(mod: ModuleSummary) -> list:
            return [(name, q) for q, fn in mod.functions.items() for deco in fn.decorators
                    if (name := literal_name(deco[0])) is not None]

        return {name: q for found in map(named, self.modules.values()) for name, q in found}

    # ---- decorators ------------------------------------------------------------------------------

    def decorator_claims(self, mod: ModuleSummary, value: list, name: str | None = None) -> frozenset[str]:
        """Who reads this decorator: the frameworks whose `reads_decorator` takes one of its
        spellings (as written, as resolved, with the sys.path fallback), and `RECEIVER` for
        Django's `receiver`. Each framework sees only its own (`decorated_functions`)."""
        from .frameworks.resolve import canonical_in

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

    # ---- jobs --------------------------------------------------------------------------------

    def anchor_of(self, fn: FunctionSummary) -> Anchor:
        mod = self.function_module[fn.qualname]
        return Anchor(mod.path, fn.line, fn.col, fn.line, fn.col + len(fn.name))

    def class_anchor(self, cls: ClassSummary) -> Anchor:
        mod = self.module_of_class(cls)
        return Anchor(mod.path, cls.line, cls.col, cls.line, cls.col + len(cls.name))

    def module_of_class(self, cls: ClassSummary) -> ModuleSummary:
        name = cls.qualname
        while name and name not in self.modules:
            name = name.rpartition(".")[0]
        return self.modules[name]

    def class_bases(self, cls: ClassSummary, depth: int = 0) -> list[str]:
        """All base names, transitively through analysed classes, canonical."""
        out: list[str] = []
        if depth > 10:
            return out
        for base in cls.bases:
            base = self.canonical(base)
            if not base:
                continue
            out.append(base)
            inner = self.classes.get(base)
            if inner is not None:
                out.extend(self.class_bases(inner, depth + 1))
        return out

    @cached_property
    def jobs(self) -> dict[str, JobSite]:
        """Every entry point, keyed by the function that runs, with registrations merged in."""
        sites: dict[str, JobSite] = {}
        registrations: list[Registration] = []
        for fw in self.frameworks:
            for site in fw.find_jobs(self):
                existing = sites.get(site.function)
                if existing is None:
                    sites[site.function] = site
                else:
                    existing.triggers |= site.triggers
                    if existing.retry is None:
                        existing.retry = site.retry
            registrations.extend(fw.find_registrations(self))
        registrations = self._expand_forwards(registrations)
        for reg in registrations:
            site = sites.get(reg.target)
            if site is None:
                fn = self.functions[reg.target]
                site = JobSite(
                    function=fn.qualname, framework=reg.framework, kind=reg.kind,
                    path=self.function_module[fn.qualname].path, anchor=self.anchor_of(fn),
                    display=fn.qualname, doc_owner=fn.qualname,
                )
                sites[reg.target] = site
            site.triggers.add(reg.trigger)
            site.settings.update(reg.settings)
            if reg.retry is not None and (site.retry is None or site.retry.from_default):
                site.retry = reg.retry
        return sites

    def _expand_forwards(self, registrations: list[Registration], depth: int = 0) -> list[Registration]:
        """A helper that enqueues its parameter registers whatever its callers pass there."""
        from dataclasses import replace

        from .frameworks.resolve import target

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
            for site in calls_named(self, (helper.name,), _reads_function_call):
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
                out.update(finder(self))
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

    # ---- effects -----------------------------------------------------------------------------

    def callees(self, event: Event) -> list[FunctionSummary]:
        """What a call runs: the function it names, or the receivers of a Django signal it sends
        (`send` runs every receiver in the sender's process, so their effects are the sender's)."""
        callee = self.callee(event)
        if callee is not None:
            return [callee]
        if event.kind == "call" and event.ref and event.attr in ("send", "send_robust", "asend", "asend_robust"):
            from .frameworks.resolve import origin

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
        from .frameworks.resolve import origin

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

    def key_marks(self, fn: FunctionSummary) -> list[int]:
        """Lines where a key-named value is written without a call feeding it (dict keys)."""
        return [s.line for s in fn.sinks if is_key_name(s.name)]

    def records_key(self, event: Event) -> bool:
        """A database write that records an idempotency key.

        The row must say so: a key-named field (`idempotency_key=`, `dedup_id=`), a model named
        for it (`ProcessedEvent`, `IdempotencyKey`, `Outbox`) with a key field, or
        `get_or_create` by a key field (the dedup idiom). A settings table's `create(key=...)` or
        a log row is not a key record.
        """
        if event.kind != "call":
            return False
        name = self.event_name(event)
        if db_write(name, event.attr, event.sql) is None:
            return False
        from .keys import is_record_key_field

        if event.attr in ("create", "get_or_create", "update_or_create", "add", "bulk_create"):
            fields = list(event.kwargs)
            model = (name or "").split(".objects")[0].rpartition(".")[2]
            if event.attr == "add" and event.args and event.args[0][0] == "call":
                # SQLAlchemy: session.add(ProcessedEvent(key=...))
                fields = list(event.args[0][3])
                model = (event.args[0][1] or "").rpartition(".")[2]
            if any(is_key_name(k) for k in fields):
                return True
            keyed = any(is_record_key_field(k) for k in fields)
            if keyed and (event.attr == "get_or_create" or _KEY_MODEL.search(model)):
                return True
        if event.sql and event.sql in ("insert", "upsert", "merge"):
            text = event.args[0][1] if event.args and event.args[0][0] == "lit" else ""
            if isinstance(text, str) and _KEY_MODEL.search(text):
                return True
        return False

    def transaction_regions(self, fn: FunctionSummary) -> set[int]:
        return {r.id for r in fn.regions if self.catalog.is_transaction(self.canonical(r.name))}

    def function_is_transactional(self, fn: FunctionSummary) -> bool:
        return any(self.catalog.is_transaction(self.canonical(deco_name(d[0]))) for d in fn.decorators)

    def same_transaction(self, fn: FunctionSummary, a: Event, b: Event) -> bool:
        if self.function_is_transactional(fn):
            return True
        txns = self.transaction_regions(fn)
        return bool(txns.intersection(a.regions) & txns.intersection(b.regions))

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


# Tables whose rows record that work was done (or is to be done exactly once).
_KEY_MODEL = re.compile(r"(?i)idempot|dedup|processed|handled|outbox|inbox")
_MANAGERS = ("objects", "_default_manager", "_base_manager", "all_objects")
_ROW_METHODS = ("get", "first", "last", "latest", "earliest", "create", "get_by_natural_key")


def _strip_call(part: str) -> tuple[str, bool]:
    if part.endswith(")"):
        return part[: part.index("(")], True
    return part, False


def _short(qualname: str) -> str:
    from .checks import short

    return short(qualname)


RECEIVER_DECORATORS = ("django.dispatch.receiver", "django.dispatch.dispatcher.receiver")
RECEIVER = "@receiver"  # who reads `RECEIVER_DECORATORS` (`Project.signal_receivers`), as frameworks are named


def literal_name(value: list) -> str | None:
    """The literal `name=` of a decorator call (`@app.task(name="billing.send")`)."""
    if value[0] == "call":
        name = value[3].get("name")
        if name and name[0] == "lit" and isinstance(name[1], str):
            return name[1]
    return None


def deco_name(value: list) -> str | None:
    if value[0] == "name":
        return value[1]
    if value[0] == "call":
        return value[1]
    return None


def exclusive(a: Event, b: Event) -> bool:
    """Two events in different arms of one `if`, and no loop around both: never both run."""
    if set(a.loops) & set(b.loops):
        return False
    arms = dict(a.branch)
    return any(if_id in arms and arms[if_id] != arm for if_id, arm in b.branch)


@dataclass(frozen=True)
class Decorated:
    module: ModuleSummary
    function: FunctionSummary
    value: list  # the decorator's Value
    name: str  # its canonical name (the callee for `@x(...)`)
    is_call: bool
    anchor: Anchor
    number: int  # its place among the function's decorators
    claims: frozenset[str]  # who reads it (`Project.decorator_claims`)

    @property
    def module_name(self) -> str:
        return self.module.module


@dataclass(frozen=True)
class CallSite:
    module: ModuleSummary
    function: FunctionSummary
    index: int
    event: Event
    name: str | None  # canonical

    @property
    def anchor(self) -> Anchor:
        e = self.event
        return Anchor(self.module.path, e.line, e.col, e.end_line, e.end_col)


@dataclass
class _Indices:
    """What the scans iterate, built once per project. Calls are kept as numbers in an array per
    callee name (function number << 32 | event index): a tuple per call costs eight times the
    memory on a large project, and most are never asked for."""

    decorated: list[Decorated]
    calls_by_attr: dict[str, array]
    functions: list[tuple[ModuleSummary, FunctionSummary]]


def _build_indices(project: Project) -> _Indices:
    decorated: list[Decorated] = []
    by_attr: dict[str, array] = {}
    functions: list[tuple[ModuleSummary, FunctionSummary]] = []
    for mod in project.modules.values():
        for fn in mod.functions.values():
            decorated.extend(_read_decorators(project, mod, fn))
            number = len(functions) << 32
            for i, ev in enumerate(fn.events):
                if ev.kind == "call" and ev.attr:
                    calls = by_attr.get(ev.attr)
                    if calls is None:
                        calls = by_attr[ev.attr] = array("Q")
                    calls.append(number | i)
            functions.append((mod, fn))
    return _Indices(decorated, by_attr, functions)


def _read_decorators(project: Project, mod: ModuleSummary, fn: FunctionSummary) -> list[Decorated]:
    out = []
    for number, (value, line, col, end_line, end_col) in enumerate(fn.decorators):
        name = project.canonical(deco_name(value))
        if not name:
            continue
        claims = project.decorator_claims(mod, value, name)
        if claims or literal_name(value) is not None:
            out.append(Decorated(mod, fn, value, name, value[0] == "call", Anchor(mod.path, line, col, end_line, end_col),
                                 number, claims))
    return out


def _indices(project: Project) -> _Indices:
    return project.once("indices", lambda: _build_indices(project))


def decorated_functions(project: Project, claimant: str) -> list[Decorated]:
    """The functions' decorators that `claimant` reads (a framework's name, or `RECEIVER`), in
    the project's order: no scan sees a decorator it does not claim (`Project.decorator_claims`)."""
    by_claimant = project.once("decorated by claimant", dict)
    found = by_claimant.get(claimant)
    if found is None:
        found = by_claimant[claimant] = [d for d in _indices(project).decorated if claimant in d.claims]
    return found


def calls_named(project: Project, attrs: tuple[str, ...], where=None) -> list[CallSite]:
    """Calls whose callee's last name is one of `attrs`, with canonical names filled in;
    `where(project, module, event) -> bool`, if given, keeps only the calls it accepts."""
    indices = _indices(project)
    out = []
    for attr in attrs:
        for code in indices.calls_by_attr.get(attr, ()):
            mod, fn = indices.functions[code >> 32]
            i = code & 0xFFFFFFFF
            ev = fn.events[i]
            if where is None or where(project, mod, ev):
                out.append(CallSite(mod, fn, i, ev, project.event_name(ev)))
    return out


def _reads_receiver_connect(project: Project, module: ModuleSummary, event: Event) -> bool:
    """`signal.connect(handler)` with a function of the project (not `engine.connect()`)."""
    args = event.args
    return bool(event.ref and args and args[0][0] == "name"
                and project.function_for(project.canonical(args[0][1])) is not None)


def _reads_function_call(project: Project, module: ModuleSummary, event: Event) -> bool:
    return project.function_for(project.canonical(event.name)) is not None


def classes_where(project: Project, wanted) -> list[ClassSummary]:
    """The project's classes for which `wanted(cls)` holds, in the project's order."""
    return [c for c in project.classes.values() if wanted(c)]


def modules_where(project: Project, wanted) -> list[ModuleSummary]:
    """The project's modules for which `wanted(module)` holds, in order."""
    return [m for m in project.modules.values() if wanted(m)]


def any_module(project: Project, wanted) -> bool:
    return any(wanted(m) for m in project.modules.values())


def per_module(project: Project, contribute) -> list[tuple[str, object]]:
    """(module name, `contribute(module)`) for every module that contributes something, in order."""
    return [(m.module, data) for m in project.modules.values() if (data := contribute(m))]
