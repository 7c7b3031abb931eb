"""`lupus serve` and `lupus db`: the game server and the database it keeps games in.

The database is a SQLite file by default, or a PostgreSQL server that several
``lupus serve`` processes share (``--database postgresql://...`` or the
``LUPUS_DATABASE`` variable); ``lupus db`` creates, upgrades and checks its schema.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Final

import typer

from lupus.cli_input import fail, flag_text, refuse, server_limits, writable
from lupus.engine.errors import LupusError, SetupError
from lupus.engine.limits import MAX_PORT
from lupus.engine.untrusted import cut, exact_int, quoted

if TYPE_CHECKING:
    from lupus.ai.llm.settings import LlmSettings
    from lupus.server.limits import ServerLimits
    from lupus.server.logs import LogFormat

DATABASE_HELP: Final = (
    "Where rooms and games are kept: a SQLite file (made if missing), or a PostgreSQL "
    "database, postgresql://user:password@host/name, which several servers may share."
)

Database = Annotated[str, typer.Option(help=DATABASE_HELP, envvar="LUPUS_DATABASE")]

# The AI players' model (docs/ai.md, "AI players in a room"): the endpoint and key are
# the client's own OPENAI_BASE_URL and OPENAI_API_KEY, never a flag.
LlmModel = Annotated[
    str | None,
    typer.Option(
        help="A language model (OPENAI_BASE_URL, OPENAI_API_KEY): hosts may seat AI players.",
        envvar="LUPUS_LLM_MODEL",
    ),
]
LlmTimeout = Annotated[
    float,
    typer.Option(
        help="Seconds per AI decision or line; then the heuristic bot decides.",
        envvar="LUPUS_LLM_TIMEOUT",
    ),
]
LlmConcurrency = Annotated[
    int, typer.Option(help="Model calls at once, over every room.", envvar="LUPUS_LLM_CONCURRENCY")
]
LlmCache = Annotated[
    Path | None,
    typer.Option(
        help="JSONL of every model reply, read first and appended to.", envvar="LUPUS_LLM_CACHE"
    ),
]

db_app = typer.Typer(
    help="The database's schema: `lupus db check` says whether it is current, "
    "`lupus db upgrade` brings it up to date (a server does so as it starts).",
    no_args_is_help=True,
)

CHECK_CURRENT, CHECK_OLD, CHECK_UNREACHABLE = 0, 1, 2
"""`lupus db check`'s exit statuses."""


def checked_database(database: str) -> str:
    """The ``--database`` as given, refused if it is neither a writable file's place nor
    a PostgreSQL address."""
    from lupus.server.stores import is_postgres

    database = flag_text(database, "--database")
    if not is_postgres(database):
        writable(Path(database), "--database")
    return database


def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on (0.0.0.0: every network of the machine).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    database: Database = "lupus.db",
    log_level: Annotated[str, typer.Option(help="debug | info | warning | error")] = "info",
    log_format: Annotated[
        str, typer.Option(help="text | json (one JSON object a line: docs/deploy.md).")
    ] = "text",
    public_url: Annotated[
        str | None,
        typer.Option(
            help="The address players reach the server at (http://host:port): join links "
            "and QR codes use it (by default, the Host a request names, if it is a host name)."
        ),
    ] = None,
    limit: Annotated[
        list[str] | None,
        typer.Option(
            help="NAME=VALUE: one of the server's limits (docs/protocol.md, Limits), such "
            "as rooms_per_client=50; may be given for several."
        ),
    ] = None,
    llm_model: LlmModel = None,
    llm_timeout: LlmTimeout = 30.0,
    llm_concurrency: LlmConcurrency = 4,
    llm_cache: LlmCache = None,
) -> None:
    """Run the game server: rooms, live play over WebSockets, durable games.

    Open the printed address; friends on the same network join with the room's link.
    Every room and game is kept in --database, and a restart resumes them all. With
    --llm-model, a host may seat AI players that play and talk.
    """
    from lupus.server.links import checked_public_url

    try:
        exact_int(port, "--port", 0, MAX_PORT)
        flag_text(host, "--host")
        database = checked_database(database)
        check_logs(log_level, log_format)
        if public_url is not None:
            try:
                public_url = checked_public_url(flag_text(public_url, "--public-url"))
            except ValueError as exc:
                raise SetupError(str(exc)) from exc
        limits = server_limits(limit or [])
        llm = llm_settings(llm_model, llm_timeout, llm_concurrency, llm_cache)
    except LupusError as exc:
        raise fail(exc) from exc
    shape: LogFormat = "json" if log_format == "json" else "text"
    served(host, port, database, log_level, shape, limits, public_url, llm)


def served(
    host: str,
    port: int,
    database: str,
    log_level: str,
    shape: LogFormat,
    limits: ServerLimits,
    public_url: str | None,
    llm: LlmSettings | None,
) -> None:
    """Serve until stopped (a store that cannot be used: why, and exit status 1)."""
    from lupus.server.serving import run as run_server

    try:
        run_server(
            host,
            port,
            database,
            log_level,
            limits=limits,
            public_url=public_url,
            log_format=shape,
            llm=llm,
        )
    except LupusError as exc:  # (the store: unreachable, or a schema newer than this lupus)
        raise not_started(exc, shape) from exc


def check_logs(log_level: str, log_format: str) -> None:
    """SetupError unless ``--log-level`` and ``--log-format`` name what serve knows."""
    levels = ("debug", "info", "warning", "error", "critical")
    if log_level not in levels:
        raise SetupError(f"--log-level: {quoted(log_level)} is not {' | '.join(levels)}")
    if log_format not in ("text", "json"):
        raise SetupError(f"--log-format: {quoted(log_format)} is not text | json")


def llm_settings(
    model: str | None, timeout: float, concurrency: int, cache: Path | None
) -> LlmSettings | None:
    """The AI players' model, if one is named, checked (SetupError: refused)."""
    if model is None:
        return None
    from lupus.ai.llm.settings import LlmSettings

    if cache is not None:
        writable(cache, "--llm-cache")
    settings = LlmSettings(
        model=flag_text(model, "--llm-model"),
        timeout=timeout,
        concurrency=concurrency,
        cache=None if cache is None else str(cache),
    )
    settings.check()
    return settings


def not_started(exc: LupusError, shape: LogFormat) -> typer.Exit:
    """Why the server could not start, on standard error: with JSON logs, as one more
    JSON line (logging is set up by then), so that every line is one object."""
    if shape != "json":
        return fail(exc)
    import logging

    said = cut(str(exc) or type(exc).__name__)
    logging.getLogger("lupus.server").critical("start_failed reason=%s", said)
    return typer.Exit(1)


@db_app.command()
def check(database: Database = "lupus.db") -> None:
    """Say whether the database's schema is this lupus's: exit 0 when it is current, 1
    when it needs `lupus db upgrade`, 2 when the database cannot be reached."""
    from lupus.server.logs import without_password as shown
    from lupus.server.store import Unreachable
    from lupus.server.stores import schema_of

    try:
        database = checked_database(database)
        schema = schema_of(database)
    except Unreachable as exc:
        typer.echo(f"lupus: cannot reach the database: {exc}", err=True)
        raise typer.Exit(CHECK_UNREACHABLE) from exc
    except LupusError as exc:
        raise fail(exc) from exc
    typer.echo(f"{shown(database)}: {schema.describe()}")
    raise typer.Exit(CHECK_CURRENT if schema.current else CHECK_OLD)


@db_app.command("upgrade")
def upgrade_schema(database: Database = "lupus.db") -> None:
    """Create the database's schema, or bring it up to this lupus's version (safe to run
    while servers start: one upgrade runs at a time)."""
    from lupus.server.logs import without_password as shown
    from lupus.server.store import Unreachable
    from lupus.server.stores import upgrade

    try:
        database = checked_database(database)
        before, after = upgrade(database)
    except Unreachable as exc:
        typer.echo(f"lupus: cannot reach the database: {exc}", err=True)
        raise typer.Exit(CHECK_UNREACHABLE) from exc
    except LupusError as exc:
        raise fail(exc) from exc
    if before.found == after.found:
        typer.echo(f"{shown(database)}: {after.describe()}; nothing to do")
    else:
        upgraded = f"from version {before.found} to {after.found}"
        typer.echo(f"{shown(database)}: schema upgraded {upgraded}")
    if not after.current:
        raise refuse(after.describe())
