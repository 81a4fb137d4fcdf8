"""The linked program: every module's summary, joined. Names resolve across modules here
(imports, re-exports, instances, methods, Django managers' rows), module-level values are
followed (`deref`), and the calls of the whole program are indexed by callee name."""

from __future__ import annotations

import os
import re
from array import array
from dataclasses import dataclass
from functools import cached_property
from pathlib import PurePath

from .jobs import Anchor
from .summary import ClassSummary, Event, FunctionSummary, ModuleSummary, is_property
from .syspath import relink

_MAX_HOPS = 12
_GETATTR = ("getattr", "builtins.getattr")
# traitlets' typed attribute: `query = Instance(ZMQStream)` holds a ZMQStream.
_TRAITS = ("traitlets.Instance", "traitlets.traitlets.Instance")
_UNREADABLE = object()
_DICT = ("dict", "builtins.dict")
# What puts an element in a list or set the instance holds: `append(x)`, `add(x)`, `insert(0, x)`, `extend([x, y])`.
_PUTS = ("append", "appendleft", "add", "insert", "extend", "put", "put_nowait")
TAKES_ENTRY = ("get", "get_nowait", "pop", "popleft")  # a call taking one entry out of a collection
# An entry of a table or collection: `X[]`, `X[=ping]`, `X[in]` (its keys), or taken out by a call
# (`X.get()`, `await queue.get()`, `pending.pop()`), then an item (`#2`) and a method (`.run`).
_TABLE_ENTRY = re.compile(rf"^(.+?)(?:\[(in|=\w+)?\]|\.(?:{'|'.join(TAKES_ENTRY)})\(\))(?:#(\w+))?(?:(?:\(\))?\.(\w+))?$")


class Program:
    def __init__(self, modules: list[ModuleSummary], roots: list | None = None) -> None:
        # The folders analysed (those given, the configuration's): the folders above them are
        # where the checkout lives, which says nothing of what its code is. A file given alone is
        # judged as part of the tree around it (pre-commit gives files: what they report must be
        # what the whole project's run reports).
        self.roots = sorted({PurePath(os.path.realpath(r)) for r in roots or ()}, key=lambda r: -len(r.parts))
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
        self._canon: dict[str, str | None] = {}
        self._canon_referent: dict[str, str | None] = {}
        self._through = True  # (False while `referent` resolves)
        self._typing_params = False  # (True while `_parameter_receivers` is found)
        self._memo: dict = {}

    def once(self, key, compute):
        """`compute()`, computed once per project (frameworks and checks share what they derive)."""
        try:
            return self._memo[key]
        except KeyError:
            value = self._memo[key] = compute()
            return value

    def the_applications(self, module: ModuleSummary) -> bool:
        """Code of the application: not a test's, nor vendored, example or docs code beside it,
        told by its module name and by the folders it is in below the deepest folder analysed
        that holds it (`jobcheck check .` leaves `examples/` out; `jobcheck check examples` is
        about them)."""
        return not in_tests(module) and not _BESIDE_THE_APPLICATION.intersection(self._folders(module.path))

    def _folders(self, path: str) -> tuple[str, ...]:
        folders = self.once("folders below the roots", dict)
        found = folders.get(path)
        if found is None:
            where = PurePath(os.path.realpath(path)) if self.roots else PurePath(path)
            # Context read from outside every root: all its folders count.
            root = next((r for r in self.roots if where.is_relative_to(r)), None)
            found = folders[path] = (where.relative_to(root) if root is not None else PurePath(path)).parts[:-1]
        return found

    def canonical(self, name: str | None, hops: int = 0) -> str | None:
        """Finish resolving a summary name across modules (re-exports, instances, methods). A
        call of a function passing all its arguments on resolves to the call it makes."""
        if not name or name[0] == "@":
            return name
        cache = self._canon if self._through else self._canon_referent
        cached = cache.get(name, False)
        if cached is not False:
            return cached
        result = self._canonical(name, hops)
        cache[name] = result
        return result

    def referent(self, name: str | None) -> str | None:
        """`canonical`, for a name written as a value (`dispatch(aadd_and_remove)`), not called: a
        function passing its arguments on is itself there."""
        self._through = False
        try:
            return self.canonical(name)
        finally:
            self._through = True

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
        item = _returned_item(rest[0])
        if item is not None and f"{mod.module}.{item[0]}" in self.functions:
            # `config, session = make_session()`: an item of the tuple a function returns.
            returned = self._item_returned_by(f"{mod.module}.{item[0]}", item[1])
            return self.canonical(".".join([returned, *rest[1:]]), hops + 1) if returned and hops < _MAX_HOPS else name
        head, instance = _strip_call(rest[0])
        tail = rest[1:]
        qual = f"{mod.module}.{head}"
        if qual in self.classes:
            return self._in_class(self.classes[qual], tail, instance, hops)
        if qual in self.functions:
            passes_to = self.functions[qual].passes_to
            if passes_to and not instance and not tail and hops < _MAX_HOPS and self._through:
                return self.canonical(passes_to, hops + 1)  # a call of it is a call of what it passes its arguments to
            returned = self.functions[qual].return_type if instance else None
            if returned and (tail or not returned.endswith("()")) and hops < _MAX_HOPS:
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
        item = _returned_item(tail[0])
        if item is not None:
            # `_, self.http = self.setup()`: an item of the tuple a method returns.
            member = self._member(cls, item[0], 0)
            returned = self._item_returned_by(member[1], item[1]) if member and member[0] == "method" else None
            return self.canonical(".".join([returned, *tail[1:]]), hops + 1) if returned and hops < _MAX_HOPS \
                else ".".join([cls.qualname + ("()" if instance else ""), *tail])
        head, call = _strip_call(tail[0])
        rest = tail[1:]
        if head in _MANAGERS and not instance:
            return self._through_manager(cls, tail, hops)
        member = self._member(cls, head, 0)
        if member is None:
            return ".".join([cls.qualname + ("()" if instance else ""), *tail])
        what, target = member
        if what == "method" and rest and hops < _MAX_HOPS:
            # Something used on what a method returns (`self.session().post`), or on a property's
            # value (`self.client.post`; a property returning a class is called: `self.smtp(host)`).
            returned = self._returned_by(target, call)
            if returned:
                return self.canonical(".".join([returned, *rest]), hops + 1)
        if what == "method" and instance and self._abstractmethod(target):
            # `self.hook()` in a mixin whose base declares `hook` an `@abstractmethod` (no instance
            # runs it): the one implementation every class built on this one runs, where they
            # agree (`class Cog(Tasks, Hooks)`).
            target = self._implemented_below(cls, head) or target
        if what == "method":
            # Keep the instance visible (`Mailer().deliver`): catalogs name effects that way;
            # `function_for` maps it back to the method.
            owner, _, method = target.rpartition(".")
            return ".".join([owner + ("()" if instance else ""), method + ("()" if call else ""), *rest])
        if what == "attr":
            return self.canonical(".".join([target + ("()" if call else ""), *rest]), hops + 1)
        if what == "class":
            return self._in_class(self.classes[target], rest, call, hops)
        if instance:
            return ".".join([f"{target}()", *tail])  # an instance's attribute from an external base
        # Class-level access keeps the class: `Post.objects.get`, `Post.DoesNotExist` name the model.
        return ".".join([cls.qualname, *tail])

    def _implemented_below(self, cls: ClassSummary, method: str) -> str | None:
        """The implementation of `method` that every subclass of `cls` inherits or defines, when
        there are subclasses and they all resolve it to one method that is not abstract."""
        found = set()
        for sub in self.subclasses(cls.qualname):
            owner = next((c for c in self._mro(sub) if method in c.methods), None)
            target = f"{owner.qualname}.{method}" if owner is not None else None
            if target is None or self._abstractmethod(target):
                return None
            found.add(target)
        return found.pop() if len(found) == 1 else None

    def _mro(self, cls: ClassSummary) -> list[ClassSummary]:
        """The project's classes in `cls`'s method resolution order (C3, as Python computes it:
        `class Tasks(Lavalink, Player, StartUp)` finds `Player.timer` before their shared base's
        abstract one); bases outside the project are left out. Each class's order is computed
        once; a cycle of bases (not valid Python) ends at the class met again."""
        memo = self.once("mro", dict)

        def linear(c: ClassSummary, seen: frozenset) -> list[ClassSummary]:
            if c.qualname in memo:
                return memo[c.qualname]
            bases = [self.classes[b.removesuffix("()")] for b in (self.canonical(x) for x in c.bases if x)
                     if b and b.removesuffix("()") in self.classes and b.removesuffix("()") not in seen]
            seqs = [linear(b, seen | {c.qualname}) for b in bases] + [bases]
            out = [c]
            while any(seqs):
                seqs = [q for q in seqs if q]
                head = next((q[0] for q in seqs if not any(q[0] in r[1:] for r in seqs)), None)
                if head is None:  # no C3 order: keep what there is, once each
                    for x in (x for q in seqs for x in q):
                        if not any(x is y for y in out):  # (summaries compare by value: not hashable)
                            out.append(x)
                    break
                out.append(head)
                seqs = [q[1:] if q[0] is head else q for q in seqs]
            memo[c.qualname] = out
            return out
        return linear(cls, frozenset())

    def subclasses(self, base: str) -> list:
        """The project's classes deriving from `base`, at any depth."""
        def index() -> dict[str, list]:
            below: dict[str, list] = {}
            for c in self.classes.values():
                for b in dict.fromkeys(self.class_bases(c)):
                    below.setdefault(b, []).append(c)
            return below

        return list(self.once("subclasses", index).get(base, ()))

    def _abstractmethod(self, qualname: str) -> bool:
        """An `@abstractmethod` of a class built on `abc.ABC`, which no instance can leave
        unimplemented (without ABCMeta, the decorator stops nothing)."""
        fn = self.functions.get(qualname)
        cls = self.classes.get(fn.class_qualname) if fn is not None and fn.class_qualname else None
        return cls is not None and any((deco_name(value) or "").endswith("abstractmethod") for value, *_ in fn.decorators) \
            and any(b in ("abc.ABC", "abc.ABCMeta") for b in self.class_bases(cls))

    def abstract(self, qualname: str) -> bool:
        """A method its class leaves to subclasses: it raises NotImplementedError whatever it is
        given (not in a branch: `if fmt == "csv": ...; raise NotImplementedError(fmt)` does work of
        its own), or raises and does nothing else (`raise RuntimeError("override me")`), or it is an
        `@abstractmethod`."""
        fn = self.functions.get(qualname)
        return fn is not None and (
            any(ev.kind == "raise" and (ev.name or "").endswith("NotImplementedError") and not (ev.branch or ev.tries)
                for ev in fn.events)
            or any((deco_name(value) or "").endswith("abstractmethod") for value, *_ in fn.decorators)
            or _only_raises(fn))

    def _returned_by(self, method: str, called: bool) -> str | None:
        fn = self.functions.get(method)
        if fn is None or not fn.return_type:
            return None
        if not is_property(fn):
            return fn.return_type if called else None
        if not called:
            return fn.return_type
        return None if fn.return_type.endswith("()") else fn.return_type + "()"  # the class it returns, called

    def _item_returned_by(self, function: str, position: int) -> str | None:
        """The type of item `position` of the tuple `function` returns, where it says."""
        fn = self.functions.get(function)
        if fn is None:
            return None
        if fn.return_items:
            return fn.return_items[position] if position < len(fn.return_items) else None
        # `return make_session()`: an item of what that returns.
        return f"{fn.return_type}#{position}" if fn.return_type else None

    def _through_manager(self, cls: ClassSummary, tail: list[str], hops: int) -> str:
        """`Order.objects.filter(...).get(...).send_mail` is `Order().send_mail`: a Django manager
        keeps the model in the name, and the methods that return one row give an instance."""
        for i, part in enumerate(tail[1:], start=1):
            method, called = _strip_call(part)
            if called and method in _ROW_METHODS and i + 1 < len(tail):
                return self.canonical(".".join([cls.qualname + "()", *tail[i + 1 :]]), hops + 1)
        return ".".join([cls.qualname, *tail])

    def _member(self, cls: ClassSummary, head: str, depth: int) -> tuple[str, str] | None:
        """Where `head` comes from, looking up the bases as Python would (depth-first); `workers[]`
        is an entry of the instance's collection `workers` (`collection_class`)."""
        if head.endswith("[]") and depth == 0:
            entry = self.collection_class(cls.qualname, head[:-2])
            return ("attr", f"{entry}()") if entry else None
        if head in cls.methods:
            return "method", f"{cls.qualname}.{head}"
        if head in cls.attr_types:
            return "attr", cls.attr_types[head]
        if f"{cls.qualname}.{head}" in self.classes:
            return "class", f"{cls.qualname}.{head}"  # a nested class (`self.Worker(queue)`)
        attr = cls.attrs.get(head)
        if attr is not None and attr[0][0] == "call" and attr[0][1]:
            value = attr[0]
            if value[1] in _TRAITS:
                # `stream = Instance(ZMQStream)` (or `klass=`, or a dotted path): a ZMQStream
                kind = value[2][0] if value[2] else value[3].get("klass")
                if kind and kind[0] in ("name", "lit") and isinstance(kind[1], str) and kind[1]:
                    return "attr", kind[1] + "()"
            return "attr", value[1] + "()"
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
        name = self.canonical(event.name)
        if name is None and event.kind == "call" and event.receiver and event.attr and not self._typing_params:
            typ = self._parameter_receivers().get(id(event))
            if typ is not None:
                return self.canonical(f"{typ}.{event.attr}")
        return name

    def _parameter_receivers(self) -> dict[int, str]:
        """The type of a parameter whose method a function calls (`def url_request(session, url):
        session.post(url)`), where every call of the function in the project passes an instance
        of one type (`url_request(self.session, ...)`, `self.session = requests.Session()`): by
        event (its id), the type. A parameter some call leaves to its default, or passes
        something of no known type, stays unknown."""
        def build() -> dict[int, str]:
            out: dict[int, str] = {}
            self._typing_params = True  # (the calls found meanwhile are named without this table)
            try:
                for fn in self.functions.values():
                    wanted: dict[str, list[Event]] = {}
                    for ev in fn.events:
                        if ev.kind == "call" and ev.name is None and ev.attr and ev.receiver in fn.params \
                                and ev.receiver not in ("self", "cls"):
                            wanted.setdefault(ev.receiver, []).append(ev)
                    sites = calls_of(self, fn) if wanted else ()
                    for param, events in wanted.items():
                        typ = self._passed_type(fn, param, sites)
                        for ev in events if typ is not None else ():
                            out[id(ev)] = typ
            finally:
                self._typing_params = False
            return out

        return self.once("parameter receivers", build)

    def _passed_type(self, fn: FunctionSummary, param: str, sites: list) -> str | None:
        """The one instance type every call in `sites` passes for `param` of `fn`, if any."""
        index = fn.params.index(param) - (1 if fn.params[:1] in (["self"], ["cls"]) else 0)
        found: set[str] = set()
        for site in sites:
            ev = site.event
            value = ev.kwargs.get(param) or (ev.args[index] if 0 <= index < len(ev.args) else None)
            typ = self.canonical(value[1]) if value and value[0] == "name" and isinstance(value[1], str) else None
            if not typ or not typ.endswith("()"):
                return None
            found.add(typ)
        return found.pop() if len(found) == 1 else None

    def function_for(self, name: str | None) -> FunctionSummary | None:
        """The analysed function a resolved call name denotes, if any."""
        if not name:
            return None
        fn = self.functions.get(name)
        if fn is None and "()." in name:
            base, _, attr = name.rpartition(".")
            fn = self.functions.get(f"{base.removesuffix('()')}.{attr}")
        if fn is None and name.endswith((".apply", ".run")):  # `task.apply()`, `task.run()`: a decorated task, right here
            task = self.functions.get(name.rpartition(".")[0])
            fn = task if task is not None and task.decorators else None
        if fn is None and name.endswith("()"):
            cls = self.classes.get(name[:-2])
            if cls is not None and "__call__" in cls.methods:
                return self.functions.get(f"{cls.qualname}.__call__")
        return fn

    def function_at(self, dotted: str) -> str | None:
        """`"app.tasks.send"` / `"app.tasks:send"`: a function named by string, as schedulers do
        (`names.function_by_path` adds the sys.path fallback)."""
        dotted = dotted.replace(":", ".")
        if dotted in self.functions:
            return dotted
        canon = self.referent(dotted)
        if canon in self.functions:
            return canon
        return self.job_names.get(dotted)

    def deref(self, value: list | None, hops: int = 0) -> list | None:
        """The Value a module-level variable was assigned, where `value` names one
        (`default_args=default_args`, `retry_policy=POLICY`, an imported settings dict), or that a
        helper of the application returns (`retry=get_retry()` returning `Retry(max=3)`, a copy
        `dict(OPTIONS)`, a setting's default `getattr(settings, "X", dict(max_retries=None))`);
        else `value`."""
        while value and hops < _MAX_HOPS:
            if value[0] == "call" and value[1] in _GETATTR and len(value[2]) == 3 and hops:
                # A variable or a settings helper holding `getattr(settings, "X_OPTIONS",
                # DEFAULTS)`: the default written there, which runs unless the deployment sets it
                # (a project module's own variable of that name, where the object is one). Written
                # where it is used (`max_retries=getattr(settings, "X", None)`), it stays as
                # written: a setting the deployment decides.
                found = self._attribute_of(value[2][0], value[2][1])
                if found is _UNREADABLE:
                    return value
                value, hops = (found if found is not None else value[2][2]), hops + 1
                continue
            if value[0] == "call" and value[1] in _DICT and not value[2] and value[3] and "**" not in value[3]:
                return ["dict", [[["lit", k], v] for k, v in value[3].items()]]  # `dict(max_retries=None, ...)`
            if value[0] == "call":
                returned = self._returned(value)
                if returned is None:
                    return value
                value, hops = returned, hops + 1
                continue
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

    def _attribute_of(self, obj: list, name: list):
        """The Value the project gives attribute `name` of `obj`: a project module's own variable
        (one it imports, or none, is `_UNREADABLE`: what a file checked alone loads may not hold
        it); None for a Django setting, whose value is the
        deployment's (the settings modules are not among what a file imports, so reading them
        would make a file checked alone disagree with the whole project); `_UNREADABLE` when
        the name or the object cannot be read."""
        if name and name[0] == "fstr" and all(p and p[0] == "lit" for p in name[1]):
            name = ["lit", "".join(str(p[1]) for p in name[1])]
        if not (name and name[0] == "lit" and isinstance(name[1], str)) or not obj or obj[0] != "name":
            return _UNREADABLE
        where = obj[2] if len(obj) > 2 else obj[1]
        module = self.modules.get(where)
        if module is not None:  # its own variable; one it imports may not be loaded: not read
            return module.assigns[name[1]][0] if name[1] in module.assigns else _UNREADABLE
        return None if where == "django.conf.settings" else _UNREADABLE

    def _returned(self, call: list) -> list | None:
        """What the application function `call` names returns, when one call builds it: that
        call's Value, the caller's arguments standing in for the parameters it passes on."""
        if call[1] in ("dict", "builtins.dict") and len(call[2]) == 1 and not call[3]:
            return call[2][0]
        fn = self.function_for(self.canonical(call[1]))
        if fn is None or len(fn.returns) != 1:
            return None
        made = fn.events[fn.returns[0]]
        if made.kind != "call" or not made.name:
            return None

        def given(v: list) -> list:
            if v and v[0] == "fstr":  # `f"APP_{option}"` with the caller's argument spliced in
                return ["fstr", [given(p) for p in v[1]]]
            if not v or v[0] != "param" or v[1] not in fn.params:
                return v
            found = call[3].get(v[1])
            index = fn.params.index(v[1])
            if found is None and index < len(call[2]):
                found = call[2][index]
            return found if found is not None else ["other"]

        return ["call", made.name, [given(a) for a in made.args], {k: given(v) for k, v in made.kwargs.items()}]

    def dispatched_methods(self, name: str | None) -> list[FunctionSummary]:
        """The methods a call through `getattr(obj, <name>)` can run, where the summary says what
        names it (`Class().<getattr:handle_*>`, `Class().<getattr:[event_type]>`: see
        `summary._named_by`): those of the object's class, its bases' and its subclasses' whose
        names fit the pattern, or are written under that key somewhere in the application
        (`{"event_type": "start_lease"}` names `start_lease`). Nothing for a name unknown."""
        owner, _, spec = (name or "").partition("().<getattr:")
        cls = self.classes.get(owner)
        if cls is None or not spec.endswith(">"):
            return []
        spec = spec[:-1]
        if spec.startswith("["):
            keyed = self.once("keyed names", self._keyed_names)
            fits = keyed.get(spec[1:-1], set()).__contains__
        else:
            prefix, _, suffix = spec.partition("*")
            fits = lambda m: len(m) > len(prefix) + len(suffix) and m.startswith(prefix) and m.endswith(suffix)  # noqa: E731
        out: dict[str, FunctionSummary] = {}
        # The class's methods, its bases', and those each subclass has (its own or another base's:
        # `class Webhooks(DispatchMixin, PaymentHandlers)`), not a test's subclass.
        family = [*self._mro(cls), *(c for sub in self.subclasses(cls.qualname)
                                     if not in_tests(self.module_of_class(sub)) for c in self._mro(sub))]
        for c in family:
            for method in c.methods:
                fn = self.functions.get(f"{c.qualname}.{method}")
                if fn is not None and fits(method) and not method.startswith("__") and method not in out:
                    out[method] = fn
        return list(out.values())

    def _keyed_names(self) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for mod in self.modules.values():
            if not in_tests(mod):
                for key, names in mod.keyed_names.items():
                    out.setdefault(key, set()).update(names)
        return out

    def table_functions(self, name: str | None) -> list[FunctionSummary]:
        """The functions an entry of a module-level table can be (`pkg.HANDLERS[]` or
        `pkg.HANDLERS.get()`, the entry of a literal key `pkg.HANDLERS[=ping]`, a tuple position
        `pkg.CHANNELS[]#2`, a key of each entry `pkg.KINDS[]#sender`, a dict's keys `pkg.HOOKS[in]`):
        the summary names a call through `HANDLERS[kind]` so, and it runs whichever the table holds;
        `pkg.BACKENDS[in].send` is that method of each class the table holds."""
        match = _TABLE_ENTRY.match(name or "")
        if match is None:
            return []
        base, part, position, method = match.groups()
        if part is None and position is None and method is not None and "()." in base:
            return self._collection_methods(base, method)
        table = self.deref(["ref", self.canonical(base) or base])
        if (not table or table[0] not in ("dict", "seq")) and "()." in base:
            table = self._instance_table(base)  # `self.handlers = {"ping": self.pong}`, set in a method
        if not table or table[0] not in ("dict", "seq"):
            return []
        key = part[1:] if part and part[0] == "=" else None
        if table[0] == "seq":
            entries = table[1] if key is None else [e for i, e in enumerate(table[1]) if str(i) == key]
        else:
            entries = [k if part == "in" else v for k, v in table[1] if key is None or self._may_be_key(k, key)]
        if position is not None and position.isdigit():
            i = int(position)
            entries = [e[1][i] for e in entries if e and e[0] == "seq" and i < len(e[1])]
        elif position is not None:  # `KINDS[kind]["sender"]`: that key of each entry, a dict
            entries = [v for e in entries if e and e[0] == "dict" for k, v in e[1] if k == ["lit", position]]
        out: list[FunctionSummary] = []
        for e in entries:
            if e and e[0] == "name" and e[1]:
                name = self.canonical(e[1])
                if method is not None:  # `BACKENDS[kind].send(...)`, `TASKS[name]().run()`: a class's method
                    name = self.canonical(f"{name}.{method}") if name in self.classes else None
                fn = self.function_for(name)
                if fn is not None and fn not in out:
                    out.append(fn)
        return out

    def instance_stores(self, owner: str, attr: str) -> list[tuple[str, list]]:
        """(class, Value) for each `self.<attr> = value` in a method of `owner`, its bases or its
        subclasses: what the instance's attribute can hold, whichever class of the family set it."""
        cls = self.classes.get(owner)
        if cls is None or "." in attr:
            return []
        out = []
        family = {c.qualname: c for c in (*self._mro(cls), *self.subclasses(owner))}
        for c in family.values():
            for m in c.methods:
                fn = self.functions.get(f"{c.qualname}.{m}")
                for a, _line, receiver, _src, value in fn.stores if fn is not None else ():
                    if a == attr and receiver == "self" and value:
                        out.append((c.qualname, value))
        return out

    def _instance_table(self, held: str) -> list | None:
        """The dict or list an instance's attribute is set to (`self.query_handlers = {
        "queue_request": self.queue_status, ...}`), the entries of every such assignment together;
        None where there is none."""
        owner, _, attr = held.rpartition("().")
        kind, entries = None, []
        for cls, value in self.instance_stores(owner, attr):
            if value[0] == "call" and value[1] in _DICT and len(value[2]) == 1 and not value[3]:
                value = value[2][0]  # `self._handlers = dict(handlers)`: a copy
            for table in self._passed_tables(cls, value[1]) if value[0] == "param" else [value]:
                if table[0] in ("dict", "seq") and kind in (None, table[0]):
                    kind = table[0]
                    entries.extend(table[1])
        return [kind, entries] if kind else None

    def constructions(self, cls: str) -> list[CallSite]:
        """The calls that construct the class `cls` (`Worker(...)`)."""
        return [site for site in calls_named(self, (cls.rpartition(".")[2],)) if site.name == cls]

    def kept_parameter(self, cls: str, attr: str) -> tuple[FunctionSummary, str] | None:
        """(`__init__`, parameter) where the class's own constructor keeps a parameter as
        `self.<attr>` (`self._runner = runner`)."""
        init = self.functions.get(f"{cls}.__init__")
        param = next((value[1] for a, _line, receiver, _src, value in (init.stores if init is not None else ())
                      if a == attr and receiver == "self" and value and value[0] == "param"), None)
        return (init, param) if param is not None else None

    def _passed_tables(self, cls: str, param: str) -> list[list]:
        """The tables the constructions of `cls` pass for its constructor's parameter `param`
        (`Worker(sessions, build_handlers(context))`): a dict or list written out, a module-level
        one, or what a function of the application returns (`FunctionSummary.returns_dict`)."""
        init = self.functions.get(f"{cls}.__init__")
        if init is None or param not in init.params:
            return []
        out = []
        for site in self.constructions(cls):
            value = self.deref(bound_argument(init, site.event, param))
            if value and value[0] == "call":
                maker = self.function_for(self.canonical(value[1]) if isinstance(value[1], str) else None)
                value = maker.returns_dict if maker is not None else None
            if value:
                out.append(value)
        return out

    def _collection_methods(self, held: str, method: str) -> list[FunctionSummary]:
        """`for mod in self.modules: mod.send_msg(msg)`: that method of each class whose instances
        the class puts in its collection (`self.modules = [Webhook()]`, `self.modules.append(
        Telegram(...))`, in any of its methods)."""
        owner, _, attr = held.rpartition("().")
        out: list[FunctionSummary] = []
        cls = self.classes.get(owner)
        # Filled by a base and read in a subclass, or the other way round.
        family = [owner] if cls is None else [c.qualname for c in (*self._mro(cls), *self.subclasses(owner))]
        collections = self._collections()
        for value in (v for o in dict.fromkeys(family) for v in collections.get((o, attr), ())):
            cls = _instance_class(self, value)
            fn = self.function_for(self.canonical(f"{cls}().{method}")) if cls in self.classes else None
            if fn is not None and fn not in out:
                out.append(fn)
        return out

    def module_collection_methods(self, event: Event) -> list[FunctionSummary]:
        """`item = JOBS.get(); item.run()` where `JOBS` is a module-level collection (`JOBS =
        queue.Queue()`): the method of each class whose instances the project puts in it
        (`JOBS.put(Job(...))`, `def add(job: Job): JOBS.put(job)`)."""
        taken = self._module_entries().get(id(event))
        if taken is None:
            return []
        out: list[FunctionSummary] = []
        for value in self._module_puts().get(taken, ()):
            cls = _instance_class(self, value)
            fn = self.function_for(self.canonical(f"{cls}().{event.attr}")) if cls in self.classes else None
            if fn is not None and fn not in out:
                out.append(fn)
        return out

    def _module_variable(self, ref: str | None) -> str | None:
        """`pkg.mod.JOBS` of a call's `pkg.mod.JOBS.put`, where JOBS is a module-level variable."""
        base = (ref or "").rpartition(".")[0]
        module, _, var = base.rpartition(".")
        mod = self.modules.get(module)
        return base if mod is not None and var in mod.assigns else None

    def _module_puts(self) -> dict[str, list]:
        """Module-level collection -> the Values put in it anywhere in the project."""
        def build() -> dict[str, list]:
            out: dict[str, list] = {}
            for fn in self.functions.values():
                for ev in fn.events:
                    held = self._module_variable(ev.ref) if ev.kind == "call" and ev.attr in _PUTS and ev.args else None
                    if held is not None:
                        out.setdefault(held, []).append(ev.args[-1])
            return out
        return self.once("module collection puts", build)

    def _module_entries(self) -> dict[int, str]:
        """By event (its id): the module-level collection whose entry the call's receiver was taken
        out of (`item = JOBS.get()`, `JOBS.pop().run()`)."""
        def build() -> dict[int, str]:
            out: dict[int, str] = {}
            for fn in self.functions.values():
                for ev in fn.events:
                    if ev.kind != "call" or not ev.attr or len(ev.receiver_src) != 1:
                        continue
                    source = fn.events[ev.receiver_src[0]] if ev.receiver_src[0] < len(fn.events) else None
                    if source is not None and source.kind == "call" and source.attr in TAKES_ENTRY:
                        held = self._module_variable(source.ref)
                        if held is not None:
                            out[id(ev)] = held
            return out
        return self.once("module collection entries", build)

    def collection_class(self, owner: str, attr: str) -> str | None:
        """The class of every entry of an instance's collection (`self.workers[site] = SiteWorker()`,
        `self.workers = [SiteWorker()]`, `self.workers.append(SiteWorker())`), where every value the
        class's family puts in it constructs that one class; None where they differ or one is not
        known (a parameter stored: `self.handlers[kind] = handler`)."""
        memo = self.once("collection classes", dict)
        if (owner, attr) in memo:
            return memo[(owner, attr)]  # (None while it is being found: an entry stored from another entry)
        memo[(owner, attr)] = None
        memo[(owner, attr)] = found = self._collection_class(owner, attr)
        return found

    def _collection_class(self, owner: str, attr: str) -> str | None:
        cls = self.classes.get(owner)
        family = [owner] if cls is None else [c.qualname for c in (*self._mro(cls), *self.subclasses(owner))]
        collections = self._collections()
        values = [v for o in dict.fromkeys(family) for v in collections.get((o, attr), ())]
        for o in dict.fromkeys(family):  # `self.workers[site] = SiteWorker()`, in any method of the family
            methods = (self.functions.get(f"{o}.{m}") for m in self.classes[o].methods) if o in self.classes else ()
            values.extend(value for fn in methods if fn is not None for stored, _, value in fn.item_stores if stored == attr)
        made = {_instance_class(self, v) for v in values}
        return made.pop() if len(made) == 1 and next(iter(made)) in self.classes else None

    def _collections(self) -> dict[tuple[str, str], list]:
        """(class, attribute) -> the Values its methods put in that collection of the instance."""
        def build() -> dict[tuple[str, str], list]:
            out: dict[tuple[str, str], list] = {}
            for mod in self.modules.values():
                for fn in mod.functions.values():
                    if not fn.class_qualname:
                        continue
                    for attr, _, receiver, _, value in fn.stores:
                        if receiver == "self" and value and value[0] == "seq":
                            out.setdefault((fn.class_qualname, attr), []).extend(value[1])
                        elif receiver == "self" and value and value[0] == "dict":  # iterated by `.values()`
                            out.setdefault((fn.class_qualname, attr), []).extend(v for _, v in value[1])
                    for ev in fn.events:
                        put = _put_into(fn, ev)
                        if put is not None:
                            values = ev.args[0][1] if ev.attr == "extend" and ev.args[0][0] == "seq" else [ev.args[-1]]
                            out.setdefault((fn.class_qualname, put[0]), []).extend(values)
            return out
        return self.once("instance collections", build)

    def collection_puts(self) -> dict[tuple[str, str], list[tuple[str, str, bool, str | None]]]:
        """(class, attribute) -> (method, parameter, under a key, where in the entry) for each
        method of the class that puts its parameter in that collection of the instance (`def
        register(self, kind, handler): self.handlers[kind].append(handler)`, `self.handlers[kind] =
        handler`: under a key; `self.listeners.append(listener)`: not), as the entry itself (None)
        or in it: a position of a tuple (`self.jobs.append((func, every))`: "0") or a literal key of
        a dict (`self.jobs[name] = {"func": func, "every": every}`: "func"). What it holds is what
        the method's callers hand it."""
        def build() -> dict[tuple[str, str], list[tuple[str, str, bool, str | None]]]:
            out: dict[tuple[str, str], list[tuple[str, str, bool, str | None]]] = {}
            for mod in self.modules.values():
                for fn in mod.functions.values():
                    if not fn.class_qualname:
                        continue
                    stored = [(*put, ev.args[-1]) for ev in fn.events if (put := _put_into(fn, ev)) is not None]
                    stored.extend((attr, True, value) for attr, _line, value in fn.item_stores)
                    for attr, keyed, value in stored:
                        for param, where in _params_held(value):
                            if param in fn.params[1:]:
                                out.setdefault((fn.class_qualname, attr), []).append((fn.qualname, param, keyed, where))
            return out
        return self.once("collection puts", build)

    def _may_be_key(self, written: list | None, key: str) -> bool:
        """Can a dict key written so (`"ping"`, `PING` naming `"ping"`) equal `key`? A key that
        cannot be read may."""
        value = self.deref(written)
        return not (value and value[0] == "lit") or str(value[1]) == key

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


def _returned_item(part: str) -> tuple[str, int] | None:
    """`setup()#1` -> ("setup", 1): item 1 of what a call of `setup` returns; else None."""
    head, sep, position = part.rpartition("()#")
    return (head, int(position)) if sep and head and "(" not in head and position.isdigit() else None


def _strip_call(part: str) -> tuple[str, bool]:
    """`Foo()` -> ("Foo", True): an instance; a part of a name with no call is itself (a string
    taken for a dotted path may hold anything: `"\\)"`)."""
    at = part.find("(")
    if part.endswith(")") and at >= 0:
        return part[:at], True
    return part, False


_MANAGERS = ("objects", "_default_manager", "_base_manager", "all_objects")


_ROW_METHODS = ("get", "first", "last", "latest", "earliest", "create", "get_by_natural_key")


def _only_raises(fn: FunctionSummary) -> bool:
    """Its whole body raises one exception, unconditionally: a placeholder for subclasses."""
    raised = [ev for ev in fn.events if ev.kind == "raise"]
    return len(raised) == 1 and not (raised[0].branch or raised[0].tries) and bool(raised[0].name) and all(
        ev.kind == "raise" or (ev.kind == "call" and ev.name == raised[0].name) for ev in fn.events)


def _params_held(value: list | None) -> list[tuple[str, str | None]]:
    """The parameters a stored Value is, or holds at a position of a tuple or under a literal key
    of a dict written out: (parameter, None / "0" / "func")."""
    if not value:
        return []
    if value[0] == "param":
        return [(value[1], None)]
    if value[0] == "seq":
        return [(v[1], str(i)) for i, v in enumerate(value[1]) if v and v[0] == "param"]
    if value[0] == "dict":
        return [(v[1], str(k[1])) for k, v in value[1] if k and k[0] == "lit" and v and v[0] == "param"]
    return []


def _instance_class(program: Program, value: list | None) -> str | None:
    """The class of the instance a Value is: one constructed (`Job(name)`) or a parameter
    annotated with a class (`job: Job`, named `Job()`)."""
    if value and value[0] == "call" and value[1]:
        return program.canonical(value[1])
    if value and value[0] == "name" and isinstance(value[1], str) and value[1].endswith("()"):
        return program.canonical(value[1][:-2])
    return None


def _put_into(fn: FunctionSummary, ev: Event) -> tuple[str, bool] | None:
    """The collection of the instance a method's call puts something in, and whether under a key:
    `self.workers.append(w)` (`workers`, no), a list it keeps under a key,
    `self.handlers[kind].append(h)` or through `setdefault` (`handlers`, yes)."""
    mine = f"{fn.class_qualname}()."
    if ev.kind != "call" or ev.attr not in _PUTS or not ev.args or not (ev.name or "").startswith(mine):
        return None
    held = ev.name[len(mine):].rpartition(".")[0]
    attr = held.removesuffix(".setdefault()").removesuffix("[]")
    return (attr, attr != held) if attr and "." not in attr and "[" not in attr else None


def _position(callee: FunctionSummary, param: str) -> int:
    """Where a call passes `callee`'s parameter by position (a method's `self` is not passed)."""
    offset = 1 if callee.class_qualname and callee.params[0] in ("self", "cls") else 0
    return callee.params.index(param) - offset


def bound_argument(callee: FunctionSummary, event: Event, param: str) -> list | None:
    """The Value a call passes for `callee`'s parameter (its default when it passes none); None
    when not known."""
    if param not in callee.params:
        return None
    if param in event.kwargs:
        return event.kwargs[param]
    position = _position(callee, param)
    if position < 0:
        return None
    if position < len(event.args):
        return event.args[position]
    if "**" in event.kwargs:
        return None
    return callee.defaults.get(param)


def bound_sources(callee: FunctionSummary, event: Event, param: str) -> list:
    """The indices of the calls written in what a call passes for `callee`'s parameter (a
    lambda's body, `int(requests.get(...).text)`)."""
    if param not in callee.params:
        return []
    if param in event.kwargs:
        return list(event.kwsrc.get(param, ()))
    position = _position(callee, param)
    return list(event.argsrc[position]) if 0 <= position < len(event.argsrc) else []


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


def left_before(a: Event, b: Event) -> bool:
    """Does the block of one of two events end the function (`return`) before the other's line,
    no loop around both? Then never both run (`if failed: requeue(); return` ... `insert(key)`)."""
    if set(a.loops) & set(b.loops):
        return False
    first, second = (a, b) if a.line <= b.line else (b, a)
    return bool(first.exit_line) and second.line > first.exit_line and not first.tries


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
    """The calls of the program by callee name, built once. Calls are kept as numbers in an array per
    callee name (function number << 32 | event index): a tuple per call costs eight times the
    memory on a large project, and most are never asked for."""

    calls_by_attr: dict[str, array]
    functions: list[tuple[ModuleSummary, FunctionSummary]]


def _build_indices(project: Program) -> _Indices:
    by_attr: dict[str, array] = {}
    functions: list[tuple[ModuleSummary, FunctionSummary]] = []
    for mod in project.modules.values():
        for fn in mod.functions.values():
            number = len(functions) << 32
            for i, ev in enumerate(fn.events):
                if ev.kind == "call" and ev.attr:
                    calls = by_attr.get(ev.attr)
                    if calls is None:
                        calls = by_attr[ev.attr] = array("Q")
                    calls.append(number | i)
            functions.append((mod, fn))
    # A call of a function passing all its arguments on is found under the name of the call it makes too.
    passing = {fn.name for mod in project.modules.values() for fn in mod.functions.values() if fn.passes_to}
    for name in passing:
        for code in list(by_attr.get(name, ())):
            mod, fn = functions[code >> 32]
            attr = (project.canonical(fn.events[code & 0xFFFFFFFF].name) or "").rpartition(".")[2]
            if attr and attr != name:
                by_attr.setdefault(attr, array("Q")).append(code)
    return _Indices(by_attr, functions)


def _indices(project: Program) -> _Indices:
    return project.once("indices", lambda: _build_indices(project))


def calls_named(project: Program, attrs: tuple[str, ...], where=None) -> list[CallSite]:
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


def calls_where(project: Program, attr_wanted, where) -> list[CallSite]:
    """The calls whose callee's last name `attr_wanted(name)` accepts (each name asked once) and
    that `where(project, module, event)` accepts."""
    indices = _indices(project)
    out = []
    for attr, codes in indices.calls_by_attr.items():
        if not attr_wanted(attr):
            continue
        for code in codes:
            mod, fn = indices.functions[code >> 32]
            ev = fn.events[code & 0xFFFFFFFF]
            if where(project, mod, ev):
                out.append(CallSite(mod, fn, code & 0xFFFFFFFF, ev, project.event_name(ev)))
    return out


def calls_of(project: Program, fn: FunctionSummary) -> list[CallSite]:
    """The calls of `fn`; for a constructor, the calls of its class or of a subclass that keeps it
    (`Service(...)`, `cls(...)`, `ApiService(...)`), and a subclass's `super().__init__(...)`."""
    if fn.name == "__init__" and fn.class_qualname in project.classes:
        cls = project.classes[fn.class_qualname]
        subs = project.subclasses(cls.qualname)
        keeping = {cls.qualname, *(s.qualname for s in subs if "__init__" not in s.methods)}
        below = {s.qualname for s in subs}
        return [*calls_named(project, tuple({cls.name, *(s.name for s in subs)}),
                             lambda p, m, e: (p.canonical(e.name) or "") in keeping),
                *(site for site in calls_named(project, ("__init__",)) if (site.event.name or "").startswith("super")
                  and site.function.class_qualname in below and site.function.name == "__init__")]
    names = (fn.name, *_aliases(project).get(fn.qualname, ()))
    # What the call graph says the call runs (`Project.callees`: through an attribute a
    # constructor keeps, a parameter's type, a table), so the sites agree with every walk of it.
    runs = getattr(project, "callees", None)
    return calls_named(project, names, lambda p, m, e: p.function_for(p.canonical(e.name)) is fn
                       or (runs is not None and any(c is fn for c in runs(e))))


def _aliases(project: Program) -> dict[str, tuple[str, ...]]:
    """Module variables naming a function under another name (`create_referenced_task =
    _referencer.create_task`, `send = deliver`): calls of the variable are calls of the function."""
    def build() -> dict[str, tuple[str, ...]]:
        found: dict[str, set] = {}
        for module in project.modules.values():
            for name in module.assigns:
                if not name.isidentifier():
                    continue
                fn = project.function_for(project.canonical(f"{module.module}.{name}"))
                if fn is not None and fn.name != name:
                    found.setdefault(fn.qualname, set()).add(name)
        return {qualname: tuple(sorted(names)) for qualname, names in found.items()}

    return project.once("function aliases", build)


def calls_a_function(project: Program, module: ModuleSummary, event: Event) -> bool:
    return project.function_for(project.canonical(event.name)) is not None


def classes_where(project: Program, wanted) -> list[ClassSummary]:
    """The project's classes for which `wanted(cls)` holds, in the project's order."""
    return [c for c in project.classes.values() if wanted(c)]


def modules_where(project: Program, wanted) -> list[ModuleSummary]:
    """The project's modules for which `wanted(module)` holds, in order."""
    return [m for m in project.modules.values() if wanted(m)]


def any_module(project: Program, wanted) -> bool:
    return any(wanted(m) for m in project.modules.values())


def per_module(project: Program, contribute) -> list[tuple[str, object]]:
    """(module name, `contribute(module)`) for every module that contributes something, in order."""
    return [(m.module, data) for m in project.modules.values() if (data := contribute(m))]


# Folders of code beside the application's own: vendored libraries, examples, docs, test helpers.
_BESIDE_THE_APPLICATION = frozenset({"vendor", "_vendor", "vendored", "third_party", "examples", "example", "docs",
                                     "doc", "testutils", "test_utils", "testing_utils"})


def in_tests(module: ModuleSummary) -> bool:
    """A module of the project's tests (`tests/`, `test_x.py`, Django's `tests.py`, `conftest.py`,
    a `test/` package's `__init__.py`); not a module of the application's that is named `test`
    (`tasks/test.py` holding a task)."""
    return names_tests(module.module, PurePath(module.path).name == "__init__.py")


def names_tests(dotted: str, package: bool = False) -> bool:
    """Does a dotted module name (a package's, if `package`) say tests (see `in_tests`)?"""
    *folders, name = dotted.split(".")
    if package:
        folders, name = [*folders, name], ""
    return (any(p in ("test", "tests", "testing", "conftest") or p.startswith("test_") or p.endswith("_test")
                for p in folders)
            or name in ("tests", "testing", "conftest") or name.startswith("test_") or name.endswith("_test"))


