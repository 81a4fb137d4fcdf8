"""Open a lease backend from a URL (used by the CLI, the stress runner and configuration)."""

from __future__ import annotations

from .lease import LeaseBackend

__all__ = ["open_backend"]


def open_backend(url: str, *, table: str | None = None, prefix: str | None = None, create: bool = True) -> LeaseBackend:
    """``sqlite:///relative.db``, ``sqlite:////absolute.db`` (or a bare file path),
    ``postgresql://...`` / ``postgres://...``, ``redis://...`` / ``rediss://...`` / ``unix://...``.

    ``table`` applies to the SQL backends, ``prefix`` to Redis. ``create=False`` opens a SQLite
    file only if it exists (:class:`NoSuchLeaseStore` otherwise) and changes nothing in it.
    """
    scheme = url.split("://", 1)[0].lower() if "://" in url else ""
    if scheme in ("", "sqlite"):
        from .sqlite import SQLiteLeases

        path = url[len("sqlite:///") :] if scheme else url
        if scheme and not url.startswith("sqlite:///"):
            raise ValueError(f"SQLite URLs look like sqlite:///relative.db or sqlite:////abs/path.db, not {url!r}")
        if not path:
            raise ValueError("a SQLite lease store needs a file path")
        return SQLiteLeases(path, create=create, **({"table": table} if table else {}))
    if scheme in ("postgresql", "postgres"):
        from .postgres import PostgresLeases

        return PostgresLeases(url, **({"table": table} if table else {}))
    if scheme in ("redis", "rediss", "unix"):
        from .redis_backend import RedisLeases

        return RedisLeases(url, **({"prefix": prefix} if prefix else {}))
    raise ValueError(f"unknown lease backend {scheme!r} in {url!r} (use sqlite:///, postgresql:// or redis://)")
