"""Load on ``lupus serve``: N rooms of 8 people each, every seat a WebSocket client.

The server runs as its own process (``python -m lupus serve`` on a free loopback port,
with a fresh database), as in production: one process, one event loop. The clients run
in ``--workers`` other processes (asyncio in each), so that they do not steal the
server's loop; on a 2-core machine they still share the cores with it, which the report
shows (the clients' own CPU time and event-loop lag).

Every seat is a person, not a server-side bot, so every action crosses the wire: a
client acts when its view says it is waited for, after a think time drawn uniformly
from ``--think MIN MAX`` seconds, answering its view's ``state_id`` with a random
choice (verbs that pass, sleep or abstain are avoided when there is another; a pack
member joins a packmate's target, as people at a table agree). The host (seat 0) starts
the game, closes a step that nobody moved for ``--stall`` seconds (as a host would: a
step that waits for nobody), and after the end goes back to the lobby ("again", once
the end is shown) and starts the next game ("start"), so the load holds for the whole
run. Rooms open with ``pace=0`` (no fair-timing hold between night steps) and timers
``"off"`` (a room's default is its rulebook's timers, and a night step with a timer
lasts exactly its timer): the benchmark measures the server's work, not deliberate
waiting. A room the server refuses stops the benchmark (a room of other settings would
measure another load).

Every ``error`` frame the clients get is counted by the message it answers, its code
and its reason, and reported: an action refused as ``stale`` or ``illegal`` (a view
that moved on while the player thought) is expected now and then, anything else says
the client and the server no longer agree.

Measured, for each action sent during the measured window (after ``--warmup``):

- **view latency**: from the ``act`` frame sent to the first ``view`` frame the same
  client receives after it. The server queues the actor's new view before the ``ack``,
  so this is the time until the player sees the effect of his action.
- **ack latency**: from the ``act`` frame sent to its ``ack`` (or ``error``) frame.
  Both include the clients' own delays (their event loop's lag is reported too).

And of the server process over the window: its CPU time (user + system, from psutil
or ``/proc/<pid>/stat``) and its resident memory; memory per room is (RSS at the end
of the window - RSS of the idle server) / rooms.

    python benchmarks/bench_server.py --rooms 50
    python benchmarks/bench_server.py --rooms 500 --think 0.5 2 --warmup 20 --duration 60
    python benchmarks/bench_server.py --rooms 200 --games 400      # until 400 games ended
    python benchmarks/bench_server.py --rooms 200 --profile py-spy # where the server's time goes

``--profile py-spy`` samples the server during the window (py-spy must be installed);
``--profile cprofile`` runs the server under cProfile (slower: compare figures without
it). Both print the top functions by own time and by inclusive time.

The client processes stop their own garbage collector once seated (``tune_collector``:
its pauses stalled thousands of clients at once and were counted as the server's
latency); ``--python-collector`` keeps Python's, for comparison. They run on uvloop
when it is installed (``client_loop``); ``--asyncio-loop`` runs them on asyncio's own.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import contextlib
import gc
import json
import multiprocessing as mp
import os
import platform
import queue
import random
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

PASSIVE = frozenset({"sleep", "pass", "abstain"})
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kit", "Lu")


# ---------------------------------------------------------------------- the server

DIAGNOSE = """
# Put on the server's path by ``bench_server.py --diagnose``: times the server's garbage
# collections, its event loop's long callbacks (asyncio's loop only: uvloop runs its
# callbacks in C), how late its loop runs a 50 ms sleep (any loop) and its store's
# writes, and writes them to $LUPUS_BENCH_DIAGNOSE at exit.
import asyncio, asyncio.events, atexit, gc, json, os, time

_out = os.environ["LUPUS_BENCH_DIAGNOSE"]
_seen = {"gc": [], "slow": [], "writes": [], "lag": [], "loop": "?"}
_gc_start = [0.0]


def _gc(phase, info):
    if phase == "start":
        _gc_start[0] = time.perf_counter()
    else:
        _seen["gc"].append([info["generation"], time.perf_counter() - _gc_start[0]])


gc.callbacks.append(_gc)
_run = asyncio.events.Handle._run


def _timed(self):
    began = time.perf_counter()
    _run(self)
    took = time.perf_counter() - began
    if took > 0.02:
        owner = getattr(self._callback, "__self__", None)
        if isinstance(owner, asyncio.Task):
            what = "task " + getattr(owner.get_coro(), "__qualname__", "?")
        else:
            what = repr(self)[:160]
        _seen["slow"].append([took, what])


asyncio.events.Handle._run = _timed


def _patch_store():
    from lupus.server import store_sqlite as store

    def timed(name):
        method = getattr(store.SQLiteStore, name)

        def wrapper(self, *args):
            began = time.perf_counter()
            try:
                return method(self, *args)
            finally:
                _seen["writes"].append(time.perf_counter() - began)

        setattr(store.SQLiteStore, name, wrapper)

    for name in ("save_room", "start_game", "append_action", "append_chat", "finish_game"):
        timed(name)


_patch_store()


async def _lag():
    _seen["loop"] = type(asyncio.get_running_loop()).__module__
    while True:
        began = time.perf_counter()
        await asyncio.sleep(0.05)
        _seen["lag"].append(time.perf_counter() - began - 0.05)


def _patch_worker():
    from lupus.server import work

    run = work.Worker.run

    async def probed(self):
        task = asyncio.get_running_loop().create_task(_lag())
        try:
            await run(self)
        finally:
            task.cancel()

    work.Worker.run = probed


_patch_worker()


@atexit.register
def _dump():
    with open(_out, "w") as file:
        json.dump(_seen, file)
"""


LOAD_LIMITS = (
    "max_rooms=100000",
    "rooms_per_client=100000",
    "room_burst=100000",
    "room_rate=100000",
    "entry_burst=100000",
    "entry_rate=100000",
    "max_connections=100000",
    "connections_per_client=100000",
    "http_connections_per_client=100000",
    "client_message_burst=100000",
    "client_message_rate=100000",
)
"""The server's limits per client (docs/protocol.md, "Limits"), lifted: every room and
every seat of the load comes from one loopback address, which the shipped limits rightly
take for one client. The limits per seat and per room stay as shipped."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class ServerProcess:
    """``lupus serve`` in a subprocess, optionally under cProfile."""

    def __init__(
        self,
        database: str,
        port: int,
        profile: str,
        profile_out: Path,
        env: dict[str, str] | None = None,
        log: Path | None = None,
    ) -> None:
        self.database, self.port = database, port
        self.profile, self.profile_out = profile, profile_out
        self.env = env
        self.process: subprocess.Popen[bytes] | None = None
        self.log = log or Path(database).with_suffix(".log")

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        serve = ["-m", "lupus", "serve", "--port", str(self.port)]
        serve += ["--database", str(self.database), "--log-level", "warning"]
        for limit in LOAD_LIMITS:
            serve += ["--limit", limit]
        command = [sys.executable]
        if self.profile == "cprofile":
            command += ["-m", "cProfile", "-o", str(self.profile_out)]
        command += serve
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, env=self.env
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped: {self.log.read_text()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.http}/healthz", timeout=1).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def stop(self) -> int:
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        return int(self.process.returncode)

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    try:
        import psutil

        times = psutil.Process(pid).cpu_times()
        return float(times.user + times.system)
    except ImportError:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = os.sysconf("SC_CLK_TCK")
        return (int(fields[11]) + int(fields[12])) / ticks  # utime, stime


def all_cpu(servers: list[ServerProcess]) -> float:
    """The CPU seconds of every server process, together."""
    return sum(cpu_seconds(one.pid) for one in servers)


def commits(database: str) -> int:
    """The transactions the PostgreSQL database has committed so far (every statement of
    the server is one, or one pipeline: a round trip each)."""
    import psycopg

    with psycopg.connect(database, autocommit=True) as db:
        row = db.execute(
            "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
    return int(row[0]) if row else 0


def store_time(servers: list[ServerProcess]) -> tuple[float, int]:
    """The seconds every server has spent in its store's writes so far, and how many
    writes (``lupus_store_commit_seconds`` of their ``/metrics``): each is time its
    event loop waited on the database, since the store's writes block it."""
    from prometheus_client.parser import text_string_to_metric_families

    seconds, count = 0.0, 0
    for one in servers:
        text = httpx.get(f"{one.http}/metrics", timeout=10).text
        for family in text_string_to_metric_families(text):
            if family.name != "lupus_store_commit_seconds":
                continue
            for sample in family.samples:
                if sample.name.endswith("_sum"):
                    seconds += sample.value
                elif sample.name.endswith("_count"):
                    count += int(sample.value)
    return seconds, count


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


def raise_file_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def create_rooms(servers: list[ServerProcess], args: argparse.Namespace) -> list[tuple[str, str]]:
    """Open the rooms (HTTP), each with its host in seat 0: (code, host token) each.
    With several servers, each opens its share (and runs it), as behind a balancer."""
    settings: dict[str, Any] = {
        "rules": args.rules,
        "players": args.players,
        "host_name": NAMES[0],
        "pace": 0.0,  # (a float: the setting is one, and 0 is an integer)
        "timers": "off",
    }
    rooms = []
    clients = [httpx.Client(base_url=one.http, timeout=30) for one in servers]
    with contextlib.ExitStack() as stack:
        for client in clients:
            stack.enter_context(client)
        for number in range(args.rooms):
            answer = clients[number % len(clients)].post("/api/rooms", json=settings)
            if not answer.is_success:
                raise RuntimeError(f"the server refused the room: {answer.text}")
            made = answer.json()
            rooms.append((made["room"], made["host_token"]))
    return rooms


# ---------------------------------------------------------------------- the clients


@dataclass
class Stats:
    """What one worker measured (the window's actions only)."""

    view_ms: list[float] = field(default_factory=list)
    ack_ms: list[float] = field(default_factory=list)
    actions: int = 0  # act frames sent in the window
    refused: Counter[str] = field(default_factory=Counter)
    frames: int = 0  # frames received in the window
    closes: int = 0
    games: int = 0  # games that ended in the window
    lag_ms: list[float] = field(default_factory=list)  # event-loop lag samples
    cpu: float = 0.0  # this worker's CPU seconds in the window
    failures: Counter[str] = field(default_factory=Counter)


class Window:
    """The measured window, in ``time.time()`` seconds (shared by every process)."""

    def __init__(self) -> None:
        self.start = float("inf")
        self.end = float("inf")
        self.stopping = False

    def open(self, now: float | None = None) -> bool:
        now = time.time() if now is None else now
        return self.start <= now < self.end


class Room:
    """One room's seats, in one worker."""

    def __init__(self, code: str, host_token: str, players: int) -> None:
        self.code, self.host_token, self.players = code, host_token, players
        self.seats: list[Seat] = []
        self.seated = asyncio.Event()
        self.welcomes = 0
        self.last_change = time.monotonic()
        self.game: str | None = None
        self.ended: set[str] = set()


class Seat:
    """One client: a person in a seat of a room."""

    def __init__(
        self, room: Room, number: int, args: argparse.Namespace, stats: Stats, window: Window
    ) -> None:
        self.room, self.number, self.args = room, number, args
        self.stats, self.window = stats, window
        self.rng = random.Random(f"{room.code}-{number}")
        self.socket: Any = None
        self.view: dict[str, Any] | None = None
        self.next_id = 0
        self.sent: dict[int, tuple[str, float, bool]] = {}  # id -> (type, at, in window)
        self.awaiting_view: tuple[float, bool] | None = None
        self.thinking: asyncio.TimerHandle | None = None
        self.planned = False

    @property
    def host(self) -> bool:
        return self.number == 0

    async def send(self, message: dict[str, Any]) -> int:
        self.next_id += 1
        message["id"] = self.next_id
        self.sent[self.next_id] = (message["type"], time.perf_counter(), self.window.open())
        await self.socket.send(json.dumps(message))
        return self.next_id

    async def run(self, url: str) -> None:
        async with websockets.connect(url, max_size=2**24, ping_interval=None) as ws:
            self.socket = ws
            if self.host:
                token = self.room.host_token
                await self.send({"type": "rejoin", "room": self.room.code, "token": token})
            else:
                name = NAMES[self.number]
                await self.send({"type": "join", "room": self.room.code, "name": name})
            async for raw in ws:
                if self.window.stopping:
                    break
                self.receive(json.loads(raw))

    def receive(self, frame: dict[str, Any]) -> None:
        now = time.perf_counter()
        if self.window.open():
            self.stats.frames += 1
        kind = frame["type"]
        if kind == "view":
            self.room.last_change = time.monotonic()
            if self.awaiting_view is not None:
                sent, counted = self.awaiting_view
                if counted:
                    self.stats.view_ms.append((now - sent) * 1000)
                self.awaiting_view = None
            self.view = frame
            self.on_view(frame)
        elif kind in ("ack", "error"):
            ref = frame.get("id")
            if ref in self.sent:
                self.answered(frame, *self.sent.pop(ref), now)
        elif kind == "welcome":
            self.room.welcomes += 1
            if self.room.welcomes == self.room.players:
                self.room.seated.set()
        # (lobby, chat, pong: nothing to do)

    def answered(
        self, frame: dict[str, Any], what: str, sent: float, counted: bool, now: float
    ) -> None:
        """The ``ack`` or ``error`` of a message this client sent (``what``). Every
        refusal is counted by message, code and reason (``Stats.refused`` for actions,
        ``Stats.failures`` for the rest): the report shows them all."""
        error = frame["type"] == "error"
        if error:
            why = f"{frame['code']}/{frame.get('reason')}"
            if what == "act":
                if counted:
                    self.stats.refused[why] += 1
            elif self.window.open():
                self.stats.failures[f"{what}:{why}"] += 1
        if what == "act":
            if counted:
                self.stats.ack_ms.append((now - sent) * 1000)
            if error:
                # (``stale`` or ``illegal``: the view moved on, and the next one, sent
                # already or to come, says what to do: docs/protocol.md, "What a
                # client must do")
                self.awaiting_view = None
        elif what == "again":
            # Back in the lobby: the next game starts. Refused (the end is not shown
            # yet, or the lobby is there already): try again in a while.
            if error:
                self.plan_again()
            else:
                self.plan_start()
        elif what == "start" and error:
            self.plan_start()

    def on_view(self, view: dict[str, Any]) -> None:
        room = self.room
        if view["game"] != room.game:
            room.game = view["game"]
        if view["finished"]:
            if view["game"] not in room.ended and self.host:
                room.ended.add(view["game"])
                if self.window.open():
                    self.stats.games += 1
                    queue_put(("game", 1))
                self.plan_again()
            return
        if view["waiting"] and view["prompts"]:
            self.plan()

    def plan(self) -> None:
        """Think, then act on the view as it is then."""
        if self.thinking is not None or self.window.stopping:
            return
        low, high = self.args.think
        delay = self.rng.uniform(low, high)
        loop = asyncio.get_running_loop()
        self.thinking = loop.call_later(delay, lambda: spawn(self.act()))

    async def act(self) -> None:
        self.thinking = None
        view = self.view
        if view is None or not view["waiting"] or not view["prompts"] or view["finished"]:
            return
        prompt, choice = self.choose(view)
        message = {
            "type": "act",
            "verb": prompt["verb"],
            "args": choice["args"],
            "state_id": view["state_id"],
        }
        counted = self.window.open()
        if counted:
            self.stats.actions += 1
        self.awaiting_view = (time.perf_counter(), counted)
        with contextlib.suppress(websockets.ConnectionClosed):
            await self.send(message)

    def choose(self, view: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """A prompt and one of its choices, at random but as a person would: not one
        that passes, sleeps or abstains when there is another, and a pack member joins
        the target a packmate chose (``view.pack``), or the pack could disagree round
        after round."""
        prompts = [p for p in view["prompts"] if p["verb"] not in PASSIVE] or view["prompts"]
        chosen = {
            member["target"]
            for member in view.get("pack") or ()
            if member["seat"] != view["seat"] and member["target"] is not None
        }
        joined = [
            (prompt, choice)
            for prompt in prompts
            for choice in prompt["choices"]
            if len(choice["args"]) == 1 and choice["args"][0] in chosen
        ]
        if joined:
            return self.rng.choice(joined)
        prompt = self.rng.choice(prompts)
        return prompt, self.rng.choice(prompt["choices"])

    def plan_again(self) -> None:
        """The host, after the end: back to the lobby in a while (``again``)."""
        self.later({"type": "again"})

    def plan_start(self) -> None:
        """The host, in the lobby: the next game in a while (``start``)."""
        self.later({"type": "start"})

    def later(self, message: dict[str, Any]) -> None:
        """Send the host's ``message`` after a pause of 1 to 3 s (one at a time)."""
        if self.planned or self.window.stopping:
            return
        self.planned = True

        async def send() -> None:
            await asyncio.sleep(self.rng.uniform(1.0, 3.0))
            self.planned = False
            with contextlib.suppress(websockets.ConnectionClosed):
                await self.send(dict(message))

        spawn(send())

    async def watch(self) -> None:
        """The host: close a step nobody moved for ``--stall`` seconds."""
        while not self.window.stopping:
            await asyncio.sleep(1.0)
            view = self.view
            if view is None or view["finished"]:
                continue
            if time.monotonic() - self.room.last_change > self.args.stall:
                self.room.last_change = time.monotonic()
                if self.window.open():
                    self.stats.closes += 1
                with contextlib.suppress(websockets.ConnectionClosed):
                    await self.send({"type": "close", "state_id": view["state_id"]})


TASKS: set[asyncio.Task[Any]] = set()
RESULTS: Any = None  # the worker's queue to the parent


def spawn(coroutine: Any) -> None:
    task = asyncio.get_running_loop().create_task(coroutine)
    TASKS.add(task)
    task.add_done_callback(TASKS.discard)


def queue_put(item: object) -> None:
    if RESULTS is not None:
        RESULTS.put(item)


async def lag_probe(stats: Stats, window: Window) -> None:
    """How late this worker's event loop runs a 50 ms sleep (its own congestion)."""
    while not window.stopping:
        before = time.perf_counter()
        await asyncio.sleep(0.05)
        late = (time.perf_counter() - before - 0.05) * 1000
        if window.open():
            stats.lag_ms.append(late)


async def worker_main(
    wid: int,
    rooms: list[tuple[str, str]],
    urls: list[str],
    args: argparse.Namespace,
    control: Any,
    results: Any,
) -> None:
    global RESULTS
    RESULTS = results
    stats, window = Stats(), Window()
    tables = []
    connections = []
    for code, token in rooms:
        room = Room(code, token, args.players)
        room.seats = [Seat(room, n, args, stats, window) for n in range(args.players)]
        tables.append(room)
    # Connect the host first (the lobby needs no order, but it reads better), then the
    # others, a few rooms at a time so that the server is not flooded by handshakes.
    for start in range(0, len(tables), 20):
        batch = tables[start : start + 20]
        for number, room in enumerate(batch, start=start):
            for seat in room.seats:
                # (with several servers, a seat reaches any of them: no sticky sessions)
                url = urls[(number + seat.number) % len(urls)]
                connections.append(asyncio.create_task(seat.run(url)))
        await asyncio.gather(*(asyncio.wait_for(room.seated.wait(), 60) for room in batch))
    if not args.python_collector:
        tune_collector()
    results.put(("ready", wid))
    loop = asyncio.get_running_loop()
    go = await loop.run_in_executor(None, control.get)
    _, starts_at, window.start, window.end = go
    probe = asyncio.create_task(lag_probe(stats, window))
    watchers = [asyncio.create_task(room.seats[0].watch()) for room in tables]
    rng = random.Random(wid)
    for room in tables:
        delay = max(0.0, starts_at - time.time()) + rng.uniform(0, args.stagger)

        async def start(room: Room = room, delay: float = delay) -> None:
            await asyncio.sleep(delay)
            await room.seats[0].send({"type": "start"})

        spawn(start())
    cpu_start: float | None = None
    while True:
        now = time.time()
        if cpu_start is None and now >= window.start:
            cpu_start = time.process_time()
        with contextlib.suppress(queue.Empty):
            if control.get_nowait() == "stop":
                break
        if now >= window.end + 1:
            break
        await asyncio.sleep(0.2)
    stats.cpu = time.process_time() - (cpu_start or time.process_time())
    window.stopping = True
    window.end = min(window.end, time.time())
    for task in [*watchers, probe, *connections, *TASKS]:
        task.cancel()
    await asyncio.gather(*watchers, probe, *connections, return_exceptions=True)
    results.put(("stats", wid, stats_to_dict(stats)))


def tune_collector() -> None:
    """The clients' own garbage collector stays out of the measurement: what is set up
    is frozen, and no collection runs while they play.

    One client process stands for thousands of browsers, and each of its collections
    stalls all of them at once, which no real browser suffers: with Python's defaults,
    at 500 rooms, its middle collections (tens of thousands of live frames) took 40 to
    50 ms about twice a second and its full ones 0.2 to 0.5 s every few seconds, all of
    it counted as the server's latency (the clients' loop lag p99 was 69 to 205 ms, 9
    to 14 ms without on a calm machine). The clients make few reference cycles (their
    objects are freed by reference counts), and a run lasts minutes.
    ``--python-collector`` keeps Python's collector, for comparison."""
    gc.collect()
    gc.freeze()
    gc.disable()


def stats_to_dict(stats: Stats) -> dict[str, Any]:
    return {
        "view_ms": stats.view_ms,
        "ack_ms": stats.ack_ms,
        "actions": stats.actions,
        "refused": dict(stats.refused),
        "frames": stats.frames,
        "closes": stats.closes,
        "games": stats.games,
        "lag_ms": stats.lag_ms,
        "cpu": stats.cpu,
        "failures": dict(stats.failures),
    }


def worker(
    wid: int,
    rooms: list[tuple[str, str]],
    url: str,
    args: argparse.Namespace,
    control: Any,
    results: Any,
) -> None:
    raise_file_limit()
    main = worker_main(wid, rooms, url, args, control, results)
    if client_loop(args) == "uvloop":
        import uvloop

        uvloop.run(main)
    else:
        asyncio.run(main)


def client_loop(args: argparse.Namespace) -> str:
    """The clients' event loop: uvloop, as the server's, when it is installed, unless
    ``--asyncio-loop``. One client process stands for thousands of browsers and shares
    the two cores with the server: at 500 rooms it took 37-38 % of a core on uvloop,
    55-57 % on asyncio's own loop (docs/performance.md)."""
    if args.asyncio_loop:
        return "asyncio"
    try:
        import uvloop  # noqa: F401
    except ImportError:
        return "asyncio"
    return "uvloop"


# ---------------------------------------------------------------------- the report


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))
    return ordered[index]


def machine() -> str:
    model = "?"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    load = os.getloadavg()
    return (
        f"{os.cpu_count()} cores ({model}), {memory:.0f} GiB, Python "
        f"{platform.python_version()}, load average {load[0]:.2f} at the start"
    )


def engine_build() -> str:
    import lupus.engine.game

    where = lupus.engine.game.__file__ or ""
    return "pure Python" if where.endswith(".py") else "compiled with mypyc"


def top_functions(profile: str, path: Path, count: int = 25) -> str:
    """The profile's top functions by own time and by inclusive time."""
    lines: list[str] = []
    if profile == "cprofile":
        import pstats

        for order in ("tottime", "cumulative"):
            stream = __import__("io").StringIO()
            stats = pstats.Stats(str(path), stream=stream)
            stats.sort_stats(order).print_stats(count)
            lines.append(f"--- cProfile, by {order}")
            text = stream.getvalue()
            lines.append(text[text.rfind("\n", 0, text.find("ncalls")) + 1 :])
        return "\n".join(lines)
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, samples = line.rpartition(" ")
        if not stack:
            continue
        n = int(samples)
        frames = stack.split(";")
        total += n
        own[frames[-1]] += n
        for name in {re.sub(r":\d+\)$", ")", frame) for frame in frames}:
            inclusive[name] += n
    if not total:
        return "py-spy: no samples"
    kinds: Counter[str] = Counter()
    for name, n in own.items():
        kinds[category(name)] += n
    lines.append(f"--- py-spy, own time by kind ({total} samples)")
    for name, n in kinds.most_common():
        lines.append(f"{100 * n / total:6.1f}%  {name}")
    lines.append(f"--- py-spy, by own time ({total} samples)")
    for name, n in own.most_common(count):
        lines.append(f"{100 * n / total:6.1f}%  {name}")
    lines.append("--- py-spy, lupus functions by inclusive time")
    ours = Counter({k: v for k, v in inclusive.items() if "lupus/" in k and "cli.py" not in k})
    for name, n in ours.most_common(count):
        lines.append(f"{100 * n / total:6.1f}%  {name}")
    return "\n".join(lines)


KINDS = (
    ("selectors.py", "waiting for the network (idle)"),
    ("lupus/server/store.py", "SQLite writes (lupus.server.store)"),
    ("sqlite3", "SQLite writes (lupus.server.store)"),
    ("permessage_deflate", "WebSocket compression (permessage-deflate)"),
    ("websockets/", "WebSocket framing and parsing (websockets)"),
    ("asyncio/selector_events", "socket reads and writes (asyncio transports)"),
    ("asyncio/", "asyncio (event loop, queues, tasks)"),
    ("json/", "JSON encoding and decoding"),
    ("lupus/narration", "narration (lupus.narration, lupus.messages)"),
    ("lupus/messages", "narration (lupus.narration, lupus.messages)"),
    ("lupus/server/", "the server's own code (lupus.server)"),
    ("lupus/", "the engine and the rulebooks (lupus.engine, families, roles)"),
    ("pydantic", "validation (pydantic)"),
    ("starlette/", "starlette and uvicorn"),
    ("uvicorn/", "starlette and uvicorn"),
)


def category(frame: str) -> str:
    for marker, kind in KINDS:
        if marker in frame:
            return kind
    return "other (" + frame.split(" (")[0][:40] + ")"


def diagnosed(seen: dict[str, Any], wall: float) -> str:
    """What --diagnose found (over the server's whole life, not only the window)."""
    lines = []
    for generation in (0, 1, 2):
        pauses = [p * 1000 for g, p in seen["gc"] if g == generation]
        if pauses:
            lines.append(
                f"gc generation {generation}: {len(pauses)} collections, "
                f"{sum(pauses) / 1000:.2f} s in all, p99 {percentile(pauses, 0.99):.1f} ms, "
                f"max {max(pauses):.1f} ms"
            )
    writes = [w * 1000 for w in seen["writes"]]
    if writes:
        lines.append(
            f"store writes: {len(writes)}, {sum(writes) / 1000:.2f} s in all, p50 "
            f"{percentile(writes, 0.5):.2f} ms, p99 {percentile(writes, 0.99):.1f} ms, "
            f"max {max(writes):.1f} ms, {sum(w > 20 for w in writes)} over 20 ms"
        )
    lag = [late * 1000 for late in seen.get("lag", [])]
    if lag:
        lines.append(
            f"server loop lag (a 50 ms sleep, {seen.get('loop')}): p50 "
            f"{percentile(lag, 0.5):.1f} ms, p99 {percentile(lag, 0.99):.1f} ms, "
            f"max {max(lag):.1f} ms"
        )
    slow = seen["slow"]
    if seen.get("loop", "").startswith("uvloop"):
        lines.append("event-loop callbacks over 20 ms: not seen on uvloop (its callbacks run in C)")
        return "\n".join(lines)
    lines.append(
        f"event-loop callbacks over 20 ms: {len(slow)}, {sum(t for t, _ in slow):.2f} s in all"
    )
    kinds: Counter[str] = Counter()
    for _, what in slow:
        kinds[what.split(" at ")[0].split("(")[0][:90]] += 1
    for what, n in kinds.most_common(8):
        lines.append(f"  {n:5d}  {what}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--rules", default="werewolf")
    parser.add_argument("--think", type=float, nargs=2, default=(0.5, 2.0), metavar=("MIN", "MAX"))
    parser.add_argument("--warmup", type=float, default=15.0, help="seconds before measuring")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds measured")
    parser.add_argument("--games", type=int, default=None, help="or stop when so many ended")
    parser.add_argument("--workers", type=int, default=1, help="client processes")
    parser.add_argument(
        "--python-collector",
        action="store_true",
        help="clients keep Python's collector settings (see tune_collector)",
    )
    parser.add_argument(
        "--asyncio-loop",
        action="store_true",
        help="clients on asyncio's own event loop (default: uvloop when installed)",
    )
    parser.add_argument("--stagger", type=float, default=5.0, help="game starts spread (s)")
    parser.add_argument("--stall", type=float, default=6.0, help="host closes a step after")
    parser.add_argument(
        "--database",
        default=None,
        help="a SQLite file or a postgresql:// URL (default: a temp file)",
    )
    parser.add_argument(
        "--postgres",
        action="store_true",
        help="run on a throwaway PostgreSQL of the system's binaries, with its durable "
        "defaults (fsync and synchronous commits on)",
    )
    parser.add_argument(
        "--servers", type=int, default=1, help="lupus serve processes on one PostgreSQL database"
    )
    parser.add_argument("--profile", choices=("none", "py-spy", "cprofile"), default="none")
    parser.add_argument("--profile-out", type=Path, default=None)
    parser.add_argument(
        "--profile-idle", action="store_true", help="py-spy: count waits too (I/O, select)"
    )
    parser.add_argument(
        "--diagnose", action="store_true", help="time the server's GC, long callbacks, writes"
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()
    args.think = tuple(args.think)
    raise_file_limit()

    folder = Path(tempfile.mkdtemp(prefix="bench-server-"))
    if args.postgres:
        if args.database:
            parser.error("--postgres starts its own database: no --database with it")
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        from tests.pg_cluster import Cluster, binaries

        found = binaries()
        if found is None:
            parser.error("--postgres: no PostgreSQL binaries (pg_ctl, initdb) found")
        cluster = Cluster(found, durable=True).start()
        atexit.register(cluster.stop)
        args.database = cluster.database("bench")
    database = args.database or str(folder / "lupus.db")
    postgres = database.startswith(("postgresql://", "postgres://"))
    if args.servers > 1 and not postgres:
        parser.error("--servers above 1 needs a postgresql:// --database")
    profile_out = args.profile_out or folder / (
        "server.prof" if args.profile == "cprofile" else "server.pyspy.txt"
    )
    if args.profile == "py-spy" and shutil.which("py-spy") is None:
        parser.error("py-spy is not installed (pip install py-spy)")
    print(f"machine: {machine()}")
    print(f"engine: {engine_build()}")
    print(f"clients: {args.workers} process(es), {client_loop(args)} event loop")
    print(f"command: {' '.join([Path(sys.argv[0]).as_posix(), *sys.argv[1:]])}")
    env = None
    diagnosis = folder / "diagnosis.json"
    if args.diagnose:
        hook = folder / "hook"
        hook.mkdir()
        (hook / "sitecustomize.py").write_text(DIAGNOSE)
        path = os.pathsep.join(p for p in (str(hook), os.environ.get("PYTHONPATH")) if p)
        env = {**os.environ, "PYTHONPATH": path, "LUPUS_BENCH_DIAGNOSE": str(diagnosis)}
    servers = [
        ServerProcess(database, free_port(), args.profile, profile_out, env, folder / f"s{n}.log")
        for n in range(args.servers)
    ]
    for one in servers:
        one.start()
    server = servers[0]
    time.sleep(1.0)
    idle_rss = rss_bytes(server.pid)
    opened = time.perf_counter()
    rooms = create_rooms(servers, args)
    print(f"{args.rooms} rooms opened in {time.perf_counter() - opened:.1f} s")

    context = mp.get_context("spawn")
    results = context.Queue()
    controls = [context.Queue() for _ in range(args.workers)]
    shares = [rooms[w :: args.workers] for w in range(args.workers)]
    urls = [f"ws://127.0.0.1:{one.port}/ws" for one in servers]
    workers = [
        context.Process(target=worker, args=(w, shares[w], urls, args, controls[w], results))
        for w in range(args.workers)
    ]
    for process in workers:
        process.start()
    seated = time.perf_counter()
    ready = 0
    while ready < args.workers:
        kind, *_ = results.get(timeout=300)
        ready += kind == "ready"
    print(f"{args.rooms * args.players} clients seated in {time.perf_counter() - seated:.1f} s")
    seated_rss = rss_bytes(server.pid)

    starts_at = time.time() + 0.5
    window_start = starts_at + args.warmup
    window_end = window_start + args.duration if args.games is None else float("inf")
    for control in controls:
        control.put(("go", starts_at, window_start, window_end))
    while time.time() < window_start:
        time.sleep(0.05)
    commits_before = commits(database) if postgres else 0
    store_before = store_time(servers)
    cpu_before, wall_before = all_cpu(servers), time.perf_counter()
    spy = None
    if args.profile == "py-spy":
        seconds = args.duration if args.games is None else 3600
        record = ["py-spy", "record", "--pid", str(server.pid), "--duration", str(int(seconds))]
        spy = subprocess.Popen(
            [*record, "--rate", "50", "--format", "raw", "--nonblocking", "-o", str(profile_out)]
            + (["--idle"] if args.profile_idle else []),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    games = 0
    peak_rss = seated_rss
    samples: list[float] = []  # the server's CPU use, second by second
    last_cpu, last_wall = cpu_before, wall_before
    while True:
        now = time.time()
        if args.games is None and now >= window_end:
            break
        if args.games is not None and games >= args.games:
            break
        with contextlib.suppress(queue.Empty):
            item = results.get(timeout=1.0)
            if item[0] == "game":
                games += 1
        peak_rss = max(peak_rss, rss_bytes(server.pid))
        cpu, wall = all_cpu(servers), time.perf_counter()
        if wall - last_wall >= 1.0:
            samples.append((cpu - last_cpu) / (wall - last_wall))
            last_cpu, last_wall = cpu, wall
    cpu_after, wall_after = all_cpu(servers), time.perf_counter()
    commits_after = commits(database) if postgres else 0
    store_after = store_time(servers)
    end_rss = rss_bytes(server.pid)
    for control in controls:
        control.put("stop")
    if spy is not None:
        spy.send_signal(signal.SIGINT)  # (py-spy writes what it has)
        with contextlib.suppress(subprocess.TimeoutExpired):
            spy.wait(60)
    totals: dict[str, Any] = defaultdict(list)
    counts: Counter[str] = Counter()
    finished = 0
    while finished < args.workers:
        item = results.get(timeout=120)
        if item[0] != "stats":
            continue
        finished += 1
        data = item[2]
        for key in ("view_ms", "ack_ms", "lag_ms"):
            totals[key] += data[key]
        for key in ("actions", "frames", "closes", "games", "cpu"):
            counts[key] += data[key]
        for code, n in data["refused"].items():
            counts[f"refused {code}"] += n
        for what, n in data["failures"].items():
            counts[f"failed {what}"] += n
    for process in workers:
        process.join(30)
    status = max(one.stop() for one in servers)

    wall = wall_after - wall_before
    server_cpu = cpu_after - cpu_before
    store_s = store_after[0] - store_before[0]
    store_n = store_after[1] - store_before[1]
    figures = {
        "rooms": args.rooms,
        "clients": args.rooms * args.players,
        "rules": args.rules,
        "think_s": list(args.think),
        "window_s": round(wall, 1),
        "actions": counts["actions"],
        "actions_per_s": round(counts["actions"] / wall, 1),
        "frames_per_s": round(counts["frames"] / wall, 1),
        "games_ended": counts["games"],
        "host_closes": counts["closes"],
        "refused": {k[8:]: v for k, v in counts.items() if k.startswith("refused ")},
        "failed": {k[7:]: v for k, v in counts.items() if k.startswith("failed ")},
        "view_ms_p50": round(percentile(totals["view_ms"], 0.50), 1),
        "view_ms_p99": round(percentile(totals["view_ms"], 0.99), 1),
        "view_ms_max": round(max(totals["view_ms"], default=float("nan")), 1),
        "ack_ms_p50": round(percentile(totals["ack_ms"], 0.50), 1),
        "ack_ms_p99": round(percentile(totals["ack_ms"], 0.99), 1),
        "server_cpu_s": round(server_cpu, 1),
        "server_cpu_share": round(server_cpu / wall, 3),
        "server_cpu_ms_per_action": round(1000 * server_cpu / max(1, counts["actions"]), 2),
        "server_cpu_share_p90_1s": round(percentile(samples, 0.9), 3),
        "clients_cpu_share": round(counts["cpu"] / wall, 3),
        "client_loop_lag_ms_p50": round(percentile(totals["lag_ms"], 0.50), 1),
        "client_loop_lag_ms_p99": round(percentile(totals["lag_ms"], 0.99), 1),
        "rss_idle_mib": round(idle_rss / 2**20, 1),
        "rss_seated_mib": round(seated_rss / 2**20, 1),
        "rss_end_mib": round(end_rss / 2**20, 1),
        "rss_peak_mib": round(peak_rss / 2**20, 1),
        "kib_per_room": round((end_rss - idle_rss) / args.rooms / 1024, 1),
        "server_exit": status,
        "database_mib": (
            round(Path(database).stat().st_size / 2**20, 1) if Path(database).exists() else 0
        ),
        "servers": args.servers,
        "store_writes_per_action": round(store_n / max(1, counts["actions"]), 2),
        "store_write_ms_mean": round(1000 * store_s / max(1, store_n), 3),
        "store_share_of_window": round(store_s / wall / max(1, args.servers), 3),
        "db_commits_per_action": (
            round((commits_after - commits_before) / max(1, counts["actions"]), 2)
            if postgres
            else None
        ),
    }
    print()
    print(f"rooms {args.rooms} x {args.players} seats ({args.rules}), think {args.think} s")
    print(
        f"window {wall:.1f} s: {figures['actions']} actions ({figures['actions_per_s']}/s), "
        f"{figures['frames_per_s']} frames/s received, {figures['games_ended']} games ended, "
        f"{figures['host_closes']} host closes, refused {figures['refused']}"
    )
    print(
        f"view latency (act sent -> first view back): p50 {figures['view_ms_p50']} ms, "
        f"p99 {figures['view_ms_p99']} ms, max {figures['view_ms_max']} ms "
        f"({len(totals['view_ms'])} actions)"
    )
    print(
        f"ack latency (act sent -> ack): p50 {figures['ack_ms_p50']} ms, "
        f"p99 {figures['ack_ms_p99']} ms"
    )
    print(
        f"server CPU: {server_cpu:.1f} s in {wall:.1f} s = {figures['server_cpu_share']:.0%} "
        f"of a core (p90 of 1-s samples {figures['server_cpu_share_p90_1s']:.0%}), "
        f"{figures['server_cpu_ms_per_action']} ms per action; "
        f"clients' CPU {figures['clients_cpu_share']:.0%} of a core; client loop lag "
        f"p50 {figures['client_loop_lag_ms_p50']} ms, p99 {figures['client_loop_lag_ms_p99']} ms"
    )
    print(
        f"server RSS: idle {figures['rss_idle_mib']} MiB, seated "
        f"{figures['rss_seated_mib']} MiB, end {figures['rss_end_mib']} MiB, peak "
        f"{figures['rss_peak_mib']} MiB: {figures['kib_per_room']} KiB per room"
    )
    if postgres:
        print(
            f"PostgreSQL: {figures['db_commits_per_action']} transactions (round trips) per "
            f"action, all {args.servers} server(s) together"
        )
    print(
        f"store: {figures['store_writes_per_action']} writes per action, "
        f"{figures['store_write_ms_mean']} ms each on average; the event loop waited on "
        f"them {figures['store_share_of_window']:.0%} of the window (per server)"
    )
    target = figures["view_ms_p99"] < 100
    print(f"target (p99 < 100 ms at 500 rooms): p99 {'<' if target else '>='} 100 ms here")
    if figures["failed"]:
        print(f"failures: {figures['failed']}")
    if args.profile != "none" and profile_out.exists():
        print()
        print(top_functions(args.profile, profile_out))
        print(f"(profile: {profile_out})")
    if args.diagnose and diagnosis.exists():
        print()
        print(diagnosed(json.loads(diagnosis.read_text()), wall))
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    if args.database is None and args.profile == "none":
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
