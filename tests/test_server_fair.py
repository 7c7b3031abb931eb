"""No clock, frame or refusal tells a role: every night step of every rulebook, as
anyone outside it sees it over the wire, is the same whoever holds its card.

Tables of every rulebook are played by people (WebSocket clients, one per seat) whose
moves the test scripts so that each night step comes with its card held by a living
player, by a dead one (the holders are killed first) and, where the rules allow, by
nobody (a card among the Thief's two aside, his own too); with the night's pace, and
with a night timer. Plain villagers who never act at night, and a spectator, watch;
at every step's wake each of them asks what anyone may ask at no cost: a chat line, a
junk action answering its current view, one answering an old view.

For every night step, each watcher must have been sent exactly one frame in it (the
one showing its wake, nothing after the wake, no prompts, not waited for, a deadline
only with a timer and then its full one), and the answers given in it must be those
of a sleeper, computed from nothing but what he was shown; its length, measured on
the server's clock (the views' ``time``, when each step was shown), is at least the
step's minimum (never a step released early), and for a step nobody can act in, at
most a loose bound above (the machine's lateness). That canonical form does not
depend on the holder, so the frames, answers and lengths seen by everyone outside
are the same for a living, a dead and an absent holder; the test checks each of the
three was seen for every step that can have it. Exact equality of the lengths, free
of a loaded machine's jitter, is tested in-process (``tests/test_server_pacing.py``).

The checks never depend on the client's timing: a probe answered after the step's end
(its answer comes after the next step's frame, the server's order) is not counted for
the step, and a living holder slower than the step's minimum is allowed (a person who
takes longer shows, as at a table; a night timer hides even that).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

import httpx
import pytest
import websockets
from tests.server_harness import Player, Server, running

from lupus.engine.deal import Deal, composition
from lupus.families import deal, load
from lupus.server.pacing import minimum

Frame = dict[str, Any]

PACE = 0.15  # seconds: a step without a timer lasts 0.15 to 0.45 s
TIMER = 0.25  # the night timer, in the tables that have one
DAY = 0.25  # a day timer for maffia's steps that no decision ends (the defence)
DAY_STEPS = {"nominations": 2.0, "banishment": 20.0}
"""Maffia's day steps whose decisions shape the game: the nominations end only on their
timer, long enough for every seat's under load; the banishment ends at the last ballot.
(A shorter one closed before a loaded machine's ballots came, and the game went another
way than its plan.)"""
SLACK = 1.0  # how much later than its minimum a step nobody acts in may end
TOLERANCE = 2e-3  # the views' times are to the millisecond

AIM = ("kill", "claw", "shoot", "nominate", "vote", "token", "ballot")
MUST = ("kill", "claw", "shoot")  # a verb to aim even when no target is left
PASSIVE = ("pass", "abstain", "keep", "sleep")
SLEEPER = "at night you sleep: no talking"
DEALT = ("role_dealt", "characters_dealt")


@dataclass
class Plan:
    """One table: its cards, the deal wanted (a seed is found that deals it), who is
    killed first, and how many nights are watched."""

    rules: str
    players: int
    cards: dict[str, int]
    want: Callable[[Deal], bool]
    first: tuple[str, ...]  # the cards whose holders die first, in order
    nights: int
    options: dict[str, Any] = field(default_factory=dict)


def village(rules: str, **given: Any) -> dict[str, Plan]:
    """The tables of a werewolf-family rulebook: every card dealt and its holders
    killed; the Seer's and Witch's cards aside; the Thief's own and Cupid's; the
    Little Girl's."""
    cards = {
        "werewolf": 2,
        "seer": 1,
        "witch": 1,
        "little-girl": 1,
        "hunter": 1,
        "cupid": 1,
        "thief": 1,
        "villager": 6,
    }

    def aside(*wanted: str) -> Callable[[Deal], bool]:
        return lambda dealt: sorted(dealt.extra_cards) == sorted(wanted)

    return {
        f"{rules}-dead": Plan(
            rules, 12, cards, aside("villager", "villager"), ("seer", "witch", "little-girl"), 3
        ),
        f"{rules}-seer-witch-aside": Plan(
            rules, 12, cards, aside("seer", "witch"), ("little-girl",), 2, **given
        ),
        f"{rules}-thief-cupid-aside": Plan(
            rules, 12, cards, aside("thief", "cupid"), ("seer",), 1, **given
        ),
        f"{rules}-girl-aside": Plan(
            rules, 12, cards, aside("little-girl", "villager"), ("seer",), 2, **given
        ),
    }


MAFFIA = {"mafia": 2, "doctor": 1, "detective": 1, "couple": 2, "avenger": 1, "villager": 3}
PLANS: dict[str, dict[str, Plan]] = {
    "werewolf": village("werewolf", options={"lift_minimum": True}),
    "tit-albert": village("tit-albert"),
    "maffia": {
        # The Doctor murdered, the Detective banished: the Avenger (alive) wakes.
        "maffia-doctor-detective": Plan(
            "maffia", 10, MAFFIA, lambda d: True, ("doctor", "detective", "couple"), 3
        ),
        # The Couple murdered and banished; the Avenger murdered, then woken dead.
        "maffia-couple-avenger": Plan(
            "maffia", 10, MAFFIA, lambda d: True, ("couple", "avenger", "doctor"), 3
        ),
    },
    "mafia-classic": {
        "mafia-classic": Plan(
            "mafia-classic",
            7,
            {"mafia": 2, "villager": 5},
            lambda d: True,
            (),
            2,
            {"first_phase": "night"},
        )
    },
    "lupusburg": {"lupusburg": Plan("lupusburg", 5, {}, lambda d: True, ("thief",), 2)},
}
TIMED = ("werewolf-dead", "tit-albert-dead", "maffia-couple-avenger", "mafia-classic", "lupusburg")
"""The tables also played with a night timer."""

CARD_OF = {
    "lovers": "cupid",
    "little_girl": "little-girl",
    "werewolves": "werewolf",
}
COVERED = {
    "werewolf": {
        "thief": {"living", "aside"},
        "cupid": {"living", "aside"},
        "lovers": {"living", "aside"},
        "seer": {"living", "dead", "aside"},
        "little_girl": {"living", "dead", "aside"},
        "werewolves": {"living"},
        "witch": {"living", "dead", "aside"},
    },
    "maffia": {
        "mafia": {"living"},
        "doctor": {"living", "dead"},
        "detective": {"living", "dead"},
        "couple": {"living", "dead"},
        "avenger": {"living", "dead"},
    },
    "mafia-classic": {"mafia": {"living"}},
    "lupusburg": {"thief": {"living", "dead"}, "werewolf": {"living"}},
}
COVERED["tit-albert"] = COVERED["werewolf"]
"""For each night step, the holders it must be seen with."""


# ---------------------------------------------------------------------- the deal
@dataclass
class Dealt:
    seed: int
    deal: Deal
    pace: random.Random  # the server's draws for the game's night steps


def find_deal(plan: Plan) -> Dealt:
    """A room seed whose first game deals what the plan wants: the deal and the game's
    seed are drawn as the server's room draws them (checked against what the seats
    are told)."""
    book = load(plan.rules)
    counts = plan.cards or composition(book, plan.players)
    for seed in range(20_000):
        rng = random.Random(f"{seed}-1")
        dealt = deal(book, plan.players, counts, rng, dict(plan.options))
        if plan.want(dealt):
            return Dealt(seed, dealt, random.Random(f"{rng.getrandbits(63)}-pace"))
    raise AssertionError(f"no seed deals {plan}")


# ---------------------------------------------------------------------- the seats
class Seat(Player):
    """A person at the table, who answers his prompts at once as the plan says; a
    watcher also probes every night step as it is shown."""

    def __init__(self, server: Server, table: Table, watcher: bool = False) -> None:
        super().__init__(server)
        self.table = table
        self.watcher = watcher
        self.at: list[float] = []  # when each frame arrived (the test's clock)
        self.answered: set[tuple[object, ...]] = set()
        self.probes: dict[int, tuple[int, str]] = {}  # id -> (wake frame's index, kind)
        self.chat_tokens, self.chat_checked = 4.0, time.monotonic()

    async def connect(self) -> Seat:
        # (no bound on the frames left unread: a table closes its seats one after the
        # other, each close a lobby frame to the others, which no longer read)
        self.socket = await websockets.connect(self.server.ws, max_size=2**24, max_queue=None)
        return self

    async def run(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            while not self.table.done.is_set():
                try:
                    frame = await self.receive(0.2)
                except TimeoutError:
                    continue
                self.at.append(time.monotonic())
                if frame["type"] == "view":
                    await self.seen(frame)

    async def seen(self, frame: Frame) -> None:
        table = self.table
        if self.watcher:
            wakes = [e for e in frame["events"] if night_mark(e) and e["kind"] == "wake"]
            if wakes:
                await self.probe(len(self.frames) - 1)
            dawns = [e for e in frame["events"] if night_mark(e) and e["kind"] == "dawn"]
            if any(e["data"]["number"] >= table.plan.nights for e in dawns) or frame["finished"]:
                table.done.set()
        if not (frame["waiting"] and frame["prompts"]):
            return
        key = (frame["state_id"], json.dumps(frame["prompts"]))
        if key in self.answered:
            return
        self.answered.add(key)
        verb, args = table.choose(self.seat, frame["prompts"])
        await self.send({"type": "act", "verb": verb, "args": args, "state_id": frame["state_id"]})

    async def probe(self, index: int) -> None:
        """What anyone outside a step may ask (a chat line while the chat's own rate
        allows one, two junk actions)."""
        assert self.view is not None
        junk = {"type": "act", "verb": "inspect", "args": [0]}
        now = time.monotonic()
        self.chat_tokens = min(4.0, self.chat_tokens + (now - self.chat_checked) * 0.8)
        self.chat_checked = now
        sent = []
        if self.chat_tokens >= 1:
            self.chat_tokens -= 1
            sent.append(("chat", {"type": "chat", "text": "anyone there?"}))
        sent.append(("current", {**junk, "state_id": self.view["state_id"]}))
        sent.append(("old", {**junk, "state_id": 0}))
        for kind, message in sent:
            self.probes[await self.send(message)] = (index, kind)


@dataclass
class Observed:
    """One night step as one watcher saw it."""

    step: str
    night: int
    place: int  # the wake's place among the watcher's events
    lasted: float  # on the server's clock
    inside: list[Frame]  # every frame from the wake's up to the next night event's
    answers: dict[str, tuple[str, str]]


class Table:
    """A room of people playing one plan (see the module docstring)."""

    def __init__(self, server: Server, name: str, plan: Plan, timer: float | None) -> None:
        self.server = server
        self.name = name
        self.plan = plan
        self.timer = timer
        self.book = load(plan.rules)
        self.dealt = find_deal(plan)
        self.done = asyncio.Event()
        self.lupusburg = plan.rules == "lupusburg"
        roles = self.cards_of()
        firsts = [s for card in plan.first for s, held in roles.items() if card in held]
        plain = "townsfolk" if self.lupusburg else "villager"
        pack = {s for s, held in roles.items() if set(held) & {"werewolf", "mafia"}}
        sleepers = [s for s, held in roles.items() if set(held) == {plain}]
        self.watchers = [s for s in sleepers if s not in firsts][:3]
        assert len(self.watchers) == 3, (name, roles)
        rest = [s for s in sleepers if s not in firsts and s not in self.watchers]
        self.targets = [*firsts, *rest]  # killed in this order
        self.avoid = {*self.watchers, *self.targets, *pack}  # (Cupid's lovers, a Doctor's)
        self.seats: list[Seat] = []
        self.spectator: Seat | None = None

    def cards_of(self) -> dict[int, tuple[str, ...]]:
        dealt = self.dealt.deal
        if self.lupusburg:
            return {seat: tuple(pair) for seat, pair in enumerate(dealt.characters)}
        return {seat: (role,) for seat, role in enumerate(dealt.roles)}

    # ------------------------------------------------------------------ moves
    def aimed(self, seat: int | None) -> list[tuple[int, ...]]:
        """What the table aims at, in order: the targets, as seats or as houses."""
        found = [t for t in self.targets if t != seat]
        if self.lupusburg:
            return [(2 * t + h,) for t in found for h in (0, 1)]
        return [(t,) for t in found]

    def spared(self, args: list[object]) -> bool:
        """Whether a choice leaves the watchers, the targets and the pack alone."""
        seats = {a // 2 if self.lupusburg else a for a in args if isinstance(a, int)}
        return not seats & self.avoid

    def choose(self, seat: int | None, prompts: list[Frame]) -> tuple[str, list[object]]:
        by_verb = {prompt["verb"]: prompt for prompt in prompts}
        for verb in AIM:
            if verb in by_verb:
                choices = [tuple(c["args"]) for c in by_verb[verb]["choices"]]
                for target in self.aimed(seat):
                    if target in choices:
                        return verb, list(target)
        for verb in PASSIVE:
            if verb in by_verb and [] in [c["args"] for c in by_verb[verb]["choices"]]:
                return verb, []
        for prompt in prompts:
            for choice in prompt["choices"]:
                if self.spared(choice["args"]):
                    return prompt["verb"], choice["args"]
        watchers = set(self.watchers)
        for prompt in prompts:  # (the pack must kill someone: never a watcher)
            for choice in prompt["choices"]:
                args = choice["args"]
                if not {a // 2 if self.lupusburg else a for a in args} & watchers:
                    return prompt["verb"], args
        return prompts[0]["verb"], prompts[0]["choices"][0]["args"]

    # ------------------------------------------------------------------ playing
    async def play(self) -> None:
        plan = self.plan
        timers: dict[str, Any] = {}
        if self.timer is not None:
            timers["night"] = self.timer
        if plan.rules == "maffia":
            timers["day"] = DAY
            timers["steps"] = DAY_STEPS
        created = self.server.create(
            rules=plan.rules,
            players=plan.players,
            host_name="P0",
            seed=self.dealt.seed,
            pace=PACE,
            bot_delay=0,
            timers=timers,
            spectators=True,
            options=plan.options,
            **({"composition": plan.cards} if plan.cards else {}),
        )
        room = created["room"]
        self.seats = [Seat(self.server, self, s in self.watchers) for s in range(plan.players)]
        self.spectator = Seat(self.server, self, watcher=True)
        everyone = [*self.seats, self.spectator]
        try:
            for seat in everyone:
                await seat.connect()
            await self.seats[0].rejoin(room, created["host_token"])
            for number, seat in enumerate(self.seats[1:], 1):
                await seat.join(room, f"P{number}")
            await self.spectator.send({"type": "watch", "room": room})
            await self.spectator.until("welcome")
            await self.seats[0].send({"type": "start"})
            await asyncio.wait_for(asyncio.gather(*(seat.run() for seat in everyone)), 120)
            for seat in everyone:  # (what a slower task had not read yet)
                with contextlib.suppress(TimeoutError, websockets.ConnectionClosed):
                    while True:
                        await seat.receive(0.05)
        finally:
            self.done.set()
            for seat in everyone:
                with contextlib.suppress(Exception):
                    await seat.close()
        # The deal found is the one the room dealt: each seat was told its cards.
        dealt = self.cards_of()
        for seat in self.seats:
            dealt_to = [e["data"] for e in seat.events if e["kind"] in DEALT]
            kinds = Counter(frame["type"] for frame in seat.frames)
            assert dealt_to, (self.name, seat.seat, kinds, seat.frames[-3:])
            told = dealt_to[0]
            mine = (told["role"],) if "role" in told else tuple(told["characters"].values())
            assert sorted(mine) == sorted(dealt[seat.seat or 0]), (self.name, seat.seat, mine)

    # ------------------------------------------------------------------ what was seen
    def observed(self, watcher: Seat) -> list[Observed]:
        frames = watcher.frames
        views = [(index, frame) for index, frame in enumerate(frames) if frame["type"] == "view"]
        marks = []  # (event, its place, the frame's index)
        for index, frame in views:
            for place, event in enumerate(frame["events"], start=frame["from"]):
                if night_mark(event):
                    marks.append((event, place, index))
        found = []
        for (event, place, start), (_, _, end) in pairwise(marks):
            if event["kind"] != "wake":
                continue
            answers = {}
            for frame in frames[start:end]:
                if frame["type"] == "error" and frame["id"] in watcher.probes:
                    index, kind = watcher.probes[frame["id"]]
                    if index == start:
                        answers[kind] = (frame["code"], frame["message"])
            lasted = frames[end]["time"] - frames[start]["time"]
            step = event["data"]["step"]
            found.append(Observed(step, event["number"], place, lasted, frames[start:end], answers))
        return found

    def holder(self, watcher: Seat, seen: Observed) -> str:
        """Whether the card of a step was held by a living player, by dead ones only,
        or by nobody, when its wake was shown."""
        card = CARD_OF.get(seen.step, seen.step)
        if self.lupusburg:
            card = seen.step
        took = {}
        for seat in self.seats:
            for event in seat.events:
                if event["kind"] == "role_taken":
                    took[event["data"]["player"]] = event["data"]["role"]
        cards = self.cards_of()
        if seen.step != "thief":
            cards.update({seat: (role,) for seat, role in took.items()})
        holders = {seat for seat, held in cards.items() if card in held}
        if not holders:
            return "aside"
        before = watcher.events[: seen.place]
        dead = {e["data"]["player"] for e in before if e["kind"] == "death"}
        lost = Counter(e["data"]["player"] for e in before if e["kind"] == "character_dies")
        dead |= {seat for seat, count in lost.items() if count == 2}
        return "dead" if holders <= dead else "living"

    def check(self, coverage: Counter[tuple[str, str]]) -> None:
        """Every step as each watcher saw it has the canonical form (the module
        docstring); the holders seen are counted into ``coverage``."""
        wakes = [minimum(PACE, self.dealt.pace) for _ in range(200)]
        assert self.spectator is not None
        watchers = [self.seats[s] for s in self.watchers]
        for watcher in [*watchers, self.spectator]:
            seen = self.observed(watcher)
            assert len(seen) >= self.plan.nights, (self.name, len(seen))
            for number, step in enumerate(seen):
                least = self.timer if self.timer is not None else wakes[number]
                holder = self.holder(watchers[0], step)
                coverage[step.step, holder] += watcher is watchers[0]
                where = (self.name, self.timer, watcher.seat, step.step, step.night, holder)
                self.canonical(watcher, step, least, holder, where)

    def canonical(
        self, watcher: Seat, seen: Observed, least: float, holder: str, where: object
    ) -> None:
        inside = seen.inside
        if inside[-1]["type"] == "lobby" and inside[-1]["status"] == "finished":
            inside = inside[:-1]  # (the game's end: the lobby says it with the last view)
        views = [frame for frame in inside if frame["type"] == "view"]
        others = [f for f in inside if f["type"] not in ("view", "error", "ack")]
        assert len(views) == 1 and not others, (where, inside)
        (frame,) = views
        kinds = [event["kind"] for event in frame["events"]]
        assert kinds[-1] == "wake" and frame["events"][-1]["data"]["step"] == seen.step, where
        assert frame["prompts"] == [] and frame["waiting"] is False, where
        if self.timer is None:
            assert frame["deadline"] is None, where
        else:
            assert abs(frame["deadline"] - (frame["time"] + self.timer)) < TOLERANCE, where
        assert seen.lasted >= least - TOLERANCE, (where, seen.lasted, least)
        if holder != "living":  # (a person may take longer: a test client too)
            assert seen.lasted <= least + SLACK, (where, seen.lasted, least)
        if watcher.seat is None:
            expected = {
                "chat": ("muted", "spectators watch in silence during a game"),
                "current": ("not_allowed", "spectators watch"),
                "old": ("not_allowed", "spectators watch"),
            }
        else:
            expected = {
                "chat": ("muted", SLEEPER),
                "current": ("illegal", f"P{watcher.seat} has nothing to do now"),
                "old": ("stale", "the game moved on: look again and choose again"),
            }
        for kind, answer in seen.answers.items():
            assert answer == expected[kind], (where, kind, answer)


def night_mark(event: Frame) -> bool:
    """A public night event but nightfall: a step's wake, the dawn, what follows it."""
    return event["audience"] is None and event["phase"] == "night" and event["kind"] != "night"


# ---------------------------------------------------------------------- the tests
@pytest.fixture(scope="module")
def server(store_kind: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("fair") / "lupus.db") as started:
        yield started


@pytest.mark.parametrize("rules", sorted(PLANS))
def test_every_night_step_looks_the_same_whoever_holds_its_card(server: Server, rules: str) -> None:
    tables = [Table(server, name, plan, None) for name, plan in PLANS[rules].items()]
    tables += [
        Table(server, name, plan, TIMER) for name, plan in PLANS[rules].items() if name in TIMED
    ]

    async def play() -> None:
        await asyncio.gather(*(table.play() for table in tables))

    asyncio.run(play())
    coverage: Counter[tuple[str, str]] = Counter()
    for table in tables:
        table.check(coverage)
    answered: Counter[str] = Counter()  # how many steps each kind of probe was answered in
    for table in tables:
        for watcher in [table.seats[s] for s in table.watchers]:
            for seen in table.observed(watcher):
                answered.update(seen.answers.keys())
    assert all(answered[kind] for kind in ("chat", "current", "old")), answered
    for step, holders in COVERED[rules].items():
        for holder in holders:
            assert coverage[step, holder], (rules, step, holder, sorted(coverage.items()))


def test_a_game_ended_in_a_held_step_is_not_over_until_shown(server: Server) -> None:
    """The game ends at its first dawn, which the night's pacing holds back: until the
    dawn is shown, the HTTP lobby says the game is being played (no result), the
    finished game's scenario (every card) is not given, and ``again`` is refused; then
    all of it is. (Each answer is checked against what was shown when it was given:
    one that came after the dawn's ``time``, on a slow machine, is not counted.)"""
    created = server.create(
        rules="mafia-classic",
        players=3,
        host_name="Ann",
        pace=2.0,
        bot_delay=0,
        options={"first_phase": "night"},
    )
    room = created["room"]
    answers: list[tuple[float, str, object]] = []  # (when it came, what, the answer)

    def asked(what: str, answer: object) -> None:
        answers.append((time.time(), what, answer))

    def lobby() -> Frame:
        return dict(httpx.get(f"{server.http}/api/rooms/{room}", timeout=10).json())

    def scenario(game: str) -> int:
        return httpx.get(f"{server.http}/api/games/{game}/scenario", timeout=10).status_code

    async def test() -> None:
        ann = await Player(server).connect()
        try:
            await ann.rejoin(room, created["host_token"])
            await ann.answer(await ann.send({"type": "start", "fill": "heuristic"}))
            while ann.view is None:
                await ann.receive()
            if ann.view["prompts"]:  # Ann holds the mafia's card: she kills a bot
                kill = {"type": "act", "verb": "kill", "args": [1]}
                await ann.answer(await ann.send({**kill, "state_id": ann.view["state_id"]}))
            await asyncio.sleep(0.2)  # (the bot has decided: the dawn is held back)
            game = lobby()["game"]
            for _ in range(3):
                shown = lobby()
                asked("lobby", (shown["status"], shown["results"]))
                asked("scenario", scenario(game))
                reply = await ann.answer(await ann.send({"type": "again"}))
                asked("again", (reply["type"], reply.get("code")))
                if reply["type"] == "ack":
                    break  # (the dawn was shown meanwhile, on a slow machine: back in the lobby)
            while not ann.view["finished"]:
                await ann.receive()
            end = ann.view["time"]
            held = [(what, answer) for at, what, answer in answers if at < end]
            assert held, "every answer came after the dawn: a very slow machine"
            for what, answer in held:
                assert (
                    answer
                    == {
                        "lobby": ("playing", []),
                        "scenario": 404,
                        "again": ("error", "not_allowed"),
                    }[what]
                ), (what, answer)
            shown = lobby()
            assert scenario(game) == 200
            if answers[-1][1:] == ("again", ("ack", None)):
                assert (shown["status"], len(shown["results"])) == ("lobby", 1)
                return
            assert (shown["status"], len(shown["results"])) == ("finished", 1)
            reply = await ann.answer(await ann.send({"type": "again"}))
            assert reply["type"] == "ack"
        finally:
            await ann.close()

    asyncio.run(test())
