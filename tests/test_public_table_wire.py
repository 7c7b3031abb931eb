"""``view.public`` over the wire: a real server, a player and a spectator.

Every view frame carries the public table in the documented shape; the player and
the spectator are sent the same table at the same public moment; it moves only with
the public events; and the last one is the table of the finished game, as its
downloaded scenario replays it, as the seat's last own part is that seat's, read
again from the replayed game.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from tests.server_harness import Player, Server, players, running

from lupus import scenario as sc
from lupus.families import family_of, table_of
from lupus.lupusburg.board import LupusburgBoard
from lupus.lupusburg.own import LupusburgOwn
from lupus.village.own import VillageOwn

SEAT_KEYS = {"seat", "name", "alive", "card", "titles"}
HOUSE_KEYS = {"house", "alive", "character", "chest", "death"}
OUTCOME_KEYS = {
    "phase",
    "number",
    "deaths",
    "votes",
    "failed_attempt",
    "tie",
    "nobody_event",
    "failed_event",
}
STEP_KEYS = {
    "kind",
    "phase",
    "number",
    "place",
    "event",
    "step",
    "vote",
    "candidates",
    "needed",
    "round",
    "entries",
}
END_KEYS = {"winner", "winners", "reason", "scores", "parts", "tie_break", "bets"}
BOARD_KEYS = set(LupusburgBoard.FIELDS)
OWN_KEYS = set(LupusburgOwn.FIELDS)
VILLAGE_OWN_KEYS = set(VillageOwn.FIELDS)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("server") / "lupus.db") as started:
        yield started


def check_shape(public: dict[str, Any], names: list[str], houses: bool) -> None:
    """The documented shape (docs/protocol.md, "The public table")."""
    assert set(public) == {"players", "outcome", "step", "end"} | ({"board"} if houses else set())
    if houses:
        assert set(public["board"]) == BOARD_KEYS
    step, end = public["step"], public["end"]
    if step is not None:
        assert set(step) == STEP_KEYS
        assert all(set(entry) == {"seat", "target"} for entry in step["entries"])
    if end is not None:
        assert set(end) == END_KEYS and type(end["winners"]) is list
        assert (end["scores"] is not None) == houses
    assert [p["seat"] for p in public["players"]] == list(range(len(names)))
    for p in public["players"]:
        assert set(p) == (SEAT_KEYS | {"houses"} if houses else SEAT_KEYS)
        assert type(p["alive"]) is bool and type(p["titles"]) is list
        assert p["card"] is None or type(p["card"]) is str
        if houses:
            assert [h["house"] for h in p["houses"]] == [2 * p["seat"], 2 * p["seat"] + 1]
            assert all(set(h) == HOUSE_KEYS for h in p["houses"])
    assert [p["name"] for p in public["players"]] == names
    outcome = public["outcome"]
    if outcome is None:
        return
    assert set(outcome) == OUTCOME_KEYS
    assert outcome["phase"] in ("night", "day") and type(outcome["number"]) is int
    assert (outcome["votes"] is None) == (outcome["phase"] == "night")
    for death in outcome["deaths"]:
        assert set(death) == (
            {"seat", "cause", "card", "house", "event"}
            if houses
            else {"seat", "cause", "card", "event"}
        )
    for vote in outcome["votes"] or ():
        assert set(vote) == ({"seat", "house", "votes"} if houses else {"seat", "votes"})
    assert type(outcome["failed_attempt"]) is bool
    tie = outcome["tie"]
    assert tie is None or (outcome["phase"] == "day" and all(type(s) is int for s in tie))


def public_moments(person: Player) -> dict[int, dict[str, Any]]:
    """Each public table this client was sent, by the number of public events its
    merged view held then."""
    found: dict[int, dict[str, Any]] = {}
    public = 0
    for frame in person.frames:
        if frame["type"] != "view":
            continue
        if frame["from"] == 0:
            public = 0
        public += sum(1 for event in frame["events"] if event["audience"] is None)
        table = frame["public"]
        assert found.setdefault(public, table) == table, "one public moment, one table"
        found[public] = table
    return found


@pytest.mark.parametrize(("rules", "seats"), [("werewolf", 8), ("maffia", 8), ("lupusburg", 5)])
def test_every_view_frame_carries_the_public_table(server: Server, rules: str, seats: int) -> None:
    created = server.create(
        rules=rules,
        players=seats,
        host_name="Ann",
        bot_delay=0,
        pace=0.02,
        timers={"day": 1.0},
        spectators=True,
    )
    room = created["room"]

    async def play() -> tuple[Player, Player]:
        async with players(server, 2) as (host, spectator):
            await host.rejoin(room, created["host_token"])
            await spectator.send({"type": "watch", "room": room})
            await spectator.until("welcome")
            ref = await host.send({"type": "start", "fill": "heuristic"})
            assert (await host.answer(ref))["type"] == "ack"
            await asyncio.gather(host.play(), spectator.play())
            return host, spectator

    host, spectator = asyncio.run(play())
    lobby = httpx.get(f"{server.http}/api/rooms/{room}").json()
    download = httpx.get(f"{server.http}/api/games/{lobby['game']}/scenario").json()
    names = list(download["players"])
    houses = rules == "lupusburg"
    views = [f for person in (host, spectator) for f in person.frames if f["type"] == "view"]
    assert views and all("public" in frame for frame in views)
    for frame in views:
        check_shape(frame["public"], names, houses)
    for frame in host.frames:
        if frame["type"] == "view":  # (the seat's own part, of his seat: every family's)
            own = frame["own"]
            assert set(own) == (OWN_KEYS if houses else VILLAGE_OWN_KEYS)
            assert own["seat"] == frame["seat"]
    assert all(frame["own"] is None for frame in spectator.frames if frame["type"] == "view")
    seen, watched = public_moments(host), public_moments(spectator)
    for moment in seen.keys() & watched.keys():
        assert seen[moment] == watched[moment], "the seat and the spectator see one table"
    assert len(seen.keys() & watched.keys()) > 3
    last = views[-1]["public"]
    assert host.view is not None and spectator.view is not None
    assert host.view["public"] == spectator.view["public"]
    game = sc.replay(sc.parse(download)).game
    assert game.finished
    assert host.view["public"] == table_of(game.public_view()).to_json() == last
    # the seat's own part at the end, as the server kept it (written again only when it
    # changed), is the one read from scratch from the finished game's view of that seat
    seat = host.view["seat"]
    reader = family_of(game.rulebook).seat_reader(seat)
    assert reader is not None
    for event in game.view(seat).events:
        reader.feed(event)
    assert host.view["own"] == reader.to_json(), "the frame's own part is stale"
    assert all(p["card"] is not None for p in last["players"]), "the end shows every card"
    assert last["outcome"] is not None and last["outcome"]["number"] >= 1
    assert last["end"] is not None and last["end"]["winners"], "the end tells who won"
    assert any(frame["public"]["step"] for frame in views), "some step was under way"
