"""jobcheck.runtime: fencing-token leases and a harness that produces the five answers.

Leases (``SQLiteLeases``, ``PostgresLeases``, ``RedisLeases``, or ``open_backend(url)``) issue
a strictly increasing fencing token per acquisition. Stores enforce it: ``fence`` /
``fenced_transaction`` for SQLite and PostgreSQL, ``RedisFence`` for Redis. The ``Harness``
(and the ``jobcheck_harness`` pytest fixture) runs a job twice at once, overlapped, killed,
failed and retried, replayed, and paused past its lease, and reports what happened.

psycopg and redis-py are imported only when a PostgreSQL or Redis object is used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# Public name -> submodule. Submodules load on first use (PEP 562), so importing this package,
# the pytest plugin or the CLI costs next to nothing until a harness or backend is used.
_EXPORTS = {
    "open_backend": "backends",
    "checkpoint": "control", "in_harness": "control", "record_effect": "control",
    "FencingNotInstalled": "errors", "InjectedFailure": "errors", "LeaseError": "errors",
    "LeaseHeldError": "errors", "LeaseLostError": "errors", "NoSuchLeaseStore": "errors", "StaleTokenError": "errors",
    "current_fence": "fencing", "fence": "fencing", "fenced_transaction": "fencing", "install_fencing": "fencing",
    "SCENARIOS": "harness", "Harness": "harness", "HarnessError": "harness", "Point": "runs", "RunEnv": "runs",
    "HttpRequest": "http_sink", "HttpSink": "http_sink",
    "Heartbeat": "lease", "Lease": "lease", "LeaseBackend": "lease", "LeaseInfo": "lease",
    "Effect": "ledger", "EffectLedger": "ledger",
    "PostgresLeases": "postgres",
    "DbState": "recorders", "Recorder": "recorders", "sqlite_state": "recorders",
    "DjangoMail": "django_mail", "PostgresSchema": "postgres_schema", "SmtplibMail": "smtplib_mail",
    "RedisLeases": "redis_backend",
    "FencedScript": "redis_fencing", "RedisFence": "redis_fencing",
    "ServerNotInstalled": "servers", "ServerStartError": "servers",
    "throwaway_postgres": "servers", "throwaway_redis": "servers",
    "FiveQuestionsError": "report", "Observation": "report", "RunOutcome": "report",
    "ScenarioReport": "report", "SuiteReport": "report",
    "EmailSink": "smtp_sink",
    "SQLiteLeases": "sqlite",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs
    from .backends import open_backend  # noqa: F401
    from .control import checkpoint, in_harness, record_effect  # noqa: F401
    from .django_mail import DjangoMail  # noqa: F401
    from .errors import (  # noqa: F401
        FencingNotInstalled,
        InjectedFailure,
        LeaseError,
        LeaseHeldError,
        LeaseLostError,
        NoSuchLeaseStore,
        StaleTokenError,
    )
    from .fencing import current_fence, fence, fenced_transaction, install_fencing  # noqa: F401
    from .harness import SCENARIOS, Harness, HarnessError  # noqa: F401
    from .http_sink import HttpRequest, HttpSink  # noqa: F401
    from .lease import Heartbeat, Lease, LeaseBackend, LeaseInfo  # noqa: F401
    from .ledger import Effect, EffectLedger  # noqa: F401
    from .postgres import PostgresLeases  # noqa: F401
    from .postgres_schema import PostgresSchema  # noqa: F401
    from .recorders import DbState, Recorder, sqlite_state  # noqa: F401
    from .redis_backend import RedisLeases  # noqa: F401
    from .redis_fencing import FencedScript, RedisFence  # noqa: F401
    from .report import (  # noqa: F401
        FiveQuestionsError,
        Observation,
        RunOutcome,
        ScenarioReport,
        SuiteReport,
    )
    from .runs import Point, RunEnv  # noqa: F401
    from .servers import ServerNotInstalled, ServerStartError, throwaway_postgres, throwaway_redis  # noqa: F401
    from .smtp_sink import EmailSink  # noqa: F401
    from .smtplib_mail import SmtplibMail  # noqa: F401
    from .sqlite import SQLiteLeases  # noqa: F401
