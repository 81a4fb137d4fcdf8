"""A PostgreSQL schema per scenario: the job's tables, fresh each time, and their end state.

Scenarios of one harness (and tests running at the same time) share the server, so each gets
its own schema, named after the scenario's ``env.namespace``. The job connects with
``schema.dsn(env)``, whose ``search_path`` is that schema alone: its unqualified tables, and
the fencing table and function ``install_fencing`` creates, are the scenario's own. Setup and
snapshots run in autocommit, so what they read is what the job committed::

    db = PostgresSchema(dsn, "CREATE TABLE sent (who text PRIMARY KEY)", sent="SELECT who FROM sent ORDER BY who")
    harness = Harness(lambda work, env: job(work, db.dsn(env)), work, observe=[db])

Observing it is all it takes: the harness prepares each scenario's schema before its own
``setup`` runs, and the schemas are dropped when the harness closes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ._procs import check_identifier
from .postgres import connect
from .recorders import DbState

if TYPE_CHECKING:  # pragma: no cover
    from .runs import RunEnv

__all__ = ["PostgresSchema"]


class PostgresSchema(DbState):
    """The end state of one schema per scenario on the PostgreSQL server at ``dsn``.

    Before each scenario (and before the harness's ``setup=``) it creates the scenario's schema
    and runs each statement there, in order (a string is SQL; a callable gets the autocommit
    connection).
    ``queries`` name the snapshot's row lists, as for :func:`sqlite_state`; order them.
    """

    def __init__(self, dsn: str, *statements: str | Callable[[Any], Any], name: str = "database", **queries: str) -> None:
        super().__init__(self._snapshot, name=name)
        self.base_dsn = dsn
        self.statements = statements
        self.queries = queries
        self._made: list[str] = []

    def schema(self, env: RunEnv) -> str:
        return check_identifier(env.namespace)

    def dsn(self, env: RunEnv) -> str:
        """A connection string whose ``search_path`` is the scenario's schema."""
        from psycopg.conninfo import conninfo_to_dict, make_conninfo

        options = conninfo_to_dict(self.base_dsn).get("options") or ""
        return make_conninfo(self.base_dsn, options=f"{options} -c search_path={self.schema(env)}".strip())

    def prepare(self, env: RunEnv) -> None:
        schema = self.schema(env)
        with connect(self.base_dsn) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        self._made.append(schema)
        with connect(self.dsn(env)) as conn:
            for statement in self.statements:
                if callable(statement):
                    statement(conn)
                else:
                    conn.execute(statement)

    def _snapshot(self, env: RunEnv) -> dict[str, list[tuple]]:
        with connect(self.dsn(env)) as conn:
            return {name: [tuple(row) for row in conn.execute(sql)] for name, sql in self.queries.items()}

    def close(self) -> None:
        if not self._made:
            return
        with connect(self.base_dsn) as conn:
            for schema in self._made:
                conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        self._made.clear()
