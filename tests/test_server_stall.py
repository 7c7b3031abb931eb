"""No game can stall: a room opened with its defaults has a timer on every step of
every rulebook, and a room whose players never act still finishes, by its timers and
the bots that take the idle seats, with nobody closing a step by hand.

- The defaults are the rulebooks' data (``[timers]``): a room opened without timers
  has them (its lobby says so, ``/api/rulebooks`` lists them), a host's own replace
  them, ``"off"`` is none, and a game leader's room has none unless given.
- Over the wire, a room of each rulebook opened with its defaults (as they are, then
  scaled down by ``timer_scale``, which only shortens them) shows a deadline in every
  view of its game, the first step's as long as the rulebook says.
- A room of each rulebook whose people never act, half of them staying connected and
  half leaving after the start: every step closes at its deadline, every person's seat
  is played by a bot once he is away (gone for ``absent_grace``, or two public steps
  missed), and the game ends.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from tests.server_harness import Server
from tests.stall_harness import QUICK, Person

from lupus.families import family_of, load
from lupus.rulebooks import available
from lupus.server.settings import RoomSettings

RULES = ("werewolf", "tit-albert", "maffia", "mafia-classic", "lupusburg")
SIZES = {"werewolf": 8, "tit-albert": 6, "maffia": 6, "mafia-classic": 5, "lupusburg": 5}
SCALE = 0.01  # the rulebooks' timers in these games: 10 to 150 s become 0.1 to 1.5 s
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")


@pytest.fixture(scope="module")
def server(store_kind: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    started = Server(tmp_path_factory.mktemp("stall") / "lupus.db", limits=QUICK).start()
    try:
        yield started
    finally:
        started.stop()


def open_room(server: Server, **settings: Any) -> dict[str, Any]:
    """A room opened as a page would, with no timers said (not the harness's way)."""
    answer = httpx.post(f"{server.http}/api/rooms", json=settings, timeout=10)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def rulebook_timers(rules: str, scale: float = 1.0) -> dict[str, Any]:
    spec = load(rules).timers
    return {
        "night": round(spec.night * scale, 3) if spec.night else None,
        "day": round(spec.day * scale, 3) if spec.day else None,
        "steps": {step: round(s * scale, 3) for step, s in spec.steps.items()},
    }


# ---------------------------------------------------------------------- the defaults
def test_every_rulebook_times_every_step_by_default() -> None:
    """Each shipped rulebook gives a night and a day timer (every step falls back on
    one of them) and names only steps its family runs; a room opened without timers
    has exactly them, scaled by ``timer_scale``; a host's own replace them whole;
    ``"off"`` and ``{}`` are none; a game leader's room has none."""
    assert set(available()) == set(RULES)
    for rules in RULES:
        book = load(rules)
        spec = book.timers
        assert spec.night and spec.day, rules
        assert set(spec.steps) <= set(family_of(book).timed_step_ids()), rules
        base = {"rules": rules, "players": SIZES[rules]}
        room = RoomSettings.model_validate(base)
        assert room.timers.model_dump() == rulebook_timers(rules) and room.timed
        half = RoomSettings.model_validate({**base, "timer_scale": 0.5})
        assert half.timers.model_dump() == rulebook_timers(rules, 0.5)
        own = RoomSettings.model_validate({**base, "timers": {"day": 60.0}})
        assert own.timers.model_dump() == {"night": None, "day": 60.0, "steps": {}}
        for off in ("off", {}):
            assert not RoomSettings.model_validate({**base, "timers": off}).timed
        names = list(NAMES[: SIZES[rules]])
        leader = RoomSettings.model_validate({**base, "mode": "leader", "names": names})
        assert not leader.timed
        # (kept as opened: a restart reads the same timers back)
        assert RoomSettings.model_validate(room.model_dump()).timers == room.timers


def test_the_api_lists_each_rulebooks_timers_and_a_room_says_its_own(server: Server) -> None:
    listed = httpx.get(f"{server.http}/api/rulebooks", timeout=10).json()
    for entry in listed:
        assert entry["timers"] == load(entry["id"]).timers.model_dump()
    for settings, timers in (
        ({}, rulebook_timers("werewolf")),
        ({"timer_scale": 0.1}, rulebook_timers("werewolf", 0.1)),
        ({"timers": "off"}, None),
        ({"timers": {"night": 9.0}}, {"night": 9.0, "day": None, "steps": {}}),
    ):
        created = open_room(server, rules="werewolf", players=8, **settings)
        lobby = httpx.get(f"{server.http}/api/rooms/{created['room']}", timeout=10).json()
        assert lobby["timers"] == timers, settings
        assert lobby["absent_bots"] is True
    names = list(NAMES[:3])
    created = open_room(server, rules="mafia-classic", players=3, mode="leader", names=names)
    lobby = httpx.get(f"{server.http}/api/rooms/{created['room']}", timeout=10).json()
    assert lobby["timers"] is None and lobby["absent_bots"] is False
    refused = httpx.post(
        f"{server.http}/api/rooms",
        json={"rules": "werewolf", "players": 8, "timers": "on"},
        timeout=10,
    )
    assert refused.status_code == 400 and refused.json()["error"] == "malformed"


@pytest.mark.parametrize("rules", RULES)
def test_a_default_room_shows_the_rulebooks_deadline(server: Server, rules: str) -> None:
    """The rulebook's timers as they are: the game's first step shows a deadline as
    far off as the rulebook's timer for it (its own, or its phase's)."""

    async def test() -> None:
        created = open_room(server, rules=rules, players=SIZES[rules], host_name="Ann")
        host = await Person(server, "Ann").start()
        try:
            await host.enter(created["room"], created["host_token"])
            assert (await host.ask({"type": "start", "fill": "heuristic"}))["type"] == "ack"
            view = await host.wait_for(lambda: next(iter(host.views()), None))
        finally:
            await host.leave()
        book = load(rules)
        spec = book.timers
        wakes = [e for e in view["events"] if e["kind"] == "wake"]
        if wakes:  # (the first night's first step)
            timer = spec.steps.get(wakes[-1]["data"]["step"], spec.night)
        else:  # (a game that begins with its first day)
            timer = spec.steps.get(book.day[0], spec.day)
        assert view["deadline"] is not None
        assert abs(view["deadline"] - view["time"] - timer) < 0.5, (rules, view, timer)

    asyncio.run(test())


# ---------------------------------------------------------------------- nobody acts
async def idle_room(server: Server, rules: str) -> tuple[list[Person], list[Person], Person]:
    """A room of ``rules`` whose people never act: played to its end by its timers and
    by the bots that take their seats. Half of them leave once it starts. The host's
    only act is ``start``."""
    size = SIZES[rules]
    created = open_room(
        server,
        rules=rules,
        players=size,
        host_name="Ann",
        timer_scale=SCALE,
        bot_delay=0.05,
        spectators=True,
        options={"lift_minimum": True} if rules == "werewolf" else {},
    )
    code = created["room"]
    host = await Person(server, "Ann").start()
    await host.enter(code, created["host_token"])
    people = [host]
    for name in NAMES[1:size]:
        person = await Person(server, name).start()
        await person.enter(code, name=name)
        people.append(person)
    watcher = await Person(server, "watcher").start()
    await watcher.send({"type": "watch", "room": code})
    watcher.listen()
    assert (await host.ask({"type": "start"}))["type"] == "ack"
    await watcher.wait_for(lambda: watcher.view is not None)
    leaving = people[size // 2 + 1 :]
    for person in leaving:
        await person.leave()
    staying = people[: size // 2 + 1]
    return staying, leaving, watcher


@pytest.mark.parametrize("rules", RULES)
def test_a_room_whose_players_never_act_finishes(server: Server, rules: str) -> None:
    async def test() -> None:
        staying, leaving, watcher = await idle_room(server, rules)
        try:
            await watcher.wait_for(lambda: watcher.view["finished"], timeout=120)
            lobby = await watcher.wait_for(
                lambda: watcher.lobby["status"] == "finished" and watcher.lobby
            )
            seats = lobby["seats"]
            # Those who left are played by bots once the grace ran out.
            assert all(seats[person.seat]["away"] for person in leaving), seats
            for person in staying:
                await person.wait_for(lambda p=person: p.view and p.view["finished"])
                views = person.views()
                # Every view of the game shows its step's deadline (but the end).
                assert all(v["deadline"] is not None for v in views if not v["finished"])
                assert not [f for f in person.frames if f["type"] == "error"]
            # Nobody acted but the bots that took the seats of absent people, and the
            # timers: no seat decided anything while its person was here (nobody
            # comes back), and no step was closed by hand.
            game = lobby["game"]
            url = f"{watcher.server.http}/api/games/{game}/scenario"
            scenario = httpx.get(url, timeout=10).json()
            names = [seat["name"] for seat in seats]
            actors = {line["actor"] for line in scenario["actions"]}
            acted = {names.index(actor) for actor in actors - {"leader"}}
            assert all(seats[seat]["away"] for seat in acted), (acted, seats)
            # (a werewolf pack that sleeps through its first night starves: the game
            # may end before a bot has anything to do)
            assert acted or rules == "werewolf", seats
            closes = [line for line in scenario["actions"] if line["actor"] == "leader"]
            assert closes  # (the timers')
        finally:
            for person in [*staying, watcher]:
                await person.leave()

    asyncio.run(test())
