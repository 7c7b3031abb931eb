"""Whole games over the wire: a real server, real WebSocket clients, every rulebook."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from tests.server_harness import Server, players, running

from lupus import scenario as sc
from lupus.rulebooks import available


@pytest.fixture(scope="module")
def server(store_kind: str, tmp_path_factory: pytest.TempPathFactory) -> Server:
    with running(tmp_path_factory.mktemp("server") / "lupus.db") as started:
        yield started


PLAYERS = {"werewolf": 8, "tit-albert": 8, "maffia": 8, "mafia-classic": 7, "lupusburg": 6}


@pytest.mark.parametrize("rules", available())
def test_a_whole_game_with_people_and_bots(server: Server, rules: str) -> None:
    """The host and two friends play with bots in the other seats; the finished game
    downloads as a scenario that ``lupus replay`` replays to the same end."""
    created = server.create(
        rules=rules,
        players=PLAYERS[rules],
        host_name="Ann",
        bot_delay=0,
        pace=0.05,
        timers={"day": 1.0},
    )
    room = created["room"]

    async def play() -> None:
        async with players(server, 3) as (host, bob, cy):
            assert (await host.rejoin(room, created["host_token"]))["seat"] == 0
            assert (await bob.join(room, "Bob"))["seat"] == 1
            assert (await cy.join(room, "Cy"))["seat"] == 2
            ref = await host.send({"type": "start", "fill": "heuristic"})
            assert (await host.answer(ref))["type"] == "ack"
            await asyncio.gather(host.play(), bob.play(), cy.play())
            for person in (host, bob, cy):
                assert person.view is not None and person.view["finished"]
                assert person.events[-1]["kind"] == "game_over"

    asyncio.run(play())
    lobby = httpx.get(f"{server.http}/api/rooms/{room}").json()
    assert lobby["status"] == "finished"
    download = httpx.get(f"{server.http}/api/games/{lobby['game']}/scenario")
    assert download.status_code == 200
    replayed = sc.replay(sc.parse(download.json()))
    assert replayed.game.finished
    assert [d.player for d in replayed.game.deaths]  # a real game was played
