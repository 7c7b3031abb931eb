"""Every prompt reaches its holder, dead or alive, and absent people get their seats
back, over the wire.

- A werewolf game played by people (WebSocket clients, one per seat, and a second
  connection of the Hunter's and of the future Captain's seat): the wolves eat the
  Hunter on the first night, the village elects a Captain and the wolves eat him on
  the second. The dead Hunter's connections, both, are shown his shot (``waiting``,
  with his death already in their view) and he shoots; the dead Captain's are shown
  his successor's appointment and he names one. The room has no timers: nothing but
  their decisions moves the game on.
- The same with both seats handed to bots before they die: the bots, reading their
  dead seats' views, shoot and appoint.
- Absent people: a person who lets two public steps run out is away (a bot plays his
  seat, and the lobby says so); a decision or a chat line of his by day gives it back
  at once, a night's does not (it would tell that he had a night step); one who
  leaves is away once the grace has run, and back when he connects again.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
from tests.server_harness import Server, moved_on
from tests.stall_harness import QUICK, Person

Frame = dict[str, Any]
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")
CARDS = {"werewolf": 2, "seer": 1, "hunter": 1, "villager": 4}


@pytest.fixture(scope="module")
def server(store_kind: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    started = Server(tmp_path_factory.mktemp("dead") / "lupus.db", limits=QUICK).start()
    try:
        yield started
    finally:
        started.stop()


class Table:
    """Eight people playing by a script (see the module docstring)."""

    def __init__(self, server: Server, bots: bool) -> None:
        self.server = server
        self.bots = bots  # the Hunter's and the Captain's seats are handed to bots
        self.people: list[Person] = []
        self.roles: dict[int, str] = {}
        self.captain: int | None = None  # the seat the village elects
        self.done = asyncio.Event()

    async def open(self) -> None:
        created = self.server.create(
            rules="werewolf",
            players=8,
            host_name="Ann",
            composition=CARDS,
            options={"captain": True},
            pace=0.05,
            bot_delay=0.05,
        )
        self.code = created["room"]
        host = await Person(self.server, "Ann").start()
        await host.enter(self.code, created["host_token"])
        self.people.append(host)
        for name in NAMES[1:]:
            person = await Person(self.server, name).start()
            await person.enter(self.code, name=name)
            self.people.append(person)
        assert (await host.ask({"type": "start"}))["type"] == "ack"
        for person in self.people:
            view = await person.wait_for(lambda p=person: p.view)
            dealt = [e for e in view["events"] if e["kind"] == "role_dealt"]
            self.roles[person.seat] = dealt[0]["data"]["role"]
        self.hunter = self.seat_of("hunter")
        self.wolves = [s for s, r in self.roles.items() if r == "werewolf"]
        # A second connection of the Hunter's seat (a second tab), reading too.
        self.tabs = {self.hunter: await self.second_tab(self.hunter)}
        if self.bots:
            await self.hand_over(self.hunter)

    def seat_of(self, role: str) -> int:
        return next(seat for seat, held in self.roles.items() if held == role)

    async def second_tab(self, seat: int) -> Person:
        tab = await Person(self.server, f"{NAMES[seat]}'s tab").start()
        token = self.people[seat].token
        assert token is not None
        await tab.enter(self.code, token)
        return tab

    async def hand_over(self, seat: int) -> None:
        answer = await self.people[0].ask({"type": "hand_over", "seat": seat})
        assert answer["type"] == "ack", answer

    def choose(self, person: Person, view: Frame) -> tuple[str, list[Any]] | None:
        """The script: what ``person`` does with the prompts of ``view``."""
        seat = person.seat
        prompts = {p["verb"]: [c["args"] for c in p["choices"]] for p in view["prompts"]}
        dead = {e["data"]["player"] for e in person.events if e["kind"] == "death"}
        alive = [s for s in range(8) if s not in dead]
        villagers = [s for s in alive if self.roles[s] == "villager"]

        def pick(verb: str, target: int | None) -> tuple[str, list[Any]] | None:
            if verb in prompts:
                if target is not None and [target] in prompts[verb]:
                    return verb, [target]
                return verb, prompts[verb][0]
            return None

        if "kill" in prompts:  # the wolves: the Hunter, then the Captain
            night = view["number"]
            return pick("kill", self.hunter if night == 1 else self.captain)
        if "inspect" in prompts:
            return pick("inspect", None)
        if "shoot" in prompts:  # (the dead Hunter, a person)
            return pick("shoot", villagers[-1] if villagers else None)
        if "elect" in prompts:
            if self.captain is None:
                self.captain = next(s for s in villagers if s not in self.tabs)
            if seat == self.captain:
                return pick("elect", self.seat_of("seer"))
            return pick("elect", self.captain)
        if "vote" in prompts:
            others = [s for s in villagers if s != self.captain and s != seat]
            return pick("vote", others[0] if others else None)
        if "appoint" in prompts:  # (the dead Captain, a person)
            return pick("appoint", None)
        if "decide" in prompts:
            return pick("decide", None)
        return None

    async def play(self, person: Person) -> None:
        """Answer the script's prompts until the Captain's successor is named."""
        answered: set[int] = set()
        while not self.done.is_set():
            view = person.view
            seat = person.seat
            held = person.lobby["seats"][seat] if person.lobby else None
            if (
                view is not None
                and view["waiting"]
                and view["state_id"] not in answered
                and not (held and held["bot"])
            ):
                chosen = self.choose(person, view)
                if chosen is not None:
                    answered.add(view["state_id"])
                    verb, args = chosen
                    message = {"type": "act", "verb": verb, "args": args}
                    reply = await person.ask({**message, "state_id": view["state_id"]})
                    assert reply["type"] == "ack" or moved_on(reply), reply
                    continue
            person.came.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(person.came.wait(), 0.5)

    async def run(self) -> None:
        players = [asyncio.create_task(self.play(p)) for p in self.people]
        try:
            await self.people[0].wait_for(self.elected, timeout=60)
            assert self.captain is not None
            self.tabs[self.captain] = await self.second_tab(self.captain)
            if self.bots:
                await self.hand_over(self.captain)
            await self.people[0].wait_for(self.succeeded, timeout=60)
        finally:
            self.done.set()
            await asyncio.gather(*players, return_exceptions=True)

    def elected(self) -> bool:
        events = self.people[0].events
        return any(e["kind"] == "captain" for e in events)

    def succeeded(self) -> bool:
        return any(
            e["kind"] == "no_successor"
            or (e["kind"] == "captain" and e["data"]["how"] != "elected")
            for e in self.people[0].events
        )

    async def close(self) -> None:
        for person in [*self.people, *self.tabs.values()]:
            await person.leave()


def first_view_with(person: Person, verb: str) -> tuple[Frame, list[Frame]] | None:
    """The first view of ``person`` that offered ``verb``, with his events then."""
    events: list[Frame] = []
    for frame in person.views():
        events = ([] if frame["from"] == 0 else events) + frame["events"]
        if any(p["verb"] == verb for p in frame["prompts"]):
            return frame, events
    return None


@pytest.mark.parametrize("bots", [False, True], ids=["people", "bots"])
def test_the_dead_hunter_and_captain_are_prompted_on_their_seats(
    server: Server, bots: bool
) -> None:
    async def test() -> None:
        table = Table(server, bots)
        await table.open()
        try:
            await table.run()
        finally:
            await table.close()
        captain = table.captain
        assert captain is not None
        events = table.people[0].events
        deaths = [e["data"] for e in events if e["kind"] == "death"]
        assert {"player": table.hunter, "cause": "werewolves"}.items() <= deaths[0].items()
        assert any(d["player"] == captain and d["cause"] == "werewolves" for d in deaths)
        shots = [e for e in events if e["kind"] in ("shot", "hunter_spares")]
        assert shots and shots[0]["data"]["player"] == table.hunter
        appointed = [e for e in events if e["kind"] == "captain" and e["data"]["how"] != "elected"]
        assert appointed, "the dead Captain named nobody"
        for seat, verb in ((table.hunter, "shoot"), (captain, "appoint")):
            for person in (table.people[seat], table.tabs[seat]):
                found = first_view_with(person, verb)
                assert found is not None, (NAMES[seat], verb)
                view, seen = found
                assert view["waiting"] is True
                dead = [e for e in seen if e["kind"] == "death" and e["data"]["player"] == seat]
                assert dead, "prompted before his death was shown"
        if bots:
            lobby = table.people[0].lobby
            assert lobby is not None
            assert lobby["seats"][table.hunter]["bot"] == "heuristic"
            assert lobby["seats"][captain]["bot"] == "heuristic"

    asyncio.run(test())


# ---------------------------------------------------------------------- absence
def test_an_absent_person_is_played_by_a_bot_until_he_is_back(server: Server) -> None:
    """mafia-classic, seven people who do nothing, short timers: Eve leaves and is away
    once the grace has run; the others are away once two public steps (two days'
    lynches) ran out without them; by day a chat line gives a seat back, and Eve's
    comes back when she connects again."""

    async def test() -> None:
        created = server.create(
            rules="mafia-classic",
            players=7,
            host_name="Ann",
            bot_delay=0.05,
            timers={"night": 0.4, "day": 0.6},
            options={"first_phase": "day"},
            spectators=True,
            absent_bots=True,
        )
        code = created["room"]
        host = await Person(server, "Ann").start()
        await host.enter(code, created["host_token"])
        people = [host]
        for name in NAMES[1:7]:
            person = await Person(server, name).start()
            await person.enter(code, name=name)
            people.append(person)
        eve = people[4]
        try:
            assert (await host.ask({"type": "start"}))["type"] == "ack"
            await host.wait_for(lambda: host.view is not None)
            seats = host.lobby["seats"]
            assert not any(seat["away"] for seat in seats)
            eve_token = eve.token
            assert eve_token is not None
            await eve.leave()
            await host.wait_for(lambda: host.lobby["seats"][4]["away"], timeout=5)
            assert host.lobby["seats"][4]["bot"] == "heuristic"
            assert host.lobby["seats"][4]["person"] is True
            # Two days' lynches later, those who stayed and did nothing are away too.
            staying = [p for p in people if p is not eve]

            def all_away() -> bool:
                seats = host.lobby["seats"]
                return all(seats[p.seat]["away"] for p in staying) or host.view["finished"]

            await host.wait_for(all_away, timeout=30)
            days = {v["number"] for v in host.views() if v["phase"] == "day"}
            assert host.view["finished"] or len(days) >= 2
            # By day, a chat line of a living one gives his seat back at once.
            await host.wait_for(
                lambda: host.view["phase"] == "day" or host.view["finished"], timeout=20
            )
            dead = {e["data"]["player"] for e in host.events if e["kind"] == "death"}
            living = [p for p in staying if p.seat not in dead]
            if not host.view["finished"] and living:
                back = living[-1]
                reply = await back.ask({"type": "chat", "text": "I am back"})
                if reply["type"] == "ack":  # (not if the night came meanwhile)
                    await host.wait_for(
                        lambda: not host.lobby["seats"][back.seat]["away"], timeout=5
                    )
                    assert host.lobby["seats"][back.seat]["bot"] is None
            # Eve comes back: her seat is hers at once.
            eve = await Person(server, "Eve").start()
            await eve.enter(code, eve_token)
            await host.wait_for(lambda: not host.lobby["seats"][4]["away"], timeout=5)
            assert host.lobby["seats"][4]["bot"] is None
        finally:
            for person in [*people, eve]:
                await person.leave()

    asyncio.run(test())
