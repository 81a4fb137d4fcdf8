"""The per-file phase: one `ast` walk that turns a module into a summary.

A summary holds what the project phase and the checks need — functions and classes, every call
and raise with its resolved name and its position in the control structure (loops, branches,
`with` regions, try bodies), decorators, docstrings, key sinks and where their values come from.
It is plain data, depends only on the file's bytes (never on configuration), and is cached by
content hash, so the project phase can be re-run without re-reading unchanged files.

Names are resolved here as far as one file allows: imports, module-level instances
(`app = Celery()` makes `app.task` read `celery.Celery().task`), local variables assigned from
constructors, parameter annotations and `with ... as x`. Instances are written with `()`:
`django.core.mail.EmailMessage().send`. What needs other modules (re-exports, instances
defined elsewhere, inherited methods) is finished by `project.Project.canonical`.
"""

from __future__ import annotations

import ast
import builtins
import re
import string
import sys
from dataclasses import dataclass, field, replace
from typing import Any

from .bindings import global_assignments, library_arm
from .keys import is_key_name, is_message_id
from .retry_loops import always_exits, retry_loop
from .values import options
from .words import HTTP_READ_METHODS, TAKING_WORDS, name_words

# A Value is a small JSON-able picture of an expression, enough to read settings from it:
#   ["lit", v] | ["name", dotted] | ["call", dotted, [args], {kwargs}] | ["seq", [v...]]
#   | ["dict", [[k, v]...]] | ["fstr", [parts]] | ["param", name, index(, "path")] | ["closure", name]
#   | ["param_attr", name, index, attribute] | ["each", [v...]] (a loop variable over a literal tuple, a
#   table's entry picked at run time) | ["either", [v...]] (a function chosen in `if` arms; the last
#   where one is read: `names.target`) | ["other"]
Value = list

_MAX_VALUE_DEPTH = 4
_ENTRY_KEY = re.compile(r"^\w+$")  # a table key that can be written into a name
_DOTTED_PATH = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$")
_SQL_WRITE_RE = re.compile(r"^\s*(?:--[^\n]*\n\s*)*(insert|update|delete|merge|replace|upsert)\b", re.I)
# A query that only reads (`SELECT ... WHERE lease_expires_at < ?`), with no write anywhere in it.
_SQL_SELECT_RE = re.compile(r"^\s*(?:--[^\n]*\n\s*)*select\b(?![\s\S]*\b(insert|update|delete)\b)", re.I)
_AWS_FACTORIES = ("client", "resource")


@dataclass(slots=True)
class Event:
    """A call or a raise inside a function body, with where it sits in the control flow."""

    kind: str  # "call" | "raise"
    name: str | None  # resolved callee (calls) or exception (raises); None if unknown
    attr: str | None  # last name of the callee expression (`post` in `s.post(...)`)
    line: int
    col: int
    end_line: int
    end_col: int
    args: list = field(default_factory=list)  # Values of positional arguments
    kwargs: dict = field(default_factory=dict)  # keyword -> Value ("**" for a splat)
    argsrc: list = field(default_factory=list)  # per positional arg: event ids feeding it
    kwsrc: dict = field(default_factory=dict)  # keyword -> event ids feeding it
    loops: tuple = ()  # ids of enclosing loops
    branch: tuple = ()  # ((if_id, arm), ...) of enclosing if/else arms
    regions: tuple = ()  # ids of enclosing `with` regions, outermost first
    tries: tuple = ()  # ids of enclosing try bodies that have an `except`
    handlers: tuple = ()  # ids of the try statements whose except handler encloses this
    sql: str | None = None  # write verb when the first argument is SQL text
    receiver_src: tuple = ()  # event ids feeding the receiver (for `x.execute` on a tainted x; the object called, `retryer(f)`)
    exit_line: int = 0  # end of the innermost enclosing block that ends in return/raise (0: none)
    ref: str | None = None  # `order_paid.send`: the receiver as a variable, not its type (signals)
    in_test: bool = False  # evaluated in an `if`/`while` test (`if X.objects.filter(key=k).exists():`)
    flag_tested: bool = False  # its result unpacked and the second name tested (get_or_create's `created`)
    gated: tuple = ()  # events whose unpacked flag must be true for this to run (`if created:`, `if not created: return`)
    receiver: str | None = None  # the receiver as spelled, its last name (`handler` in `handler.handle(msg)`)
    statement: bool = False  # what a statement is made for: its value dropped or kept in a name (`self.update_tasks()`, `n = await step()`)
    kept: bool = False  # that statement keeps its value in a name (`n = await step()`)
    iterated: bool = False  # a `for` statement goes over what it returns (`for sent in send_due_reports():`)


@dataclass(slots=True)
class Region:
    """A `with` item: what it enters, and its arguments (for transactions and locks)."""

    id: int
    name: str | None
    line: int
    col: int
    end_line: int
    end_col: int
    args: list = field(default_factory=list)
    kwargs: dict = field(default_factory=dict)
    is_async: bool = False
    ref: str | None = None  # `with dag:` on a module-level variable: its dotted name (to read its value)


@dataclass(slots=True)
class Sink:
    """A value that names itself a key: `idempotency_key = ...`, `headers["Idempotency-Key"]`."""

    kind: str  # "var" | "attr" | "dictkey"
    name: str
    line: int
    sources: tuple  # event ids feeding the value
    params: tuple = ()  # the parameters the value is made of (`{"webhook-id": msg_id}` in a helper; `data.key` for a field of one)


@dataclass(slots=True)
class Handler:
    """An except clause: what it catches and whether it re-raises (for swallowed failures)."""

    try_id: int
    types: list[str]  # resolved names of the caught exceptions ("" for one that did not resolve); [] for a bare except
    line: int
    col: int
    reraises: bool
    calls: list  # resolved names of calls in the handler body
    unresolved: list = field(default_factory=list)  # per type: its bare name when it did not resolve (`except on`)
    hands_over: bool = False  # the caught exception is returned, stored or handed on (`self.error = e`, `q.put(e)`)
    leaves: bool = False  # the handler's body ends the round or the function (`continue`, `break`, `return`)
    exits: bool = False  # ... and leaves the loop it is in (`raise`, `return`, `break`; not `continue`)
    recovers: bool = False  # sets state for what follows (`self.rescan = True`, `status = "failed"`), not the bare exception
    judged: tuple = ()  # the functions asked about the caught exception, where what they say decides (`_judged`)
    # `if e.code == 409: return e.response`: a conflict on a retry is taken as done, the far end
    # knowing the resource by its name (a retried create finds it made)
    accepts_conflict: bool = False
    # `if exc.response.status_code != 423: raise` first: the statuses it goes on after, all others raised
    goes_on_statuses: tuple = ()
    # `except JobError: sleep(5); resource = get_resource(id)`: ((line, col) of the call in the
    # `try`, (line, col) of the same call written again here), for each call made again
    repeats: tuple = ()
    # `if e.response.status_code == 401: ...`: (first line, last line, statuses) of each arm of the
    # handler that runs only on those statuses
    status_arms: tuple = ()
    in_finally: bool = False  # its `try` is in a `finally:` block: clean-up after the work, whatever happened
    # `event.next_retry_at = time.time() + delay`, `job.update(retry_at=...)`: it stores when to try
    # the work again, for a loop that takes what is due (a retry through its own store)
    reschedules: bool = False


@dataclass(slots=True)
class FunctionSummary:
    qualname: str
    name: str
    line: int  # line of the `def`
    col: int  # column of the name (0-based)
    end_line: int
    is_async: bool
    decorators: list  # [Value, line, col, end_line, end_col]
    docstring: str | None
    doc_line: int | None
    params: list
    class_qualname: str | None
    events: list = field(default_factory=list)
    regions: list = field(default_factory=list)
    sinks: list = field(default_factory=list)
    returns: tuple = ()  # event ids feeding return values
    returns_param: list = field(default_factory=list)  # parameters returned as they are or as their dotted path
    returns_function: str | None = None  # a function it defines and returns (a callback factory's closure)
    awaits_param: list = field(default_factory=list)  # parameters awaited as they are (`await coro`: a coroutine wrapper)
    return_type: str | None = None  # resolved type of the first typed return (`EmailMessage()`)
    return_items: tuple = ()  # resolved type (or None) of each item of the first tuple returned (`return cfg, Session()`)
    returns_one_of: tuple = ()  # functions of a table it returns an entry of (`return {"smtp": send_smtp, ...}.get(kind)`)
    # The dict it returns as written, the first one (`def get_scheduled_tasks(self): return {"sync": {...}}`):
    # a hook whose result configures the framework that calls it.
    returns_dict: list | None = None
    # The `if` arms that run only on some HTTP statuses (`elif response.status_code == 429:`):
    # (first line, last line, statuses) each, as `Handler.status_arms`.
    status_arms: tuple = ()
    handlers: list = field(default_factory=list)
    def_col: int = 0  # column of the `def` keyword (0-based), for inserting code
    defaults: dict = field(default_factory=dict)  # parameter -> Value of its default, where it has one
    forever: list = field(default_factory=list)  # ids of its loops that run until stopped (`while True:`)
    streams: list = field(default_factory=list)  # ids of its loops over a message stream (`for message in consumer:`)
    returning: list = field(default_factory=list)  # ids of loops with a `return` inside (they wait for a result)
    breaks: list = field(default_factory=list)  # (innermost loop id, if-arms, line, in an `except` of the loop) of each `break`
    # ids of loops left by a `break` on a condition of their own (`if status == "done": break`), not
    # in an `except` inside the loop, nor on a stop test or a count of rounds (`if n >= limit:`)
    ended: list = field(default_factory=list)
    # ids of loops that take each round's item from a call and end when it gives none (`while True:
    # km = fetch_next(); if not km: break; ...`): a later round, or a new run, never sees an earlier item
    pulls: list = field(default_factory=list)
    # what a loop with nothing in its body calls in its test (`while self.do_loop(): pass`): each
    # round is that call, which says whether to go on
    rounds: list = field(default_factory=list)
    generator: bool = False  # its body yields
    sliced: list = field(default_factory=list)  # ids of the calls whose result is cut to a bounded slice (`qs[:100]`)
    # `row.sent = True`: (attribute, line, receiver as written (`row`, `self.order`) or None,
    # event ids feeding the receiver, Value assigned), in order: what a later `save()` records.
    stores: list = field(default_factory=list)
    # `self.events[name] = f` in a method: (the instance's attribute, line, Value assigned).
    item_stores: list = field(default_factory=list)
    # `REGISTRY[name] = fn` of a module-level table: (the table's dotted name, line, Value assigned).
    table_stores: list = field(default_factory=list)
    # Loops that retry what their `try` does (`retry_loops.retry_loop`): (loop id, try id (None: the
    # loop retries a call until it returns true), line, col,
    # end line, end col of the loop's header, header as written, retries when known, what holds the
    # count otherwise, never stops, goes round on a result too, backoff, first delay, the exception
    # types tenacity's block is told to retry (empty: as its handlers say)).
    retry_loops: list = field(default_factory=list)
    # `def enqueue(*args, **kwargs): return toolkit.enqueue_job(*args, **kwargs)`, undecorated: the
    # resolved name of the call it passes every argument to (a call of it is a call of that).
    passes_to: str | None = None
    # The extension headers of a request it names (`request.headers.get("X-CloudTasks-TaskName")`,
    # `request.META["HTTP_X_APPENGINE_CRON"]`), lower case, `-` for `_`, without `HTTP_`: who
    # delivers the request it handles.
    header_names: tuple = ()


@dataclass(slots=True)
class ClassSummary:
    qualname: str
    name: str
    line: int
    col: int
    end_line: int
    bases: list  # resolved names (None where unknown)
    decorators: list
    docstring: str | None
    doc_line: int | None
    attrs: dict  # class-level name -> [Value, line, col]
    attr_types: dict  # `self.x = Foo()` in any method -> "Foo()"
    methods: list


@dataclass(slots=True)
class ModuleSummary:
    path: str
    module: str
    imports: dict = field(default_factory=dict)  # local name -> resolved dotted name
    symbols: dict = field(default_factory=dict)  # module-level name -> resolved name or type
    assigns: dict = field(default_factory=dict)  # module-level target -> [Value, line, col]
    functions: dict = field(default_factory=dict)
    classes: dict = field(default_factory=dict)
    suppressions: dict = field(default_factory=dict)  # line -> [kind, [codes]]
    imported: list = field(default_factory=list)  # every module named by an import, anywhere
    uses: dict = field(default_factory=dict)  # definition (relative name) -> names it refers to; see `uses_of`
    # key -> the names written under it (`{"event_type": "start_lease"}`, `Event(kind="ping")`,
    # `msg["op"] = "sync"`, `self.state = "idle"`): what `getattr(self, event["event_type"])` can name
    keyed_names: dict = field(default_factory=dict)
    docstring: str | None = None  # the module's own (a management command's file says what it is for)
    error: str | None = None  # set when the file could not be analysed
    error_kind: str | None = None  # "parse-error" | "unreadable-file"
    error_line: int = 1
    error_col: int = 1


MODULE_CODE = "<module>"


_PATH_ATTRS = ("__module__", "__qualname__", "__name__")
_PROPERTIES = ("property", "functools.cached_property", "cached_property", "django.utils.functional.cached_property")


def is_property(fn: FunctionSummary) -> bool:
    """Decorated `@property` (or a cached one): its users read its value, never call it."""
    return any(value and value[0] == "name" and value[1] in _PROPERTIES for value, *_ in fn.decorators)


class _Scope:
    """Names visible inside one function (or the module): resolved name, or None if untyped."""

    __slots__ = ("names", "sources", "parent", "depth", "held", "params", "globals", "caught", "node", "_changed", "imported")

    def __init__(self, parent: _Scope | None) -> None:
        self.names: dict[str, str | None] = {}
        self.sources: dict[str, frozenset] = {}
        self.parent = parent
        self.depth: dict[str, tuple] = {}  # the if-arms each name's type was assigned in
        self.held: dict[str, list] = {}  # locals holding a parameter, or the dotted path of one
        self.params: tuple = ()  # the function's own parameters (a nested function sees them as "closure")
        self.globals: tuple = ()  # names this function declares `global`
        self.caught: dict[str, Handler] = {}  # `outcome = exc` in a handler: the local holds its exception
        self.node: ast.AST | None = None  # the function's own definition
        self._changed: frozenset | None = None
        self.imported: dict[str, str] = {}  # name -> what an import statement bound it to here

    @property
    def changed(self) -> frozenset:
        """The parameters the function may change (`_changed_names`), read when first asked: few
        functions test a parameter in a loop."""
        if self._changed is None:
            self._changed = _changed_names(self.node, self.params) if self.node is not None else frozenset()
        return self._changed


class _TrackedNames(dict):
    """The module scope's names, remembering which were set since `changed()` was last asked: a
    module-level import records them (`_stmt_import`) without copying the whole table again."""

    __slots__ = ("_changed", "bound")

    def __init__(self) -> None:
        super().__init__()
        self._changed: dict[str, None] = {}  # in the order they were set
        self.bound: list[str] = []  # every name set, in order (what an `if` arm bound: `_arm_end`)

    def __setitem__(self, key: str, value) -> None:
        dict.__setitem__(self, key, value)
        self._changed[key] = None
        self.bound.append(key)

    def changed(self) -> dict[str, None]:
        out, self._changed = self._changed, {}
        return out


_EMPTY: frozenset = frozenset()
# Shared, never mutated: an empty argument list or keyword dict, and the commonest Values.
_NONE: tuple = ()
_NO_KWARGS: dict = {}
# Methods that call the callable they are given, with the arguments after it (Twisted's reactor and threads).
_TRAMPOLINES = frozenset(("callInThread", "callFromThread", "callWhenRunning", "deferToThread"))
_OTHER: list = ["other"]
_LIT_NONE: list = ["lit", None]
# Calls whose receiver's identity matters (Django signals: which signal is sent or connected).
# Calls whose receiver is kept as the variable it is (`ref`): a signal's, and a module-level queue's
# (`work.put((fn, args))` and `work.get()` meet at `pkg.jobs.work`).
_REF_ATTRS = ("send", "send_robust", "connect", "asend", "asend_robust", "put", "put_nowait", "get", "get_nowait",
              "append", "appendleft", "popleft")


# Compatibility layers that re-export the standard library under another name: code that
# imports `request` from `six.moves.urllib` calls `urllib.request.urlopen`.
_MOVED = {"six.moves.urllib": "urllib", "six.moves.http_client": "http.client", "six.moves.queue": "queue",
          "six.moves.urllib_parse": "urllib.parse", "six.moves.urllib.request": "urllib.request",
          "future.moves.urllib": "urllib", "future.moves.http.client": "http.client"}


def _moved(module: str) -> str:
    for old, new in _MOVED.items():
        if module == old or module.startswith(old + "."):
            return new + module[len(old):]
    return module


# Reads of a Redis store: what they give is what it holds, whatever bounds they are given.
_STORE_READS = frozenset({"zrangebyscore", "zrevrangebyscore", "zrange", "zrevrange", "zrangebylex", "zscan",
                          "smembers", "sscan", "hgetall", "hmget", "hkeys", "hvals", "hscan", "lrange", "xrange",
                          "xrevrange", "xread", "xreadgroup", "mget"})
# Methods that put their arguments into the object they are called on.
_FED_BY_ARGUMENTS = frozenset({"update", "append", "extend", "add", "insert", "appendleft", "extendleft", "setdefault",
                               "write"})


class Summarizer:
    """Builds a ModuleSummary in one recursive walk over the module's `ast`."""

    def __init__(self, module: str, path: str, is_package: bool = False) -> None:
        self.mod = ModuleSummary(path=path, module=module)
        self.package = module if is_package else module.rpartition(".")[0]
        self._ids = 0
        self.fn: FunctionSummary | None = None
        self.scope: _Scope | None = None
        self.module_scope = _Scope(None)
        self.module_scope.names = _TrackedNames()
        self.module_vars: set[str] = set()  # module-level names last bound by assignment
        self.star_modules: dict[str, None] = {}  # modules the module imports `*` from, in order
        self.owner: ClassSummary | None = None  # the class whose body we are directly in
        self.class_scope: _Scope | None = None  # that class body's names (its methods' decorators read them)
        self.loops: tuple = ()
        self.branch: tuple = ()
        self.regions: tuple = ()
        self.tries: tuple = ()
        self.handlers: tuple = ()
        self.cancelled: tuple = ()  # ids of the enclosing `try`s whose handler being walked catches a cancellation
        self.exit_line = 0
        self.stop_ifs: set[int] = set()  # `if` statements whose test says stop (`if stop.wait(5):`)
        self.flag_loops: set[int] = set()  # loops whose test is a stop or run flag (`while not stop.is_set():`)
        self.count_ifs: set[int] = set()  # and those that count rounds (`if loops >= max_loops:`)
        self.else_stop_ifs: set[int] = set()  # whose `else` leaves on a caller's choice (`if interval:`)
        self.mode_ifs: set[int] = set()  # whose body runs in a mode the caller chose (`if dry_run:`)
        self.finally_depth = 0  # `finally:` blocks being walked
        self.gated: tuple = ()  # the calls whose unpacked flag the current statement runs under
        self._strings: dict[str, str] = {}
        self._flags: dict[str, int] = {}  # in the current function: name -> the call it was unpacked from
        self._stored: list = _OTHER  # the Value an assignment statement stores (see `_stmt_assign`)
        self._global_types: dict[str, str] = {}  # module globals typed by a function's `global` assignment
        self._try_ids: dict[int, int] = {}  # id() of a walked `try` statement -> its id

    # ---- entry -----------------------------------------------------------------------------

    def run(self, tree: ast.Module, may_declare_globals: bool = True) -> ModuleSummary:
        imports_seen = len(self.mod.imported)
        self._declare_module_names(tree.body)
        del self.mod.imported[imports_seen:]  # the walk below records each import once
        module_fn = FunctionSummary(
            qualname=f"{self.mod.module}.{MODULE_CODE}", name=MODULE_CODE, line=1, col=0,
            end_line=1, is_async=False, decorators=[], docstring=None, doc_line=None, params=[],
            class_qualname=None,
        )
        self.mod.functions[module_fn.qualname] = module_fn
        self.mod.docstring = ast.get_docstring(tree)
        self.fn, self.scope = module_fn, self.module_scope
        if may_declare_globals:  # a walk of its own, spared where the source has no `global`
            self._type_globals(tree.body)
        for node in tree.body:
            self.stmt(node)
        self.mod.imported = sorted(set(self.mod.imported))
        self.mod.uses = uses_of(self.mod)
        return self.mod

    def _type_globals(self, body: list) -> None:
        """`def setup(): global scheduler; scheduler = BackgroundScheduler()`: the module global
        has that type in every function, wherever they stand (`bindings.global_assignments`)."""
        for name, values in global_assignments(body).items():
            # Resolved in the module's names: only a value built from an import, a function or a
            # class of the module (`BackgroundScheduler()`), never from the function's locals.
            known = self.module_scope.names
            types = {self.resolve(value) for value, params in values
                     if isinstance(value, (ast.Call, ast.Name, ast.Attribute, ast.Await))
                     and (head := _head(value)) in known and head not in params}
            types.discard(None)
            if len(types) == 1:
                typ = self._global_types[name] = types.pop()
                self.module_scope.names[name] = typ
                self.mod.symbols[name] = typ
                self.module_vars.add(name)

    def _next_id(self) -> int:
        self._ids += 1
        return self._ids

    def _declare_module_names(self, body: list) -> None:
        """Top-level defs, classes and imports are visible in functions defined before them."""
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.module_scope.names[node.name] = f"{self.mod.module}.{node.name}"
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                self._import(node, self.module_scope)
            elif isinstance(node, (ast.If, ast.Try)):
                for part in (node.body, getattr(node, "orelse", []), getattr(node, "finalbody", [])):
                    self._declare_module_names(part)
                for handler in getattr(node, "handlers", []):
                    self._declare_module_names(handler.body)

    # ---- name resolution ---------------------------------------------------------------------

    def lookup(self, name: str) -> str | None:
        scope = self.scope
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        if len(self.star_modules) == 1 and name[:1].isupper() and name not in BUILTINS:
            # `from extras.scripts import *` then `class Report(Script)`: a class bound nowhere
            # here comes from the one module the module imports everything from.
            return f"{next(iter(self.star_modules))}.{name}"
        return name  # a builtin or an unknown global: keep the spelling

    def resolve(self, node: ast.AST) -> str | None:
        """The dotted name an expression denotes; instances end in `()`. Equal names are one
        object (`_strings`): a module names the same callee many times, and a summary keeps
        every one — shared, they are stored and loaded once (marshal keeps shared objects)."""
        name = self._resolve(node)
        return name if name is None else self._strings.setdefault(name, name)

    def annotated_class(self, node: ast.expr | None) -> str | None:
        """The class an annotation names (`Server`, `"Server"`, `Optional[Server]`, `Server | None`),
        for typing what a parameter holds or a function returns; None for a builtin, a typing
        construct, a container or a union of several classes."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):  # `-> "Server"`
            if len(node.value) > _LONGEST_ANNOTATION:
                return None  # no class is named so; parsing it could exhaust the stack
            try:
                node = ast.parse(node.value.strip(), mode="eval").body
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                return None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):  # `Server | None`
            arms = [a for a in (node.left, node.right) if not (isinstance(a, ast.Constant) and a.value is None)]
            return self.annotated_class(arms[0]) if len(arms) == 1 else None
        if isinstance(node, ast.Subscript):
            outer = self._resolve(node.value)
            if outer in _OPTIONAL:
                return self.annotated_class(node.slice)
            if outer in _UNION and isinstance(node.slice, ast.Tuple):
                arms = [a for a in node.slice.elts if not (isinstance(a, ast.Constant) and a.value is None)]
                return self.annotated_class(arms[0]) if len(arms) == 1 else None
            return None
        if not isinstance(node, (ast.Name, ast.Attribute)):
            return None
        name = self.resolve(node)
        if not name or name.endswith("()") or name.startswith(_NOT_CLASSES) or ("." not in name and name in BUILTINS):
            return None
        return name

    def _resolve(self, node: ast.AST) -> str | None:
        if isinstance(node, ast.Name):
            return self.lookup(node.id)
        if isinstance(node, ast.Attribute):
            base = self._resolve(node.value)
            return None if base is None else f"{base}.{node.attr}"
        if isinstance(node, ast.Call):
            callee = node.func
            if (isinstance(callee, ast.Subscript) and isinstance(callee.value, ast.Name)
                    and self.module_var(callee.value.id) and (entry := self._table_entry(callee))):
                return f"{entry}()"  # `TASKS[name]()`: an instance of a class the module's table holds
            if isinstance(callee, ast.Subscript) and isinstance(callee.value, (ast.Name, ast.Attribute)):
                generic = self._resolve(callee.value)  # `Celery[MyTask]("proj")`: a generic class
                if generic and generic.rpartition(".")[2][:1].isupper():
                    return f"{generic}()"
            func = self._resolve(callee)
            if func is None:
                return None
            if func in ("typing.cast", "typing_extensions.cast") and node.args:
                kind = self._resolve(node.args[0])  # `cast(Celery, make_app())` is a Celery
                return f"{kind}()" if kind else None
            if func.rpartition(".")[2] in ("enter_context", "enter_async_context") and len(node.args) == 1:
                # `self._exit_stack.enter_context(ThreadPoolExecutor())`: what a context manager
                # gives its `with` is, as a rule, itself
                return self._resolve(node.args[0])
            if func == "getattr" and len(node.args) >= 2 and (owner := self._resolve(node.args[0])):
                # `getattr(scheduler.every(n), unit)`: an attribute of that object, named when
                # written as a literal, else `<getattr>` (which no function or API is called)
                attr = node.args[1]
                literal = isinstance(attr, ast.Constant) and isinstance(attr.value, str) and attr.value.isidentifier()
                return f"{owner}.{attr.value if literal else _named_by(attr)}"
            if func.rpartition(".")[2] in _AWS_FACTORIES and func.startswith(("boto3", "aioboto3")):
                if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                    return f"{func}({node.args[0].value})"
            return f"{func}()"
        if isinstance(node, ast.Await):
            return self._resolve(node.value)
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice) and isinstance(node.value, ast.Attribute) \
                and isinstance(node.value.value, ast.Name) and node.value.value.id == "self":
            held = self._resolve(node.value)  # `self.workers[site]`: an entry of the instance's collection
            return f"{held}[]" if held and "()." in held and held[0] != "@" else None
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and isinstance(node.slice, ast.Constant) \
                and isinstance(node.slice.value, str) and node.slice.value.isidentifier():
            entry = self.lookup(node.value.id)  # `entry["func"]` of `for entry in self.jobs.values():`
            return f"{entry}#{node.slice.value}" if entry and "()." in entry and entry.endswith("[]") else None
        if (isinstance(node, ast.IfExp) and isinstance(node.body, ast.Attribute) and isinstance(node.orelse, ast.Attribute)
                and ast.dump(node.body.value) == ast.dump(node.orelse.value)
                and not (isinstance(node.body.value, ast.Name) and node.body.value.id in ("self", "cls"))):
            # `send = client.cast if async_ else client.call`: a library object's method, named by the
            # first (not `self.noop if dry_run else self.push`: two of the application's, either may run)
            return self._resolve(node.body)
        return None

    def _table_entry(self, node: ast.AST, called: bool = False) -> str | None:
        """`HANDLERS[kind]` on a module-level or imported table (`handlers.HANDLERS[kind]` too), or
        `HANDLERS.get(kind)` on one of this module's (on any, where what it gives is `called` at
        once: `HANDLERS.get(kind)(payload)`): an entry of that table, named
        `pkg.mod.HANDLERS[]` (the project reads the table's values, so a dispatch table's call runs
        each function it holds); a literal key names its entry alone (`pkg.mod.HANDLERS[=ping]`)."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" and node.args:
            table, key = node.func.value, node.args[0]
            if not called and not (isinstance(table, ast.Name) and self.module_var(table.id)):
                return None  # `x = cache.get(key)`: an imported object's method, named as such
        elif isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice):
            table, key = node.value, node.slice
        else:
            return None
        base = self._table_name(table)
        if base is None and isinstance(node, ast.Subscript) and isinstance(table, ast.Attribute) \
                and isinstance(table.value, ast.Name) and table.value.id == "self":
            held = self.resolve(table)  # `self.handlers[kind]`: a table the instance holds
            base = held if held and "()." in held and held[0] != "@" else None
        if base is None:
            return None
        if isinstance(key, ast.Constant) and type(key.value) in (str, int) and _ENTRY_KEY.match(str(key.value)):
            return f"{base}[={key.value}]"
        return f"{base}[]"

    def _table_name(self, node: ast.AST) -> str | None:
        """The dotted name of a module-level or imported variable `node` names (`HANDLERS`,
        `handlers.HANDLERS`), not a local's nor an instance's."""
        root = node
        while isinstance(root, ast.Attribute):
            root = root.value
        if not isinstance(root, ast.Name):
            return None
        if node is root and (ref := self.module_var(root.id)) is not None:
            return ref
        scope = self.scope
        while scope is not None and scope is not self.module_scope:
            if root.id in scope.names:
                return None
            scope = scope.parent
        bound = self.resolve(node)
        return bound if bound and "." in bound and "(" not in bound and bound[0] != "@" else None

    def _receiver_ref(self, func: ast.AST) -> str | None:
        """`order_paid.send` as `shop.signals.order_paid.send`: which object, not which type;
        `signals.order_paid.send` the same, through the module `signals` names."""
        if not isinstance(func, ast.Attribute):
            return None
        if isinstance(func.value, ast.Name):
            var = self.module_var(func.value.id)
            if var is None:
                bound = self.lookup(func.value.id)
                var = bound if bound and "()" not in bound and bound != func.value.id else None
            return f"{var}.{func.attr}" if var else None
        attrs, node = [func.attr], func.value
        while isinstance(node, ast.Attribute):
            attrs.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        head = self.module_var(node.id) or self.lookup(node.id)  # a module, or a module's variable
        if not head or "()" in head or head[0] == "@":
            return None  # an instance's attribute (`self.paid.send`): its object is not named
        return ".".join([head, *reversed(attrs)])

    def _module_table(self, name: str) -> str | None:
        """The dotted name of the module-level variable `name` denotes, of this module or imported
        (`from .registry import REGISTRY`); None for a local."""
        if self._bound_in_a_function(name):
            return None
        if name in self.module_vars:
            return f"{self.mod.module}.{name}"
        imported = self.mod.imports.get(name)
        return imported if imported and "." in imported else None

    def _bound_in_a_function(self, name: str) -> bool:
        """Is `name` here a local, a parameter or an enclosing function's name?"""
        scope = self.scope
        while scope is not None and scope is not self.module_scope:
            if name in scope.names:
                return True
            scope = scope.parent
        return False

    def module_var(self, name: str) -> str | None:
        """The dotted name of the module-level variable `name` denotes here, if it is one."""
        return f"{self.mod.module}.{name}" if not self._bound_in_a_function(name) and name in self.module_vars else None

    def _import(self, node: ast.Import | ast.ImportFrom, scope: _Scope) -> None:
        if isinstance(node, ast.Import):
            self.mod.imported.extend(alias.name for alias in node.names)
            for alias in node.names:
                if alias.asname:
                    scope.names[alias.asname] = _moved(alias.name)
                    if scope is self.module_scope:
                        self.module_vars.discard(alias.asname)
                else:
                    top = alias.name.partition(".")[0]
                    scope.names[top] = top
                    if scope is self.module_scope:
                        self.module_vars.discard(top)
            return
        base = node.module or ""
        if node.level:
            parts = self.package.split(".") if self.package else []
            if node.level > 1:
                parts = parts[: len(parts) - (node.level - 1)]
            base = ".".join(p for p in (*parts, node.module or "") if p)
        if base:
            self.mod.imported.append(base)
        moved = _moved(base) if not node.level else base
        for alias in node.names:
            if alias.name == "*":
                if scope is self.module_scope and moved:
                    self.star_modules[moved] = None
                continue
            scope.names[alias.asname or alias.name] = f"{moved}.{alias.name}" if moved else alias.name
            scope.imported[alias.asname or alias.name] = scope.names[alias.asname or alias.name]
            if base:
                self.mod.imported.append(f"{base}.{alias.name}")  # `from pkg import module`
            if scope is self.module_scope:
                self.module_vars.discard(alias.asname or alias.name)

    # ---- values ------------------------------------------------------------------------------

    def value(self, node: ast.AST | None, depth: int = 0) -> Value:
        if node is None:
            return _LIT_NONE
        if isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, (str, int, float, bool)) or v is None:
                return ["lit", v]
            return _OTHER
        if depth >= _MAX_VALUE_DEPTH:
            return _OTHER
        if isinstance(node, (ast.Name, ast.Attribute)):
            name = self.resolve(node)
            ref = self.module_var(node.id) if isinstance(node, ast.Name) else None
            if ref is not None:
                # A module-level variable: keep its dotted name so its assigned value can be read
                # (`default_args=default_args`, `retry_policy=POLICY`).
                return ["name", name, ref] if name else ["ref", ref]
            held = self.scope.held.get(node.id, _OTHER) if isinstance(node, ast.Name) else _OTHER
            if held[0] == "call" or (held[0] == "either" and all(if_id != held[2] for if_id, _ in self.branch)):
                return held  # `cull = partial(cull_idle, ...)`: typed, and held; chosen in the arms of an `if` left
            if name:
                return ["name", name]
            if isinstance(node, ast.Name) and self.fn is not None and node.id in self.fn.params:
                # A parameter: a helper that forwards it to `enqueue` registers what its callers pass.
                return ["param", node.id, self.fn.params.index(node.id)]
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and self.fn is not None
                    and node.value.id in self.fn.params and node.value.id not in ("self", "cls")):
                # A method of a parameter (`Thread(target=obj.thread_run)`): what runs is that
                # method of whatever the callers pass.
                return ["param_attr", node.value.id, self.fn.params.index(node.value.id), node.attr]
            if isinstance(node, ast.Name) and node.id in self.scope.held:
                return self.scope.held[node.id]
            if isinstance(node, ast.Name) and self._outer_param(node.id):
                return ["closure", node.id]  # an enclosing function's parameter, as a nested function sees it
            return _OTHER
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice):
            # `Thread(target=HANDLERS[kind])`: whichever function the module's table holds;
            # `KINDS[kind]["sender"]`: the "sender" of whichever entry
            key = node.slice
            if isinstance(node.value, ast.Subscript) and isinstance(key, ast.Constant) \
                    and isinstance(key.value, str) and key.value.isidentifier():
                inner = self._table_entry(node.value)
                return ["name", f"{inner}#{key.value}"] if inner else _OTHER
            entry = self._table_entry(node)
            return ["name", entry] if entry else _OTHER
        if isinstance(node, ast.JoinedStr):
            if all(isinstance(p, ast.Constant) for p in node.values):
                return ["lit", "".join(str(p.value) for p in node.values)]  # `f"datasets.submit"`: no hole
            return self._path_of_param(node) or self._template(node, depth) or _OTHER
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            held = node.func.value
            if node.func.attr == "format" and isinstance(held, ast.Constant) and isinstance(held.value, str):
                template = self._format_template(node, depth)  # `"{0}{1}".format(root, path)`
                if template is not None:
                    return template
            if node.func.attr in ("strip", "lstrip", "rstrip") and isinstance(held, ast.Name):
                inner = self.value(held, depth + 1)
                if inner[0] == "param":
                    return inner  # `endpoint.lstrip("/")`: still the path its callers pass
        if isinstance(node, ast.Call):
            func = self.resolve(node.func)
            args = [self.value(a, depth + 1) for a in node.args]
            kwargs = {k.arg or "**": self.value(k.value, depth + 1) for k in node.keywords}
            if func is None and (chosen := self._table_entries(node.func)):
                # `handlers[conf.handler]()`: a call of whichever entry the key picks at run time.
                return ["each", [["call", entry, args, kwargs] for entry in chosen]]
            return ["call", func, args, kwargs]
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return ["seq", [self.value(e, depth + 1) for e in node.elts]]
        if isinstance(node, ast.Dict):
            return ["dict", [[self.value(k, depth + 1), self.value(v, depth + 1)] for k, v in zip(node.keys, node.values)]]
        if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
            inner = node.operand.value
            if isinstance(node.op, ast.USub) and isinstance(inner, (int, float)):
                return ["lit", -inner]
        if isinstance(node, ast.BinOp):
            left, right = self.value(node.left, depth + 1), self.value(node.right, depth + 1)
            if left[0] == "lit" and right[0] == "lit" and all(isinstance(x[1], (int, float)) for x in (left, right)):
                try:
                    return ["lit", _arith(node.op, left[1], right[1])]
                except Exception:  # noqa: BLE001 - a constant we cannot fold is just "other"
                    return _OTHER
        if isinstance(node, ast.Lambda):
            # What it calls names what it runs (`Thread(target=lambda: ctx.run(self._loop))`), unless
            # what it calls is its own parameter (`lambda f: f()`).
            own = {a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs, node.args.vararg,
                                   node.args.kwarg) if a is not None}
            body = node.body
            called = body.func if isinstance(body, ast.Call) else None
            while isinstance(called, (ast.Attribute, ast.Call)):
                called = called.value if isinstance(called, ast.Attribute) else called.func
            if isinstance(called, ast.Name) and called.id in own:
                return ["lambda"]
            return ["lambda", self.value(body, depth + 1)]
        return _OTHER

    # ---- expressions: record calls, return the calls that feed the value ----------------------

    def expr(self, node: ast.AST | None) -> frozenset:
        if node is None:
            return _EMPTY
        method = _EXPR_DISPATCH.get(type(node))
        if method is not None:
            return method(self, node)
        sources: frozenset = _EMPTY
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                s = self.expr(child)
                if s:
                    sources = sources | s
            elif isinstance(child, ast.comprehension):
                sources = sources | self._comprehension(child)
        return sources

    def _expr_name(self, node: ast.Name) -> frozenset:
        # The calls feeding a name are events of the function that binds it: a name bound in an
        # enclosing function or in the module (`ENDPOINTS = [Ep()]`) has none here, whose event
        # numbers would name other calls.
        return self.scope.sources.get(node.id, _EMPTY)

    def _bound_by_import(self, name: str) -> bool:
        """Does `name` still hold what an import statement bound (in the scope it is found in)? Any
        binding since has changed what the scope says it holds."""
        scope = self.scope
        while scope is not None:
            if name in scope.names:
                return name in scope.imported and scope.imported[name] == scope.names[name]
            scope = scope.parent
        return False

    def _expr_yield(self, node: ast.Yield | ast.YieldFrom) -> frozenset:
        self.fn.generator = True
        if self.fn.return_type is None and isinstance(node, ast.Yield) \
                and isinstance(node.value, (ast.Call, ast.Name, ast.Attribute)) \
                and any(d[0] and d[0][0] == "name" and str(d[0][1]).endswith("contextmanager") for d in self.fn.decorators):
            # `@contextmanager def session(): yield requests.Session()`: `with session() as s:` holds what it yields.
            typ = self.resolve(node.value)
            if typ and typ.endswith("()"):
                self.fn.return_type = typ
        return self.expr(node.value)

    def _expr_constant(self, node: ast.AST) -> frozenset:
        value = getattr(node, "value", None)
        if isinstance(value, str) and len(value) < 80 and self.fn.name != MODULE_CODE \
                and (m := _HEADER_NAME.fullmatch(value)):
            name = m.group(1).lower().replace("_", "-")  # `X-CloudTasks-TaskName`, `HTTP_X_APPENGINE_CRON`
            if name not in self.fn.header_names:
                self.fn.header_names += (name,)
        return _EMPTY

    def _comprehension(self, comp: ast.comprehension) -> frozenset:
        sources = self.expr(comp.iter)
        self._bind_iteration(comp.target, comp.iter, sources, each=False)
        for cond in comp.ifs:
            sources = sources | self.expr(cond)
        return sources

    def _expr_comp(self, node: ast.AST) -> frozenset:
        sources: frozenset = _EMPTY
        for gen in node.generators:
            sources = sources | self._comprehension(gen)
        for part in ("elt", "key", "value"):
            child = getattr(node, part, None)
            if child is not None:
                sources = sources | self.expr(child)
        return sources

    def _expr_lambda(self, node: ast.Lambda) -> frozenset:
        return self.expr(node.body)

    def _expr_subscript(self, node: ast.Subscript) -> frozenset:
        sources = self.expr(node.value)
        if isinstance(node.value, ast.Call) and isinstance(node.slice, ast.Slice) and node.slice.upper is not None \
                and self.fn.events:
            self.fn.sliced.append(len(self.fn.events) - 1)  # the call's own event is its last
        return sources | self.expr(node.slice)

    def _expr_dict(self, node: ast.Dict) -> frozenset:
        sources: frozenset = _EMPTY
        for key, val in zip(node.keys, node.values):
            self._key_name(key, val)
            vs = self.expr(val)
            if key is not None:
                sources = sources | self.expr(key)
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    self._sink("dictkey", key.value, key.lineno, vs, val)
            sources = sources | vs
        return sources

    def _expr_call(self, node: ast.Call) -> frozenset:
        func = node.func
        receiver_src: frozenset = _EMPTY
        if isinstance(func, ast.Attribute):
            if func.attr in ("update", "setdefault", "pop", "popitem", "clear"):
                self._changes_held_dict(func.value)
            receiver_src = self.expr(func.value)
            attr = func.attr
        else:
            attr = func.id if isinstance(func, ast.Name) else None
            if attr is not None:
                # `send = queue.enqueue; send(f)`: name the call by what it resolves to.
                resolved = self.resolve(func)
                if resolved and "." in resolved and resolved[0] != "@" and "[" not in resolved:
                    attr = resolved.rpartition(".")[2].partition("(")[0] or attr
            if not isinstance(func, ast.Name):
                receiver_src = self.expr(func)
        # `retryer = Retrying(stop=...)` ... `retryer(send)`: an object called, told by the calls that
        # made it (kept on the event, not passed on to what the call returns).
        made_by = self.expr(func) if isinstance(func, ast.Name) and (self.resolve(func) or "").endswith("()") else _EMPTY
        if self.scope.caught and attr not in LOG_METHODS and attr != "print":
            for a in (*node.args, *(k.value for k in node.keywords)):
                if isinstance(a, ast.Name) and a.id in self.scope.caught:
                    self.scope.caught.pop(a.id).hands_over = True  # `q.put(outcome)`
        argsrc = [self.expr(a) for a in node.args]
        args = node.args
        if len(args) > 1 and self._trampoline(args[0]):
            # `LoopingCall(reactor.callInThread, self.reload)`, `pool.submit(copy_context().run, f, x)`:
            # what is handed on calls its next argument with the rest; the call is read as given that.
            args, argsrc = args[1:], argsrc[1:]
        kwsrc = {}
        kw_sources: frozenset = _EMPTY
        for k in node.keywords:
            if k.arg:
                self._key_name(k.arg, k.value)
            s = self.expr(k.value)
            if s:
                kwsrc[k.arg or "**"] = sorted(s)
                kw_sources = kw_sources | s
        ev = Event(
            kind="call",
            name=self._table_entry(func, called=True) or self.resolve(func),
            attr=attr,
            line=node.lineno,
            col=node.col_offset,
            end_line=node.end_lineno or node.lineno,
            end_col=node.end_col_offset or node.col_offset,
            # Most calls have no arguments of one kind or another: share one empty container
            # (summaries are read-only once built) instead of allocating one per call.
            args=[self.value(a, 1) for a in args] if args else _NONE,
            kwargs={k.arg or "**": self.value(k.value, 1) for k in node.keywords} if node.keywords else _NO_KWARGS,
            argsrc=[sorted(s) for s in argsrc] if any(argsrc) else _NONE,
            kwsrc=kwsrc or _NO_KWARGS,
            loops=self.loops,
            branch=self.branch,
            regions=self.regions,
            tries=self.tries,
            handlers=self.handlers,
            sql=_sql_verb(node.args[0]) if node.args and attr in ("execute", "executemany", "raw", "text") else None,
            receiver_src=tuple(sorted(receiver_src | made_by)),
            exit_line=self.exit_line,
            ref=self._receiver_ref(func) if attr in _REF_ATTRS else None,
            gated=self.gated,
            receiver=_spelled(func.value) if isinstance(func, ast.Attribute) else None,
        )
        index = len(self.fn.events)
        self.fn.events.append(ev)
        sources = frozenset((index,)) | receiver_src | kw_sources
        held = self.scope.held.get(func.id, _OTHER) if isinstance(func, ast.Name) and ev.name is None else _OTHER
        if held[0] == "each":
            # `for step in (run_sync, run_mail): step()`: a call of each of them, one event each.
            named = [v[1] for v in held[1] if v[0] == "name" and v[1]]
            for i, name in enumerate(named):
                if i == 0:
                    ev.name = name
                else:
                    sources = sources | {len(self.fn.events)}
                    self.fn.events.append(replace(ev, name=name))
        if (attr in ("execute", "fetch", "fetchrow", "fetchval", "fetchall", "fetchone") and node.args
                and _sql_selects(self._module_text(node.args[0]))) or attr in _STORE_READS:
            # the rows a query reads are what the table holds, not what it was given to filter by
            # (`zrangebyscore(index, max=now)` gives the members stored, not the clock)
            return frozenset((index,)) | receiver_src
        for s in argsrc:
            sources = sources | s
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and attr in _FED_BY_ARGUMENTS \
                and func.value.id not in ("self", "cls") and self._bound_in_a_function(func.value.id):
            # `digest.update(part)`, `parts.append(today)`: the object holds what it was given since
            # (a key hashed from parts holds each part)
            fed = kw_sources.union(*argsrc)
            if fed:
                self.scope.sources[func.value.id] = self.scope.sources.get(func.value.id, _EMPTY) | fed
        return sources

    def _module_text(self, node: ast.expr) -> ast.expr:
        """A query held in a module-level constant (`conn.execute(_CANDIDATE_SQL, ...)`): the string
        it was assigned, as written; any other expression as it is."""
        if isinstance(node, ast.Name) and (var := self.module_var(node.id)) and var.rpartition(".")[2] in self.mod.assigns:
            held = self.mod.assigns[var.rpartition(".")[2]][0]
            if held and held[0] == "lit" and isinstance(held[1], str):
                return ast.Constant(held[1])
        return node

    def _trampoline(self, node: ast.expr) -> bool:
        """A callable that calls the callable it is given with the rest of its arguments:
        Twisted's thread hand-offs, a context's `run`."""
        if not isinstance(node, ast.Attribute):
            return False
        name = self.resolve(node) or ""
        return node.attr in _TRAMPOLINES or name.startswith("contextvars.") and node.attr == "run"

    # ---- statements --------------------------------------------------------------------------

    def stmt(self, node: ast.stmt) -> None:
        method = _STMT_DISPATCH.get(type(node))
        if method is not None:
            method(self, node)
            return
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt):
                self.stmt(child)
            elif isinstance(child, ast.expr):
                self.expr(child)

    def _body(self, body: list) -> None:
        saved = self.exit_line
        if body and isinstance(body[-1], (ast.Return, ast.Raise)):
            # Normal flow leaves this block at its end: nothing lexically after it follows.
            self.exit_line = body[-1].end_lineno or body[-1].lineno
        saved_gated = self.gated
        for s in body:
            self.stmt(s)
            if self._flags and isinstance(s, ast.If) and not s.orelse and isinstance(s.body[-1], _EXITS):
                flag = self._flag_call(s.test, False)  # `if not created: return`: the rest runs if created
                if flag is not None:
                    self.gated = self.gated + (flag,)
        self.exit_line = saved
        self.gated = saved_gated

    def _flag_call(self, test: ast.expr, truthy: bool) -> int | None:
        """The call whose unpacked flag this test reads as `flag` (truthy) or `not flag`."""
        if not truthy:
            if not (isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)):
                return None
            test = test.operand
        return self._flags.get(test.id) if isinstance(test, ast.Name) else None

    def _stmt_import(self, node: ast.Import | ast.ImportFrom) -> None:
        self._import(node, self.scope)
        if self.scope is self.module_scope:
            names = self.module_scope.names
            imports = self.mod.imports
            for key in names.changed():  # what the table holds now, as a copy of it would
                value = names[key]
                if value is not None:
                    imports[key] = value

    def _stmt_expr(self, node: ast.Expr) -> None:
        self._awaited_param(node.value)
        first = len(self.fn.events)
        self.expr(node.value)
        self._mark_statement(node.value, first, kept=False)

    def _mark_statement(self, value: ast.expr | None, first: int, kept: bool) -> None:
        """The call a statement is made for (`self.update_tasks()`, `n = await step()`): its event
        is the last of those the statement added from `first` (the last ones, for a call of each
        callable of a loop: `step()`)."""
        call = value.value if isinstance(value, ast.Await) else value
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in _COUNTING \
                and len(call.args) == 1 and not call.keywords and self.lookup(call.func.id) == call.func.id:
            # `count = len(scheduler.tick())`: the call counted is the statement's
            self._mark_statement(call.args[0], first, kept)
            return
        if isinstance(call, ast.Call):
            marked = False
            for ev in reversed(self.fn.events[first:]):
                if ev.kind == "call" and (ev.line, ev.col) == (call.lineno, call.col_offset):
                    ev.statement, ev.kept, marked = True, kept, True
                elif marked:
                    break

    def _awaited_param(self, node: ast.AST | None) -> None:
        """`await coro` / `return await coro` of a parameter: the function runs the coroutine it is
        given; also with its result wrapped as it is kept (`return Outcome(await coro)`)."""
        if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
            node = node.args[0]
        if isinstance(node, ast.Await) and isinstance(node.value, ast.Name):
            given = self.value(node.value)
            if given and given[0] == "param" and given[1] not in self.fn.awaits_param:
                self.fn.awaits_param.append(given[1])

    def _stmt_assign(self, node: ast.Assign | ast.AnnAssign | ast.AugAssign) -> None:
        pairs = _pairwise(node)
        if pairs is not None:
            for target, value in pairs:  # `self.func, self.args = func, args`: one assignment each
                self._stmt_assign(ast.copy_location(ast.Assign(targets=[target], value=value), node))
            return
        value = node.value
        self._awaited_param(value)  # `result = await coro`
        first = len(self.fn.events)
        sources = self.expr(value) if value is not None else _EMPTY
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) or (isinstance(t, ast.Tuple) and all(
                isinstance(e, ast.Name) for e in t.elts)) for t in targets):
            # `done = self.process_batch()`, `ids, count = self._process_from_queue(q)`: still the statement's call
            self._mark_statement(value, first, kept=True)
        typ = None
        annotated = False  # an annotation that names a type (`Callable[...]` names none)
        if isinstance(node, ast.AnnAssign):
            annotation: ast.expr | None = node.annotation
            # `job: Final = ResetBudgetJob(...)` says nothing of the type: the value does
            # (`Final[Resettable] = Job()` too: the value is the more precise); with no value,
            # `ClassVar[Job]` names it inside.
            if isinstance(annotation, ast.Subscript) and self.resolve(annotation.value) in _QUALIFIERS:
                annotation = annotation.slice if value is None else None  # with a value, the value says
            elif self.resolve(annotation) in _QUALIFIERS:
                annotation = None
            ann = self.annotated_class(annotation) if annotation is not None else None
            typ = f"{ann}()" if ann else None
            annotated = bool(ann) and not ann.startswith(("typing.", "collections.abc."))
        if value is not None and isinstance(value, (ast.Call, ast.Name, ast.Attribute, ast.Await, ast.IfExp)):
            # What the value is, where it says (`n: Notifier = SlackNotifier()`, an instance of a
            # class), is more precise than the annotation; what a function returns
            # (`app: Celery = make_app()`) the annotation says.
            made = self.resolve(value)
            if typ is None or (made and made.endswith("()") and made[:-2].rpartition(".")[2][:1].isupper()):
                typ = made or typ
        # `send = HANDLERS[kind]`, `label, send = CHANNELS.get(kind)`: an entry of the table.
        entry = self._table_entry(value) if value is not None and not annotated else None
        # What an attribute store assigns (`_bind` records it); loop and `with` targets store "other".
        self._stored = self.value(value) if value is not None and not isinstance(node, ast.AugAssign) else _OTHER
        for target in targets:
            earlier = None
            if isinstance(target, ast.Subscript):
                self._key_name(target.slice, value)  # `msg["op"] = "sync"`
            elif isinstance(target, ast.Attribute):
                self._key_name(target.attr, value)  # `self.state = "idle"`
            if isinstance(node, ast.AugAssign) and isinstance(target, ast.Name):
                sources = sources | self._expr_name(target)
            if entry is not None:
                self._bind_entry(target, entry, sources)
            elif isinstance(target, (ast.Tuple, ast.List)) and typ and typ.endswith("()") \
                    and isinstance(value.value if isinstance(value, ast.Await) else value, ast.Call):
                self._bind_entry(target, typ, sources)  # `_, self.http = self.setup()`: `Client().setup()#1`
            else:
                earlier = self.scope.depth.get(target.id) if isinstance(target, ast.Name) else None
                self._bind(target, typ, sources)
            self._hold(target, value, earlier)
            self._note_flag(target, value)
            self._record_assign(target, value, node)
        self._stored = _OTHER

    def _instance_type(self, node: ast.expr) -> str | None:
        """The resolved type of an instance an expression makes or names (`requests.Session()`,
        `get_session()`), or None."""
        if not isinstance(node, (ast.Call, ast.Name, ast.Attribute)):
            return None
        typ = self.resolve(node)
        return typ if typ and typ.endswith("()") else None

    def _key_name(self, key: ast.AST | str | None, value: ast.AST | None) -> None:
        """A name written under a key (`"event_type": "start_lease"`): see `ModuleSummary.keyed_names`."""
        if isinstance(key, ast.Constant):
            key = key.value
        if isinstance(key, str) and isinstance(value, ast.Constant) and isinstance(value.value, str) \
                and value.value.isidentifier():
            names = self.mod.keyed_names.setdefault(key, [])
            if value.value not in names:
                names.append(value.value)

    def _bind_entry(self, target: ast.AST, entry: str, sources: frozenset) -> None:
        """`send = CHANNELS[name]`, `label, send = CHANNELS[name]`: the names stand for an entry
        of the table, or for one position of its tuples (`pkg.CHANNELS[]#1`)."""
        if isinstance(target, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in target.elts):
            for i, elt in enumerate(target.elts):
                self._bind(elt, f"{entry}#{i}", sources)
        else:
            self._bind(target, entry, sources)

    def _hold(self, target: ast.AST, value: ast.AST | None, earlier: tuple | None = None) -> None:
        """`path = f"{func.__module__}.{func.__qualname__}"`, `job = func`: the local stands for
        the parameter, so a helper that enqueues it forwards what its callers pass. Also a URL
        template (`url = f"{base}/orders/{id}/cancel"`), a dotted path (`name = "app.tasks.x"`), a
        `functools.partial(f, ...)`, a flat dict, an HTTP method (`method = "HEAD"`; either of those
        set in sibling `if` arms or in a conditional expression) and
        a list or tuple written out (`endpoints = [self.rating, ScopeEndpoint()]`, as it is written:
        what is appended later is not in it). `earlier`: the `if` arms of the name's binding before
        this one."""
        if not isinstance(target, ast.Name) or self.fn is None or self.scope is self.module_scope:
            return
        if isinstance(value, (ast.Name, ast.Attribute)) and self.scope.held.get(target.id, _OTHER)[0] == "either":
            return  # chosen in `if` arms, as `_bind` just found (`_chosen_in_arms`)
        held = self.value(value) if isinstance(value, (ast.Name, ast.JoinedStr, ast.List, ast.Tuple, ast.Dict)) else None
        if isinstance(value, ast.Constant) and isinstance(value.value, str) and _DOTTED_PATH.match(value.value):
            held = ["lit", value.value]  # `task_name = "app.tasks.cleanup"`: what to run, by its path
        verbs = _http_verbs(value)
        if verbs is not None:
            held = verbs
            before = self.scope.held.get(target.id, _OTHER)
            if earlier is not None and tuple(earlier[: len(self.branch)]) != self.branch \
                    and all(b[0] == "lit" and _is_http_verb(b[1]) for b in options(before)):
                # `if exists: method = "HEAD"` / `else: method = "GET"`, or set again in an arm:
                # either, after the `if`.
                held = ["either", [*options(before), *options(verbs)], None]
        if isinstance(value, ast.Call) and self.resolve(value.func) == "functools.partial":
            held = self.value(value)  # `cull = partial(cull_idle, url=...)`: what a scheduler given `cull` runs
            if _partial_depth(held) > 4:
                held = None  # `p = partial(p, 1)` over and over: not followed without end
        if held and held[0] == "seq" and any(e[0] == "seq" for e in held[1]):
            held = None  # only a flat list is held: one of lists (of held lists...) can grow without end
        if held and held[0] == "dict" and any(v[0] in ("seq", "dict") for _, v in held[1]):
            held = None  # and only a flat dict (`data = {"grant_type": "client_credentials", ...}`)
        if held and (held[0] in ("param", "fstr", "lit", "seq", "dict") or held[0] == "call" and held[1] == "functools.partial"
                     or held[0] == "either" and all(h[0] == "lit" for h in held[1])):
            self.scope.held[target.id] = held
        else:
            self.scope.held.pop(target.id, None)

    def _chosen_in_arms(self, scope: _Scope, name: str, typ: str | None, earlier: tuple | None,
                        branch: tuple) -> Value | None:
        """`if role: sync = sync_roles` / `elif collection: sync = sync_collections`: a function
        chosen in sibling arms of one `if` is either of them where it is used (`dispatch(sync)`)."""
        before = scope.names.get(name)
        if_id = _diverging_if(earlier, branch)
        if not (_is_reference(typ) and _is_reference(before)) or typ == before or if_id is None:
            return None
        held = scope.held.get(name, _OTHER)
        # Either of them after the `if` (the id kept says which); inside an arm, that arm's own.
        return ["either", [*(held[1] if held[0] == "either" else [["name", before]]), ["name", typ]], if_id]

    def _table_entries(self, node: ast.expr) -> list[str]:
        """`handlers[key]` on a dict held as written (`handlers = {"shell": shell.Handler, ...}`):
        the names its entries hold, the one a literal key picks or all of them."""
        if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)):
            return []
        held = self.scope.held.get(node.value.id, _OTHER)
        if held[0] != "dict":
            return []
        key = node.slice.value if isinstance(node.slice, ast.Constant) else None
        return [v[1] for k, v in held[1] if v[0] == "name" and v[1] and (key is None or k == ["lit", key])]

    def _changes_held_dict(self, node: ast.expr) -> None:
        """A dict held as written (`_hold`) and then changed is that no longer: not held."""
        if isinstance(node, ast.Name) and self.scope.held.get(node.id, _OTHER)[0] == "dict":
            del self.scope.held[node.id]

    def _outer_param(self, name: str) -> bool:
        """Is `name`, not bound here, a parameter of an enclosing function?"""
        if name in self.scope.names:
            return False
        scope = self.scope.parent
        while scope is not None and scope is not self.module_scope:
            if name in scope.names:
                return name in scope.params
            scope = scope.parent
        return False

    def _template(self, node: ast.JoinedStr, depth: int) -> list | None:
        """`f"{base}/certificates/{cert.id}/revocations"`: its literal text and holes, kept for
        f-strings that look like a URL or path (a `/`, or a parameter spliced in), so what a
        request addresses can be read; other f-strings (log lines) stay "other"."""
        parts = [["lit", p.value] if isinstance(p, ast.Constant) else self.value(p.value, depth + 1)
                 for p in node.values]
        if any(p[0] == "lit" and "/" in str(p[1]) for p in parts) or any(p[0] == "param" for p in parts):
            return ["fstr", parts]
        return None

    def _format_template(self, node: ast.Call, depth: int) -> list | None:
        """`"{0}{1}".format(base, endpoint)` read as the f-string it spells (see `_template`);
        None for a field that picks an attribute or an item, or a template with no `/` nor
        parameter in it."""
        try:
            fields = list(string.Formatter().parse(node.func.value.value))
        except ValueError:
            return None
        parts, auto = [], 0
        keywords = {k.arg: k.value for k in node.keywords if k.arg}
        for text, name, _spec, _conversion in fields:
            if text:
                parts.append(["lit", text])
            if name is None:
                continue
            if name == "":
                name, auto = str(auto), auto + 1
            if name.isascii() and name.isdigit():
                given = node.args[int(name)] if int(name) < len(node.args) else None
            else:
                given = keywords.get(name)
            if given is None or isinstance(given, ast.Starred):
                return None
            parts.append(self.value(given, depth + 1))
        if any(p[0] == "lit" and "/" in str(p[1]) for p in parts) or any(p[0] == "param" for p in parts):
            return ["fstr", parts]
        return None

    def _path_of_param(self, node: ast.JoinedStr) -> list | None:
        """An f-string made only of a parameter's `__module__`, `__qualname__` or `__name__`: the
        dotted path of the function passed there."""
        names = {part.value.value.id for part in node.values if isinstance(part, ast.FormattedValue)
                 and isinstance(part.value, ast.Attribute) and part.value.attr in _PATH_ATTRS
                 and isinstance(part.value.value, ast.Name)}
        texts = all(isinstance(part, ast.Constant) or (isinstance(part, ast.FormattedValue)
                    and isinstance(part.value, ast.Attribute) and part.value.attr in _PATH_ATTRS) for part in node.values)
        if texts and len(names) == 1 and self.fn is not None and (name := names.pop()) in self.fn.params:
            return ["param", name, self.fn.params.index(name), "path"]  # the parameter, by its dotted path
        return None

    def _note_flag(self, target: ast.AST, value: ast.AST | None) -> None:
        """`obj, created = call(...)`: remember which call `created` comes from (see `_test`)."""
        flags = self._flags
        if isinstance(target, ast.Name):
            flags.pop(target.id, None)
            return
        if not isinstance(target, (ast.Tuple, ast.List)):
            return
        for elt in target.elts:
            if isinstance(elt, ast.Name):
                flags.pop(elt.id, None)
        if isinstance(value, ast.Await):
            value = value.value
        if isinstance(value, ast.Call) and len(target.elts) == 2 and isinstance(target.elts[1], ast.Name) and self.fn.events:
            flags[target.elts[1].id] = len(self.fn.events) - 1  # the outermost call is recorded last

    def _bind(self, target: ast.AST, typ: str | None, sources: frozenset) -> None:
        scope = self.scope
        if isinstance(target, ast.Name):
            if target.id in scope.globals:
                self._bind_global(target, sources)
                return
            if typ is None and scope is self.module_scope and self._global_types:
                typ = self._global_types.get(target.id)  # `scheduler = None`, set up by a function
            branch = self.branch
            earlier = scope.depth.get(target.id)
            if (scope.names.get(target.id) and earlier is not None and len(branch) > len(earlier)
                    and branch[: len(earlier)] == earlier and typ != scope.names[target.id]):
                # Rebound in an `if` arm that the earlier binding dominates: the arm may not run,
                # and the summary keeps one type per name, so the dominating one stays
                # (`send = q.enqueue` then `if later: send = partial(q.enqueue_in, delay)`).
                # Bindings in sibling arms replace each other as before. Values still flow.
                scope.sources[target.id] = scope.sources.get(target.id, _EMPTY) | sources
                self._sink("var", target.id, target.lineno, sources)
                return
            if typ is None and scope.names.get(target.id) and _diverging_if(earlier, branch) is not None:
                # `if not cls: tm = TaskManager(conf) else: tm = cls(conf)`: of two arms, the one
                # that says what the object is (the other's is unknown, a subclass most often).
                typ = scope.names[target.id]
            chosen = self._chosen_in_arms(scope, target.id, typ, earlier, branch)
            scope.names[target.id] = typ
            scope.depth[target.id] = branch
            if scope.held.get(target.id, _OTHER)[0] in ("call", "each", "either"):
                del scope.held[target.id]  # `for cb in callbacks:`, `cb, n = ...`: no longer the partial
            if chosen is not None:
                scope.held[target.id] = chosen
            if sources:
                scope.sources[target.id] = sources
            else:
                scope.sources.pop(target.id, None)
            self._sink("var", target.id, target.lineno, sources)
            if scope is self.module_scope:
                self.mod.symbols[target.id] = typ
                self.module_vars.add(target.id)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                self._bind(elt, None, sources)
        elif isinstance(target, ast.Starred):
            self._bind(target.value, None, sources)
        elif isinstance(target, ast.Attribute):
            receiver_src = self.expr(target.value)
            self._sink("attr", target.attr, target.lineno, sources)
            if self.fn.name != MODULE_CODE:
                self.fn.stores.append((target.attr, target.lineno, _dotted(target.value),
                                       tuple(sorted(receiver_src)), self._stored))
            fn = self.fn
            if typ and fn.class_qualname and fn.params and isinstance(target.value, ast.Name) and target.value.id == fn.params[0]:
                self.mod.classes[fn.class_qualname].attr_types.setdefault(target.attr, typ)
        elif isinstance(target, ast.Subscript):
            self._changes_held_dict(target.value)  # `payload["idempotency_key"] = k`: no longer as written
            self.expr(target.value)
            self.expr(target.slice)
            held = target.value
            if (isinstance(held, ast.Attribute) and isinstance(held.value, ast.Name) and self.fn.params
                    and held.value.id == self.fn.params[0] and self.fn.class_qualname):
                self.fn.item_stores.append((held.attr, target.lineno, self._stored))
            elif isinstance(held, ast.Name) and (table := self._module_table(held.id)):
                self.fn.table_stores.append((table, target.lineno, self._stored))
            key = target.slice
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                self._sink("dictkey", key.value, target.lineno, sources)

    def _record_assign(self, target: ast.AST, value: ast.AST | None, node: ast.stmt) -> None:
        """Module- and class-level assignments are settings (beat_schedule, retry attributes)."""
        if value is None:
            return
        if self.owner is not None:
            if isinstance(target, ast.Name):
                self.owner.attrs[target.id] = [self.value(value), node.lineno, node.col_offset]
        elif self.fn.name == MODULE_CODE:
            name = _dotted(target)
            if name:
                self.mod.assigns[name] = [self.value(value), node.lineno, node.col_offset]

    def _sink(self, kind: str, name: str, line: int, sources: frozenset, value: ast.expr | None = None) -> None:
        """Record a value named as a key or a message id (with the calls feeding it, possibly
        none, and the parameters it is made of, when its expression is given); readers pick the
        names they accept."""
        if is_key_name(name) or is_message_id(name):
            params = () if value is None else tuple(sorted(self._params_in(value)))
            self.fn.sinks.append(Sink(kind=kind, name=name, line=line, sources=tuple(sorted(sources)), params=params))

    def _params_in(self, value: ast.expr) -> set[str]:
        """The parameters an expression is made of; one read through an attribute is named with
        it (`data.idempotency_key`): the key is that field of what the caller passes, not all of it."""
        out: set[str] = set()
        read = set()
        for n in ast.walk(value):
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in self.fn.params:
                out.add(f"{n.value.id}.{n.attr}")
                read.add(id(n.value))
        out.update(n.id for n in ast.walk(value)
                   if isinstance(n, ast.Name) and n.id in self.fn.params and id(n) not in read)
        return out

    def _stmt_assert(self, node: ast.Assert) -> None:
        """`assert issubclass(jobclass, Job)`, `assert isinstance(client, Client)`: past it, a name
        of no known class (unknown, or what a function returned: `jobclass = self.get_jobclass()`)
        is that class (an instance of it), so `jobclass.run` is `Job.run`."""
        self.expr(node.test)
        if node.msg is not None:
            self.expr(node.msg)
        test = node.test
        if isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id in ("isinstance", "issubclass") \
                and len(test.args) == 2 and isinstance(test.args[0], ast.Name) and not test.keywords \
                and isinstance(test.args[1], (ast.Name, ast.Attribute)) \
                and not _a_class(self.scope.names.get(test.args[0].id) or ""):
            cls = self.resolve(test.args[1])
            if cls and _a_class(cls) and not cls.endswith("()"):
                self.scope.names[test.args[0].id] = cls if test.func.id == "issubclass" else f"{cls}()"

    def _stmt_break(self, node: ast.Break) -> None:
        if self.loops:
            loop = self.loops[-1]
            # Ids grow with nesting: a handler or an `if` inside the loop has a larger id than it.
            failed = any(h > loop for h in self.handlers)
            self.fn.breaks.append((loop, self.branch, node.lineno, failed))
            told = any(if_id > loop and ((arm == 0 and (if_id in self.stop_ifs or if_id in self.count_ifs))
                                         or (arm == 1 and if_id in self.else_stop_ifs))
                       for if_id, arm in self.branch)
            if not (failed or told) and loop not in self.fn.ended:
                self.fn.ended.append(loop)

    def _stmt_return(self, node: ast.Return) -> None:
        if isinstance(node.value, ast.Name) and node.value.id in self.scope.caught:
            self.scope.caught.pop(node.value.id).hands_over = True  # `return outcome`
        # `if self._event.wait(1): return` ends a loop that runs until stopped, as told: it is no
        # loop waiting for a result (`if task.done: return task`).
        # However deep under it: `if self.shutting_down: if not self.children: return`. A loop
        # whose own test is the stop flag (`while not stop.is_set(): ... if stale: return`) is
        # left so on a condition of its own too: it waits for no result, it returns none.
        bare = node.value is None or (isinstance(node.value, ast.Constant) and node.value.value is None)
        stopped = bare and bool(self.loops) and (
            any(arm == 0 and if_id in self.stop_ifs and if_id > self.loops[-1] for if_id, arm in self.branch)
            or any(loop in self.flag_loops for loop in self.loops))
        # `if dry_run: return ExitCode.SUCCESS`: only in the mode its caller chose (however deep
        # under it: `if exit_when_idle: ... if idle_for > limit: return`).
        stopped = stopped or bool(self.loops) and any(arm == 0 and if_id in self.mode_ifs and if_id > self.loops[-1]
                                                      for if_id, arm in self.branch)
        # `except asyncio.CancelledError: return` inside the loop: the loop was stopped, it waited
        # for no result.
        stopped = stopped or bool(self.loops and self.cancelled and self.cancelled[-1] > self.loops[-1])
        for loop in self.loops if not stopped else ():
            if loop not in self.fn.returning:
                self.fn.returning.append(loop)
        self._awaited_param(node.value)
        sources = self.expr(node.value)
        value = node.value.body if isinstance(node.value, ast.IfExp) else node.value  # the first arm's type
        if not self.fn.return_items and isinstance(value, ast.Tuple) and 1 < len(value.elts) <= 8 \
                and not any(isinstance(e, ast.Starred) for e in value.elts):
            items = tuple(self._instance_type(e) for e in value.elts)
            if any(items):
                self.fn.return_items = items  # `return config, requests.Session()`: `_, http = setup()`
        if self.fn.return_type is None and isinstance(value, (ast.Call, ast.Name, ast.Attribute)):
            typ = self.resolve(value)
            # An instance; or, from a property, a class (`return smtplib.SMTP_SSL if ssl else smtplib.SMTP`,
            # called by its users: `with self.smtp(host) as conn:`).
            if typ and (typ.endswith("()") or (is_property(self.fn) and typ.rpartition(".")[2][:1].isupper())):
                self.fn.return_type = typ
            elif typ and is_property(self.fn) and isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) \
                    and value.value.id == "self" and "()." in typ:
                # `return self._client` (made lazily, `self._client = make_client()`): what the
                # instance holds there, looked up when used
                self.fn.return_type = typ
            elif typ and isinstance(value, ast.Name) and self._bound_by_import(value.id) and not is_property(self.fn):
                # What an import bound, handed out (`from celery import shared_task; return shared_task`):
                # `task = _shared_task()` is that callable.
                self.fn.return_type = typ
        if sources:
            self.fn.returns = tuple(sorted(set(self.fn.returns) | sources))
        if not self.fn.returns_one_of:
            self.fn.returns_one_of = self._table_entry_returned(node.value)
        if isinstance(node.value, ast.Name) and node.value.id not in self.fn.params \
                and (node.value.id not in self.scope.names or node.value.id in self.scope.imported) \
                and (named := self.resolve(node.value)):
            # `if training: return _handle_training` ... `return _handle_download`: one of the
            # functions its arms name, which the caller gets back and calls (also one imported
            # where it is returned: `from .rates import sync; return sync`, a lazy import)
            self.fn.returns_one_of = tuple(dict.fromkeys((*self.fn.returns_one_of, named)))
        if isinstance(node.value, ast.Lambda) and isinstance(node.value.body, ast.Call) \
                and isinstance(node.value.body.func, ast.Name) and (named := self.resolve(node.value.body.func)):
            # `return lambda db, config: run_backfill(db, config)`: the caller calls what it calls
            self.fn.returns_one_of = tuple(dict.fromkeys((*self.fn.returns_one_of, named)))
        if self.fn.returns_dict is None:
            self.fn.returns_dict = self._dict_returned(node.value)
        if isinstance(node.value, ast.Name) and self.resolve(node.value) == f"{self.fn.qualname}.<locals>.{node.value.id}":
            self.fn.returns_function = f"{self.fn.qualname}.<locals>.{node.value.id}"  # `return on_message`
        returned = self.value(node.value) if isinstance(node.value, (ast.Name, ast.JoinedStr)) else None
        if returned and returned[0] == "param" and returned[1] not in self.fn.returns_param:
            self.fn.returns_param.append(returned[1])  # `return f"{func.__module__}.{func.__name__}"`


    def _dict_returned(self, node: ast.AST | None) -> list | None:
        """The dict a function returns, as written: a literal, a local holding one, a copy of it
        (`dict(available)`), or a comprehension picking its entries (`{name: available[name] for
        name in chosen}`, a subset of them)."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" \
                and len(node.args) == 1 and not node.keywords:
            node = node.args[0]
        elif isinstance(node, ast.DictComp) and isinstance(node.value, ast.Subscript):
            node = node.value.value
        elif isinstance(node, ast.DictComp) and isinstance(node.value, ast.Call) \
                and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "get":
            node = node.value.func.value
        if isinstance(node, ast.Dict):
            return self.value(node)
        held = self.scope.held.get(node.id, _OTHER) if isinstance(node, ast.Name) else _OTHER
        return held if held[0] == "dict" else None

    def _table_entry_returned(self, node: ast.AST | None) -> tuple:
        """`return handlers.get(kind)` / `return handlers[kind]` of a table written in the function
        (or `return {...}.get(kind)`): the functions it holds, one of which the caller gets back
        and calls (`dispatcher = get_dispatcher(kind); dispatcher(config, message)`)."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" and node.args:
            table = node.func.value
        elif isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice):
            table = node.value
        else:
            return ()
        if isinstance(table, ast.Name):
            held = self.scope.held.get(table.id, _OTHER)
        elif isinstance(table, (ast.Dict, ast.List, ast.Tuple)):
            held = self.value(table)
        else:
            return ()
        if held[0] not in ("dict", "seq"):
            return ()
        entries = [v for _, v in held[1]] if held[0] == "dict" else held[1]
        return tuple(dict.fromkeys(e[1] for e in entries if e and e[0] == "name" and e[1]))

    def _stmt_raise(self, node: ast.Raise) -> None:
        if isinstance(node.exc, ast.Name) and node.exc.id in self.scope.caught:
            self.scope.caught.pop(node.exc.id).hands_over = True  # `error = err` then, later, `raise error`
        self.expr(node.exc)
        self.expr(node.cause)
        exc = node.exc
        target = exc.func if isinstance(exc, ast.Call) else exc
        name = self.resolve(target) if target is not None else None
        if name and isinstance(target, ast.Name) and name.endswith("()") and "." in name:
            name = name[:-2]  # `error = ApiError(...)` ... `raise error`: an ApiError
        self.fn.events.append(
            Event(
                kind="raise",
                name=name,
                attr=target.attr if isinstance(target, ast.Attribute) else (target.id if isinstance(target, ast.Name) else None),
                line=node.lineno,
                col=node.col_offset,
                end_line=node.end_lineno or node.lineno,
                end_col=node.end_col_offset or node.col_offset,
                loops=self.loops,
                branch=self.branch,
                regions=self.regions,
                tries=self.tries,
                handlers=self.handlers,
                exit_line=self.exit_line,
            )
        )

    def _stmt_loop(self, node: ast.For | ast.AsyncFor | ast.While) -> None:
        waits = isinstance(node, ast.While) and _waits_to_stop(node.test) is not None
        tested = len(self.fn.events)
        if isinstance(node, (ast.For, ast.AsyncFor)):
            self._bind_iteration(node.target, node.iter, self.expr(node.iter))
            iterable = node.iter.value if isinstance(node.iter, ast.Await) else node.iter
            for ev in self.fn.events[tested:] if isinstance(iterable, ast.Call) else ():
                if ev.kind == "call" and (ev.line, ev.col) == (iterable.lineno, iterable.col_offset):
                    ev.iterated = True
        elif not waits:
            self._test(node.test)
        saved = self.loops
        self.loops = saved + (self._next_id(),)
        if waits:
            self._test(node.test)  # `while not stop.wait(30):` waits in every round
        if isinstance(node, ast.While) and (_runs_until_stopped(node.test, self.fn.params) or _told_to_stop(node)) \
                and not _walks(node):
            self.fn.forever.append(self.loops[-1])
            if not isinstance(node.test, ast.Constant):
                self.flag_loops.add(self.loops[-1])
        if _pulls(node):
            self.fn.pulls.append(self.loops[-1])
        call = node.test.value if isinstance(node, ast.While) and isinstance(node.test, ast.Await) else \
            node.test if isinstance(node, ast.While) else None
        if isinstance(call, ast.Call) and all(
                isinstance(st, (ast.Pass, ast.Continue)) or (isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant))
                for st in node.body):
            named = next((ev.name for ev in self.fn.events[tested:] if ev.kind == "call" and ev.line == call.lineno
                          and ev.col == call.col_offset and ev.name), None)
            if named:
                self.fn.rounds.append(named)
        if isinstance(node, (ast.For, ast.AsyncFor)) and (_message_stream(node.iter) or (
                isinstance(node, ast.AsyncFor) and _queue_iterator(node.iter, self.resolve(node.iter)))) and not (
                isinstance(node.iter, ast.Name) and node.iter.id in self.fn.params
                and node.iter.id.lower().endswith("websocket")):
            # (a connection handed in, `async def handler(websocket): async for m in websocket:`, is a
            # server's per-connection handler, not a stream the function opened)
            # `for message in self._consumer:`: each round waits for the next message, until stopped.
            self.fn.forever.append(self.loops[-1])
            self.fn.streams.append(self.loops[-1])
        self._body(node.body)
        if isinstance(node, (ast.For, ast.AsyncFor)) and isinstance(node.target, ast.Name) \
                and self.scope.held.get(node.target.id, _OTHER)[0] == "each":
            del self.scope.held[node.target.id]  # after the loop it holds the last one only
        # A loop taking a new item each round (`item = self._queue.get()`, `job = claim_next()`)
        # retries nothing: after a failure, the next round works on the next item.
        shape = retry_loop(node) if not _takes_each_round(node) else None
        if shape is not None and _retries_reads_only(self.scope.node, node):
            shape = None
        if shape is not None and (shape.try_node is None or id(shape.try_node) in self._try_ids):
            head = node.test if isinstance(node, ast.While) else node.iter
            self.fn.retry_loops.append((
                self.loops[-1], None if shape.try_node is None else self._try_ids[id(shape.try_node)],
                node.lineno, node.col_offset,
                head.end_lineno or node.lineno, head.end_col_offset or 0, shape.header, shape.count, shape.count_from,
                shape.forever, shape.on_result, shape.backoff, shape.delay,
                [self.resolve(n) or ast.unparse(n) for n in shape.retry_on]))
        self.loops = saved
        self._body(node.orelse)

    def _bind_iteration(self, target: ast.AST, it: ast.expr, sources: frozenset, each: bool = True) -> None:
        """`for hook in HOOKS:` takes the table's elements (a dict's keys), `for hook in
        HOOKS.values()` its values, `for name, hook in HOOKS.items()` both (`pkg.HOOKS[in]`, `[]`);
        a comprehension's `for` alike. `each`: a loop over callables written in a tuple takes each."""
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and not it.args \
                and it.func.attr in ("values", "items") and (base := self._table_name(it.func.value)):
            if it.func.attr == "values":
                self._bind_entry(target, f"{base}[]", sources)
                return
            if isinstance(target, (ast.Tuple, ast.List)) and len(target.elts) == 2:
                self._bind(target.elts[0], f"{base}[in]", sources)
                self._bind_entry(target.elts[1], f"{base}[]", sources)
                return
        elif (base := self._table_name(it)) is not None:
            self._bind_entry(target, f"{base}[in]", sources)
            return
        elif isinstance(items := _unlisted(it), ast.Call) and isinstance(items.func, ast.Attribute) \
                and items.func.attr == "items" and not items.args and isinstance(target, (ast.Tuple, ast.List)) \
                and len(target.elts) == 2 and (held := self._instance_collection(items.func.value)) is not None:
            self._bind(target.elts[0], None, sources)
            self._bind_entry(target.elts[1], f"{held}[]", sources)  # `for name, entry in self.jobs.items():`
            return
        elif (held := self._instance_collection(it)) is not None:
            # `for mod in self.modules:` an element of it; `for func, every in self.jobs:` a position of its tuples
            self._bind_entry(target, f"{held}[]", sources)
            return
        self._bind(target, None, sources)
        if not each or not isinstance(it, (ast.Tuple, ast.List)) or not 1 < len(it.elts) <= 32:
            return
        if isinstance(target, ast.Name):
            # `for target in (self._listen, self._loop):` each of the callables written there in turn
            self._hold_each(target, it.elts)
        elif isinstance(target, (ast.Tuple, ast.List)) and all(
                isinstance(e, (ast.Tuple, ast.List)) and len(e.elts) == len(target.elts) for e in it.elts):
            # `for name, step in (("sync", run_sync), ("mail", run_mail)):` a position of each tuple
            for i, name in enumerate(target.elts):
                if isinstance(name, ast.Name):
                    self._hold_each(name, [e.elts[i] for e in it.elts])

    def _hold_each(self, target: ast.Name, elts: list) -> None:
        """The loop variable is each callable written there in turn; a lambda among them is no name:
        the call it makes, read where it is written, is made for itself as a statement's is."""
        if all(isinstance(e, (ast.Name, ast.Attribute, ast.Lambda)) for e in elts) \
                and sum(not isinstance(e, ast.Lambda) for e in elts) > 1:
            self.scope.held[target.id] = ["each", [self.value(e) for e in elts if not isinstance(e, ast.Lambda)]]
            for e in elts:
                if isinstance(e, ast.Lambda):
                    self._mark_statement(e.body, 0, kept=False)

    def _instance_collection(self, node: ast.AST) -> str | None:
        """`self.modules` (or `self.modules.values()`) in a method: the instance's collection, named
        `pkg.Manager().modules`; what its class puts in it is read when linking. So is the list it
        keeps under a key (`self.handlers[kind]`, `self.handlers.get(kind, [])`): its elements are
        what the class puts in the collection's lists (`self.handlers[kind].append(handler)`)."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args \
                and node.func.attr in ("values", "copy"):
            node = node.func.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
                and node.args and not node.keywords:
            node = node.func.value
        elif isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice):
            node = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("list", "tuple") \
                and len(node.args) == 1:
            node = node.args[0]
        if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"):
            return None
        owner = self.lookup("self")
        return f"{owner}.{node.attr}" if owner and owner.endswith("()") else None

    def _test(self, test: ast.expr, gates: bool = True) -> None:
        """A condition: the calls it makes are `in_test`; a call whose second unpacked name it
        reads (`_, created = X.objects.get_or_create(...)`, `if not created:`) is `flag_tested`,
        unless what the condition decides is only a log line (`gates` false: `if created:
        log.info("added")` gates no work)."""
        events = self.fn.events
        first = len(events)
        self.expr(test)
        for ev in events[first:]:
            ev.in_test = True
        flags = self._flags
        if flags and gates:
            for sub in ast.walk(test):
                if isinstance(sub, ast.Name) and sub.id in flags:
                    events[flags[sub.id]].flag_tested = True

    def _stmt_if(self, node: ast.If) -> None:
        self._test(node.test, gates=not (_just_logs(node.body) and _just_logs(node.orelse)))
        if_id = self._next_id()
        arm = _status_arm(node)
        if arm is not None:
            self.fn.status_arms += (arm,)
        if node.orelse and not _says_stop(node.test) and self._off_by_default(node.test, inverted=True):
            self.else_stop_ifs.add(if_id)  # `if interval: time.sleep(interval) else: break`
        elif _says_stop(node.test) or self._off_by_default(node.test):
            self.stop_ifs.add(if_id)
            if not _says_stop(node.test):
                self.mode_ifs.add(if_id)
        elif _asks_to_stop(node.body):
            self.stop_ifs.add(if_id)  # `if orphaned: self.request_stop(); break`: stopped, by itself
        elif _counts(node.test):
            self.count_ifs.add(if_id)
        saved, saved_gated = self.branch, self.gated
        self.branch = saved + ((if_id, 0),)
        flag = self._flag_call(node.test, True) if self._flags else None
        self.gated = saved_gated if flag is None else saved_gated + (flag,)
        arms = [] if self.scope is self.module_scope else None
        # With no `else`, what the names held before is the other arm (`if not HAS_CELERY:
        # shared_task = noop_task` after `from celery import shared_task`).
        before = (dict(self.module_scope.names), set(self.module_vars)) if arms is not None and not node.orelse else None
        self._arm(node.body, arms)
        if before is not None and arms:
            arms.append({k: (before[0][k], k in before[1]) for k in arms[0] if k in before[0]})
        self.branch = saved + ((if_id, 1),)
        flag = self._flag_call(node.test, False) if self._flags else None
        self.gated = saved_gated if flag is None else saved_gated + (flag,)
        self._arm(node.orelse, arms)
        self.branch, self.gated = saved, saved_gated
        if arms:
            self._keep_library(arms)

    def _off_by_default(self, test: ast.expr, inverted: bool = False) -> bool:
        """`if once:`, `if under_test:`, `if dry_run:` on a parameter that defaults to False or None or
        has no default, and `if not period:` (`if period is None:`) on one that has no default (a
        command's option): what it
        leaves is a caller's choice, the same in every round; the run its callers start by default
        goes on. `inverted`: what its `else` arm leaves on (`if interval: sleep(interval) else: break`).
        A conjunction is when one of its terms is (`if drain and queue_empty():`)."""
        if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) and not inverted:
            return any(self._off_by_default(v) for v in test.values)
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Gt, ast.NotEq)) \
                and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value == 0 \
                and not isinstance(test.comparators[0].value, bool) and not inverted:
            # `if exit_idle_sec > 0:` on a parameter that defaults to 0: a limit the caller may set
            return isinstance(test.left, ast.Name) and self.fn is not None and test.left.id in self.fn.params \
                and test.left.id not in self.scope.changed and self.fn.defaults.get(test.left.id) in (["lit", 0], ["lit", 0.0])
        negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
        name = test.operand if negated else test
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Is) \
                and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None:
            negated, name = True, test.left  # `if period is None: break`
        negated ^= inverted
        option = name.value if isinstance(name, ast.Attribute) or (
            isinstance(name, ast.Subscript) and isinstance(name.slice, ast.Constant)) else None
        if isinstance(option, ast.Name) and self.fn is not None and option.id in self.fn.params \
                and option.id not in ("self", "cls") and option.id not in self.scope.changed:
            return True  # `if not args.loop: return 0`, `if options["once"]:`: an option of the command line
        if not isinstance(name, ast.Name) or self.fn is None or name.id not in self.fn.params \
                or self.scope.names.get(name.id, "") not in (None, "bool()") or name.id in self.scope.changed:
            return False  # `if not devices: break` after `devices.remove(d)`: the work done
        default = self.fn.defaults.get(name.id)
        if negated:
            return default is None
        return default is None or default in (["lit", False], ["lit", None])

    # A module-level `if`/`try` whose arms bind one name differently (`bindings.library_arm`).

    def _arm(self, body: list, arms: list | None) -> None:
        before = self._arm_start(arms)
        self._body(body)
        self._arm_end(arms, before)

    def _arm_start(self, arms: list | None) -> int:
        return len(self.module_scope.names.bound) if arms is not None else 0

    def _arm_end(self, arms: list | None, start: int, into: dict | None = None) -> None:
        """What this arm bound: (resolved name or type, bound by assignment) per name."""
        if arms is None:
            return
        names = self.module_scope.names
        bound = {k: (names.get(k), k in self.module_vars) for k in names.bound[start:]}
        if into is None:
            arms.append(bound)
        else:
            into.update(bound)

    def _keep_library(self, arms: list, first_wins: bool = False) -> None:
        own_top = self.mod.module.partition(".")[0]
        tops = {m.partition(".")[0] for m in self.mod.imported}
        for name, (value, assigned) in library_arm(arms, self.module_scope.names, own_top, tops, first_wins).items():
            self._drop_shim(self.module_scope.names.get(name), name)
            self.module_scope.names[name] = value
            if assigned:
                self.mod.symbols[name] = value
                self.module_vars.add(name)
            else:
                self.mod.imports[name] = value
                self.mod.symbols.pop(name, None)
                self.mod.assigns.pop(name, None)
                self.module_vars.discard(name)

    def _drop_shim(self, qualname: str | None, name: str) -> None:
        """A fallback `def name`/`class name` the library's binding replaces is not the module's
        `name`: another module's `from compat import shared_task` then reaches the library's. (A
        function bound under another name, `x = helper`, stays.)"""
        mod = self.mod
        if qualname != f"{mod.module}.{name}" or (qualname not in mod.functions and qualname not in mod.classes):
            return
        for table in (mod.functions, mod.classes):
            for key in [k for k in table if k == qualname or k.startswith(qualname + ".")]:
                del table[key]

    def _stmt_with(self, node: ast.With | ast.AsyncWith) -> None:
        saved = self.regions
        for item in node.items:
            self.expr(item.context_expr)
            ctx = item.context_expr
            call = ctx if isinstance(ctx, ast.Call) else None
            region = Region(
                id=self._next_id(),
                name=self.resolve(call.func if call is not None else ctx),
                line=ctx.lineno,
                col=ctx.col_offset,
                end_line=ctx.end_lineno or ctx.lineno,
                end_col=ctx.end_col_offset or ctx.col_offset,
                args=[self.value(a, 1) for a in call.args] if call is not None else [],
                kwargs={k.arg or "**": self.value(k.value, 1) for k in call.keywords} if call is not None else {},
                is_async=isinstance(node, ast.AsyncWith),
                ref=self.module_var(ctx.id) if isinstance(ctx, ast.Name) else None,
            )
            self.fn.regions.append(region)
            self.regions = self.regions + (region.id,)
            if item.optional_vars is not None:
                self._bind(item.optional_vars, self.resolve(ctx), _EMPTY)
        self._body(node.body)
        self.regions = saved

    def _stmt_try(self, node: ast.Try) -> None:
        try_id = self._next_id()
        self._try_ids[id(node)] = try_id
        saved_tries, saved_handlers = self.tries, self.handlers
        # A `try` with only a `finally` catches nothing: what its body runs is not tried.
        self.tries = saved_tries + (try_id,) if node.handlers else saved_tries
        arms = [] if self.scope is self.module_scope and node.handlers else None
        before = self._arm_start(arms)
        self._body(node.body)
        self.tries = saved_tries
        self._arm_end(arms, before)
        for handler in node.handlers:
            types, unresolved = [], []
            if handler.type is not None:
                caught = handler.type
                if isinstance(caught, ast.Call) and isinstance(caught.func, ast.Name) and caught.func.id in ("tuple", "list") \
                        and len(caught.args) == 1 and not caught.keywords:
                    caught = caught.args[0]  # `except tuple(exception_types)`: what the name holds
                elts = caught.elts if isinstance(caught, ast.Tuple) else [caught]
                types = [self.resolve(e) or "" for e in elts]
                unresolved = [e.id if not t and isinstance(e, ast.Name) else None for e, t in zip(elts, types)]
            if handler.name:
                self.scope.names[handler.name] = None
                self.scope.sources.pop(handler.name, None)
            first_event = len(self.fn.events)
            self.handlers = saved_handlers + (try_id,)
            saved_cancelled = self.cancelled
            if types and all(is_cancellation(t) for t in types):
                self.cancelled = saved_cancelled + (try_id,)
            self._arm(handler.body, arms)
            self.handlers, self.cancelled = saved_handlers, saved_cancelled
            calls = [e.name for e in self.fn.events[first_event:] if e.kind == "call" and e.name]
            self.fn.handlers.append(
                Handler(
                    try_id=try_id,
                    types=types,
                    line=handler.lineno,
                    col=handler.col_offset,
                    reraises=_reraises(handler.body),
                    calls=calls,
                    unresolved=unresolved,
                    hands_over=_hands_over(handler),
                    leaves=any(isinstance(st, (ast.Continue, ast.Break, ast.Return, ast.Raise)) for st in handler.body),
                    exits=any(isinstance(st, (ast.Break, ast.Return, ast.Raise)) for st in handler.body),
                    recovers=_recovers(handler),
                    judged=tuple(self.resolve(call.func) or "" for call in _judged(handler)),
                    accepts_conflict=_accepts_conflict(handler),
                    goes_on_statuses=_goes_on_statuses(handler),
                    repeats=_calls_made_again(node.body, handler),
                    status_arms=_status_arms(handler),
                    in_finally=self.finally_depth > 0,
                    reschedules=_reschedules(handler),
                )
            )
            for local in _caught_locals(handler):
                self.scope.caught[local] = self.fn.handlers[-1]
        before = self._arm_start(arms)
        self._body(node.orelse)
        if arms:
            self._arm_end(arms, before, into=arms[0])  # runs when the body did: one arm with it
            fallback = any((t or "").rpartition(".")[2] in ("ImportError", "ModuleNotFoundError")
                           for h in self.fn.handlers if h.try_id == try_id for t in h.types)
            self._keep_library(arms, first_wins=fallback)
        self.finally_depth += 1
        self._body(node.finalbody)
        self.finally_depth -= 1

    def _stmt_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        # A method's decorators run in the class body: `@_retry_on_error(...)` names a function
        # written earlier in that body.
        enclosing, self.scope = self.scope, (self.class_scope if self.owner is not None and self.class_scope else self.scope)
        decorators = [self._decorator(d) for d in node.decorator_list]
        self.scope = enclosing
        for default in (*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)):
            self.expr(default)
        owner = self.owner
        if owner is not None:
            qualname = f"{owner.qualname}.{node.name}"
            accessor = next((kind for d in decorators for kind in ("setter", "deleter")
                             if d[0] and d[0][0] == "name" and str(d[0][1]).endswith(f".{node.name}.{kind}")), None)
            if accessor is not None and qualname in self.mod.functions:
                # `@client.setter def client(...)`: the property's getter keeps the name (what
                # reading `self.client` runs and returns); the setter is summarised beside it
                qualname = f"{qualname}.<{accessor}>"
            owner.methods.append(node.name)
            if self.class_scope is not None and accessor is None:
                self.class_scope.names[node.name] = qualname
        else:
            if self.fn.name != MODULE_CODE:
                qualname = f"{self.fn.qualname}.<locals>.{node.name}"
            else:
                qualname = f"{self.mod.module}.{node.name}"
            self.scope.names[node.name] = qualname
            self.scope.sources.pop(node.name, None)
            if self.scope is self.module_scope:
                self.module_vars.discard(node.name)
        params = [a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)]
        if node.args.vararg:
            params.append(node.args.vararg.arg)
        if node.args.kwarg:
            params.append(node.args.kwarg.arg)
        doc, doc_line = _docstring(node)
        prefix = 10 if isinstance(node, ast.AsyncFunctionDef) else 4
        fn = FunctionSummary(
            qualname=qualname,
            name=node.name,
            line=node.lineno,
            col=node.col_offset + prefix,
            end_line=node.end_lineno or node.lineno,
            is_async=isinstance(node, ast.AsyncFunctionDef),
            decorators=decorators,
            docstring=doc,
            doc_line=doc_line,
            params=params,
            class_qualname=owner.qualname if owner is not None else None,
            def_col=node.col_offset,
            defaults=_defaults(self, node.args),
        )
        self.mod.functions[qualname] = fn
        scope = _Scope(self.scope if self.fn.name != MODULE_CODE else self.module_scope)
        scope.params = tuple(params)
        scope.node = node
        all_args = (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)
        for i, arg in enumerate(all_args):
            typ = None
            if i == 0 and owner is not None and not _is_static(node) and not _body_decorator(node):
                # self is an instance, cls the class: attribute calls resolve against the class
                typ = owner.qualname if _is_classmethod(node) else f"{owner.qualname}()"
            elif i == 0 and arg.arg == "self":
                typ = "@self"  # a bound task's `self` (Celery bind=True)
            elif arg.annotation is not None:
                ann = self.annotated_class(arg.annotation)
                typ = f"{ann}()" if ann else None
            default = fn.defaults.get(arg.arg)
            if default and default[0] == "name" and default[1] and "()" not in default[1] and default[1][0] != "@":
                # `send_task: SendTask = send_task`: what the parameter runs unless a caller passes
                # another, whatever its annotation calls it (a Callable alias).
                typ = default[1]
            scope.names[arg.arg] = typ
        for extra in (node.args.vararg, node.args.kwarg):
            if extra is not None:
                scope.names[extra.arg] = None
        self._enter(fn, scope, node.body)
        passed = None if decorators else _passing_call(node)
        if passed is not None:
            # The call itself, not one it is made on (`requests.Session().post(...)` starts where
            # `requests.Session()` does): the one that ends where it ends.
            fn.passes_to = next((ev.name for ev in fn.events if ev.kind == "call" and ev.line == passed.lineno
                                 and ev.col == passed.col_offset and ev.end_line == passed.end_lineno
                                 and ev.end_col == passed.end_col_offset), None)
        if (fn.return_type is None or fn.return_type.endswith(")()")) and node.returns is not None:
            # `def get_server(self) -> Server: return self.server` gives a Server; what the body
            # returns, where it says (`-> Notifier` returning `SlackNotifier()`), is more precise,
            # but not what a callable a call gave made (`import_string(path)(**options)`, `->
            # Destination`): of that, only the annotation says anything.
            returned = self.annotated_class(node.returns)
            fn.return_type = f"{returned}()" if returned else fn.return_type

    def _enter(self, fn: FunctionSummary, scope: _Scope, body: list) -> None:
        saved = (self.fn, self.scope, self.owner, self.loops, self.branch, self.regions, self.tries, self.handlers,
                 self.cancelled, self.exit_line)
        saved_flags, self._flags = self._flags, {}
        saved_gated, self.gated = self.gated, ()
        saved_finally, self.finally_depth = self.finally_depth, 0  # (a function defined in a `finally:` runs later)
        self.fn, self.scope, self.owner = fn, scope, None
        self.loops = self.branch = self.regions = self.tries = self.handlers = self.cancelled = ()
        self.exit_line = 0
        self._body(body)
        (self.fn, self.scope, self.owner, self.loops, self.branch, self.regions, self.tries, self.handlers,
         self.cancelled, self.exit_line) = saved
        self._flags = saved_flags
        self.gated = saved_gated
        self.finally_depth = saved_finally

    def _decorator(self, node: ast.expr) -> list:
        self.expr(node)  # decorator arguments may call things; record them in the outer scope
        end_line = node.end_lineno or node.lineno
        return [self.value(node), node.lineno, node.col_offset, end_line, node.end_col_offset or node.col_offset]

    def _stmt_class(self, node: ast.ClassDef) -> None:
        decorators = [self._decorator(d) for d in node.decorator_list]
        for kw in node.keywords:
            self.expr(kw.value)
        if self.owner is not None:
            qualname = f"{self.owner.qualname}.{node.name}"
        elif self.fn.name != MODULE_CODE:
            qualname = f"{self.fn.qualname}.<locals>.{node.name}"
        else:
            qualname = f"{self.mod.module}.{node.name}"
        if self.owner is None:
            self.scope.names[node.name] = qualname
            if self.scope is self.module_scope:
                self.module_vars.discard(node.name)
        doc, doc_line = _docstring(node)
        cls = ClassSummary(
            qualname=qualname,
            name=node.name,
            line=node.lineno,
            col=node.col_offset + 6,
            end_line=node.end_lineno or node.lineno,
            bases=[self.resolve(b) for b in node.bases],
            decorators=decorators,
            docstring=doc,
            doc_line=doc_line,
            attrs={},
            attr_types={},
            methods=[],
        )
        self.mod.classes[qualname] = cls
        # The class body runs once, in the enclosing code: its calls are recorded there, its
        # names live in a scope that methods do not see (as in Python).
        saved_scope, saved_owner, saved_class_scope = self.scope, self.owner, self.class_scope
        class_scope = _Scope(saved_scope)
        self.owner, self.class_scope = cls, class_scope
        for stmt in node.body:
            # A method's enclosing scope is the class's enclosing scope, not the class body.
            is_method = isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))
            self.scope = saved_scope if is_method else class_scope
            self.stmt(stmt)
        self.scope, self.owner, self.class_scope = saved_scope, saved_owner, saved_class_scope

    def _stmt_global(self, node: ast.AST) -> None:
        if isinstance(node, ast.Global) and self.scope is not self.module_scope:
            self.scope.globals = (*self.scope.globals, *node.names)

    def _bind_global(self, target: ast.Name, sources: frozenset) -> None:
        """An assignment under `global`: the module's name, whose type `_type_globals` alone gives
        (one `scheduler = None` at shutdown does not untype it; two types leave it untyped)."""
        name = target.id
        self.module_vars.add(name)
        self._sink("var", name, target.lineno, sources)


_EXITS = (ast.Return, ast.Raise, ast.Continue)


def _named_by(attr: ast.expr) -> str:
    """What names the attribute `getattr(obj, attr)` takes, where it is not a literal:
    `<getattr:handle_*>` for a name built around a parameter (`f"handle_{kind}"`, `"on_" + event`,
    `"do_%s" % cmd`), `<getattr:[event_type]>` for a value read under a key (`event["event_type"]`,
    `msg.get("op")`, `message.kind`), else `<getattr>`: nothing known."""
    parts: list | None = None
    if isinstance(attr, ast.JoinedStr):
        parts = [v.value if isinstance(v, ast.Constant) else None for v in attr.values]
    elif isinstance(attr, ast.BinOp) and isinstance(attr.op, ast.Add):
        parts = []
        for side in (attr.left, attr.right):
            if isinstance(side, ast.BinOp) and isinstance(side.op, ast.Add):
                parts += [side.left.value if isinstance(side.left, ast.Constant) else None,
                          side.right.value if isinstance(side.right, ast.Constant) else None]
            else:
                parts.append(side.value if isinstance(side, ast.Constant) else None)
    elif (isinstance(attr, ast.BinOp) and isinstance(attr.op, ast.Mod) and isinstance(attr.left, ast.Constant)
          and isinstance(attr.left.value, str) and attr.left.value.count("%s") == 1):
        before, _, after = attr.left.value.partition("%s")
        parts = [before, None, after]
    if parts is not None:
        parts = [p for p in parts if p != ""]
        if parts.count(None) == 1 and all(p is None or isinstance(p, str) for p in parts):
            at = parts.index(None)
            prefix, suffix = "".join(parts[:at]), "".join(parts[at + 1:])
            if (prefix + suffix).replace("_", "").isalnum() and len(prefix + suffix) >= 3:
                return f"<getattr:{prefix}*{suffix}>"
        return "<getattr>"
    if isinstance(attr, ast.Subscript) and isinstance(attr.slice, ast.Constant) and isinstance(attr.slice.value, str):
        return f"<getattr:[{attr.slice.value}]>"
    if (isinstance(attr, ast.Call) and isinstance(attr.func, ast.Attribute) and attr.func.attr == "get"
            and attr.args and isinstance(attr.args[0], ast.Constant) and isinstance(attr.args[0].value, str)):
        return f"<getattr:[{attr.args[0].value}]>"
    if isinstance(attr, ast.Attribute) and not (isinstance(attr.value, ast.Name) and attr.value.id in ("self", "cls")):
        return f"<getattr:[{attr.attr}]>"
    return "<getattr>"


def _spelled(node: ast.expr) -> str | None:
    """The last name an expression is spelled with: `handler` (`handler`), `handlers`
    (`self.handlers[0]`), `handler_cls` (`handler_cls()`)."""
    while isinstance(node, (ast.Call, ast.Subscript)):
        node = node.func if isinstance(node, ast.Call) else node.value
    if isinstance(node, ast.Name):
        return sys.intern(node.id)
    if isinstance(node, ast.Attribute):
        return sys.intern(node.attr)
    return None


def _head(node: ast.expr) -> str | None:
    """The name an expression starts from: `make` in `await make(x).build()`."""
    while isinstance(node, (ast.Call, ast.Attribute, ast.Await)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _defaults(summarizer: Summarizer, args: ast.arguments) -> dict:
    """Parameter -> the Value of its default (evaluated where the `def` is)."""
    if not args.defaults and not any(args.kw_defaults):
        return _NO_KWARGS
    positional = (*args.posonlyargs, *args.args)
    out = {a.arg: summarizer.value(d, 1) for a, d in zip(positional[len(positional) - len(args.defaults):], args.defaults)}
    out.update((a.arg, summarizer.value(d, 1)) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None)
    return out


# What a loop that runs until the process is told to stop tests: `while not stop.is_set():`,
# `while not self.stopping():`, `while thread.is_alive():`, `while self.running:`,
# `while self._interval is not None:`.
# What a task or thread is stopped with: a handler of these alone hears the stop, not a failure.
_CANCELLATIONS = frozenset({"CancelledError", "Cancelled", "KeyboardInterrupt", "SystemExit", "GeneratorExit"})
_STOP_WORDS = ("stop", "shut", "exit", "quit", "terminat", "cancel", "abort", "halt", "is_set", "interrupt", "reload",
               "clos", "drain")
_STOP_EVENTS = ("event", "evt", "ev")
_NAME_PARTS = re.compile(r"_|(?<=[a-z])(?=[A-Z])")
_RUN_WORDS = ("run", "alive", "keep", "looping", "forever")  # `while self.running`, `while self.should_keep_looping()`


def is_cancellation(caught: str | None) -> bool:
    """An exception a task or thread is stopped with: the standard ones, and an application's own
    named for stopping (`ShutdownInterrupt`, `WorkerStop`, `GracefulExit`); not an error
    (`ConnectionAbortedError`) nor the end of what is iterated (`StopIteration`)."""
    name = (caught or "").rpartition(".")[2]
    if name in _CANCELLATIONS:
        return True
    lowered = name.lower()
    return (any(word in lowered for word in _STOP_WORDS if word not in ("is_set", "reload"))
            and not lowered.endswith(("error", "iteration")))


def _retries_reads_only(fn_node: ast.AST | None, loop: ast.stmt) -> bool:
    """`attempts = 1 + (self.max_retries if method == "GET" else 0)` ... `for attempt in
    range(1, attempts + 1)`: the loop tries again only a request that reads (urllib3's
    `allowed_methods`, by hand); any other is tried once, so it retries no write."""
    if fn_node is None or not isinstance(loop, (ast.For, ast.AsyncFor)) or not isinstance(loop.iter, ast.Call):
        return False
    names = {n.id for n in ast.walk(loop.iter) if isinstance(n, ast.Name)}
    for node in ast.walk(fn_node):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id in names for t in node.targets):
            if any(isinstance(sub, ast.IfExp) and _asks_for_a_read(sub.test) and isinstance(sub.orelse, ast.Constant)
                   and sub.orelse.value in (0, 1) for sub in ast.walk(node.value)):
                return True
    return False


def _asks_for_a_read(test: ast.expr) -> bool:
    """`method == "GET"`, `method in ("GET", "HEAD")`."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.In))):
        return False
    right = test.comparators[0]
    items = [right] if isinstance(right, ast.Constant) else list(right.elts) if isinstance(right, (ast.Tuple, ast.List, ast.Set)) else []
    return bool(items) and all(isinstance(e, ast.Constant) and isinstance(e.value, str) and e.value.upper() in HTTP_READ_METHODS
                               for e in items)


def _runs_until_stopped(test: ast.expr, params: list = ()) -> bool:
    """`while True:` or a test of a run or stop flag: the loop ends only when something outside
    it says stop, not by its own progress (`while n < 3`, `while queue:` are not read this way).
    Also `while iterations is None or count < iterations:`: with no bound given (a parameter
    left None), it runs until stopped; a caller (a test) may bound it."""
    if isinstance(test, ast.Constant):
        return bool(test.value)
    if _waits_to_stop(test):
        return True  # `while await self.sleep(interval):`
    if isinstance(test, ast.BoolOp):
        # `while forever or pending:` goes on while told to run, whatever else holds; `while
        # running and not stop.is_set():` only while both hold.
        runs = [_runs_until_stopped(v) for v in test.values]
        if isinstance(test.op, ast.Or) and any(_unbounded(v, params) for v in test.values):
            return True
        return all(runs) if isinstance(test.op, ast.And) else any(runs)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        waits = _waits_to_stop(test)
        if waits is not None:
            return waits
        return _flag_named(test.operand, _STOP_WORDS)
    if (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.IsNot, ast.Is))
            and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None):
        # `while self._poll_interval is not None:` (stopped by clearing what the object holds),
        # `while self._failure is None:` (by setting it); not a local walking a chain (`while node
        # is not None: node = node.next`).
        left = test.left
        return isinstance(left, ast.Attribute) and isinstance(left.value, ast.Name) and left.value.id == "self"
    return _flag_named(test, _RUN_WORDS)


def _unbounded(test: ast.expr, params: list) -> bool:
    """`limit is None`, of a parameter: no bound was given."""
    return (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Is)
            and isinstance(test.left, ast.Name) and test.left.id in params
            and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None)


def _waits_to_stop(test: ast.expr) -> bool | None:
    """`while not stop.wait(interval):` waits each round and ends when told to stop: whether the
    event is named for stopping; `while await self.sleep(interval):` (a sleep of the application's
    that says whether to go on) too; None for any other test."""
    sleep = test.value if isinstance(test, ast.Await) else test
    if isinstance(sleep, ast.Call) and (sleep.args or sleep.keywords) and (
            (isinstance(sleep.func, ast.Attribute) and sleep.func.attr == "sleep")
            or (isinstance(sleep.func, ast.Name) and sleep.func.id == "sleep")):
        return True
    if not (isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)):
        return None
    call = test.operand
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "wait"
            and len(call.args) + len(call.keywords) == 1):
        return None
    return _flag_named(call.func.value, _STOP_WORDS + _STOP_EVENTS)


def _told_to_stop(loop: ast.While) -> bool:
    """`while delay is not None: if stop.is_set(): break ... delay = next(rounds)`: a loop that
    takes each round from a schedule it is handed (`next(...)`, a generator's `send(...)`) and
    leaves, first thing in its body, when told to stop runs until then. Not a loop over what it
    has left (`while page:`, `while self.pending:`): it ends by its own progress."""
    first = loop.body[0] if loop.body else None
    test = loop.test
    if not (isinstance(first, ast.If) and _says_stop(first.test) and not first.orelse and len(first.body) == 1
            and isinstance(first.body[0], (ast.Break, ast.Return))):
        return False
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.IsNot)
            and isinstance(test.left, ast.Name) and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value is None):
        return False
    name = test.left.id
    for node in ast.walk(loop):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and any(
                name in {n.id for n in ast.walk(target) if isinstance(n, ast.Name)} for target in node.targets):
            func = node.value.func
            if (isinstance(func, ast.Name) and func.id == "next") or (isinstance(func, ast.Attribute) and func.attr == "send"):
                return True
    return False


def _pulls(loop: ast.For | ast.AsyncFor | ast.While) -> bool:
    """`while True: km = fetch_next(); if not km: break; handle(km)`: each round takes its item
    from a call and the loop ends when the call gives none, so the source moves on every round (or
    the loop would never end) and a later round, or a run started again, never sees an earlier
    item. So does `for _ in range(limit):` around such a pull, a cap on the rounds that names
    nothing else. Not when the call is given something the loop changes (`page = fetch(n); n +=
    1`): run again, it starts over from the first."""
    taken: dict[str, ast.Call] = {}
    for stmt in loop.body:
        for inner in (stmt.body if isinstance(stmt, ast.Try) else [stmt]):
            if isinstance(inner, ast.Assign) and len(inner.targets) == 1 and isinstance(inner.targets[0], ast.Name):
                value = inner.value.value if isinstance(inner.value, ast.Await) else inner.value
                if isinstance(value, ast.Call):
                    taken[inner.targets[0].id] = value
    ends = [name for stmt in loop.body if isinstance(stmt, ast.If) and not stmt.orelse
            and isinstance(stmt.body[-1], (ast.Break, ast.Return))
            and (name := _tested_empty(stmt.test)) in taken]
    if not ends:
        return False
    # (walked only for the few loops that pull: what the loop binds, its own counter included)
    changed = {n.id for n in ast.walk(loop) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    if isinstance(loop, (ast.For, ast.AsyncFor)):
        counters = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
        if not (isinstance(loop.iter, ast.Call) and isinstance(loop.iter.func, ast.Name) and loop.iter.func.id == "range") \
                or any(isinstance(n, ast.Name) and n.id in counters for stmt in loop.body for n in ast.walk(stmt)):
            return False
    call = taken[ends[0]]
    return not any(isinstance(n, ast.Name) and n.id in changed for arg in (*call.args, *(k.value for k in call.keywords))
                   for n in ast.walk(arg))


def _takes_each_round(loop: ast.For | ast.AsyncFor | ast.While) -> bool:
    """Does the loop's round start by taking an item (`item = self._queue.get()`, `job = await
    self.claim_next()`), in its body or the `try` around its work?"""
    for stmt in loop.body:
        for inner in (stmt.body if isinstance(stmt, ast.Try) else [stmt]):
            if isinstance(inner, ast.Assign):
                value = inner.value.value if isinstance(inner.value, ast.Await) else inner.value
                if isinstance(value, ast.Call) and _a_take(value):
                    return True
    return False


def _a_take(call: ast.Call) -> bool:
    """`queue.get()`, `q.get_nowait()`, `claim_next_job()`: a call taking the next item of a queue."""
    name = call.func.attr if isinstance(call.func, ast.Attribute) else call.func.id if isinstance(call.func, ast.Name) else ""
    if name in ("get", "get_nowait", "popleft") and not call.args:
        return isinstance(call.func, ast.Attribute) and "queue" in _last_name(call.func.value).lower()
    return (name_words(name) or ("",))[0] in TAKING_WORDS


def _tested_empty(test: ast.expr) -> str | None:
    """The name `if not x:` / `if x is None:` tests for nothing."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) and isinstance(test.operand, ast.Name):
        return test.operand.id
    if (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.Eq))
            and isinstance(test.left, ast.Name) and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value is None):
        return test.left.id
    return None


def _counts(test: ast.expr) -> bool:
    """A test that counts rounds (`if max_loops and loop_count >= max_loops:`): a worker run for a
    number of rounds, not one waiting for something."""
    return any(isinstance(n, ast.Compare) and any(isinstance(op, (ast.Gt, ast.GtE, ast.Lt, ast.LtE)) for op in n.ops)
               for n in ast.walk(test))


def _diverging_if(earlier: tuple | None, branch: tuple) -> int | None:
    """The `if` in different arms of which two places are (their `((if_id, arm), ...)`), if any."""
    first = next(((a, b) for a, b in zip(earlier or (), branch) if a != b), None)
    return first[0][0] if first is not None and first[0][0] == first[1][0] else None


# `async for message in websocket:` until it closes; `for msg in receiver:` (a Service Bus queue's).
_STREAM_NAMES = ("consumer", "subscriber", "receiver", "websocket")
_STREAM_CALLS = ("listen", "consume")


def _unlisted(node: ast.expr) -> ast.expr:
    """`list(x)`, `tuple(x)`, `sorted(x)`: a copy of `x` taken to iterate over, `x`."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("list", "tuple", "sorted") \
            and len(node.args) == 1 and not node.keywords:
        return node.args[0]
    return node


def _message_stream(node: ast.expr) -> bool:
    """A stream of messages a loop takes one at a time, waiting for each: a consumer, subscriber or
    receiver (`self._consumer`, `KafkaConsumer(topic)`, `client.get_queue_receiver(name)`; one, not
    a list of them), a pub/sub's `listen()`, a channel's `consume(queue)`."""
    if isinstance(node, ast.Call):
        name = _last_name(node.func)
        return name in _STREAM_CALLS or name.lower().endswith(_STREAM_NAMES)
    return _last_name(node).lower().endswith(_STREAM_NAMES)


def _queue_iterator(node: ast.expr, resolved: str | None) -> bool:
    """`async for message in queue.iterator()`, also through `async with queue.iterator() as it`
    (aio-pika's consumer): each round waits for the queue's next message. A queryset's
    `iterator()` is no queue's, and a synchronous loop over one is no wait."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "iterator":
        return "queue" in _last_name(node.func.value).lower()
    head, _, last = (resolved or "").rpartition(".")
    return last == "iterator()" and "queue" in head.rpartition(".")[2].lower()


def _last_name(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""


_HTTP_VERBS = ("GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE")


def _is_http_verb(value: object) -> bool:
    return isinstance(value, str) and value.upper() in _HTTP_VERBS and (value.isupper() or value.islower())


def _http_verbs(node: ast.AST | None) -> Value | None:
    """`"POST"`, or `"HEAD" if exists else "GET"`: the HTTP method a local is set to, as a Value."""
    if isinstance(node, ast.Constant) and _is_http_verb(node.value):
        return ["lit", node.value]
    if isinstance(node, ast.IfExp):
        arms = [_http_verbs(node.body), _http_verbs(node.orelse)]
        if arms[0] is not None and arms[1] is not None:
            return ["either", [*options(arms[0]), *options(arms[1])], None]
    return None


def _is_reference(name: str | None) -> bool:
    """A dotted name of something defined (a function, a class), not an instance (`X()`), a
    table's entry or a special name."""
    return bool(name) and "." in name and name[0] != "@" and "(" not in name and "[" not in name


def _changed_names(node: ast.FunctionDef | ast.AsyncFunctionDef, names: list) -> frozenset:
    """The names among `names` the function (or a function nested in it) may change: rebinds
    (`except ... as n` too), deletes, stores into, calls a method of (`devices.remove(d)`,
    `jobs.items.pop()`), or hands to a call that may change it (`run_round(jobs)`; not a wait's
    or a log's delay and values): what a test of them reads may differ from round to round."""
    wanted, out = set(names), set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, (ast.Store, ast.Del)):
            out.add(sub.id)
        elif isinstance(sub, ast.ExceptHandler) and sub.name:
            out.add(sub.name)
        elif isinstance(sub, (ast.Attribute, ast.Subscript)) and isinstance(sub.ctx, (ast.Store, ast.Del)):
            out.add(_root_name(sub))
        elif isinstance(sub, ast.Call):
            if isinstance(sub.func, ast.Attribute):
                out.add(_root_name(sub.func.value))
            called = sub.func.attr if isinstance(sub.func, ast.Attribute) else getattr(sub.func, "id", "")
            if called not in _READS_ITS_ARGUMENTS:
                out.update(_root_name(a) for a in (*sub.args, *(k.value for k in sub.keywords)))
    return frozenset(out & wanted)


def _root_name(node: ast.AST) -> str | None:
    """`jobs` in `jobs`, `jobs.items`, `jobs[0].x`."""
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Starred)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _says_stop(test: ast.expr) -> bool:
    """A test that the process was told to stop: an event waited on (`if self._event.wait(1):`,
    true once set), a stop flag (`if self._stop.is_set():`, `if self.stopped:`), a run flag
    cleared (`if not self.running:`), a reload asked for, or a stop sentinel (`if msg is TERMINATE:`)."""
    if isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute) and test.func.attr == "wait":
        # The process's stop event (`self._stop.wait(1)`, `self._event.wait(1)`), not a readiness
        # one (`if self._ready.wait(1): return` waits for something).
        owner = test.func.value
        name = owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) else ""
        return bool(test.args or test.keywords) and (name.strip("_").lower() in _STOP_EVENTS
                                                     or _flag_named(owner, _STOP_WORDS))
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _flag_named(test.operand, _RUN_WORDS)
    if isinstance(test, ast.BoolOp):
        # `if self.need_config_reload and self.type == "arbiter":` leaves as told; with `or`, each
        # way out must be one.
        told = [_says_stop(v) for v in test.values]
        return any(told) if isinstance(test.op, ast.And) else all(told)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Is):
        # A stop sentinel taken from the loop's command queue (`if msg is TERMINATE:`): compared by
        # identity, a constant's name; not a state polled for (`if state == "stopped":`).
        sentinel = test.comparators[0]
        return isinstance(test.left, ast.Name) and isinstance(sentinel, ast.Name) and sentinel.id.isupper() \
            and _flag_named(sentinel, _STOP_WORDS)
    return _flag_named(test, _STOP_WORDS)


def _walks(loop: ast.While) -> bool:
    """`while self.pending is not None: ...; self.pending = self.pending.next`: the loop moves along
    what its test reads, so it ends by its own progress."""
    test = loop.test
    if not (isinstance(test, ast.Compare) and isinstance(test.left, ast.Attribute)):
        return False
    attr = test.left.attr
    return any(isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign))
               and any(isinstance(t, ast.Attribute) and t.attr == attr and isinstance(t.value, ast.Name)
                       and t.value.id == "self" for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))
               for stmt in loop.body for n in ast.walk(stmt))


_STATUS_NAMES = {"UNAUTHORIZED": 401, "FORBIDDEN": 403, "PROXY_AUTHENTICATION_REQUIRED": 407, "REQUEST_TIMEOUT": 408,
                 "CONFLICT": 409, "LOCKED": 423, "TOO_EARLY": 425, "TOO_MANY_REQUESTS": 429}


def _status_code(node: ast.expr) -> int | None:
    """An HTTP status written as a number or a named constant (`423`, `status.HTTP_423_LOCKED`,
    `HTTPStatus.TOO_MANY_REQUESTS`)."""
    if isinstance(node, ast.Constant) and type(node.value) is int and 100 <= node.value < 600:
        return node.value
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and re.fullmatch(r"[1-5]\d\d", node.value):
        return int(node.value)  # `'403' == str(err.code)`
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
    found = re.search(r"(?<!\d)([1-5]\d\d)(?!\d)", name)
    return int(found.group(1)) if found else _STATUS_NAMES.get(name.upper().removeprefix("HTTP_"))


def _status_arms(handler: ast.ExceptHandler) -> tuple:
    """The `if` arms in a handler that run only on some HTTP statuses (`if exc.response.status_code
    == 401 and retry_auth:`, `elif code in (429, 503):`): (first line, last line, statuses) each."""
    return tuple(sorted(arm for node in _own_nodes(handler.body) if isinstance(node, ast.If)
                        and (arm := _status_arm(node)) is not None))


def _just_logs(body: list[ast.stmt]) -> bool:
    """Statements that only log (or do nothing): an `if` arm that decides no work."""
    for stmt in body:
        if isinstance(stmt, ast.Pass):
            continue
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            func = stmt.value.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in LOG_METHODS or name == "print":
                continue
        return False
    return True


def _status_arm(node: ast.If) -> tuple | None:
    """(first line, last line, statuses) of an `if` arm that runs only on some HTTP statuses."""
    if not node.body:
        return None
    tests = node.test.values if isinstance(node.test, ast.BoolOp) and isinstance(node.test.op, ast.And) else [node.test]
    compared = [c for c in map(_statuses_compared, tests) if c is not None and isinstance(c[0], (ast.Eq, ast.In))]
    return (node.body[0].lineno, node.body[-1].end_lineno or node.body[-1].lineno, compared[0][1]) if compared else None


def _statuses_compared(test: ast.expr) -> tuple | None:
    """`code == 401`, `401 == code`, `code not in (429, 503)`: (the comparison, the statuses)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    op, side = test.ops[0], test.comparators[0]
    if isinstance(op, (ast.Eq, ast.NotEq)) and _status_code(test.left) is not None:
        side = test.left
    items = side.elts if isinstance(side, (ast.Tuple, ast.List, ast.Set)) else [side]
    codes = tuple(_status_code(e) for e in items)
    return (op, codes) if codes and None not in codes else None


def _calls_made_again(body: list, handler: ast.ExceptHandler) -> tuple:
    """The calls of a `try`'s body that its handler writes again as they are, callee and
    arguments (`get_resource(resource_id, url)` in both): ((line, col) in the body, (line, col)
    in the handler) each."""
    # The attempt is the body's first statement beyond a log line, not one under a condition
    # there (`if status >= 500: schedule_retry()` is what a failure does) nor one after it (a
    # clean-up both the body and the handler end with, a result appended on either path).
    attempt = next((st for st in body if not _logs(st)), None)
    tried = list(_own_calls([attempt])) if isinstance(attempt, (ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign,
                                                                 ast.Return)) else []
    named = {_last_name(c.func) for c in tried}
    again = [c for c in _own_calls(handler.body) if _last_name(c.func) in named] if named else []
    if not again:
        return ()
    wanted = {_last_name(c.func) for c in again}
    first: dict[str, tuple] = {}
    for call in tried:
        if _last_name(call.func) in wanted:
            first.setdefault(ast.dump(call), (call.lineno, call.col_offset))
    return tuple((first[d], (c.lineno, c.col_offset)) for c in again
                 if (d := ast.dump(c)) in first and not _changed_before(handler.body, c)
                 and not _works_before(handler.body, c))


def _logs(statement: ast.stmt) -> bool:
    """A statement that only writes a log line (`log.info(...)`, `print(...)`)."""
    if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)):
        return False
    func = statement.value.func
    held = _last_name(func.value) if isinstance(func, ast.Attribute) else ""
    return "log" in held.lower() or _last_name(func) == "print"


def _works_before(statements: list, call: ast.Call) -> bool:
    """Does the handler do other work before `call`: a call of its own statement given arguments,
    not a wait or a log (`session.send_api(CreateRequest(name))`: the lookup again after a create
    is no second attempt; a wait, a log line, a `self.connect()` are what a retry does first)?"""
    for node in _own_nodes(statements):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and node.value is not call \
                and (node.lineno, node.col_offset) < (call.lineno, call.col_offset) \
                and (node.value.args or node.value.keywords):
            if not (_last_name(node.value.func).lower().endswith("sleep") or _logs(node)):
                return True
    return False


def _changed_before(statements: list, call: ast.Call) -> bool:
    """Does a statement before `call` change what a name among its arguments holds (`event =
    make_event(None)`, `payload.pop("format")`, `event.error = name`)? Then the call is the same
    text on other data: a report of the failure or a fallback, not the attempt again."""
    names = {n.id for a in (*call.args, *(k.value for k in call.keywords)) for n in ast.walk(a) if isinstance(n, ast.Name)}
    if not names:
        return False
    for node in _own_nodes(statements):
        if not isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Call)) \
                or (node.lineno, node.col_offset) >= (call.lineno, call.col_offset):
            continue
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                while isinstance(target, (ast.Attribute, ast.Subscript)):
                    target = target.value
                if any(isinstance(t, ast.Name) and t.id in names for t in ast.walk(target)):
                    return True
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
                and node.func.value.id in names:
            return True  # `payload.pop("format")`: a method of the argument, which may change it
    return False


def _own_calls(statements: list):
    """The calls written in these statements, not in a function or class they define."""
    return (node for node in _own_nodes(statements) if isinstance(node, ast.Call))


_HEADER_NAME = re.compile(r"(?i)(?:http_)?(x[-_][a-z0-9]+(?:[-_][a-z0-9]+)*)")


def _own_nodes(statements: list):
    """The nodes of these statements, not of a function or class they define."""
    todo = list(statements)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        yield node
        todo.extend(ast.iter_child_nodes(node))


def _goes_on_statuses(handler: ast.ExceptHandler) -> tuple:
    """The statuses a handler goes on after when its first statement raises for every other one
    (`if exc.response.status_code != 423: raise`, `if not ... == status.HTTP_423_LOCKED: raise`,
    `if code not in (429, 503): raise`); () when it does not say."""
    first = handler.body[0] if handler.body else None
    if not (isinstance(first, ast.If) and not first.orelse and isinstance(first.body[-1], ast.Raise)):
        return ()
    # `if status != 429 or remaining != 0: log(...); raise`: raised unless the status is 429
    tests = first.test.values if isinstance(first.test, ast.BoolOp) and isinstance(first.test.op, ast.Or) else [first.test]
    for test in tests:
        negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
        compared = _statuses_compared(test.operand if negated else test)
        if compared is None:
            continue
        op, codes = compared
        if negated:
            op = {ast.Eq: ast.NotEq(), ast.In: ast.NotIn()}.get(type(op), None)
        if isinstance(op, ast.NotEq) and len(codes) == 1 or isinstance(op, ast.NotIn):
            return codes
    return ()


def _accepts_conflict(handler: ast.ExceptHandler) -> bool:
    """Does the handler leave with a result when the failure was a 409 Conflict (`if i > 1 and
    e.code == 409: return e.response`, `HTTPStatus.CONFLICT`, `codes.conflict`)?"""
    for node in ast.walk(handler):
        if isinstance(node, ast.If) and any(isinstance(s, (ast.Return, ast.Break)) for s in node.body) and any(
                isinstance(c, ast.Compare) and 409 in (_status_code(x) for x in (c.left, *c.comparators))
                for c in ast.walk(node.test)):
            return True
    return False


def _asks_to_stop(body: list) -> bool:
    """An arm that asks its own process to stop before leaving (`self.request_stop(); break`,
    `self._running = False; return`): the loop ends as when stopped from outside."""
    return any(_says_to_stop(st) for st in body) and any(isinstance(st, (ast.Break, ast.Return)) for st in body)


def _says_to_stop(st: ast.stmt) -> bool:
    if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and not st.value.args:
        return _flag_named(st.value, _STOP_WORDS)  # `self.request_stop()`
    if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.value, ast.Constant) \
            and isinstance(st.value.value, bool):
        # `self._running = False`, `self.stopping = True`
        return _flag_named(st.targets[0], _RUN_WORDS if st.value.value is False else _STOP_WORDS)
    return False


def names_stopping(name: str) -> bool:
    """A name with a word of stopping in it (`_shutting_down`, `stop_event`), as a loop's test reads
    one (`_STOP_WORDS`)."""
    return any(part.lower().startswith(_STOP_WORDS) for part in _NAME_PARTS.split(name))


def _flag_named(node: ast.expr, words: tuple[str, ...]) -> bool:
    """A name, attribute or no-argument call whose last name has one of `words` in it."""
    if isinstance(node, ast.Call) and not node.args and not node.keywords:
        node = node.func
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
    if name in ("is_set", "isSet"):
        return "is_set" in words
    if name in _STATE_WORDS and isinstance(node, ast.Attribute):
        return _flag_named(node.value, words)  # `_shutdown.requested`: what the object is named for
    return any(part.lower().startswith(words) for part in _NAME_PARTS.split(name))


# Builtins that count or collect what a call returns (`len(scheduler.tick())`).
_COUNTING = frozenset({"len", "list", "tuple", "set", "sorted", "bool", "int", "sum"})
# The last name of a flag that says only that something happened (`_shutdown.requested`,
# `self.stop_flag.value`): the object it is read from says what.
_STATE_WORDS = frozenset({"requested", "value", "flag", "triggered", "signalled", "signaled", "received"})


def _arith(op: ast.operator, a: float, b: float) -> float:
    if isinstance(op, ast.Mult):
        return a * b
    if isinstance(op, ast.Add):
        return a + b
    if isinstance(op, ast.Sub):
        return a - b
    if isinstance(op, ast.Div):
        return a / b
    if isinstance(op, ast.Pow) and abs(b) < 64:
        return a**b
    raise ValueError("unsupported")


def _dotted(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        base = _dotted(node.value)
        return f"{base}[{node.slice.value!r}]" if base else None
    return None


def _passing_call(node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.Call | None:
    """The call a function of `(*args, **kwargs)` alone passes them all to, when that is its whole
    body (after a docstring; in a `try:` whose handlers fall back to another way of making it)."""
    a = node.args
    if a.posonlyargs or a.args or a.kwonlyargs or a.vararg is None:
        return None
    body = node.body[1:] if node.body and _docstring(node)[0] is not None else node.body
    if len(body) == 1 and isinstance(body[0], ast.Try) and not body[0].orelse and not body[0].finalbody:
        body = body[0].body
    if len(body) != 1 or not isinstance(body[0], (ast.Return, ast.Expr)):
        return None
    call = body[0].value
    if isinstance(call, ast.Await):
        call = call.value
    if not isinstance(call, ast.Call) or len(call.args) != 1 or not isinstance(call.args[0], ast.Starred) \
            or not isinstance(call.args[0].value, ast.Name) or call.args[0].value.id != a.vararg.arg:
        return None
    given = [(k.arg, k.value) for k in call.keywords]
    if a.kwarg is None:
        return call if not given else None
    if len(given) != 1 or given[0][0] is not None or not isinstance(given[0][1], ast.Name) \
            or given[0][1].id != a.kwarg.arg:
        return None
    return call


def _docstring(node: ast.AST) -> tuple[str | None, int | None]:
    body = getattr(node, "body", None)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        value = body[0].value.value
        if isinstance(value, str):
            return value, body[0].lineno
    return None, None


def _is_classmethod(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "classmethod" for d in node.decorator_list)


def _pairwise(node: ast.AST) -> list[tuple[ast.expr, ast.expr]] | None:
    """`a, self.b = x, y`: the (target, value) pairs of a tuple assigned element by element, when
    no value reads a name assigned there (`a, b = b, a` swaps: read as one assignment)."""
    if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], (ast.Tuple, ast.List))
            and isinstance(node.value, (ast.Tuple, ast.List)) and len(node.targets[0].elts) == len(node.value.elts)):
        return None
    targets, values = node.targets[0].elts, node.value.elts
    if any(isinstance(e, ast.Starred) for e in (*targets, *values)):
        return None
    written = {ast.unparse(t) for t in targets}
    read = {ast.unparse(n) for v in values for n in ast.walk(v) if isinstance(n, (ast.Name, ast.Attribute, ast.Subscript))}
    return None if written & read else list(zip(targets, values))


def _body_decorator(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A decorator (factory) written in a class body for its methods (`def _retry_on_error(error_cls,
    max_retries): def decorator(func): ...; return decorator`): its first parameter is no `self`."""
    args = node.args.posonlyargs or node.args.args
    if not args or args[0].arg in ("self", "cls"):
        return False
    nested = {stmt.name for stmt in node.body if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return any(isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Name) and stmt.value.id in nested
               for stmt in node.body)


def _is_static(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)


def _reraises(body: list) -> bool:
    for node in body:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Raise):
                return True
    return False


# The methods that log (a logger's; `print` is told apart by name where it matters).
LOG_METHODS = ("debug", "info", "warning", "warn", "error", "exception", "critical", "log")
# Calls that only read what they are given: waits, logs, conversions (`_changed_names`).
_READS_ITS_ARGUMENTS = frozenset({*LOG_METHODS, "sleep", "wait", "print", "len", "int", "float", "str", "bool", "min",
                                  "max", "abs", "round", "range", "isinstance", "timedelta", "format", "repr"})


def _recovers(handler: ast.ExceptHandler) -> bool:
    """Does the handler's own body (not a nested function) set an attribute, an item or a variable
    that is no copy of what it caught (`self.rescan = True`, `state["status"] = "failed"`)?"""
    for st in handler.body:
        if isinstance(st, (ast.Assign, ast.AnnAssign)):  # not a count (`failures += 1`)
            value = st.value
            if value is None or (isinstance(value, ast.Name) and value.id == handler.name):
                continue
            return True
    return False


def _reschedules(handler: ast.ExceptHandler) -> bool:
    """Does the handler's own body store when to try again: a field named for a retry's time
    (`next_retry_at`, `retry_after`, `retryAt`) assigned, passed as a keyword or written as a key?"""
    for node in _own_nodes(handler.body):
        named = []
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            for t in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if isinstance(t, ast.Attribute):
                    named.append(t.attr)
                elif isinstance(t, ast.Subscript) and isinstance(t.slice, ast.Constant) and isinstance(t.slice.value, str):
                    named.append(t.slice.value)
        elif isinstance(node, ast.Call):
            named.extend(k.arg for k in node.keywords if k.arg)
        elif isinstance(node, ast.Dict):
            named.extend(k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str))
        for name in named:
            words = {w.lower() for w in _NAME_PARTS.split(name)}
            if "retry" in words and words & _WHEN_WORDS:
                return True
    return False


# (not `on`: `retry_on=(IOError,)` names what is retried, not when)
_WHEN_WORDS = frozenset({"at", "after", "time", "when", "date", "ts"})


def _judged(handler: ast.ExceptHandler) -> list[ast.Call]:
    """`except IOError as e: if is_clock_skew(e): resync() else: raise`, `if not retryable(e):
    raise`, `action = classify(e); if action == FAIL: raise elif action == RETRY: ...`: what the
    handler does next is decided by asking functions about the caught exception (the calls
    returned), and some of their answers leave (raise, or give up: `return`, `break`); [] when it
    is not so."""
    if not handler.name:
        return []
    # `_raise_if_sent(key, exc)`: a check that raises what it should not go round on
    raising = [st.value for st in handler.body if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call)
               and _raises_by_name(st.value.func) and _asking(st.value, {handler.name: []}, handler.name)]
    return raising + _judged_in_tests(handler)


def _judged_in_tests(handler: ast.ExceptHandler) -> list[ast.Call]:
    asked: dict[str, list] = {handler.name: []}  # the exception, and what a function said of it
    for st in handler.body:
        if isinstance(st, ast.Assign) and (calls := _asking(st.value, asked, handler.name)):
            asked.update((t.id, calls) for t in st.targets if isinstance(t, ast.Name))
        if isinstance(st, ast.If):
            arms, node, calls = [], st, []
            while True:
                found = _asking(node.test, asked, handler.name)
                if not found:
                    break
                calls.extend(found)
                arms.append(node.body)
                if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
                    node = node.orelse[0]
                    continue
                arms.append(node.orelse)
                return calls if any(arm and always_exits(arm) for arm in arms) else []
    return []


def _raises_by_name(func: ast.expr) -> bool:
    """A function named for raising (`raise_if_sent`, `_raise_for_error`): given the caught
    exception, it raises again on some of them."""
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    return name.lstrip("_").startswith("raise_")


def _asking(test: ast.expr, asked: dict, caught: str) -> list[ast.Call]:
    """The calls by which a test or value asks about the caught exception (`is_timeout(e)`,
    `self.classify(error=e)`), or through what one answered (`action == RETRY`)."""
    out: list[ast.Call] = []
    for n in ast.walk(test):
        if isinstance(n, ast.Call) and any(isinstance(a, ast.Name) and a.id == caught
                                           for a in (*n.args, *(k.value for k in n.keywords))) \
                and not (isinstance(n.func, ast.Name) and n.func.id in BUILTINS):  # `isinstance(e, X)` names types
            out.append(n)
        elif isinstance(n, ast.Name) and n.id in asked and n.id != caught:
            out.extend(asked[n.id])
    return out


def _caught_locals(handler: ast.ExceptHandler) -> list[str]:
    """The plain locals a handler's body sets to the exception it caught (`outcome = exc`)."""
    if not handler.name:
        return []
    return [t.id for st in handler.body if isinstance(st, ast.Assign) and isinstance(st.value, ast.Name)
            and st.value.id == handler.name for t in st.targets if isinstance(t, ast.Name)]


def _partial_depth(value: list) -> int:
    """How many partials are nested in a held partial's first argument."""
    depth = 0
    while value and value[0] == "call" and value[1] == "functools.partial" and value[2]:
        depth, value = depth + 1, value[2][0]
    return depth


# Annotations that qualify a name rather than give its type.
_LONGEST_ANNOTATION = 300
_OPTIONAL = ("typing.Optional", "typing_extensions.Optional")
_UNION = ("typing.Union", "typing_extensions.Union")
# Annotations that name no class of the application or a library: `Any`, `Callable[...]`, `Self`.
_NOT_CLASSES = ("typing.", "typing_extensions.", "collections.abc.", "builtins.", "types.")
# The builtins' names (`print`, `isinstance`, `str`): no class or work of an application.
BUILTINS = frozenset(dir(builtins))
_QUALIFIERS = ("typing.Final", "typing_extensions.Final", "typing.ClassVar", "typing_extensions.ClassVar")

_HAND_OVER = ("append", "put", "put_nowait", "set_exception", "set_result", "add", "send", "send_nowait", "extend")


def _hands_over(handler: ast.ExceptHandler) -> bool:
    """Is the caught exception given to someone who reads it: returned (itself or in the result
    built from it), stored on an object or in a table (`self.error = e`, `failures[key] = e`),
    or put where a caller looks (`errors.append(e)`,
    `q.put(e)`, `future.set_exception(e)`)? Logging it (`log.debug("%s", e)`) is not. A plain local
    (`outcome = e`) hands it on once the function returns it, raises it or passes it to a call
    other than a log (`_caught_locals`, `_expr_call`, `_stmt_return`, `_stmt_raise`)."""
    name = handler.name
    if not name:
        return False

    def caught(node: ast.AST | None) -> bool:
        return isinstance(node, ast.Name) and node.id == name

    todo = list(handler.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, (ast.Return, ast.Yield)) and node.value is not None and any(map(caught, ast.walk(node.value))):
            return True  # `return e`, `return {"ok": False, "error": f"failed: {e}"}`: the result says it
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and caught(node.value) and all(
                isinstance(t, (ast.Attribute, ast.Subscript)) for t in (node.targets if isinstance(node, ast.Assign) else [node.target])):
            return True  # `self.error = exc`, `failures[key] = exc` (a plain local may go unread)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _HAND_OVER \
                and any(caught(a) for a in node.args):
            return True
        todo.extend(ast.iter_child_nodes(node))
    return False


def _sql_selects(node: ast.AST) -> bool:
    """A query written out that only reads (`"SELECT ... WHERE kind=? AND created_at < ?"`)."""
    if isinstance(node, ast.Call) and node.args:
        return _sql_selects(node.args[0])  # text("SELECT ...")
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and bool(_SQL_SELECT_RE.match(node.value))


def _sql_verb(node: ast.AST) -> str | None:
    text = None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
        text = str(node.values[0].value)
    elif isinstance(node, ast.Call) and node.args:
        return _sql_verb(node.args[0])  # text("INSERT ..."), sql.SQL("UPDATE ...")
    if text is None:
        return None
    match = _SQL_WRITE_RE.match(text)
    return match.group(1).lower() if match else None


_EXPR_DISPATCH: dict[type, Any] = {
    ast.Name: Summarizer._expr_name,
    ast.Constant: Summarizer._expr_constant,
    ast.Yield: Summarizer._expr_yield,
    ast.YieldFrom: Summarizer._expr_yield,
    ast.Call: Summarizer._expr_call,
    ast.Dict: Summarizer._expr_dict,
    ast.Subscript: Summarizer._expr_subscript,
    ast.Lambda: Summarizer._expr_lambda,
    ast.ListComp: Summarizer._expr_comp,
    ast.SetComp: Summarizer._expr_comp,
    ast.GeneratorExp: Summarizer._expr_comp,
    ast.DictComp: Summarizer._expr_comp,
}


def _a_class(typ: str) -> bool:
    """Does a resolved type name a class, or an instance of one (`billing.Client()`), rather
    than what a function returns (`app.get_client()`)?"""
    return typ.removesuffix("()").rpartition(".")[2][:1].isupper()


_STMT_DISPATCH: dict[type, Any] = {
    ast.Import: Summarizer._stmt_import,
    ast.ImportFrom: Summarizer._stmt_import,
    ast.Expr: Summarizer._stmt_expr,
    ast.Assign: Summarizer._stmt_assign,
    ast.AnnAssign: Summarizer._stmt_assign,
    ast.AugAssign: Summarizer._stmt_assign,
    ast.Return: Summarizer._stmt_return,
    ast.Break: Summarizer._stmt_break,
    ast.Assert: Summarizer._stmt_assert,
    ast.Raise: Summarizer._stmt_raise,
    ast.For: Summarizer._stmt_loop,
    ast.AsyncFor: Summarizer._stmt_loop,
    ast.While: Summarizer._stmt_loop,
    ast.If: Summarizer._stmt_if,
    ast.With: Summarizer._stmt_with,
    ast.AsyncWith: Summarizer._stmt_with,
    ast.Try: Summarizer._stmt_try,
    ast.FunctionDef: Summarizer._stmt_function,
    ast.AsyncFunctionDef: Summarizer._stmt_function,
    ast.ClassDef: Summarizer._stmt_class,
    ast.Global: Summarizer._stmt_global,
    ast.Nonlocal: Summarizer._stmt_global,
}
if hasattr(ast, "TryStar"):
    _STMT_DISPATCH[ast.TryStar] = Summarizer._stmt_try


# ---- what each definition refers to ------------------------------------------------------------

BASES = "__bases__"  # `uses` key suffix: a class's bases (`Order.__bases__`), for inherited members


def uses_of(mod: ModuleSummary) -> dict:
    """Definition -> the resolved names it refers to, keyed relative to the module: `send` (a
    function), `Mailer` (a class: bases, decorators, attributes), `Mailer.deliver` (a method),
    `Mailer.__bases__`, `SETTINGS` (a module-level assignment), `<module>` (module-level code).
    Kept with the module-level part of a summary, so which other modules a file's analysis needs
    can be found without reading function bodies (see `context.load`). Each entry is one string
    of names separated by spaces (names have none): a third of the memory of a list of them."""
    cut = len(mod.module) + 1
    out: dict[str, list] = {}
    for qualname, fn in mod.functions.items():
        names: set = set()
        for ev in fn.events:
            _add(names, ev.name, ev.ref)
            _value_names(ev.args, names)
            _value_names(list(ev.kwargs.values()), names)
        for deco in fn.decorators:
            _value_names([deco[0]], names)
        for region in fn.regions:
            _add(names, region.name, region.ref)
            _value_names(region.args, names)
            _value_names(list(region.kwargs.values()), names)
        for handler in fn.handlers:
            _add(names, *handler.types, *handler.calls)
        _add(names, fn.return_type)
        out[qualname[cut:]] = " ".join(sorted(names))
    for qualname, cls in mod.classes.items():
        names = set()
        _add(names, *cls.bases, *cls.attr_types.values())
        _value_names([d[0] for d in cls.decorators], names)
        _value_names([a[0] for a in cls.attrs.values()], names)
        out[qualname[cut:]] = " ".join(sorted(names))
        out[f"{qualname[cut:]}.{BASES}"] = " ".join(b for b in cls.bases if b)
    for target, assigned in mod.assigns.items():
        names = set()
        _value_names([assigned[0]], names)
        out.setdefault(target, " ".join(sorted(names)))
    return out


def _add(names: set, *found) -> None:
    for name in found:
        # Skipped: `@self...` (not a global), and the rare name with a string argument holding
        # whitespace (`boto3.client(...)`), which is never the project's and would split.
        if name and name[0] != "@" and len(name.split(None, 1)) == 1:
            names.add(name)


def _value_names(values: list, names: set, depth: int = 0) -> None:
    for v in values:
        if type(v) is not list or not v or depth > _MAX_VALUE_DEPTH + 2:
            continue
        tag = v[0]
        if tag == "name" or tag == "ref":
            _add(names, *v[1:3])
        elif tag == "call":
            _add(names, v[1])
            _value_names(v[2], names, depth + 1)
            _value_names(list(v[3].values()), names, depth + 1)
        elif tag == "seq" or tag == "fstr":
            _value_names(v[1], names, depth + 1)
        elif tag == "dict":
            for pair in v[1]:
                _value_names(list(pair), names, depth + 1)
