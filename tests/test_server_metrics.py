"""``GET /metrics``: a real server's figures move as a game is played, in Prometheus'
text format (read back with prometheus-client's own parser), and name no room or token.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from tests.server_harness import Server, players

from lupus.server.app import create_app
from lupus.server.metrics import Metrics, timed, timed_store
from lupus.server.store_sqlite import SQLiteStore

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(server: Server) -> tuple[str, Samples]:
    answer = httpx.get(f"{server.http}/metrics", timeout=10)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain")
    found: Samples = {}
    for family in text_string_to_metric_families(answer.text):
        for sample in family.samples:
            found[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return answer.text, found


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples[(name, frozenset(labels.items()))]


async def game(server: Server, created: dict[str, Any]) -> tuple[int, Samples, list[str]]:
    """Three people and bots play to the end (one stale action refused on the way);
    the actions acknowledged, a scrape taken mid-game, and the people's tokens."""
    room = created["room"]
    async with players(server, 3) as people:
        host, bob, cy = people
        await host.rejoin(room, created["host_token"])
        await bob.join(room, "Bob")
        await cy.join(room, "Cy")
        assert (await host.answer(await host.send({"type": "start", "fill": "heuristic"})))[
            "type"
        ] == "ack"
        await bob.until("view")
        stale = {"type": "act", "verb": "vote", "args": [0], "state_id": -1}
        assert (await bob.answer(await bob.send(stale)))["code"] == "stale"
        during = (await asyncio.to_thread(scrape, server))[1]
        await asyncio.gather(*(person.play() for person in people))
        tokens = [person.token for person in people if person.token]
        return sum(len(person.acked) for person in people), during, tokens


def test_the_figures_move_as_a_game_is_played(tmp_path: Path) -> None:
    server = Server(tmp_path / "lupus.db").start()
    try:
        before = scrape(server)[1]
        assert value(before, "lupus_rooms_open") == 0
        assert value(before, "lupus_actions_total", outcome="accepted") == 0
        created = server.create(
            rules="werewolf", players=8, host_name="Ann", bot_delay=0, pace=0.02, timers={"day": 1}
        )
        acked, during, tokens = asyncio.run(game(server, created))
        text, after = scrape(server)
    finally:
        server.stop()
    assert value(during, "lupus_rooms_open") == 1
    assert value(during, "lupus_connections") == 3  # (the people's WebSockets)
    assert value(during, "lupus_actions_total", outcome="refused") == 1
    assert value(after, "lupus_connections") == 0
    assert acked > 0
    # Every acknowledged action counted, and its latency observed, once.
    assert value(after, "lupus_actions_total", outcome="accepted") == acked
    assert value(after, "lupus_actions_total", outcome="refused") >= 1
    assert value(after, "lupus_action_seconds_count") == acked
    assert 0 < value(after, "lupus_action_seconds_sum") < acked * 5
    # Every action (bots' and the leader's too) committed, and timed, once.
    actions = value(after, "lupus_store_commit_seconds_count", write="append_action")
    assert actions > acked
    assert value(after, "lupus_store_commit_seconds_count", write="start_game") == 1
    assert value(after, "lupus_store_commit_seconds_count", write="save_room") >= 1
    assert value(after, "lupus_store_commit_seconds_bucket", write="append_action", le="+Inf") == (
        actions
    )
    assert value(after, "lupus_lease_takeovers_total") == 0
    assert value(after, "process_cpu_seconds_total") > 0
    assert value(after, "process_resident_memory_bytes") > 0
    # Counts only: no room's code, no token, no name.
    for secret in (created["room"], created["host_token"], *tokens, "Ann", "Bob"):
        assert secret not in text


def test_each_app_counts_apart() -> None:
    """Two servers in one process: each has its own registry (prometheus-client's
    global one would refuse the second's metrics as duplicates, or mix them)."""
    first = create_app(":memory:")
    second = create_app(":memory:")
    first.state.hub.metrics.accepted.inc(3)
    assert b'lupus_actions_total{outcome="accepted"} 3.0' in first.state.hub.metrics.text()
    assert b'lupus_actions_total{outcome="accepted"} 0.0' in second.state.hub.metrics.text()


def test_a_store_is_timed_whichever_it_is() -> None:
    """The SQLite store's writes are timed by the wrapper any store can take, an async
    one's methods too; a write that fails is timed as well."""
    metrics = Metrics()
    store = SQLiteStore(":memory:")
    timed_store(store, metrics.store_seconds)
    store.save_room("ABCDE", {"status": "lobby"}, 1.0)
    store.append_action("ABCDE-1", 0, ["x"])
    with pytest.raises(sqlite3.IntegrityError):
        store.append_action("ABCDE-1", 0, ["x"])  # (that index is stored: refused)
    store.close()

    async def write() -> str:
        return "done"

    assert asyncio.run(timed(write, metrics.store_seconds.labels("append_chat"))()) == "done"
    counted = {
        name: metrics.registry.get_sample_value("lupus_store_commit_seconds_count", {"write": name})
        for name in ("save_room", "append_action", "append_chat", "drop_room")
    }
    assert counted == {"save_room": 1, "append_action": 2, "append_chat": 1, "drop_room": 0}
