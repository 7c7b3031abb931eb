"""Which store a ``--database`` names, and its schema's state for ``lupus db``.

A ``postgresql://`` (or ``postgres://``) address is a PostgreSQL database
(``PostgresStore``, which needs the ``postgres`` extra: ``pip install
'lupus[postgres]'``); anything else is a SQLite file (``SQLiteStore``).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from lupus.server.store import Store, StoreError, Unreachable


def is_postgres(database: str | Path) -> bool:
    return str(database).startswith(("postgresql://", "postgres://"))


def postgres_module() -> ModuleType:
    """``store_postgres``, or a clear ``StoreError`` when psycopg is not installed."""
    try:
        from lupus.server import store_postgres
    except ImportError as exc:
        raise StoreError(
            "a PostgreSQL database needs psycopg: pip install 'lupus[postgres]'"
        ) from exc
    return store_postgres


def open_store(database: str | Path, node: str | None = None) -> Store:
    """The store at ``database``, its schema created or brought up to date; on
    PostgreSQL, ``node`` is the server process that writes through it (its writes are
    fenced by its rooms' leases: ``store_postgres``)."""
    if is_postgres(database):
        store: Store = postgres_module().PostgresStore(str(database), node=node)
        return store
    from lupus.server.store_sqlite import SQLiteStore

    try:
        return SQLiteStore(database)
    except sqlite3.Error as exc:
        raise Unreachable(f"{database}: {exc}") from exc


@dataclass(frozen=True)
class Schema:
    """Where a database's schema stands: ``found`` (0: none yet) against this lupus's."""

    found: int
    latest: int

    @property
    def current(self) -> bool:
        return self.found == self.latest

    def describe(self) -> str:
        if self.current:
            return f"the schema is current (version {self.latest})"
        if self.found > self.latest:
            return (
                f"the schema is version {self.found}, newer than this lupus's "
                f"({self.latest}): run a newer lupus"
            )
        if self.found == 0:
            return f"no schema yet: `lupus db upgrade` creates it (version {self.latest})"
        return (
            f"the schema is version {self.found}, this lupus's is {self.latest}: "
            "run `lupus db upgrade`"
        )


def schema_of(database: str | Path) -> Schema:
    """The schema's state, the database left as it is (``Unreachable`` if it cannot be
    reached)."""
    if is_postgres(database):
        module = postgres_module()
        return Schema(module.database_version(str(database)), module.SCHEMA_VERSION)
    from lupus.server import store_sqlite

    return Schema(store_sqlite.file_version(str(database)), store_sqlite.SCHEMA_VERSION)


def upgrade(database: str | Path) -> tuple[Schema, Schema]:
    """Bring the schema up to date (what a server does as it starts); before and after,
    as the upgrade found them under its lock (another process may have done it)."""
    store = open_store(database)
    try:
        before, after = store.upgraded
    finally:
        store.close()
    return Schema(before, after), Schema(after, after)
