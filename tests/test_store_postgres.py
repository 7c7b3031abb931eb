"""The PostgreSQL store and `lupus db`, against a real PostgreSQL server.

The server suite (``tests/test_server_*.py``) plays every server behaviour on both
stores; this module tests what only a database server has: its numbered schema, made
once when several processes start at once, `lupus db check` and `upgrade` with their
exit statuses, the password kept out of every line, and what the tables hold.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg
import pytest
from tests.pg_cluster import Cluster
from tests.server_harness import Server

from lupus.server import store_postgres, store_sqlite
from lupus.server.logs import without_password as shown
from lupus.server.seats import digest
from lupus.server.store import StoreError
from lupus.server.store_postgres import PostgresStore
from lupus.server.stores import open_store, schema_of


def lupus(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lupus", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
    )


def tables(url: str) -> set[str]:
    with psycopg.connect(url) as db:
        rows = db.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        return {name for (name,) in rows}


def test_db_check_and_upgrade_say_where_the_schema_stands(pg_cluster: Cluster) -> None:
    url = pg_cluster.database("check-and-upgrade")
    fresh = lupus("db", "check", "--database", url)
    assert fresh.returncode == 1, fresh
    assert "no schema yet" in fresh.stdout
    assert tables(url) == set(), "a check changes nothing"

    made = lupus("db", "upgrade", "--database", url)
    assert made.returncode == 0, made
    assert f"from version 0 to {store_postgres.SCHEMA_VERSION}" in made.stdout
    assert {"rooms", "games", "actions", "chat", "lupus_schema"} <= tables(url)

    again = lupus("db", "upgrade", "--database", url)
    assert again.returncode == 0 and "nothing to do" in again.stdout
    current = lupus("db", "check", env={"LUPUS_DATABASE": url})  # (the variable)
    assert current.returncode == 0, current
    assert "current" in current.stdout


def test_db_check_cannot_reach_a_database_exits_2(pg_cluster: Cluster) -> None:
    url = pg_cluster.url("no_such_database")
    answer = lupus("db", "check", "--database", url)
    assert answer.returncode == 2, answer
    assert "cannot reach the database" in answer.stderr
    closed = f"postgresql://lupus:hunter2@127.0.0.1:{pg_cluster.port + 1}/x"
    answer = lupus("db", "check", "--database", closed)
    assert answer.returncode == 2, answer
    assert "hunter2" not in answer.stderr + answer.stdout, "the password is never shown"


def test_a_newer_schema_is_refused_by_check_and_by_serve(pg_cluster: Cluster) -> None:
    url = pg_cluster.database("newer-schema")
    open_store(url).close()
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("INSERT INTO lupus_schema (version) VALUES (99)")
    answer = lupus("db", "check", "--database", url)
    assert answer.returncode == 1 and "newer than this lupus" in answer.stdout
    with pytest.raises(StoreError, match="newer than this lupus"):
        PostgresStore(url)
    served = lupus("serve", "--port", "0", "--database", url)
    assert served.returncode == 1 and "newer than this lupus" in served.stderr


def test_processes_starting_at_once_make_the_schema_once(pg_cluster: Cluster) -> None:
    url = pg_cluster.database("at-once")
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda _: lupus("db", "upgrade", "--database", url), range(4)))
    assert all(answer.returncode == 0 for answer in answers), answers
    made = [answer for answer in answers if "from version 0" in answer.stdout]
    assert len(made) == 1, [answer.stdout for answer in answers]
    with psycopg.connect(url) as db:
        versions = [v for (v,) in db.execute("SELECT version FROM lupus_schema ORDER BY 1")]
    assert versions == list(range(1, store_postgres.SCHEMA_VERSION + 1))


def test_a_password_is_not_shown_in_the_servers_lines(pg_cluster: Cluster) -> None:
    url = pg_cluster.database("password").replace("lupus@", "lupus:hunter2@")
    assert "hunter2" not in shown(url) and "***" in shown(url)
    server = Server(Path("unused"))
    server.address = url  # (trust on loopback: the password is not checked)
    server.log = Path(pg_cluster.root) / "password.log"
    server.start()
    try:
        assert server.create(rules="werewolf", players=8)["room"]
    finally:
        server.stop()
    text = server.log.read_text()
    assert "***" in text and "hunter2" not in text


def test_the_tables_hold_token_digests_only(pg_cluster: Cluster) -> None:
    server = Server(Path("unused"))
    server.address = pg_cluster.database("digests")
    server.log = Path(pg_cluster.root) / "digests.log"
    server.start()
    try:
        room = server.create(rules="werewolf", players=8)
    finally:
        server.stop()
    with psycopg.connect(server.address) as db:
        row = db.execute("SELECT state FROM rooms WHERE code = %s", (room["room"],)).fetchone()
    assert row is not None
    (state,) = row
    assert room["host_token"] not in state
    assert digest(room["host_token"]) in state
    assert len(room["host_token"]) >= 16


def test_a_sqlite_file_from_before_numbered_schemas_is_upgraded(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    db.executescript(store_sqlite.MIGRATIONS[0])  # (the tables as they were, unnumbered)
    db.execute("INSERT INTO rooms (code, state, updated) VALUES ('ABCD', '{}', 1.0)")
    db.commit()
    db.close()
    assert schema_of(path).found == 0
    assert lupus("db", "check", "--database", str(path)).returncode == 1
    assert lupus("db", "upgrade", "--database", str(path)).returncode == 0
    assert lupus("db", "check", "--database", str(path)).returncode == 0
    store = open_store(path)
    try:
        assert store.known("ABCD")
    finally:
        store.close()
    missing = tmp_path / "missing.db"
    assert lupus("db", "check", "--database", str(missing)).returncode == 1
    assert not missing.exists(), "a check makes no file"


OLD_ACTION = [0, "vote", [3]]
"""An action kept by a lupus of the schema before ``actions.played_by``."""


def test_a_sqlite_file_of_the_last_schema_is_upgraded_in_place(tmp_path: Path) -> None:
    """A file of the version before who-played-each-action: `lupus db upgrade` adds the
    column, its actions read as they were (a person's: nobody in ``played_by``), and
    a new action keeps who played it; a server opening such a file does the same."""
    for how in ("db upgrade", "open"):
        path = tmp_path / f"{how.replace(' ', '-')}.db"
        db = sqlite3.connect(path)
        for script in store_sqlite.MIGRATIONS[:-1]:
            db.executescript(script)
        db.execute(f"PRAGMA user_version = {store_sqlite.SCHEMA_VERSION - 1:d}")
        db.execute("INSERT INTO games VALUES ('ABCD-1-x', 'ABCD', 1, '{}', 1.0, NULL)")
        db.execute("INSERT INTO actions VALUES ('ABCD-1-x', 0, ?)", (json.dumps(OLD_ACTION),))
        db.commit()
        db.close()
        assert schema_of(path).found == store_sqlite.SCHEMA_VERSION - 1
        if how == "db upgrade":
            answer = lupus("db", "upgrade", "--database", str(path))
            assert answer.returncode == 0, answer
            done = f"from version {store_sqlite.SCHEMA_VERSION - 1} to"
            assert done in answer.stdout
        store = open_store(path)
        try:
            assert store.upgraded[1] == store_sqlite.SCHEMA_VERSION
            assert store.scenario("ABCD-1-x") == ({}, [OLD_ACTION])
            assert store.played_by("ABCD-1-x") == {}
            store.append_action("ABCD-1-x", 1, [4, "vote", [3]], "llm-fallback")
            assert store.played_by("ABCD-1-x") == {1: "llm-fallback"}
        finally:
            store.close()
        assert schema_of(path).found == store_sqlite.SCHEMA_VERSION


def test_a_database_of_the_last_schema_is_upgraded_in_place(pg_cluster: Cluster) -> None:
    """The same on PostgreSQL: a database of the version before ``played_by``."""
    url = pg_cluster.database("last-schema")
    last = store_postgres.SCHEMA_VERSION - 1
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("CREATE TABLE lupus_schema (version integer NOT NULL)")
        for number, script in enumerate(store_postgres.MIGRATIONS[:last], start=1):
            db.execute(script.encode())
            db.execute("INSERT INTO lupus_schema (version) VALUES (%s)", (number,))
        db.execute("INSERT INTO games VALUES ('ABCD-1-x', 'ABCD', 1, '{}', 1.0, NULL)")
        db.execute("INSERT INTO actions VALUES ('ABCD-1-x', 0, %s)", (json.dumps(OLD_ACTION),))
    assert lupus("db", "check", "--database", url).returncode == 1
    answer = lupus("db", "upgrade", "--database", url)
    assert answer.returncode == 0, answer
    assert f"from version {last} to {store_postgres.SCHEMA_VERSION}" in answer.stdout
    store = PostgresStore(url)
    try:
        assert store.scenario("ABCD-1-x") == ({}, [OLD_ACTION])
        assert store.played_by("ABCD-1-x") == {}
        store.append_action("ABCD-1-x", 1, [4, "vote", [3]], "heuristic")
        assert store.played_by("ABCD-1-x") == {1: "heuristic"}
    finally:
        store.close()
