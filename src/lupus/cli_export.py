"""`lupus export`: the decision datasets of a server's finished games.

The lines are ``lupus.ai.export``'s (docs/ai.md, "Decision datasets"), one per seat's
decision, from the games a server stored (``lupus.server.exports``): only rooms whose
host allowed it (``allow_export``) are read.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from lupus.cli_input import fail, flag_text, writable
from lupus.cli_serve import Database, checked_database
from lupus.engine.errors import LupusError


def export(
    database: Database = "lupus.db",
    room: Annotated[
        str | None,
        typer.Option(help="Only this room's games (refused unless its host allowed export)."),
    ] = None,
    out: Annotated[
        Path | None, typer.Option(help="The JSONL file to write (default: standard output).")
    ] = None,
) -> None:
    """Write the decisions of the finished games of rooms whose host allowed export,
    one JSON line each (the seat's view, its choices, the one taken, its outcome)."""
    from lupus.server.exports import exported
    from lupus.server.stores import is_postgres, open_store

    try:
        database = checked_database(database)
        if not is_postgres(database) and not Path(database).is_file():
            raise LupusError(f"--database: no database at {database}")
        if room is not None:
            room = flag_text(room, "--room")
        if out is not None:
            writable(out, "--out")
        store = open_store(database)
        try:
            found = list(exported(store, room))
        finally:
            store.close()
    except LupusError as exc:
        raise fail(exc) from exc
    text = "".join(line + "\n" for _, lines in found for line in lines)
    if out is None:
        sys.stdout.write(text)
    else:
        out.write_text(text, encoding="utf-8")
    count = sum(len(lines) for _, lines in found)
    typer.echo(f"lupus: {count} decisions of {len(found)} finished games", err=True)
