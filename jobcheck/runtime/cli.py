"""``jobcheck lease ...``: inspect and clear leases, and stress a lease store.

This module defines a standalone click group (``runtime_cli``, named ``lease``) that the main
CLI mounts. The store is given as a URL with ``--backend`` or ``JOBCHECK_LEASE_BACKEND``:
``sqlite:///relative.db``, ``sqlite:////abs/path.db``, ``postgresql://...``, ``redis://...``.

``show`` and ``clear`` never create a store: a missing SQLite file, or a server that cannot be
reached, is one line on stderr and exit 2, as the main CLI reports errors (1 means a named
resource was never leased).
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from urllib.parse import urlsplit, urlunsplit

import click

from .backends import open_backend
from .errors import NoSuchLeaseStore
from .lease import LeaseBackend, LeaseInfo

__all__ = ["runtime_cli"]

_backend_option = click.option(
    "--backend",
    "url",
    envvar="JOBCHECK_LEASE_BACKEND",
    required=True,
    metavar="URL",
    help="Lease store: sqlite:///file.db, postgresql://..., redis://... (env JOBCHECK_LEASE_BACKEND).",
)
_table_option = click.option("--table", default=None, help="SQL table holding the leases (default jobcheck_leases).")
_prefix_option = click.option("--prefix", default=None, help="Redis key prefix (default jobcheck).")


class StoreFailure(click.ClickException):
    """The store is missing or could not be used: exit 2, never 1 (which means findings)."""

    exit_code = 2

    def show(self, file: object = None) -> None:
        click.echo(f"jobcheck: {self.format_message()}", err=True)


def _store_errors() -> tuple[type[BaseException], ...]:
    """What a store raises when it is missing, unreachable or refuses (the drivers wrap socket
    errors in their own). A driver that was never imported cannot have raised anything; an
    OSError is not the store's (a closed stdout is the main CLI's to report)."""
    errors: list[type[BaseException]] = [sqlite3.Error]
    if "psycopg" in sys.modules:
        errors.append(sys.modules["psycopg"].Error)
    if "redis" in sys.modules:
        errors.append(sys.modules["redis"].RedisError)
    return tuple(errors)


def _without_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@", 1)))


@contextmanager
def _store_failures(url: str) -> Iterator[None]:
    """Errors of the store at ``url`` become StoreFailure: one line, exit 2."""
    try:
        yield
    except NoSuchLeaseStore as exc:
        raise StoreFailure(str(exc)) from exc
    except _store_errors() as exc:
        reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise StoreFailure(f"cannot use the lease store {_without_password(url)}: {reason}") from exc


@contextmanager
def _store(url: str, table: str | None, prefix: str | None) -> Iterator[LeaseBackend]:
    """The backend for an existing store (never created), closed at the end."""
    with _store_failures(url):
        try:
            backend = open_backend(url, table=table, prefix=prefix, create=False)
        except (ValueError, ImportError) as exc:
            raise click.UsageError(str(exc)) from exc
        try:
            yield backend
        finally:
            backend.close()


def _when(moment: datetime | None) -> str:
    return "-" if moment is None else moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")[:-4] + "Z"


def _table(infos: list[LeaseInfo]) -> str:
    head = ("RESOURCE", "TOKEN", "STATE", "HOLDER", "EXPIRES (store clock, UTC)")
    rows = [
        (i.resource, str(i.token), "held" if i.held else "free", i.holder or "-", _when(i.expires_at) if i.held else "-")
        for i in infos
    ]
    widths = [max(len(x) for x in col) for col in zip(head, *rows)]
    return "\n".join("  ".join(x.ljust(w) for x, w in zip(row, widths)).rstrip() for row in [head, *rows])


@click.group(name="lease")
def runtime_cli() -> None:
    """Inspect and clear fencing-token leases (jobcheck.runtime)."""


@runtime_cli.command("show")
@_backend_option
@_table_option
@_prefix_option
@click.argument("resources", nargs=-1)
def show(url: str, table: str | None, prefix: str | None, resources: tuple[str, ...]) -> None:
    """Show leases: token issued last, holder and expiry. All resources unless some are named."""
    with _store(url, table, prefix) as backend:
        if resources:
            infos = [backend.get(r) for r in resources]
            missing = [r for r, i in zip(resources, infos) if i is None]
            for r in missing:
                click.echo(f"no lease was ever taken on {r!r}", err=True)
            infos = [i for i in infos if i is not None]
        else:
            infos = backend.list()
    if infos:
        click.echo(_table(infos))
    elif not resources:
        click.echo("no leases")
    if resources and len(infos) < len(resources):
        raise SystemExit(1)


@runtime_cli.command("clear")
@_backend_option
@_table_option
@_prefix_option
@click.argument("resources", nargs=-1, required=True)
def clear(url: str, table: str | None, prefix: str | None, resources: tuple[str, ...]) -> None:
    """Free stuck leases, whoever holds them. Tokens are kept: the next holder gets a higher one."""
    unknown = 0
    with _store(url, table, prefix) as backend:
        for resource in resources:
            before = backend.clear(resource)
            if before is None:
                click.echo(f"{resource}: no lease was ever taken on it", err=True)
                unknown += 1
            elif before.held:
                click.echo(f"{resource}: cleared lease held by {before.holder} (token {before.token})")
            else:
                click.echo(f"{resource}: was not held (last token {before.token})")
    if unknown:
        raise SystemExit(1)


@runtime_cli.command("stress")
@_backend_option
@click.option("--processes", default=8, show_default=True, help="Worker processes.")
@click.option("--cycles", default=200, show_default=True, help="Lease cycles per process.")
@click.option("--resources", default=4, show_default=True, help="Resources the workers contend for.")
@click.option("--ttl", default=0.1, show_default=True, help="Lease TTL in seconds.")
@click.option("--pause-probability", default=0.03, show_default=True, help="Chance a cycle pauses past its TTL.")
def stress(url: str, processes: int, cycles: int, resources: int, ttl: float, pause_probability: float) -> None:
    """Check a lease store under contention: no stale write accepted, nothing lost or doubled.

    Writes its own rows (jobcheck_stress_* tables or jobcheck-stress:* keys) into the store.
    """
    from .stress import StressConfig, format_table, run_stress

    with _store_failures(url):
        result = run_stress(StressConfig(url, processes, cycles, resources, ttl, pause_probability))
    click.echo(format_table([result]))
    for problem in result.problems:
        click.echo(f"problem: {problem}", err=True)
    if not result.ok:
        raise SystemExit(1)
