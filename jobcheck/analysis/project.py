"""The questions the checks ask of a linked program: its jobs (found by the frameworks), what
retries them, what each function's calls run (Django signals included), the external effects a
function reaches with no idempotency guard, and the functions each job reaches."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, replace
from functools import cached_property

from ..effects.catalog import CHANGE_WORDS, ENQUEUE_METHODS, EXTERNAL_KINDS, PAYMENT_ALONE, PAYMENT_NOUNS, PAYMENT_VERBS
from ..effects.classify import Catalog, EffectHit
from ..model import Confidence, Failure
from .delivery import Delivery, delivery_of
from .decorators import RECEIVER, RECEIVER_DECORATORS, decorated_functions
from .forwarding import is_transparent_wrapper, retry_by_wrapper
from .guards import Guards
from .jobs import Anchor, JobSite, Registration, RetryLimit, RetryPolicy, loop_policy, once_policy, recursion_policy, \
    requeue_policy, rescheduled_policy
from .model_signals import add_model_signal_receivers
from .names import analysed_tops, canonical_in, completed_path, origin, target
from .words import name_words
from .program import TAKES_ENTRY, Program, bound_argument, bound_sources, calls_named, calls_of, deco_name, in_tests
from .syspath import setup_console_scripts
from .summary import BUILTINS, LOG_METHODS, MODULE_CODE, Event, FunctionSummary, ModuleSummary
from .values import literals


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


class Project(Guards, Program):
    def __init__(self, modules: list[ModuleSummary], catalog: Catalog, frameworks: list, entry_points: dict | None = None,
                 schedules=None, roots: list | None = None) -> None:
        super().__init__(modules, roots)
        # What the texts beside the code say (`schedule_text.Schedules`): crontab lines, console scripts,
        # consumers a configuration names, Odoo's scheduled actions.
        self.cron_lines = list(schedules.lines) if schedules is not None else []
        self.console_scripts = {**setup_console_scripts(self.modules), **dict(schedules.scripts if schedules else ())}
        self.configured_callbacks = list(schedules.callbacks) if schedules is not None else []
        self.scheduled_actions = list(schedules.actions) if schedules is not None else []
        self.catalog = catalog
        self.frameworks = frameworks
        self.entry_points = entry_points or {}
        self.failures: list[Failure] = []  # frameworks that failed (their jobs are missing)
        self._finding_jobs = False  # `jobs` is being computed: nothing may ask for it
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
        self._finding_jobs = True
        try:
            return self._find_jobs()
        finally:
            self._finding_jobs = False

    def _find_jobs(self) -> dict[str, JobSite]:
        sites: dict[str, JobSite] = {}
        registrations: list[Registration] = []
        for fw in self.frameworks:
            try:
                found, registered = fw.find_jobs(self), fw.find_registrations(self)
            except Exception as exc:  # one framework's bug must not hide the others' jobs
                self.failures.append(Failure(f"framework {fw.name}", Failure.describe(exc)))
                continue
            for site in found:
                fn = self.functions.get(site.function)
                if fn is not None and is_transparent_wrapper(fn):
                    continue  # `app.task(wrapper)` in a decorator: the jobs are what it decorates
                existing = sites.get(site.function)
                if existing is None:
                    sites[site.function] = site
                else:
                    existing.triggers |= site.triggers
                    if existing.retry is None:
                        existing.retry = site.retry
            registrations.extend(registered)
        registrations = self._expand_either(self._expand_forwards(registrations))
        registrations = [r for reg in registrations for r in self._through_subclasses(reg)]
        registered = {reg.target for reg in registrations if not reg.fallback}
        for reg in sorted(registrations, key=lambda r: r.fallback):
            site = sites.get(reg.target)
            if reg.fallback and (site is not None or reg.target in registered):
                continue
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
        self._add_template_hooks(sites)
        self._add_signal_receivers(sites)
        add_model_signal_receivers(self, sites)
        return sites

    def _through_subclasses(self, reg: Registration) -> list[Registration]:
        """`queue.enqueue(self.handle)` in a base class whose `handle` calls `self.run()`, a hook
        the base leaves to subclasses (`template_hooks`): every subclass's `run` is a job, and the
        base's `handle` is not (its work is always a subclass's) unless it does work of its own
        beside the hook."""
        fn = self.functions.get(reg.target)
        if fn is not None and fn.class_qualname and (self.abstract(fn.qualname) or _empty(fn)):
            # `stream.on_recv(self.dispatch_result)` in a base whose `dispatch_result` raises
            # NotImplementedError: what runs is each subclass's implementation.
            overrides = self._overrides(fn, self._class_at(reg.anchor))
            return [replace(reg, target=impl, owner=None,
                            retry=None if _RETRY_ATTRS.intersection(self.classes[impl.rpartition(".")[0]].attrs) else reg.retry)
                    for impl in overrides] or [reg]
        called = self._hooks_called(fn) if fn is not None else []
        if not called:
            return [reg]
        subs = [replace(reg, target=impl, owner=owner,
                        retry=None if _RETRY_ATTRS.intersection(self.classes[owner].attrs) else reg.retry)
                for impl in self.template_hooks(fn) for owner in [impl.rpartition(".")[0]]]
        # A base method with work of its own beyond the hook (`status = await self.poll()`, then
        # stop and run the callbacks) is a job too.
        attrs = {hook.rpartition(".")[2] for hook in called}
        own = any(ev.kind == "call" and ev.attr not in attrs and ev.attr not in LOG_METHODS
                  and not (ev.name or "").startswith("super") for ev in fn.events)
        return [reg, *subs] if own else subs

    def _class_at(self, anchor: Anchor) -> str | None:
        """The class whose method holds `anchor` (a registration's call), if any."""
        module = next((m for m in self.modules.values() if m.path == anchor.path), None)
        best = None
        for fn in module.functions.values() if module is not None else ():
            if fn.class_qualname and fn.line <= anchor.line <= fn.end_line and (best is None or fn.line > best.line):
                best = fn
        return best.class_qualname if best is not None else None

    def protocol_implementations(self, fn: FunctionSummary) -> list[FunctionSummary]:
        """A method a `typing.Protocol` of the project's declares (`def deliver(self, envelope):
        ...`), called on an object typed so (`get_destination(name).deliver(env)`, the factory
        annotated `-> Destination`): the classes of the application that implement the protocol
        (`_protocol_implementations`) run instead. Empty where `fn` is not such a declaration."""
        if not fn.class_qualname or not _empty(fn):
            return []
        memo = self.once("protocol implementations", dict)
        if fn.qualname not in memo:
            memo[fn.qualname] = self._protocol_implementations(fn)
        return [self.functions[q] for q in memo[fn.qualname]]

    def _protocol_implementations(self, fn: FunctionSummary) -> list[str]:
        """Each class of the application that derives from the protocol, or is named for it (its
        name ends with the protocol's last word: `WebhookDestination` for `Destination`) and
        defines every method it declares. A name alone says nothing (every class with a `run` has
        one), so the family's name is asked for."""
        protocol = self.classes.get(fn.class_qualname)
        if protocol is None or not any(b in PROTOCOL_BASES for b in self.class_bases(protocol)):
            return []
        declared = {m for m in protocol.methods if m not in ("__init__", "__new__")}
        family = _words(protocol.qualname.rpartition(".")[2])[-1:]
        out = []
        for cls in self.classes.values():
            if cls is protocol or not declared <= set(cls.methods) or not self.the_applications(self.module_of_class(cls)):
                continue
            bases = self.class_bases(cls)
            if any(b in PROTOCOL_BASES for b in bases):
                continue  # (another protocol extending it declares, it does not implement)
            named = bool(family) and _words(cls.qualname.rpartition(".")[2])[-1:] == family
            if not named and protocol.qualname not in bases:
                continue
            impl = self.functions.get(f"{cls.qualname}.{fn.name}")
            if impl is not None and not _empty(impl):
                out.append(impl.qualname)
        return out

    def implementations(self, fn: FunctionSummary) -> list[FunctionSummary]:
        """What runs when `fn` is called on an instance: `fn` itself, or, where its class leaves it
        to subclasses (abstract, an empty body), the implementations of the subclasses the
        application uses (`_overrides`)."""
        if fn.class_qualname and (self.abstract(fn.qualname) or _empty(fn)):
            return [self.functions[q] for q in self._overrides(fn)] or [fn]
        return [fn]

    def _overrides(self, fn: FunctionSummary, registering: str | None = None) -> list[str]:
        """The implementations of a method its class leaves to subclasses (`fn` itself), in the
        subclasses the application uses (not its tests' or examples'), each doing work; where a class of the
        family registered it (`self.stream.on_recv(self.handle)`), only in that class and below."""
        used = self.used_classes()
        out = []
        below = {c.qualname for c in self.subclasses(registering)} | {registering} \
            if registering and registering != fn.class_qualname and registering in {
                c.qualname for c in self.subclasses(fn.class_qualname)} else None
        for sub in self.subclasses(fn.class_qualname):
            if below is not None and sub.qualname not in below:
                continue
            if sub.qualname not in used or not self.the_applications(self.module_of_class(sub)):
                continue  # (a test's or an example's subclass is not the application's)
            owner = next((c for c in self._mro(sub) if fn.name in c.methods), None)
            impl = self.functions.get(f"{owner.qualname}.{fn.name}") if owner is not None else None
            if impl is not None and impl is not fn and not self.abstract(impl.qualname) and self._does_work(impl) \
                    and impl.qualname not in out:
                out.append(impl.qualname)
        return out

    def template_hooks(self, fn: FunctionSummary) -> dict[str, str]:
        """The subclasses' methods a method runs through `self` where its class leaves the work to
        them (`_hooks_called`): subclass qualname.method -> the hook it implements, where the
        implementation does something (not `return "name"`), of the subclasses the application
        itself uses (`used_classes`: a model a configuration names at run time, a plugin its users
        construct, is one of many choices, not a job of its own). Subclasses in test modules are the
        tests'."""
        cls = self.classes.get(fn.class_qualname) if fn.class_qualname else None
        if cls is None:
            return {}
        used = self.used_classes()
        subs = [sub for sub in self.subclasses(cls.qualname)
                if sub.qualname in used and not in_tests(self.module_of_class(sub))]
        base = {c.qualname for c in self._mro(cls)}
        out: dict[str, str] = {}
        for hook in self._hooks_called(fn):
            attr = hook.rpartition(".")[2]
            for sub in subs:
                # The subclass's own method, or a mixin's it inherits before the base's
                # (`class Sync(RetryMixin, Job)`), as Python would find it.
                owner = next((c for c in self._mro(sub) if attr in c.methods), None)
                if owner is None or owner.qualname in base:
                    continue
                impl = self.functions.get(f"{owner.qualname}.{attr}")
                if impl is not None and not self.abstract(impl.qualname) and self._does_work(impl):
                    out.setdefault(impl.qualname, hook)
        return out

    def _does_work(self, fn: FunctionSummary) -> bool:
        """Does a hook's implementation work (an external effect, a call of the project's code or
        of a library's), rather than log, format or answer (`return type(self).__name__.lower()`)?"""
        def works(ev) -> bool:
            if ev.kind != "call" or ev.attr in LOG_METHODS:
                return False
            if self.named_callee(ev) is not None or self.catalog_effect(ev) is not None:
                return True
            # A library's call (`requests.get`), a callable it holds (`task()`): not a builtin's.
            name = self.canonical(ev.name) or ev.name
            if name is None:  # something unknown called: work, unless a value's own method
                return ev.attr not in BOOKKEEPING_METHODS
            return not name.startswith("logging.") and name.partition(".")[0] not in _BUILTIN_NAMES

        return any(works(ev) for ev in fn.events)

    def _hooks_called(self, fn: FunctionSummary) -> list[str]:
        """The methods of its class a method calls through `self` that the class leaves to
        subclasses: abstract (`Program.abstract`), with an empty body (`def poll(self): pass`) or
        defined by subclasses alone (where every base is the project's, or a thread's),
        called directly or through the class's own methods (`start()` -> `self.run()`), a few
        calls down; not in a condition (`if self.enabled():` asks, it hands no work over) nor in an
        `except` (a step of handling a failure). Through `cls.` as well, and handed over as a bound
        method to what runs it (`defer.maybeDeferred(self.poll)`, `run_in_executor(None, self.sync)`)."""
        cls = self.classes.get(fn.class_qualname) if fn.class_qualname else None
        if cls is None:
            return []
        mro = self._mro(cls)
        mine = {f"{c.qualname}()" for c in mro} | {c.qualname for c in mro}
        # Bases outside the project whose methods are unknown (threading.Thread's are not hooks).
        outside = [b for b in self.class_bases(cls) if b not in self.classes and b not in _KNOWN_BASES]
        hooks: list[str] = []
        seen = {fn.qualname}
        todo = [(fn, 0)]
        while todo:
            method, depth = todo.pop()
            for ev, receiver, attr in _self_calls(method):
                if ev.in_test or ev.handlers:
                    continue  # not a condition, nor a step of handling a failure
                if not (receiver in mine or receiver == "@self"):
                    continue
                owner = next((c for c in mro if attr in c.methods), None)
                if owner is None:  # defined by the subclasses alone (`self._run()` in a base thread)
                    if outside:
                        continue  # a base outside the project may define it (`Task.apply_async`)
                    if f"{cls.qualname}.{attr}" not in seen and any(attr in c.methods for sub in self.subclasses(cls.qualname)
                                                                        for c in self._mro(sub)):
                        seen.add(f"{cls.qualname}.{attr}")
                        hooks.append(f"{cls.qualname}.{attr}")
                    continue
                called = self.functions.get(f"{owner.qualname}.{attr}")
                if called is None or called.qualname in seen:
                    continue
                seen.add(called.qualname)
                if self.abstract(called.qualname) or _empty(called):
                    hooks.append(called.qualname)
                elif depth < 3:
                    todo.append((called, depth + 1))
        return hooks

    def used_classes(self) -> set[str]:
        """The project's classes its own code constructs or names outside their definition
        (`CleanupWorker(zk)`, `BOT = RestAPIOutputBot`, `register(SyncTask)`, a table of them, its
        dotted path written out (`create_script("pkg.gametime.TimeScript")`), also
        a class's own: `_executor_mapping = {"position": PositionExecutor}`), or builds other classes
        on (an implementation there runs for each of them), outside its tests."""
        def find() -> set[str]:
            short = {c.name for c in self.classes.values()}
            found: set[str] = set()

            def add(module: ModuleSummary, name: str | None, taken_from: str | None = None) -> None:
                # The class, or the class a method is taken from outside it (`taken_from`:
                # `LoopingCall(UserCache.tick)`; not `self.x`, an instance's).
                owner = name.rpartition(".")[0] if name and taken_from is not None and "()" not in name else None
                for named in (name, owner):
                    if named and named.removesuffix("()").rpartition(".")[2] in short:
                        resolved = (self.canonical(named) or named).removesuffix("()")
                        if resolved in self.classes and (named is name or resolved != taken_from):
                            found.add(resolved)

            def values(value, depth: int = 0):
                if not value or depth > 4:
                    return
                if value[0] in ("name", "ref"):
                    yield value[-1] if value[0] == "ref" else value[1]
                elif value[0] == "seq":
                    for v in value[1]:
                        yield from values(v, depth + 1)
                elif value[0] == "dict":  # a registry (`{"position": PositionExecutor}`)
                    for k, v in value[1]:
                        yield from values(k, depth + 1)
                        yield from values(v, depth + 1)
                elif value[0] == "call":
                    yield value[1]
                    for v in (*value[2], *value[3].values()):
                        yield from values(v, depth + 1)

            for mod in self.modules.values():
                if in_tests(mod):
                    continue
                for cls in mod.classes.values():  # a base others build on: its code runs for each of them
                    found.update(b for b in self.class_bases(cls) if b in self.classes)
                    for value, *_ in cls.attrs.values():  # a class's own table (`_executor_mapping = {...}`)
                        for name in values(value):
                            add(mod, name, taken_from=cls.qualname)
                for value, *_ in mod.assigns.values():
                    for name in values(value):
                        add(mod, name)
                for fn in mod.functions.values():
                    for ev in fn.events:
                        if ev.kind == "call":
                            add(mod, ev.name, taken_from=fn.class_qualname or "")  # `Cleanup.launch()`
                            for v in (*ev.args, *ev.kwargs.values()):
                                for name in values(v):
                                    add(mod, name, taken_from=fn.class_qualname or "")
                                # Its dotted path given to a call that does something with it (not a
                                # log line), outside the class it names: `create_script("pkg.gametime.TimeScript")`.
                                if v and v[0] == "lit" and v[1] in self.classes and v[1] != fn.class_qualname \
                                        and ev.attr not in LOG_METHODS and ev.attr != "print":
                                    found.add(v[1])
            return found

        return self.once("used classes", find)

    def _add_template_hooks(self, sites: dict[str, JobSite]) -> None:
        """A job whose class leaves its work to subclasses (a worker thread's `run` calling
        `self._run()`, a Bot's loop calling `self.process()`): each subclass's implementation
        is a job of the same kind, triggers and retries, named after its class. Not where the
        subclass's own override of that entry point is a job (its `run`, found by a framework): its
        hook is a step of that job."""
        for site in list(sites.values()):
            fn = self.functions.get(site.function)
            for hook in (self.template_hooks(fn) if fn is not None else ()):
                if hook in sites or f"{hook.rpartition('.')[0]}.{fn.name}" in sites:
                    continue  # (the subclass's own override of the entry point is the job)
                owner = self.classes[hook.rpartition(".")[0]]
                impl = self.functions[hook]
                # A subclass that sets retry options of its own is not retried as its base is: left
                # unknown rather than guessed.
                retry = None if _RETRY_ATTRS.intersection(owner.attrs) else site.retry
                sites[hook] = replace(site, function=hook, path=self.function_module[hook].path,
                                      anchor=self.anchor_of(impl), display=hook.removeprefix(owner.qualname.rpartition(".")[0] + "."),
                                      doc_owner=hook, triggers=set(site.triggers), settings=dict(site.settings), retry=retry)

    def _add_signal_receivers(self, sites: dict[str, JobSite]) -> None:
        """What a job hands its work to by name runs in that job (`_hands_on`): the receivers of a
        signal it sends (`tick_hourly` sending `hourly`), the methods it dispatches to through
        `getattr` by a name it was sent (`getattr(self, event["event_type"])(...)`) or through a
        table the instance holds (`self.handlers[kind](msg)`), in its body or a helper's it calls.
        Each is a job of the sender's kind and triggers; their effects stay the sender's too
        (`callees`), so a retry of the sender is reported where it sends. (Handlers other code
        registers with the instance are listed as dispatched: `dispatched_functions`.)"""
        for sender in list(sites.values()):
            fn = self.functions.get(sender.function)
            for caller in self.within_calls(fn, 2, lambda ev: not self._hands_on(ev)) if fn is not None else ():
                for ev in caller.events:
                    if not self._hands_on(ev):
                        continue
                    registered = self.handed_to_collection(ev.name or "", keyed=True)
                    for receiver in self.callees(ev):
                        if receiver.qualname not in sites and receiver is not caller and receiver not in registered:
                            sites[receiver.qualname] = JobSite(
                                function=receiver.qualname, framework=sender.framework, kind=sender.kind,
                                path=self.function_module[receiver.qualname].path, anchor=self.anchor_of(receiver),
                                display=receiver.qualname, doc_owner=receiver.qualname, triggers=set(sender.triggers),
                            )

    def _hands_on(self, ev) -> bool:
        """Does a call hand work on by name: a signal's `send` (not a function named `send`), a
        `getattr` whose name is read from what the job was sent (`event["event_type"]`), or an
        entry of a table the instance holds (`self.handlers[kind](msg)`)? Not a name pattern
        (`getattr(self, f"validate_{field}")` runs a helper), a module-level table (the job's own
        toolbox: `DELETERS[kind](x)`), nor a method called on each element of a collection."""
        name = ev.name or ""
        if ev.kind != "call" or self.named_callee(ev) is not None:
            return False
        if ev.ref and ev.attr in _SEND_METHODS:
            return True
        if "<getattr:[" in name:
            return True
        return bool(_TABLE_CALL.search(name)) and "()." in name.split("[")[0].split(".get()")[0] \
            and not name.startswith("@")

    def _expand_either(self, registrations: list[Registration]) -> list[Registration]:
        """A registration of a function chosen in the arms of an `if` (`f = t_a` / `else: f = t_b`,
        `q.enqueue(f)`), or taken from a module's table (`Thread(target=HANDLERS[kind])`): a
        framework reads one (`names.target`); each of the others is
        registered the same way at the same call. Found by the call's place, so every framework's
        registrations are read alike."""
        chosen: dict[tuple, list] = {}
        for mod in self.modules.values():
            for fn in mod.functions.values():
                for ev in fn.events:
                    if ev.kind == "call":
                        for value in (*ev.args, *ev.kwargs.values()):
                            if value and value[0] == "either":
                                chosen.setdefault((mod.path, ev.line, ev.col), []).append((mod, value))
                            elif value and value[0] == "name" and value[1] and "[" in value[1] \
                                    and (held := self.table_functions(value[1])):
                                # `Thread(target=HANDLERS[kind])`: any function the table holds
                                options = ["either", [["name", f.qualname] for f in held]]
                                chosen.setdefault((mod.path, ev.line, ev.col), []).append((mod, options))
        if not chosen:
            return registrations
        out = list(registrations)
        for reg in registrations:
            for mod, value in chosen.get((reg.anchor.path, reg.anchor.line, reg.anchor.col), ()):
                found = [f for v in value[1] if (f := target(self, mod, v)) is not None]
                if reg.target in found:
                    out.extend(replace(reg, target=other) for other in found if other != reg.target)
        return out

    def _expand_forwards(self, registrations: list[Registration], depth: int = 0) -> list[Registration]:
        """A helper that enqueues its parameter registers whatever its callers pass there."""
        out: list[Registration] = []
        pending: list[Registration] = []
        for reg in registrations:
            (pending if reg.forward else out).append(reg)
        for reg in pending:
            helper_name, index, param, *template = reg.forward
            helper = self.functions.get(helper_name)
            if helper is None:
                continue
            offset = 1 if helper.class_qualname and helper.params and helper.params[0] in ("self", "cls") else 0
            further: list[Registration] = []
            for site in (*calls_of(self, helper), *self._untyped_calls(helper)):
                ev = site.event
                value = ev.kwargs.get(param)
                if value is None and 0 <= index - offset < len(ev.args):
                    value = ev.args[index - offset]
                if template:  # the caller passes the last part of a dotted path (`enqueue_job(req, "push")`)
                    path = completed_path(template[0], value)
                    if path is not None and path[0] == "lit":
                        if qualname := target(self, site.module, path):
                            out.append(replace(reg, target=qualname, anchor=site.anchor, forward=None))
                    elif path is not None and depth < 3 and site.function.name != MODULE_CODE:
                        further.append(replace(reg, forward=(site.function.qualname, value[2], value[1], path)))
                    continue
                qualname = target(self, site.module, value)
                if qualname:
                    out.append(replace(reg, target=qualname, anchor=site.anchor, forward=None))
                elif value and value[0] == "param" and depth < 3 and site.function.name != MODULE_CODE:
                    further.append(replace(reg, forward=(site.function.qualname, value[2], value[1])))
            if further:
                out.extend(self._expand_forwards(further, depth + 1))
        return out

    def _untyped_calls(self, method: FunctionSummary) -> list:
        """Calls of a method's name on an object whose class is not known here (`obj =
        self.get_object(); obj.enqueue_job(request, "push")`), when no other class of the
        application defines a method of that name: they can only be this one's."""
        if not method.class_qualname or method.name.startswith("__"):
            return []
        definers = self.once("method definers", lambda: Counter(
            fn.name for fn in self.functions.values() if fn.class_qualname))
        if definers[method.name] != 1:
            return []
        return [site for site in calls_named(self, (method.name,))
                if site.event.receiver and self.function_for(self.canonical(site.event.name)) is None]

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
                for value, line, col, end_line, end_col in fn.decorators:
                    name = self.canonical(deco_name(value))
                    if fn.qualname not in out and name and self.function_for(name) is not None:
                        found = retry_by_wrapper(self, mod, value, name, Anchor(mod.path, line, col, end_line, end_col))
                        if found is not None:
                            out[fn.qualname] = found
        for qualname, policy in self._retried_through_helpers().items():
            out.setdefault(qualname, policy)
        for qualname, policy in self._recursive_retries().items():
            out.setdefault(qualname, policy)
        for _, callee, policy in self._calls_made_again:
            if callee is not None:
                out.setdefault(callee, policy)  # the whole function, once more
        # A test's helpers retry what they like (a client polling the server under test): no work
        # of the application's, as a test's jobs are not. A generator function under a retry
        # decorator is never retried: calling it returns the generator, before its body runs.
        return {q: (replace(p, setting=f"{p.setting}, on a generator function: never runs again",
                            retries=RetryLimit.known(0)) if q in self.functions and self.functions[q].generator else p)
                for q, p in out.items() if (m := self.function_module.get(q)) is None or self.the_applications(m)}

    def _retried_through_helpers(self) -> dict[str, RetryPolicy]:
        """Functions handed to a retry helper of the application's own: a function whose retry loop
        calls the callable it is given (`def with_retries(fn, attempts=5): for ...: try: return fn()
        except ConnectionError: sleep(...)`) retries what each caller passes (`with_retries(send)`,
        a closure or a function; a lambda's calls are retried where it is written, `retried_lambdas`),
        under that loop's policy."""
        out: dict[str, RetryPolicy] = {}
        for helper, param, policy in self._retry_helpers_of_callables:
            # The whole function handed over runs again (not a part of it): a wrapper's retry.
            for found in self._handed_to(helper, param, 0):
                out.setdefault(found, replace(policy, source="wrapper"))
        return out

    @cached_property
    def _retry_helpers_of_callables(self) -> list[tuple[FunctionSummary, str, RetryPolicy]]:
        """(helper, parameter, policy): the application's functions whose retry loop starts its
        `try` by calling a callable parameter (not a logger it is also given), with that loop's
        policy over the whole callable."""
        out = []
        for mod in self.modules.values():
            if not self.the_applications(mod):
                continue
            for helper in mod.functions.values():
                for loop in helper.retry_loops:
                    first = next((ev for ev in helper.events if ev.kind == "call" and loop[1] is not None
                                  and loop[1] in ev.tries and not ev.handlers), None)
                    if first is None or first.name is not None or first.attr not in helper.params \
                            or first.attr in ("self", "cls"):
                        continue
                    out.append((helper, first.attr, replace(loop_policy(helper, loop, mod.path), loop=None)))
        return out

    def _recursive_retries(self) -> dict[str, RetryPolicy]:
        """Functions calling themselves from an `except` of their own on the same work
        (`jobs.recursion_policy`), and functions enqueueing themselves again from one, or from a
        helper called there (`jobs.requeue_policy`)."""
        out: dict[str, RetryPolicy] = {}
        for mod in self.modules.values():
            the_app = self.the_applications(mod)
            for fn in mod.functions.values():
                for ev in fn.events:
                    if ev.kind != "call" or not ev.handlers:
                        continue
                    policy = None
                    callee = self.named_callee(ev)
                    if ev.attr == fn.name and callee is not None and callee.qualname == fn.qualname:
                        policy = recursion_policy(fn, ev, mod.path)
                    elif is_transparent_wrapper(fn):
                        continue  # a retry decorator's wrapper enqueueing itself: read as the decorator's (`retry_by_wrapper`)
                    elif (enqueue := self._enqueues(ev, fn.qualname)) is not None:
                        policy = requeue_policy(fn, ev, mod.path, enqueue)
                    elif callee is not None and callee is not fn:
                        chain = self._enqueue_within(callee, fn.qualname, set())
                        policy = requeue_policy(fn, ev, mod.path, chain[-1], conditional=any(e.branch for e in chain)) \
                            if chain else None
                    if policy is not None:
                        out[fn.qualname] = policy
                        break
                if fn.qualname not in out and the_app:
                    policy = rescheduled_policy(fn, mod.path)
                    if policy is not None:
                        out[fn.qualname] = policy
        return out

    @cached_property
    def _calls_made_again(self) -> list[tuple[str, str | None, RetryPolicy]]:
        """(caller, the application's function it calls or None, policy) for each call made again,
        once, in a handler of the `try` that made it, callee and arguments written the same
        (`Handler.repeats`: `except JobError: time.sleep(5); resource = get_resource(id)`). Not in
        a retry loop of the caller's (the loop says how it goes round)."""
        out = []
        for mod in self.modules.values():
            if not self.the_applications(mod):
                continue
            for fn in mod.functions.values():
                looping = {loop[1] for loop in fn.retry_loops}
                at = {(ev.line, ev.col): i for i, ev in enumerate(fn.events) if ev.kind == "call"}
                pairs = [(at.get(tuple(a)), at.get(tuple(b))) for h in fn.handlers if h.try_id not in looping
                         for a, b in h.repeats]
                for first, again in pairs:
                    if first is None or again is None:
                        continue
                    policy = once_policy(fn, fn.events[again], mod.path)
                    if policy is None:
                        continue
                    callee = self.named_callee(fn.events[again])
                    mine = callee is not None and callee is not fn \
                        and self.the_applications(self.function_module[callee.qualname])
                    # The application's function runs again whole (its own `try`s are its own); a
                    # library's call runs again alone.
                    out.append((fn.qualname, callee.qualname if mine else None,
                                replace(policy, calls=None, caught_by=None) if mine
                                else replace(policy, calls=frozenset({first}))))
        return out

    @cached_property
    def retried_calls(self) -> dict[str, list[RetryPolicy]]:
        """Functions making a library's call again in a handler of its `try` (`_calls_made_again`):
        that call runs again, the rest of the function does not (`RetryPolicy.calls`)."""
        out: dict[str, list[RetryPolicy]] = {}
        for caller, callee, policy in self._calls_made_again:
            if callee is None:
                out.setdefault(caller, []).append(policy)
        return out

    def _enqueue_within(self, helper: FunctionSummary, qualname: str, seen: set) -> list[Event]:
        """The calls by which a helper enqueues `qualname`, itself or through helpers of its own
        (`_handle_failure(...)` -> `_schedule_retry(...)` -> `deliver.apply_async(...)`), the
        enqueue last; empty when it does not."""
        if helper.qualname in seen or helper.qualname == qualname or len(seen) > 4:
            return []
        seen.add(helper.qualname)
        for ev in helper.events:
            if self._enqueues(ev, qualname) is not None:
                return [ev]
        for ev in helper.events:
            inner = self.named_callee(ev) if ev.kind == "call" else None
            if inner is not None and (found := self._enqueue_within(inner, qualname, seen)):
                return [ev, *found]
        return []

    def _enqueues(self, event: Event, qualname: str) -> Event | None:
        """`event`, when it enqueues the function `qualname` (`deliver.apply_async(...)`,
        `queue.enqueue(deliver, ...)`)."""
        if event.kind != "call" or event.attr not in ENQUEUE_METHODS:
            return None
        target = (self.canonical(event.name) or "").rpartition(".")[0]
        if target != qualname and event.args and event.args[0][0] == "name" and event.attr.startswith("enqueue"):
            target = self.referent(event.args[0][1]) or ""
        return event if target == qualname else None

    @cached_property
    def retried_lambdas(self) -> dict[str, list[RetryPolicy]]:
        """Functions handing a retry helper of the application's own a lambda
        (`_send_with_retries(lambda timeout: requests.post(url, timeout=timeout))`), also through a
        function of theirs that passes its parameter on: the calls written in that lambda run again
        under the helper's loop, the rest of the function does not (`RetryPolicy.calls`), and a
        function the lambda calls is retried there only."""
        out: dict[str, list[RetryPolicy]] = {}
        for helper, param, policy in self._retry_helpers_of_callables:
            setting = f"the lambda given to `{helper.name}`, run again by its {policy.setting.removeprefix('a ')}"
            for caller, calls in self._lambdas_for(helper, param, 0):
                out.setdefault(caller, []).append(replace(policy, setting=setting, calls=calls))
        return out

    def _lambdas_for(self, helper: FunctionSummary, param: str, depth: int) -> list[tuple[str, frozenset[int]]]:
        """(caller, the indices of its calls written in the lambda) for each lambda the application
        passes for `param` of `helper`, a few calls up through parameters passed on."""
        out = []
        for site in calls_of(self, helper):
            if not self.the_applications(site.module):
                continue
            value = bound_argument(helper, site.event, param)
            if value and value[0] == "lambda":
                feeding = bound_sources(helper, site.event, param)
                if feeding:
                    out.append((site.function.qualname, frozenset(feeding)))
            elif value and value[0] == "param" and depth < 2 and site.function.name != MODULE_CODE:
                out.extend(self._lambdas_for(site.function, value[1], depth + 1))
        return out

    def _handed_to(self, helper: FunctionSummary, param: str, depth: int) -> list[str]:
        """The functions the application's callers pass for `param` of `helper`, also through a
        method of its own that passes its parameter on (`def execute(self, action): return
        _retry_over_time(action, ...)`), a few calls up."""
        out = []
        for site in calls_of(self, helper):
            if not self.the_applications(site.module):
                continue  # a test's own callable
            value = bound_argument(helper, site.event, param)
            if value and value[0] == "lambda":
                continue  # what the lambda calls runs again there, not everywhere (`retried_lambdas`)
            found = target(self, site.module, value)
            if found and found in self.functions and found != helper.qualname:
                out.append(found)
            elif value and value[0] == "param" and depth < 2 and site.function.name != MODULE_CODE:
                out.extend(self._handed_to(site.function, value[1], depth + 1))
        return out

    @cached_property
    def retry_loops(self) -> dict[str, list[RetryPolicy]]:
        """Functions with retry loops written in their body (`retry_loops.py`), a policy each: a
        loop runs part of the function again, so it is not the function's `retry_of`."""
        return {fn.qualname: [loop_policy(fn, loop, mod.path) for loop in fn.retry_loops]
                for mod in self.modules.values() for fn in mod.functions.values() if fn.retry_loops}

    def retry_policies(self, qualname: str) -> list[RetryPolicy]:
        """Everything that runs (part of) this function again after a failure: the policy that
        retries it (`retry_of`), then each retry loop in its body that makes an effect."""
        own = self.retry_of(qualname)
        return ([own] if own is not None else []) + [
            loop for loop in self.retry_loops.get(qualname, []) if self._repeats_an_effect(qualname, loop)] + [
            part for part in (*self.retried_lambdas.get(qualname, ()), *self.retried_calls.get(qualname, ()))
            if self._repeats_an_effect(qualname, part)]

    def _repeats_an_effect(self, qualname: str, loop: RetryPolicy) -> bool:
        """A retry loop whose body makes an external effect: one that only waits (for a database to
        come up, a file to appear) repeats no job's work, and no rule reads it."""
        events = self.functions[qualname].events
        if loop.calls is not None:
            return any(ce.event_index in loop.calls for ce in self.call_effects(qualname))
        loop_id, try_id = loop.loop
        return any(loop_id in events[ce.event_index].loops and (try_id is None or try_id in events[ce.event_index].tries)
                   for ce in self.call_effects(qualname))

    def _repeats_a_change(self, qualname: str, loop: RetryPolicy) -> bool:
        """A retry loop whose `try` calls a library's method named for a change the catalog does
        not know (`self.client.put_object(**params)`, `rucio.add_replication_rule(...)`,
        `sock.sendall(packet)`): it repeats that change. Enough to list the function as retried;
        no rule reads a change of unknown kind."""
        if loop.loop is None or loop.calls is not None:
            return False
        loop_id, try_id = loop.loop
        return any(ev.kind == "call" and loop_id in ev.loops and (try_id is None or try_id in ev.tries)
                   and self._calls_a_change(ev, 0) for ev in self.functions[qualname].events)

    def _calls_a_change(self, ev: Event, depth: int) -> bool:
        """A library method named for a change (`CHANGE_WORDS`, not a container's `add` or
        `update`), called here or, a few calls down, by the application's functions it calls
        (`rucio_api.register_dataset(...)` -> `client.add_dataset(...)`), outside their handlers."""
        callees = self.callees(ev)
        if not callees:
            return ev.attr not in BOOKKEEPING_METHODS and bool(CHANGE_WORDS.intersection(name_words(ev.attr or "")))
        return depth < 3 and any(self._calls_a_change(e, depth + 1) for fn in callees if fn.name != MODULE_CODE
                                 for e in fn.events if e.kind == "call" and not e.handlers)

    @cached_property
    def retried_functions(self) -> dict[str, JobSite]:
        """Functions a retry decorator runs again (tenacity, backoff, the application's own), or a
        retry loop in their body runs part of again, that are not jobs: the inventory lists them
        beside the jobs as `retried`, since what runs again after a failure is what the rules read. They are no entry points: the five questions
        belong to the jobs that call them."""
        out: dict[str, JobSite] = {}
        for qualname, policy in self.retry_wrappers.items():
            fn = self.functions.get(qualname)
            module = self.function_module.get(qualname)
            if fn is None or module is None or qualname in self.jobs:
                continue
            out[qualname] = JobSite(function=qualname, framework="retry", kind="retried", path=module.path,
                                    anchor=self.anchor_of(fn), display=qualname, doc_owner=qualname,
                                    triggers={"failure"}, retry=policy)
        # A retry loop written in the body that makes an effect again (`for attempt in range(5):
        # try: post(...)`), or that a job runs (`for retry in range(3): try: client.info()`), as a
        # retry decorator's function is listed whatever it does; so is one that repeats a change of
        # a kind the catalog does not know (`_repeats_a_change`); one that only waits outside any
        # job (a script waiting for its database) repeats no job's work.
        # A function started in the background stays listed so (`started_functions`).
        for qualname, loops in self.retry_loops.items():
            module = self.function_module.get(qualname)
            if qualname in out or qualname in self.jobs or qualname in self.started_functions or module is None \
                    or not self.the_applications(module):
                continue
            policy = next((loop for loop in loops if self._repeats_an_effect(qualname, loop)),
                          loops[0] if qualname in self.job_context else None) \
                or next((loop for loop in loops if self._repeats_a_change(qualname, loop)), None)
            if policy is not None:
                out[qualname] = JobSite(function=qualname, framework="retry", kind="retried", path=module.path,
                                        anchor=self.anchor_of(self.functions[qualname]), display=qualname,
                                        doc_owner=qualname, triggers={"failure"}, retry=policy)
        return out

    @cached_property
    def dispatched_functions(self) -> dict[str, JobSite]:
        """The implementations a job hands its work to through a hook of the project's
        (`handler.handle(msg)`: `dispatched_implementations`) or through the handlers other code
        registered with an object it calls them from (`handed_to_collection`), the entries of a
        table it picks one of by a key (`_dispatch_table`) or the work it hands to a pool and waits
        for (the frameworks' `find_dispatched`), in its body or a few calls down,
        that are neither jobs nor listed otherwise: the inventory lists them as kind `dispatched`,
        with the job's framework and triggers. They are no entry points: their effects are the
        job's (`callees`; of handlers kept by kind, not at every call), and the rules and the five
        questions read the job."""
        out: dict[str, JobSite] = {}
        listed = {**self.jobs, **self.retried_functions, **self.started_functions}
        for job in self.jobs.values():
            fn = self.functions.get(job.function)
            for caller in self.within_calls(fn, 3) if fn is not None else ():
                for ev in caller.events:
                    if ev.kind != "call":
                        continue
                    # and the handlers callers registered with an object of the project's that the
                    # job calls each of, or those of the kind it dispatches (`bus.subscribe(kind, h)`)
                    # (or the implementations of the protocol whose method it calls)
                    named = self.named_callee(ev)
                    for impl in [*(self.dispatched_implementations(ev) if ev.receiver else ()),
                                 *self.handed_to_collection(ev.name or "", keyed=True),
                                 *self._dispatch_table(ev.name),
                                 *(choices if len(choices := self._returned_choices(ev.name)) > 1 else ()),
                                 # a template method's step its subclasses implement (`self.message_handler()`)
                                 *(impls if named is not None and not ev.in_test and next(iter(_words(named.name)), "") not in _ASKS
                                   and (impls := self.implementations(named)) != [named] else ()),
                                 *(self.protocol_implementations(named) if named is not None else ())]:
                        if impl.qualname in listed or impl.qualname in out:
                            continue
                        out[impl.qualname] = JobSite(
                            function=impl.qualname, framework=job.framework, kind="dispatched",
                            path=self.function_module[impl.qualname].path, anchor=self.anchor_of(impl),
                            display=impl.qualname, doc_owner=job.doc_owner, triggers=set(job.triggers))
        # and the work the frameworks see a job hand to a pool it waits for (`find_dispatched`)
        out.update(self._framework_sites("find_dispatched", "dispatched work",
                                         lambda site: site.function not in listed and site.function not in out))
        return out

    def _returned_choices(self, name: str | None) -> list[FunctionSummary]:
        """`dispatcher = get_dispatcher(kind); dispatcher(...)`: one of the functions the helper
        returns (an entry of its table, or the function an arm names), whichever it returns."""
        if not name or not name.endswith("()"):
            return []
        maker = self.function_for(self.canonical(name[:-2]) or name[:-2])
        return [fn for held in maker.returns_one_of if (fn := self.function_for(self.canonical(held) or held))] \
            if maker is not None else []

    def _dispatch_table(self, name: str | None) -> list[FunctionSummary]:
        """The functions of a module-level table a call picks one of by a key it is given
        (`EXECUTORS[job.kind](payload)`, `HANDLERS.get(kind)`): a runner's units of work, when
        the table holds two or more."""
        if not name or not name.endswith("[]"):
            return []
        found = self.table_functions(name)
        return found if len(found) > 1 else []

    @cached_property
    def loop_steps(self) -> dict[str, JobSite]:
        """The functions a job's loop calls in every round that work beyond the process and are
        not listed otherwise (`find_steps` of the frameworks): the inventory lists them as kind
        `step`, with the loop's framework and triggers. They are no entry points: their effects
        are the loop's, and the rules and the five questions read the loop."""
        # (one a loop starts in every round is a step, whatever else starts it once: listed so)
        listed = {**self.jobs, **self.retried_functions, **self.dispatched_functions}
        return self._framework_sites("find_steps", "loop steps", lambda site: site.function not in listed)

    @cached_property
    def started_functions(self) -> dict[str, JobSite]:
        """Functions the application starts once in the background (a task, a thread, an
        executor's `submit`) that are neither jobs nor under a retry decorator (one with a retry
        loop of its own is listed here, not as retried): the inventory lists them as kind
        `background`, since they are work that runs beside the request or job that starts them.
        They are no entry points: no rule reads them as jobs (nothing schedules or retries them)."""
        return self._framework_sites("find_started", "background starts",
                                     lambda site: site.function not in self.jobs and site.function not in self.retry_wrappers)

    def _framework_sites(self, hook: str, what: str, keep) -> dict[str, JobSite]:
        """The sites the frameworks' `hook` finds that `keep` keeps, the first per function; a
        framework that fails is reported and the others still read."""
        out: dict[str, JobSite] = {}
        for fw in self.frameworks:
            finder = getattr(fw, hook, None)
            if finder is None:
                continue
            try:
                sites = finder(self)
            except Exception as exc:
                self.failures.append(Failure(f"framework {fw.name} ({what})", Failure.describe(exc)))
                continue
            for site in sites:
                if keep(site):
                    out.setdefault(site.function, site)
        return out

    def delivery(self, qualname: str) -> Delivery | None:
        """The delivery guarantee of the job whose function this is (None: not a job)."""
        site = self.jobs.get(qualname)
        return delivery_of(self, site) if site is not None else None

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

    def explicit_retry_points(self, qualname: str, depth: int = 0) -> list[int]:
        """Events in the body that ask for a retry: `self.retry(...)`, `raise Retry(...)`, or a call
        handing the bound task to a helper that does (`retry_helpers`)."""
        fn = self.functions[qualname]
        points = []
        for i, ev in enumerate(fn.events):
            name = self.event_name(ev) or ""
            if self.retry_helpers(qualname, ev, depth):
                points.append(i)
                continue
            if ev.kind == "call" and ev.attr == "retry" and (
                name.startswith("@self") or name == f"{qualname}.retry" or name.startswith(("celery.", "celery.current_task"))
                or name.endswith("Task().retry")
            ):
                points.append(i)
            elif ev.kind == "raise" and name.rpartition(".")[2] in ("Retry", "RetryTask", "RetryError", "RetryLater", "RetryRequested"):
                points.append(i)
        return points

    def retry_helpers(self, qualname: str, event: Event, depth: int = 0) -> list[FunctionSummary]:
        """The helper a call in `qualname` hands the bound task to (`_perform(self, pk)`), when it
        asks for a retry itself: its `self.retry()` is the task's. Two helpers deep at most."""
        if event.kind != "call" or depth >= 2 or not any(v == ["name", "@self"] for v in (*event.args, *event.kwargs.values())):
            return []
        helper = self.named_callee(event)
        if helper is None or helper.qualname == qualname or not self.explicit_retry_points(helper.qualname, depth + 1):
            return []
        return [helper]

    def callees(self, event: Event) -> list[FunctionSummary]:
        """What a call can run: the function it names, each function of the module-level table it
        calls through (`HANDLERS[kind](x)`: `Program.table_functions`) or of the table a helper
        returns an entry of (`get_dispatcher(kind)(x)`: `returns_one_of`), each method a
        `getattr(self, ...)` can name (`Program.dispatched_methods`), or the receivers of a
        Django signal it sends (`send` runs every receiver in the sender's process, so their
        effects are the sender's). Every walk of the call graph goes through here."""
        callee = self.named_callee(event)
        if callee is not None:
            return self.protocol_implementations(callee) or [callee]
        if event.kind == "call" and event.args and self.canonical(event.name) in RUN_IN_A_THREAD:
            # `await asyncio.to_thread(self.scheduler.run_due)`: run now, in a thread, and waited for
            ran = self.function_for(self.canonical(event.args[0][1]) or event.args[0][1]) \
                if event.args[0] and event.args[0][0] == "name" else None
            return [ran] if ran is not None else []
        if event.kind == "call" and event.name and "<getattr:" in event.name:
            return self.dispatched_methods(event.name)
        if event.kind == "call" and event.name and ("[" in event.name or _TAKEN_OUT.search(event.name)):
            held = self.table_functions(event.name) or self.handed_to_collection(event.name, keyed=False)
            if held:
                return held
        chosen = self._returned_choices(event.name) if event.kind == "call" else []
        if chosen:
            return chosen
        if event.kind == "call" and event.name and event.name.endswith("()"):
            # `evaluator = evaluator_factory(...); await evaluator()`: the object's `__call__`
            called = self.function_for(self.canonical(f"{event.name}.__call__") or "")
            if called is not None:
                return [called]
        if event.kind == "call" and event.ref and event.attr in _SEND_METHODS:

            signal = event.ref.rpartition(".")[0]
            receivers = self.signal_receivers.get(signal)
            if receivers is None:
                module = self.modules.get(signal.rpartition(".")[0])
                resolved = origin(self, module, signal) if module is not None else signal
                receivers = self.signal_receivers.get(resolved or signal, [])
            return [self.functions[q] for q in receivers if q in self.functions]
        return self.constructed_implementations(event) or self.constructed_callables(event) \
            or self.module_collection_methods(event) or self.dispatched_implementations(event)

    def constructed_implementations(self, event: Event) -> list[FunctionSummary]:
        """`self.delivery.send(files)` where the class keeps a parameter of its constructor
        (`self.delivery = delivery`) and every construction in the project passes an instance of
        one of its classes (`Sender(config, SMTPDelivery(...))`, or a local set in `if` arms):
        the method of each of those classes can run. A construction passing anything else leaves
        it unknown."""
        if event.kind != "call" or not event.attr or not event.name:
            return []
        obj = event.name.rpartition(".")[0]
        owner, _, attr = obj.rpartition(".")
        if not owner.endswith("()") or owner.removesuffix("()") not in self.classes or not self.untyped(obj):
            return []
        memo = self.once("constructed attribute classes", dict)
        key = (owner.removesuffix("()"), attr)
        if key not in memo:
            memo[key] = self._constructed_classes(*key)
        found: dict[str, FunctionSummary] = {}
        for cls in memo[key]:
            fn = self.function_for(self.canonical(f"{cls}().{event.attr}"))
            if fn is not None:
                found.setdefault(fn.qualname, fn)
        return list(found.values())

    def constructed_callables(self, event: Event) -> list[FunctionSummary]:
        """`await self._runner(job)` where the class keeps a callable its constructor is given
        (`self._runner = runner`): each function of the project a construction passes for it
        (`DaemonScheduler(runner=run_job)`), named or as a bound method."""
        if event.kind != "call" or not event.name or event.name.endswith(")"):
            return []
        owner, _, attr = event.name.rpartition(".")
        cls = owner.removesuffix("()")
        if not owner.endswith("()") or cls not in self.classes:
            return []
        memo = self.once("constructed callables", dict)
        if (cls, attr) not in memo:
            memo[(cls, attr)] = self._constructed_callables(cls, attr)
        return [self.functions[q] for q in memo[(cls, attr)]]

    def _constructed_callables(self, cls: str, attr: str) -> list[str]:
        kept = self.kept_parameter(cls, attr)
        if kept is None:
            return []
        init, param = kept
        out: list[str] = []
        for site in self.constructions(cls):
            for fn in self._functions_passed(site, bound_argument(init, site.event, param), 0):
                if fn.qualname not in out:
                    out.append(fn.qualname)
        return out

    def _functions_passed(self, site, value: list | None, depth: int) -> list[FunctionSummary]:
        """The function a call passes (`TimerTask(task_func, ...)`), or, when it hands on a
        parameter of the function making the call (`def create_task(self, task_func): return
        TimerTask(task_func)`), what that function's callers pass (up to three calls up)."""
        if value and value[0] == "param" and depth < 3 and site.function.name != MODULE_CODE:
            return [fn for call in calls_of(self, site.function)
                    for fn in self._functions_passed(call, bound_argument(site.function, call.event, value[1]), depth + 1)]
        fn = self.functions.get(target(self, site.module, value) or "")
        return [fn] if fn is not None else []

    def _constructed_classes(self, cls_qualname: str, attr: str) -> list[str]:
        """The classes of the project whose instances every construction of `cls_qualname` passes
        for the constructor parameter it keeps as `attr` ([] when not all are known)."""
        kept = self.kept_parameter(cls_qualname, attr)
        if kept is None:
            return []
        init, param = kept
        classes: list[str] = []
        for site in self.constructions(cls_qualname):
            made = [self.canonical(site.function.events[j].name) or "" for j in bound_sources(init, site.event, param)
                    if j < len(site.function.events) and site.function.events[j].kind == "call"]
            if not made:
                value = bound_argument(init, site.event, param)
                made = [value[1].removesuffix("()")] if value and value[0] == "name" and (value[1] or "").endswith("()") else []
            made = [m for m in made if m in self.classes]
            if not made:
                return []  # a construction passing something not known here
            classes.extend(made)
        return list(dict.fromkeys(classes))

    def handed_to_collection(self, name: str, keyed: bool) -> list[FunctionSummary]:
        """`for handler in self.listeners: handler(event)`: the functions the application hands to
        the method of the class that puts its parameter in that collection
        (`bus.listen(self.on_event)`, where `def listen(self, listener):
        self.listeners.append(listener)`), each of which every such call runs; with `keyed`, also
        those kept under a key (`self.handlers[kind].append(handler)`), of which a call runs the
        ones its key chooses: every one in a loop that dispatches all kinds, but not every one at
        a given call. The call reaches the method (a receiver of no known type only where no
        other class has a method of that name)."""
        match = _HELD_ENTRY.match(name)
        if match is None:
            return []
        memo = self.once("handed to collections", dict)
        if (name, keyed) not in memo:
            memo[(name, keyed)] = self._handed_to_collection(*match.groups(), keyed)
        return [self.functions[q] for q in memo[(name, keyed)]]

    def _handed_to_collection(self, owner: str, attr: str, position: str | None, keyed: bool) -> list[str]:
        cls = self.classes.get(owner)
        if cls is None:
            return []
        family = {c.qualname for c in (*self._mro(cls), *self.subclasses(owner))}
        puts = self.collection_puts()
        out: list[str] = []
        for method, param, under_key, where in (put for o in family for put in puts.get((o, attr), ())):
            if (under_key and not keyed) or where != position:
                continue
            put = self.functions[method]
            alone = self._method_owners().get(put.name, set()) <= family
            for site in calls_named(self, (put.name,)):
                callee = self.named_callee(site.event)
                if callee is not put and not (callee is None and alone and (
                        site.event.name is None or self.untyped(site.event.name.rpartition(".")[0]))):
                    continue
                fn = self.functions.get(target(self, site.module, bound_argument(put, site.event, param)) or "")
                if fn is not None and fn is not put and fn.qualname not in out:
                    out.append(fn.qualname)
        return out

    def _method_owners(self) -> dict[str, set[str]]:
        """Method name -> the classes of the project that define it."""
        def build() -> dict[str, set[str]]:
            out: dict[str, set[str]] = {}
            for cls in self.classes.values():
                for m in cls.methods:
                    out.setdefault(m, set()).add(cls.qualname)
            return out
        return self.once("method owners", build)

    def dispatched_implementations(self, event: Event) -> list[FunctionSummary]:
        """`handler.handle(msg)` on an object of no known type, where the project leaves `handle` to
        the subclasses of one base of its own (an abstract or empty method there) and the object
        is named after that family (`handler`, `handler_cls()`, `alert` for the `Alerter`s): each
        subclass's implementation can run (the classes are often chosen at run time, from a
        configuration or a registry). Not a call in a test (`if handler.can_handle(msg):` asks), nor
        one that asks for something or makes it (`job.create_tasks(evidence)`, `get_name()`)."""
        if event.kind != "call" or not event.receiver or not event.attr or event.in_test or event.attr.startswith("__") \
                or next(iter(_words(event.attr)), "") in _ASKS:
            return []
        family = self._hook_families.get(event.attr)
        if family is None or not _named_after(event.receiver, family[1]) \
                or (event.receiver == event.attr and event.receiver_src):
            return []  # (`qs.filter(a).filter(b)`: the method called on what a call of it returned, a fluent API)
        if event.name and not self.untyped(event.name.rpartition(".")[0]):
            return []  # typed: a library's object (`self.executor.submit`), or a class of the project's
        return [self.functions[q] for q in family[0]]

    def untyped(self, obj: str) -> bool:
        """Does a resolved name say nothing of what the object is: a chain of the project's
        attributes that ends nowhere (`pkg.Consumer().handlers[]`, `pkg.Listener().submit_q`), not
        a library's object (`concurrent.futures.ThreadPoolExecutor()`) nor an instance of a class of
        the project's (`pkg.JsonLogHandler()`)?"""
        resolved = self.canonical(obj) or obj
        if not resolved or resolved[0] == "@":
            return False
        if resolved.partition(".")[0] in analysed_tops(self):
            return resolved.removesuffix("()") not in self.classes and self.function_for(resolved) is None
        # An attribute the project's class sets to nothing known reads as its library base's
        # (`RouterPB(pb.Avatar)`'s `self.queue = yield broker.queue(tag)`): still untyped.
        owner, _, attr = obj.rpartition(".")
        cls = self.classes.get(owner.removesuffix("()")) if owner.endswith("()") else None
        if cls is None:
            return False  # a library's object
        member = self._member(cls, attr, 0)
        return member is None or member[0] == "external"

    @cached_property
    def _hook_families(self) -> dict[str, tuple[list[str], set[str]]]:
        """method -> (its implementations, what its family's classes are: the last word of each
        name), for each method that exactly one base of the project's leaves to its subclasses
        (abstract or empty there, defined by no base of its own), implemented by the application's
        subclasses."""
        roots: dict[str, list] = {}
        for cls in self.classes.values():
            if not self.the_applications(self.module_of_class(cls)):
                continue
            mro = self._mro(cls)
            for method in cls.methods:
                fn = self.functions.get(f"{cls.qualname}.{method}")
                if fn is None or method.startswith("__") or not (self.abstract(fn.qualname) or _empty(fn)):
                    continue
                if any(method in base.methods for base in mro[1:]):
                    continue  # an intermediate class's own default: the root is above
                roots.setdefault(method, []).append(cls)
        out: dict[str, tuple[list[str], set[str]]] = {}
        for method, bases in roots.items():
            if len(bases) != 1:
                continue  # two families leave it open: which one the object is cannot be told
            base = bases[0]
            impls, words = [], set(_words(base.name)[-1:])
            for sub in self.subclasses(base.qualname):
                impl = self.functions.get(f"{sub.qualname}.{method}")
                if impl is None or not self.the_applications(self.module_of_class(sub)) \
                        or self.abstract(impl.qualname) or _empty(impl):
                    continue
                impls.append(impl.qualname)
                words.update(_words(sub.name)[-1:])  # what it is: `HTTPPostAlerter` is an alerter
            if impls:
                out[method] = (impls, words)
        return out

    @cached_property
    def django_receivers(self) -> list[tuple[str, list | None, ModuleSummary, str]]:
        """(signal, where it is defined: `shop.signals.order_paid`; the `sender=` Value or None;
        the module connecting it; the receiver) for each `@receiver(signal, ...)` (one per signal
        of a list) and `signal.connect(func, ...)`."""
        out = []
        for d in decorated_functions(self, RECEIVER):
            if d.is_call and d.name in RECEIVER_DECORATORS:
                value = d.value[3].get("signal") or (d.value[2][0] if d.value[2] else None)
                for v in (value[1] if value and value[0] == "seq" else [value]):
                    dotted = (v[2] if v[0] == "name" and len(v) > 2 else v[1]) if v and v[0] in ("name", "ref") else None
                    if dotted:
                        out.append((origin(self, d.module, dotted) or dotted, d.value[3].get("sender"), d.module,
                                    d.function.qualname))
        for site in calls_named(self, ("connect",), _reads_receiver_connect):
            ev = site.event
            fn = self.function_for(self.canonical(ev.args[0][1])) if ev.args and ev.args[0][0] == "name" else None
            if ev.ref and fn is not None:
                signal = ev.ref.rpartition(".")[0]
                out.append((origin(self, site.module, signal) or signal, ev.kwargs.get("sender"), site.module, fn.qualname))
        return out

    @cached_property
    def signal_receivers(self) -> dict[str, list[str]]:
        """Django signal (where it is defined: `shop.signals.order_paid`) -> receiver functions,
        from `@receiver(signal)` and `signal.connect(func)` (`django_receivers`), and blinker's."""
        out: dict[str, list[str]] = {}
        for signal, _sender, _module, function in self.django_receivers:
            out.setdefault(signal, []).append(function)
        for mod in self.modules.values():  # blinker: `@hourly.connect`, `@hourly.connect_via(sender)`
            for fn in mod.functions.values():
                for value, *_ in fn.decorators:
                    written = deco_name(value) or ""
                    signal, _, method = written.rpartition(".")
                    if method in ("connect", "connect_via") and _is_signal_object(self, self.deref(["ref", signal])):
                        out.setdefault(origin(self, mod, signal) or signal, []).append(fn.qualname)
        return out

    def named_callee(self, event: Event) -> FunctionSummary | None:
        """The one function a call names, for binding its arguments to that function's
        parameters. What a call can run (a table's entries, a signal's receivers) is `callees`:
        walks of the call graph go through that."""
        if event.kind != "call":
            return None
        return self.function_for(self.event_name(event))

    def catalog_effect(self, event: Event):
        """The catalog's entry for the effect this call makes, if any: what the frameworks may ask
        while the jobs are being found (`direct_effect` also reads the jobs)."""
        name = self.event_name(event) if event.kind == "call" else None
        if not name:
            return None
        firsts = literals(event.args[0]) if event.args else [None]
        if firsts == [None] and "method" in event.kwargs:
            firsts = literals(event.kwargs["method"])
        hit = None
        for first in firsts:  # `requests.request("HEAD" if exists else "GET", url)`: a write if either writes
            hit = self.catalog.effect(name, first)
            if hit is None and event.name != name:
                hit = self.catalog.effect(event.name, first)  # as written: `Mailer().deliver` before it became a method
            if hit is not None:
                break
        if hit is not None and hit.kind == "http" and _token_request(event):
            return None
        if hit is None and event.attr and "()." in name and _moves_money(event.attr) \
                and name.partition(".")[0] not in analysed_tops(self) and self.function_for(name) is None:
            return EffectHit("payment", name, Confidence.MEDIUM)
        return hit

    def direct_effect(self, fn: FunctionSummary, event: Event) -> EffectPath | None:
        """The external effect this call makes itself, if any (guards not considered)."""
        if event.kind != "call":
            return None
        name = self.event_name(event)
        if not name:
            return None
        hit = self.catalog_effect(event)
        if hit is not None:
            return EffectPath(hit.kind, (hit.name,), hit.confidence)
        if event.attr in ENQUEUE_METHODS and not self._finding_jobs:  # (what finds them cannot ask them)
            target = name.rpartition(".")[0]
            if target in self.jobs:
                return EffectPath("enqueue", (name,), Confidence.HIGH)
        return None

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

    def within_calls(self, fn: FunctionSummary, depth: int, follow=None):
        """`fn` and the functions it runs within `depth` calls (through `callees`), each once,
        nearest first; `follow(event)`, where given, chooses the calls walked through."""
        queue, seen = [(fn, 0)], {fn.qualname}
        while queue:
            current, d = queue.pop(0)
            yield current
            if d >= depth:
                continue
            for ev in current.events:
                if ev.kind != "call" or (follow is not None and not follow(ev)):
                    continue
                for callee in self.callees(ev):
                    if callee.qualname not in seen:
                        seen.add(callee.qualname)
                        queue.append((callee, d + 1))

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
        return owners(self.job_roots(), self.callees_of, primary=self.jobs)

    @cached_property
    def _callers_in_jobs(self) -> dict[str, list[str]]:
        callers: dict[str, list[str]] = defaultdict(list)
        for caller in self.job_context:  # each was asked for its callees when the context was built
            for callee in self.call_edges.get(caller) or ():
                callers[callee].append(caller)
        return callers

    def jobs_running(self, qualname: str) -> list[str]:
        """The entry points (keys of `jobs`) whose runs reach a function: the jobs a finding in it
        concerns (a helper that swallows exhausted retries is every caller job's problem)."""
        seen, stack, found = {qualname}, [qualname], []
        while stack:
            q = stack.pop()
            if q in self.jobs:
                found.append(q)
            for caller in self._callers_in_jobs.get(q, ()):
                if caller not in seen:
                    seen.add(caller)
                    stack.append(caller)
        return sorted(found)


# `pkg.Bus().handlers[]`: an entry of an instance's collection; `pkg.Jobs().jobs[]#func`: what its
# entries hold under a key (or at a position of a tuple)
_HELD_ENTRY = re.compile(r"^(.+)\(\)\.(\w+)\[(?:=\w+)?\](?:#(\w+))?$")


def _token_request(event: Event) -> bool:
    """An OAuth 2.0 token request (RFC 6749: a POST whose form says `grant_type`): it obtains a
    credential and changes nothing at the far end, whatever its method."""
    body = event.kwargs.get("data") or event.kwargs.get("json")
    if body and body[0] == "call" and body[1] == "dict":  # `data=dict(grant_type="client_credentials", ...)`
        return "grant_type" in body[3]
    return bool(body) and body[0] == "dict" and any(
        k and k[0] == "lit" and k[1] == "grant_type" for k, _ in body[1])


def _moves_money(method: str) -> bool:
    """A method name that says it moves money (`initiate_payment`, `create_payout`, `charge`)."""
    words = name_words(method)
    return (len(words) == 1 and words[0] in PAYMENT_ALONE) or (
        len(words) > 1 and words[0] in PAYMENT_VERBS and bool(PAYMENT_NOUNS.intersection(words[1:])))


def owners(roots: list[str], callees_of, primary=()) -> dict[str, str]:
    """Every function reached from `roots` (depth first, in order), mapped to the first root
    that reaches it; each of the `primary` roots (the entry points) is its own, and what it
    calls is its own before a root that calls it (a task a loop starts, a job another calls)
    can claim it. `callees_of(q)` is asked once per function reached."""
    owner: dict[str, str] = {root: root for root in primary}
    for root in roots:
        if owner.get(root, root) != root:
            continue  # reached from an earlier root (a retried helper a job calls)
        owner[root] = root
        stack = list(callees_of(root) or ())
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
_SEND_METHODS = ("send", "send_robust", "asend", "asend_robust")
_TAKEN_OUT = re.compile(rf"\.({'|'.join(TAKES_ENTRY)})\(\)")  # an entry taken out of a collection (`Program.table_functions`)
_TABLE_CALL = re.compile(r"(\[(=[^\]]*)?\]|\.get\(\))$")  # a table's entry called: `X().handlers[]`, `[=ping]`, `.get()`
# Logging calls: a log line is no work of a job's own.
_BUILTIN_NAMES = BUILTINS | {"str()", "int()", "dict()", "list()", "set()", "tuple()", "bytes()"}
# Methods of values and containers: answers and bookkeeping, not work (`name.lower()`,
# `self.runs.append(t)`, `counter.inc()`).
BOOKKEEPING_METHODS = frozenset({
    "lower", "upper", "title", "strip", "lstrip", "rstrip", "format", "join", "split", "replace", "encode", "decode",
    "startswith", "endswith", "get", "items", "keys", "values", "copy", "append", "extend", "insert", "pop", "popleft",
    "appendleft", "add", "discard", "remove", "clear", "update", "setdefault", "inc", "dec", "observe", "set",
    "labels", "is_set", "locked", "acquire", "release"})
def _self_calls(fn: FunctionSummary):
    """(event, receiver, method) for each method a function calls on something (`self.run()`:
    ("Cls()", "run")) or hands to what runs it now or in the background (`maybeDeferred(self.poll)`,
    `executor.submit(self.sync)`; not `signal.signal(SIGTERM, self.on_stop)`, run once if ever)."""
    for ev in fn.events:
        if ev.kind != "call" or not ev.attr:
            continue
        receiver, _, attr = (ev.name or "").rpartition(".")
        if attr == ev.attr:
            yield ev, receiver, attr
        if ev.attr not in _RUNS_WHAT_IT_IS_GIVEN:
            continue
        for value in (*ev.args, *ev.kwargs.values()):
            if value and value[0] == "name" and isinstance(value[1], str) and "." in value[1]:
                receiver, _, attr = value[1].rpartition(".")
                yield ev, receiver, attr


PROTOCOL_BASES = ("typing.Protocol", "typing_extensions.Protocol")
# Calls that run the callable they are given in a thread and give back what awaits it: awaited,
# as they must be to run it at all, they are a call of it.
RUN_IN_A_THREAD = frozenset({"asyncio.to_thread", "asyncio.threads.to_thread", "anyio.to_thread.run_sync",
                             "starlette.concurrency.run_in_threadpool", "fastapi.concurrency.run_in_threadpool"})
# Calls that run the callable they are given, now or in the background.
_RUNS_WHAT_IT_IS_GIVEN = frozenset({"maybeDeferred", "deferToThread", "callInThread", "submit", "run_in_executor",
                                    "to_thread", "run_sync", "spawn", "spawn_n", "start_soon", "create_task", "ensure_future",
                                    "Thread", "Process", "Greenlet"})
# Bases whose methods are known not to be an application's hooks.
_KNOWN_BASES = ("threading.Thread", "multiprocessing.Process", "multiprocessing.context.Process", "abc.ABC", "object")
# Class attributes that set a class-based job's retries (Celery's, Dramatiq's, RQ's, Huey's...).
_RETRY_ATTRS = frozenset({"autoretry_for", "max_retries", "retry_backoff", "retry_backoff_max", "retry_jitter",
                          "default_retry_delay", "retry_kwargs", "retries", "retry", "retry_delay", "retry_policy",
                          "max_attempts"})


_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z]|\b|_|\d)|[A-Z]?[a-z]+|[A-Z]+")
# What a name says of an object beyond what it is (`handler_cls`, `task_obj`).
_NOT_KINDS = frozenset({"cls", "class", "klass", "obj", "object", "instance", "inst", "item", "each", "the", "my",
                        "self", "new", "current", "base", "abstract", "default"})


# A method named so answers or builds something (the work is done by what it gives), or opens
# and closes what the work goes through.
_ASKS = frozenset({"get", "create", "make", "build", "new", "is", "has", "can", "should", "to", "as", "from", "find",
                   "list", "load", "parse", "format", "render", "describe", "validate", "exists", "connect",
                   "disconnect", "open", "close", "setup", "teardown"})


def _words(name: str) -> list[str]:
    """`HTTPPostAlerter` -> http, post, alerter; `handler_cls` -> handler, cls."""
    return [w.lower() for w in _WORD.findall(name)]


def _named_after(receiver: str, family: set[str]) -> bool:
    """Is an object spelled `receiver` named after a class of the family (`handler` for
    `BaseHandler`, `alert` for `HTTPPostAlerter`, `tasks` for `Task`)?"""
    for word in _words(receiver):
        if word in _NOT_KINDS or len(word) < 3:
            continue
        single = word[:-1] if word.endswith("s") and len(word) > 4 else word
        if any(w not in _NOT_KINDS and (w == single or (len(single) >= 4 and w.startswith(single))) for w in family):
            return True
    return False


def _empty(fn: FunctionSummary) -> bool:
    """A body that does nothing (`pass`, a docstring, `...`, `return None`): a default a subclass
    replaces."""
    return not (fn.events or fn.returns or fn.returns_param or fn.stores or fn.item_stores or fn.sinks)


_SIGNAL_CLASSES = ("blinker.signal", "blinker.Signal", "blinker.base.Signal", "blinker.Namespace().signal",
                   "django.dispatch.Signal", "django.dispatch.dispatcher.Signal")


def _is_signal_object(project: Project, value: list | None) -> bool:
    return bool(value) and value[0] == "call" and (project.canonical(value[1]) or value[1]) in _SIGNAL_CLASSES


def _reads_receiver_connect(project: Project, module: ModuleSummary, event: Event) -> bool:
    """`signal.connect(handler)` with a function of the project (not `engine.connect()`)."""
    args = event.args
    return bool(event.ref and args and args[0][0] == "name"
                and project.function_for(project.canonical(args[0][1])) is not None)
