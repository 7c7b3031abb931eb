"""`lupus export`: the decision lines of a server's finished games, on SQLite and on
PostgreSQL, only of rooms whose host allowed it (the lobby shows his choice)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.conftest import STORES
from tests.server_harness import Server, ask, host_of, running
from typer.testing import CliRunner

from lupus import scenario as sc
from lupus.ai.export import KEYS
from lupus.cli import app

ROOM: dict[str, Any] = {"rules": "werewolf", "players": 8, "bot_delay": 0.0, "pace": 0.02}


@pytest.fixture(scope="module", params=STORES)
def server(request: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    kind = request.param
    if kind == "postgresql":
        Server.database_of = request.getfixturevalue("pg_cluster").database
    try:
        with running(tmp_path_factory.mktemp("export") / "lupus.db") as started:
            yield started
    finally:
        Server.database_of = str


def played(server: Server, allow: bool) -> tuple[str, str]:
    """A room of bots played to its end, its host having allowed export (through the
    lobby's ``settings``) or not: its code and its game's id."""
    created = server.create(**ROOM)

    async def play() -> None:
        host = await host_of(server, created)
        try:
            if allow:
                assert (await ask(host, type="settings", allow_export=True))["type"] == "ack"
                assert host.lobby is not None and host.lobby["allow_export"] is True
            assert (await ask(host, type="start", fill="heuristic"))["type"] == "ack"
        finally:
            await host.close()

    asyncio.run(play())
    deadline = time.monotonic() + 60
    while True:
        lobby = httpx.get(f"{server.http}/api/rooms/{created['room']}").json()
        if lobby["status"] == "finished":
            assert lobby["allow_export"] is allow
            return str(created["room"]), str(lobby["game"])
        assert time.monotonic() < deadline, "the game did not end"
        time.sleep(0.1)


def export(server: Server, *args: str) -> Any:
    return CliRunner().invoke(app, ["export", "--database", server.address, *args])


def test_export_writes_only_the_games_of_rooms_that_allow_it(
    server: Server, tmp_path: Path
) -> None:
    allowed, game = played(server, allow=True)
    refused, _ = played(server, allow=False)
    result = export(server, "--room", refused)
    assert result.exit_code == 1
    assert f"room {refused} does not allow its games to be exported" in result.output
    out = tmp_path / "decisions.jsonl"
    assert export(server, "--room", allowed.lower(), "--out", str(out)).exit_code == 0
    lines = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    stored = sc.replay(sc.parse(httpx.get(f"{server.http}/api/games/{game}/scenario").json()))
    seats_acted = [a.actor for a in stored.game.history if a.actor >= 0]
    assert [line["seat"] for line in lines] == seats_acted
    outcome = stored.game.outcome
    assert outcome is not None
    for line in lines:
        assert tuple(line) == KEYS
        assert line["game"] == game and line["fallback"] is False
        assert line["choice"] is not None and 0 <= line["choice"] < len(line["choices"])
        assert line["outcome"]["won"] is (line["seat"] in outcome.winners)
    every = export(server)  # (every room that allows it: this one's game, not the other's)
    assert every.exit_code == 0
    games = {json.loads(line)["game"] for line in every.stdout.splitlines() if line.startswith("{")}
    assert game in games and not any(g.startswith(refused) for g in games)


def test_export_refuses_a_room_it_does_not_know(server: Server) -> None:
    result = export(server, "--room", "ZZZZZ")
    assert result.exit_code == 1 and "there is no room ZZZZZ" in result.output
