"""Running the server: uvicorn around the application, logs, and a clean stop.

uvicorn stops on SIGTERM and SIGINT by running the application's shutdown, which
closes every connection and the store; every accepted action was committed already.
After that shutdown uvicorn raises the signal again for whatever handler was there
before it; ``run`` puts one there that ends the process with status 0, so that a
graceful stop is not reported as a death by signal (exit status 143 / -15).
"""

from __future__ import annotations

import gc
import logging
import signal
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import uvicorn

from lupus.server.app import create_app
from lupus.server.limits import ServerLimits
from lupus.server.logs import LogFormat, configure, without_password
from lupus.server.minds import Minds
from lupus.server.protocol import MAX_FRAME
from lupus.server.transport import protocols

if TYPE_CHECKING:
    from lupus.ai.llm.settings import LlmSettings


def stopped(signum: int, frame: object) -> None:
    """A stop signal outside uvicorn's own handling (before it serves, or raised again
    after its graceful shutdown): a clean exit."""
    sys.exit(0)


def tune_collector() -> None:
    """Short and few collector pauses: a server holds every room's game in memory, and
    each pause stops every room.

    What is loaded at start is frozen out of the collector's sight, and so is whatever
    survives a young collection (``promote``); the app's sweeper (``app.sweep``) also
    freezes the heap each minute and collects all of it once an hour, for the cycles
    that lived longer. No automatic full collection comes: one of a 500-room heap
    stopped the loop for 300 to 650 ms (docs/performance.md).

    Python counts allocations net of deallocations, so on a busy server (games made
    and freed) a young collection finds thousands of live objects, not 700, and most of
    them live on (games' events, views sent, waiting coroutines): with Python's
    defaults each was scanned again in a middle collection every tenth time, which took
    10 ms on average at 500 rooms, 55 to 97 ms at the 99th percentile, up to 250 ms.
    Here a survivor is scanned once, and the pauses are a young collection's (1 ms on
    average at 500 rooms, 7 ms at the 99th percentile), in half the time all told. The
    engine and the server make almost no reference cycles (a finished game is freed by
    reference counts), so the few that survive a young collection wait for the hourly
    collection.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(700, 10, 1_000_000)
    if promote not in gc.callbacks:
        gc.callbacks.append(promote)


def promote(phase: str, info: dict[str, int]) -> None:
    """After a young collection: its survivors join the frozen heap (``tune_collector``)."""
    if phase == "stop" and info["generation"] < 2:
        gc.freeze()


def run(
    host: str,
    port: int,
    database: str | Path,
    log_level: str = "info",
    *,
    limits: ServerLimits | None = None,
    public_url: str | None = None,
    log_format: LogFormat = "text",
    llm: LlmSettings | None = None,
) -> None:
    """Serve until stopped, logging as ``log_format`` says (``lupus.server.logs``);
    with ``llm``, hosts may seat AI players played by that model (``ai_seats``)."""
    for stop in (signal.SIGTERM, signal.SIGINT):
        signal.signal(stop, stopped)
    configure(log_format, log_level)
    limits = limits or ServerLimits()
    # A restarted process is the same node, and takes its rooms back at once (another
    # would wait for their leases to run out); two processes never listen on one port
    # of one machine, and if names ever clashed the leases' epochs would fence one off.
    node = f"{socket.gethostname()[:40]}:{port}"
    minds = None if llm is None else Minds(llm)
    app = create_app(database, limits=limits, public_url=public_url, node=node, minds=minds)
    http, ws = protocols(limits)
    tune_collector()
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    kept = without_password(str(database))
    if log_format == "json":
        url = f"http://{shown}:{port}/"
        logging.getLogger("lupus.server").info("serving url=%s database=%s", url, kept)
    else:
        print(f"lupus: serving on http://{shown}:{port}/ (games kept in {kept})", flush=True)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_config=None,  # (configured above: lupus.server.logs)
        log_level=log_level,
        http=http,  # (the header time-out and a cap per client: lupus.server.transport)
        ws=ws,  # (the frame time-out)
        # A client is the address a connection comes from: X-Forwarded-For, which any
        # client on loopback could send, is not read (lupus.server.limits).
        proxy_headers=False,
        # HTTP requests beyond every WebSocket connection allowed and a margin: 503.
        limit_concurrency=limits.max_connections + 256,
        timeout_keep_alive=5,
        h11_max_incomplete_event_size=16 * 1024,  # a request's line and headers
        ws_max_size=16 * MAX_FRAME,  # larger frames are cut off by uvicorn itself
        ws_ping_interval=20,
        ws_ping_timeout=20,
        # Frames are short JSON: compressing each one cost an eighth of the server's
        # time at 500 rooms for little bandwidth (docs/performance.md).
        ws_per_message_deflate=False,
        timeout_graceful_shutdown=5,
        access_log=False,
    )
