"""Which calls can raise which exceptions, as far as resolved names tell.

Used to scope retries: a retry triggered by an exception repeats only what ran before the
places that raise it. Names decide: a library raises its own exceptions (`requests.post` raises
`requests.RequestException`), database operations raise database errors, `Model.objects.get`
raises `Model.DoesNotExist`, a `raise X` raises X, and anything raises a broad exception. A call
into an analysed helper raises what its reachable effects' libraries raise; other exceptions of
the application are taken to come from its own `raise` statements only (precision over recall):
in the function, or in the application's functions a call runs (three calls deep), where a raise
of a subclass counts too (`raise RateLimitError` under `autoretry_for=(ServerError,)`).
"""

from __future__ import annotations

from ..effects.catalog import BROAD_EXCEPTIONS
from ..effects.classify import db_write
from .project import Project
from .summary import Event, FunctionSummary

# The builtin `ConnectionError` comes from a connection: calls into network libraries and calls
# that make an external effect raise it, not every call (`requests.ConnectionError` is requests').
_NETWORK_ONLY = ("ConnectionError", "builtins.ConnectionError")
_NETWORK_PACKAGES = ("requests", "httpx", "urllib3", "urllib.request", "http.client", "aiohttp", "socket", "ssl",
                     "smtplib", "django.core.mail", "redis", "valkey", "kombu", "pika", "aio_pika", "boto3",
                     "botocore", "aioboto3", "grpc", "websockets", "websocket", "paramiko", "ftplib", "asyncio.open_connection")
_BROAD_TAILS = {b.rpartition(".")[2] for b in BROAD_EXCEPTIONS} - {"ConnectionError"}
_DB_TAILS = {"DatabaseError", "IntegrityError", "OperationalError", "InterfaceError", "DataError",
             "ProgrammingError", "InternalError", "TransactionManagementError", "SerializationFailure",
             "DeadlockDetected", "LockNotAvailable"}
_DB_PACKAGES = ("django.db", "sqlalchemy", "psycopg", "psycopg2", "sqlite3", "pymysql", "MySQLdb", "asyncpg", "peewee")
_DB_READS = {"get", "filter", "first", "last", "exists", "count", "execute", "executemany", "select_for_update",
             "refresh_from_db", "all", "get_or_create", "update_or_create", "aggregate", "iterator", "earliest", "latest"}
# An exception module that is not where the raising calls live.
_PACKAGE_ALIASES = {
    "botocore": ("boto3", "botocore", "aioboto3"),
    "urllib3": ("urllib3", "requests"),
    # Mail libraries raise the SMTP errors of the connection underneath.
    "smtplib": ("smtplib", "django.core.mail", "flask_mail", "templated_email", "yagmail", "*.send_messages"),
    "socket": ("smtplib", "requests", "httpx", "urllib3", "django.core.mail"),
}
_MODEL_ERRORS = ("DoesNotExist", "MultipleObjectsReturned")
# Exceptions a library raises from one method only, not from the call that sends: requests' and
# httpx's error statuses come from `response.raise_for_status()` (written on the call's result).
# Read so only for the library's own call, where the application installs no response hooks (a
# hook may call it on every response); a call of the application's raises them as its effects'
# libraries say.
_ONLY_FROM = {"requests.exceptions.HTTPError": "raise_for_status", "requests.HTTPError": "raise_for_status",
              "httpx.HTTPStatusError": "raise_for_status"}


def is_broad(exc: str) -> bool:
    """An exception any external call may raise (`ConnectionError`: only network calls, `can_raise`)."""
    return exc not in _NETWORK_ONLY and (exc in BROAD_EXCEPTIONS or exc.rpartition(".")[2] in _BROAD_TAILS)


def exception_package(exc: str) -> str:
    """`requests.exceptions.RequestException` -> `requests`; `django.db.utils.DatabaseError` -> `django.db`."""
    parts = exc.split(".")[:-1]
    while parts and parts[-1] in ("exceptions", "exception", "exc", "errors", "error", "utils"):
        parts.pop()
    return ".".join(parts)


class Raises:
    def __init__(self, project: Project) -> None:
        from .names import analysed_tops

        self.project = project
        self.local_roots = analysed_tops(project)

    def can_raise(self, fn: FunctionSummary, index: int, exc: str, effect_libs: tuple[str, ...] = ()) -> bool:
        """Can the event raise `exc`? `effect_libs`: the libraries of effects reached through it."""
        event = fn.events[index]
        tail = exc.rpartition(".")[2]
        if event.kind == "raise":
            return is_broad(exc) or self._is_a(self.project.event_name(event) or "", exc)
        if is_broad(exc):
            return True
        if exc in _ONLY_FROM:
            callees = self.project.callees(event)
            if not callees and not _response_hooks(self.project):
                return event.attr == _ONLY_FROM[exc]
            if any(ev.kind == "raise" and (self.project.event_name(ev) or "").rpartition(".")[2] == tail
                   or ev.kind == "call" and ev.attr == _ONLY_FROM[exc]
                   for callee in callees for f in self.project.within_calls(callee, 2) for ev in f.events):
                return True  # a helper of the application's checks the status, or raises the error itself
        name = self.project.event_name(event) or ""
        if exc in _NETWORK_ONLY:
            return (bool(effect_libs) or name.startswith(tuple(p + "." for p in _NETWORK_PACKAGES))
                    or name.startswith(tuple(p + "()" for p in _NETWORK_PACKAGES))
                    or self.project.catalog.effect(name) is not None)
        package = exception_package(exc)
        owner = exc.rpartition(".")[0]
        if tail in _MODEL_ERRORS:
            return bool(owner) and name.startswith(owner + ".")
        if tail in _DB_TAILS or package.startswith(_DB_PACKAGES):
            return _is_db_operation(event, name) or self._reaches_the_database(event)
        if not package or self.is_own(exc):
            return self._raised_within(event, exc)  # the application's own: from its raise statements
        prefixes = tuple(p for p in _PACKAGE_ALIASES.get(package.partition(".")[0], (package,)) if "*" not in p)
        suffixes = tuple(p[1:] for p in _PACKAGE_ALIASES.get(package.partition(".")[0], ()) if p.startswith("*"))
        if name.startswith(tuple(p + "." for p in prefixes)) or name.startswith(tuple(p + "()" for p in prefixes)):
            return True
        if suffixes and name.endswith(suffixes):
            return True
        return any(lib.startswith(prefixes) or (suffixes and lib.endswith(suffixes)) for lib in effect_libs)

    def is_own(self, exc: str) -> bool:
        """An exception class of the application's own."""
        package = exception_package(exc)
        return bool(package) and package.partition(".")[0] in self.local_roots

    def _is_a(self, raised: str, exc: str) -> bool:
        """Is what a `raise` names `exc`, by name or as a subclass of the application's?"""
        if raised == exc or raised.rpartition(".")[2] == exc.rpartition(".")[2]:
            return True
        cls = self.project.classes.get(raised)
        return cls is not None and exc in self.project.class_bases(cls)

    def _raised_within(self, event: Event, exc: str) -> bool:
        """Does a function of the application's that the call runs (within three calls) raise
        `exc` itself?"""
        memo = self.project.once("raises within calls", dict)
        found = False
        for callee in self.project.callees(event):
            key = (callee.qualname, exc)
            if key not in memo:
                memo[key] = False  # on a cycle: not by this way
                memo[key] = any(ev.kind == "raise" and self._is_a(self.project.event_name(ev) or "", exc)
                                for f in self.project.within_calls(callee, 3) for ev in f.events)
            found = found or memo[key]
        return found

    def _reaches_the_database(self, event: Event) -> bool:
        """Does a call of the application's own operate on the database, itself or within two
        calls (`BlockRun.batch_update_status(ids, ...)`)? It raises the database's errors."""
        memo = self.project.once("reaches the database", dict)
        found = False
        for callee in self.project.callees(event):
            if callee.qualname not in memo:
                memo[callee.qualname] = False  # on a cycle: not by this way
                memo[callee.qualname] = any(
                    ev.kind == "call" and _is_db_operation(ev, self.project.event_name(ev) or "")
                    for f in self.project.within_calls(callee, 2) for ev in f.events)
            found = found or memo[callee.qualname]
        return found


def _response_hooks(project: Project) -> bool:
    """Does the application install response hooks anywhere (`session.hooks["response"]`,
    `httpx.Client(event_hooks=...)`, `Session(hooks=...)`)?"""
    def find() -> bool:
        for module in project.modules.values():
            for fn in module.functions.values():
                for ev in fn.events:
                    name = project.canonical(ev.name) or ev.name or ""
                    if ev.kind == "call" and name.startswith(("requests.", "httpx.")) and (
                            "hooks" in ev.kwargs or "event_hooks" in ev.kwargs or ".hooks" in name or ".event_hooks" in name):
                        return True
        return False
    return project.once("response hooks", find)


def _is_db_operation(event: Event, name: str) -> bool:
    if name.startswith(tuple(p + "." for p in _NETWORK_PACKAGES)):
        return False  # `requests.Session().get`: a session of HTTP, not of a database
    if db_write(name, event.attr, event.sql) is not None:
        return True
    return event.attr in _DB_READS and (".objects" in name or "cursor" in name or "session" in name.lower() or event.attr in ("execute", "executemany"))
