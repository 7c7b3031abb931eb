"""The pack agrees, over the wire (issue 24): a real server, eight real WebSocket clients.

- Two people in the pack: their step stays open while they name different players (both
  keep their prompts, nobody else hears of a victim) and closes as soon as they agree;
  every view of a member carries ``pack``, each member's current choice, and nobody
  else's view ever does.
- A person and a bot in the pack: the bot names its own victim, the person another;
  the bot, asked again, follows the person, and the step closes on the person's choice.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from tests.server_harness import Player, Server, players, running

Frame = dict[str, Any]

SETTINGS: dict[str, Any] = {
    "rules": "werewolf",
    "players": 8,
    "composition": {"werewolf": 2, "seer": 1, "villager": 5},
    "host_name": "Ann",
    "bot_delay": 0.05,
    "pace": 0.05,
    "seed": 24,
}


@pytest.fixture(scope="module")
def server(store_kind: str, tmp_path_factory: pytest.TempPathFactory) -> Server:
    with running(tmp_path_factory.mktemp("server") / "lupus.db") as started:
        yield started


async def view_where(player: Player, wanted: Callable[[Frame], bool]) -> Frame:
    """Frames until the player's view is one ``wanted`` says yes to (or it already is)."""
    while player.view is None or not wanted(player.view):
        await player.receive()
    return player.view


def role(player: Player) -> str:
    return str(next(e for e in player.events if e["kind"] == "role_dealt")["data"]["role"])


def verbs(view: Frame) -> set[str]:
    return {prompt["verb"] for prompt in view["prompts"]}


async def act(player: Player, verb: str, *args: int) -> None:
    assert player.view is not None
    ref = await player.send(
        {"type": "act", "verb": verb, "args": list(args), "state_id": player.view["state_id"]}
    )
    reply = await player.answer(ref)
    assert reply["type"] == "ack", reply


async def seated(server: Server, table: list[Player]) -> list[Player]:
    """Everyone seated and dealt, night 1 shown: the table in seat order."""
    created = server.create(**SETTINGS)
    room = created["room"]
    host = table[0]
    assert (await host.rejoin(room, created["host_token"]))["seat"] == 0
    for number, player in enumerate(table[1:], 1):
        assert (await player.join(room, f"P{number}"))["seat"] == number
    ref = await host.send({"type": "start"})
    assert (await host.answer(ref))["type"] == "ack"
    for player in table:
        while not any(e["kind"] == "role_dealt" for e in player.events):
            await player.receive()
    return table


async def the_seer_looks(table: list[Player], wolves: list[Player]) -> None:
    (seer,) = [p for p in table if role(p) == "seer"]
    await view_where(seer, lambda v: "inspect" in verbs(v))
    await act(seer, "inspect", wolves[0].seat or 0)


def villagers(table: list[Player]) -> list[int]:
    return [p.seat for p in table if role(p) == "villager" and p.seat is not None]


def pack_keys_outside(table: list[Player], wolves: list[Player]) -> list[Frame]:
    return [f for p in table if p not in wolves for f in p.frames if "pack" in f]


def test_the_packs_step_stays_open_while_it_disagrees_and_closes_when_it_agrees(
    server: Server,
) -> None:
    async def play() -> None:
        async with players(server, 8) as table:
            await seated(server, table)
            wolves = [p for p in table if role(p) == "werewolf"]
            first, second = wolves
            a, b = first.seat, second.seat
            assert a is not None and b is not None
            x, y = villagers(table)[:2]
            await the_seer_looks(table, wolves)
            for wolf in wolves:
                shown = await view_where(wolf, lambda v: "kill" in verbs(v))
                assert shown["pack"] == [{"seat": a, "target": None}, {"seat": b, "target": None}]
            await act(first, "kill", x)
            await act(second, "kill", y)
            split = [{"seat": a, "target": x}, {"seat": b, "target": y}]
            for wolf in wolves:
                view = await view_where(wolf, lambda v: v.get("pack") == split)
                # Still open: the prompts stay, both owe a new choice, no victim yet.
                assert {"kill", "sleep"} <= verbs(view) and view["waiting"]
                assert not [e for e in wolf.events if e["kind"] == "pack_victim"]
            await act(first, "kill", y)  # a change of mind: now they agree
            for wolf in wolves:
                view = await view_where(
                    wolf, lambda v: any(e["kind"] == "pack_victim" for e in v["events"])
                )
                (victim,) = [e for e in view["events"] if e["kind"] == "pack_victim"]
                assert victim["data"]["target"] == y
                assert not view["prompts"] and "pack" not in view  # the step is over
            await asyncio.sleep(0.3)  # (whatever else is on its way)
            for player in table:
                while True:
                    try:
                        await player.receive(timeout=0.2)
                    except TimeoutError:
                        break
            assert not pack_keys_outside(table, wolves)
            dawn = [e for e in table[0].events if e["kind"] == "death"]
            assert [e["data"]["player"] for e in dawn] == [y]

    asyncio.run(play())


def test_a_bot_in_the_pack_follows_what_the_person_named(server: Server) -> None:
    async def play() -> None:
        async with players(server, 8) as table:
            await seated(server, table)
            wolves = [p for p in table if role(p) == "werewolf"]
            person, botted = wolves
            assert person.seat is not None and botted.seat is not None
            ref = await table[0].send({"type": "hand_over", "seat": botted.seat})
            assert (await table[0].answer(ref))["type"] == "ack"
            await the_seer_looks(table, wolves)

            def bot_chose(view: Frame) -> bool:
                return any(m["seat"] == botted.seat and m["target"] for m in view.get("pack", []))

            view = await view_where(person, bot_chose)
            (bots_pick,) = [m["target"] for m in view["pack"] if m["seat"] == botted.seat]
            mine = next(s for s in villagers(table) if s != bots_pick)
            await act(person, "kill", mine)
            view = await view_where(
                person, lambda v: any(e["kind"] == "pack_victim" for e in v["events"])
            )
            choices = [
                (e["data"]["player"], e["data"]["target"])
                for e in person.events
                if e["kind"] == "pack_choice"
            ]
            assert choices == [(botted.seat, bots_pick), (person.seat, mine), (botted.seat, mine)]
            (victim,) = [e for e in view["events"] if e["kind"] == "pack_victim"]
            assert victim["data"]["target"] == mine

    asyncio.run(play())
