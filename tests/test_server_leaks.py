"""Nothing secret leaves the server: every frame each client received during bot-played
games, checked against the engine's view of its seat.

Rooms of every rulebook are played to the end, then again ("play again"), by people
(WebSocket clients that answer their prompts at random, chat, and probe with actions
that are not theirs; one leaves mid-game and comes back with its token), bots in the
other seats, and spectators (one from the lobby, one arriving mid-game); and a
game-leader room of each rulebook, whose leader answers for every seat, with a
spectator. Each finished game is downloaded (``GET /api/games/{id}/scenario``) and
replayed in-process; then, for every connection:

- views: the events received, merged frame after frame, are exactly the engine's view
  of the seat (the public view for a spectator), in order, nothing more and nothing
  less; every event's audience is public or the seat alone; every secret fact received
  (a role, a Lupusburg character, chest, coin or bet) is one the seat's engine view
  tells; its own part of the board (``own``: Lupusburg's) is what the events it received
  tell its family's reader, and tells no secret fact they do not; the lines are what an
  in-process ``Narrator`` tells of the same events; each frame is the seat's view at
  some point of the game (its state id, events, phase, prompts with their labels,
  whether it is waited for, and for a game leader alone each seat's prompts), or a
  view held back by the night's pacing (the events up to a step's wake, nothing to
  decide);
- every other frame (welcome, lobby, chat, ack, error, pong) has exactly its documented
  fields; the lobby says only the room's public settings and seats (and which is the
  receiver's); no error names a card but the receiver's own; a chat line is one a
  client sent, and a pack's line reaches only seats the pack was told to, the dead's
  only the dead and the leader;
- no frame, HTTP answer or log line carries another client's token or any digest.

The checks are on what was received, not on timing: a view held back for a while (fair
timing of night steps) is fine, as long as what finally arrived is the seat's view.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args

import httpx
import pytest
from tests.server_harness import Player, Server, running

from lupus import scenario as sc
from lupus.engine.deal import composition
from lupus.engine.event_json import to_json
from lupus.engine.game import Game
from lupus.engine.model import LEADER, Prompt
from lupus.families import family_of, load
from lupus.narration import Narrator
from lupus.rulebooks import available
from lupus.rulebooks.schema import Rulebook
from lupus.server import protocol
from lupus.server.protocol import MAX_CHAT, MAX_FRAME, VERSION, Code
from lupus.village.family import house_rules

PACE = 0.03  # seconds a night step lasts at least (held views do happen, briefly)
DAY = 0.6  # the day timer: closes the open-ended day steps (nominations...)
PACK = 0.5  # the pack's step timer: a pack of bots and a person may never agree
BOT_DELAY = 0.01  # (with none, a bot that votes again at once leaves a person no turn)
GAMES = 3  # games per room: the first, then "play again"
CHAT = {"night": 0.7, "day": 0.15, None: 0.03}  # chance to chat on a frame that asks
# something at night (the pack's channel), by day, or on any other frame
PROBE = 0.15  # chance to try an action that is not one's own first

TABLES: dict[str, list[dict[str, Any]]] = {
    "werewolf": [
        {
            "players": 9,
            "composition": {
                "werewolf": 2,
                "seer": 1,
                "witch": 1,
                "hunter": 1,
                "cupid": 1,
                "thief": 1,
                "little-girl": 1,
                "villager": 3,
            },
            "options": {"captain": True},
        },
        {"players": 8},
    ],
    "tit-albert": [
        {"players": 10, "options": {"captain": True}},
        {
            "players": 7,
            "composition": {
                "werewolf": 2,
                "seer": 1,
                "thief": 1,
                "little-girl": 1,
                "cupid": 1,
                "villager": 3,
            },
        },
    ],
    "maffia": [{"players": 12, "lang": "en"}, {"players": 9}],
    "mafia-classic": [{"players": 7}, {"players": 11, "options": {"first_phase": "night"}}],
    "lupusburg": [{"players": 6}, {"players": 4}],
}
"""Two tables per rulebook (every role of it in one of them, both languages of maffia),
played by people and bots; and a game-leader table of each (``leader_table``)."""

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu")

CODES = set(get_args(Code))
FIELDS = {
    "welcome": {"type", "version", "room", "seat", "host", "token", "id"},
    "lobby": {
        "type",
        "you",
        "host",
        "room",
        "rules",
        "mode",
        "players",
        "composition",
        "options",
        "lang",
        "status",
        "number",
        "game",
        "host_seat",
        "seatless_creator",
        "seeded",
        "spectators",
        "table",
        "narrator",
        "timers",
        "absent_bots",
        "ai",
        "allow_export",
        "results",
        "seats",
    },
    "view": {
        "type",
        "game",
        "seat",
        "phase",
        "number",
        "state_id",
        "finished",
        "waiting",
        "from",
        "events",
        "lines",
        "spoken",
        "told",
        "prompts",
        "table",
        "deadline",
        "time",
        "public",
        "own",
    },
    "chat": {"type", "channel", "seat", "from", "text", "time"},
    "ack": {"type", "id"},
    "pong": {"type", "id"},
    "error": {"type", "code", "message", "reason", "fields", "id"},
}
"""Every frame a server sends, with exactly its fields (docs/protocol.md)."""

NOT_ASKED: tuple[object, ...] = (False, (), ())  # not waited for, no prompts, no table

SAID = re.compile(r"^(?P<who>.+) says hello (?P<count>\d+) (?:in the lobby|in game (?P<game>\d+))$")


def default_tables(book: Rulebook) -> list[dict[str, Any]]:
    """A rulebook added later: its smallest recommended table (under the house rule
    that lifts its minimum, if that size is below it)."""
    players = int(next(iter(book.compositions)))
    return [{"players": players, "options": lifted(book, players)}]


def leader_table(book: Rulebook) -> dict[str, Any]:
    """A game-leader room: the seeds' table of cards, the leader's device alone."""
    players = int(next(iter(book.compositions)))
    options = lifted(book, players)
    return {
        "players": players,
        "mode": "leader",
        "names": list(NAMES[:players]),
        "options": options,
    }


def lifted(book: Rulebook, players: int) -> dict[str, Any]:
    return dict(house_rules(book, players, book.compositions[str(players)]))


# ---------------------------------------------------------------------- the clients
@dataclass
class Table:
    """One room as played: its settings, its people, what was said and given."""

    rules: str
    settings: dict[str, Any]
    names: list[str] = field(default_factory=list)  # each seat's
    bots: list[str | None] = field(default_factory=list)  # each seat's bot, if any
    code: str = ""
    lang: str = ""
    conns: list[Conn] = field(default_factory=list)
    games: list[str] = field(default_factory=list)
    tokens: dict[str, int | None] = field(default_factory=dict)  # token -> seat
    verbs: set[str] = field(default_factory=set)  # every verb any prompt offered
    said: set[str] = field(default_factory=set)  # every chat line sent
    probes: int = 0


class Conn(Player):
    """One connection: a person (a seat) or a spectator, recording every frame."""

    def __init__(self, server: Server, table: Table, who: str, rng: random.Random) -> None:
        super().__init__(server, rng)
        self.table = table
        self.who = who  # a person's name, or "a watcher"
        self.person = False  # a seat's
        self.leader = False  # the game leader's
        self.left_in: str | None = None  # the game this connection left before its end
        self.lang: str | None = None
        self.handled = 0  # frames already looked at (for chatting)
        self.talked = 0

    async def receive(self, timeout: float = 10.0) -> dict[str, Any]:
        frame = await super().receive(timeout)
        if frame["type"] == "view":  # (checked in full after the games; this one at once)
            assert frame["seat"] == self.seat, f"{self.who} was sent a view of another seat"
        return frame

    async def enter(self, message: dict[str, Any]) -> dict[str, Any]:
        ref = await self.send(message)
        welcome = await self.until("welcome")
        assert welcome["id"] == ref, welcome
        if welcome["token"] is not None:
            self.table.tokens[welcome["token"]] = welcome["seat"]
        self.person = welcome["seat"] is not None and welcome["seat"] >= 0
        self.leader = welcome["seat"] == LEADER
        return welcome

    async def command(self, message: dict[str, Any]) -> None:
        reply = await self.answer(await self.send(message))
        while reply["type"] == "error" and reply["code"] == "slow_down":
            await asyncio.sleep(0.5)
            reply = await self.answer(await self.send(message))
        assert reply["type"] == "ack", reply

    async def chat(self, where: str) -> None:
        self.talked += 1
        text = f"{self.who} says hello {self.talked} {where}"
        self.table.said.add(text)
        await self.send({"type": "chat", "text": text})  # (its answer is read later)

    async def play_game(self, after: str | None, leave_after: int | None = None) -> None:
        """Frames until a view of a game other than ``after``, then play it to its end
        (or leave after ``leave_after`` of its views)."""
        while self.view is None or self.view["game"] == after:
            await self.receive(30)
        game = self.view["game"]
        where = f"in game {self.table.games.index(game)}"
        views = 0
        while not self.view["finished"]:
            for frame in self.frames[self.handled :]:
                if frame["type"] != "view":
                    continue
                views += 1
                asked = frame["phase"] if frame["prompts"] and frame["waiting"] else None
                if self.rng.random() < CHAT.get(asked, CHAT["day"]):
                    await self.chat(where)
            self.handled = len(self.frames)
            if leave_after is not None and views >= leave_after:
                self.left_in = game
                return
            view = self.view
            if self.person and view["waiting"] and view["prompts"]:
                for prompt in view["prompts"]:
                    self.table.verbs.add(prompt["verb"])
                if self.rng.random() < PROBE:
                    await self.probe(view)
                    continue  # (the view may have changed meanwhile: look again)
                await self.act(view)
            elif self.leader and view["table"]:
                if self.rng.random() < PROBE:
                    await self.probe(view)
                    continue
                await self.act_for_table(view)
            else:
                await self.receive(30)
        await self.ping()
        self.handled = len(self.frames)

    async def ping(self) -> None:
        """A ping answered: everything this client sent before was handled."""
        while True:
            ref = await self.send({"type": "ping"})
            reply = await self.receive()
            while reply["type"] not in ("pong", "error") or reply["id"] != ref:
                reply = await self.receive()
            if reply["type"] == "pong":
                return
            assert reply["code"] == "slow_down", reply
            await asyncio.sleep(0.5)

    async def act(self, view: dict[str, Any], seat: int | None = None) -> None:
        prompt = self.rng.choice(view["prompts"])
        choice = self.rng.choice(prompt["choices"])
        seen = len(self.frames)
        message = {"type": "act", "verb": prompt["verb"], "args": choice["args"]}
        if seat is not None:
            message["seat"] = seat
        reply = await self.answer(await self.send({**message, "state_id": view["state_id"]}))
        if reply["type"] == "ack":
            return
        # A bot, a timer or the pacing moved the game on, or ended it: look again. (A
        # step a timer closed without an event this seat sees leaves its state id as it
        # was: the action is then refused as illegal, not stale.)
        assert reply["code"] in ("stale", "illegal", "slow_down", "not_allowed"), reply
        if reply["code"] == "slow_down":
            await asyncio.sleep(0.2)
        elif len(self.frames) == seen + 1:
            await self.receive(30)

    async def act_for_table(self, view: dict[str, Any]) -> None:
        """The game leader answers for a seat, as the table points."""
        entry = self.rng.choice(view["table"])
        await self.act({**view, "prompts": entry["prompts"]}, seat=entry["seat"])

    async def probe(self, view: dict[str, Any]) -> None:
        """An action this seat was not offered: another role's verb, a choice for
        another seat, a close (host only). Refused, saying nothing about others."""
        self.table.probes += 1
        mine = {prompt["verb"] for prompt in view["prompts"]}
        others = sorted(self.table.verbs - mine) or ["inspect"]
        seats = len(self.table.names) + 2
        kind = self.rng.randrange(3)
        if kind == 0:
            verb, args = self.rng.choice(others), [self.rng.randrange(seats)]
            message = {"type": "act", "verb": verb, "args": args, "state_id": view["state_id"]}
            if self.leader:
                message["seat"] = self.rng.randrange(seats)
        elif kind == 1:
            prompt = (view["table"][0]["prompts"] if self.leader else view["prompts"])[0]
            args = prompt["choices"][0]["args"]
            message = {"type": "act", "verb": prompt["verb"], "args": args}
            message |= {"state_id": view["state_id"], "seat": self.rng.randrange(seats)}
        else:
            message = {"type": "close", "state_id": view["state_id"]}
        reply = await self.answer(await self.send(message))
        # (a host's close is his right: it closes the step)
        expected = ("illegal", "stale", "not_allowed", "not_host", "slow_down")
        assert reply["type"] == "ack" or reply["code"] in expected, (message, reply)


async def play_table(
    servers: Sequence[Server], rules: str, settings: dict[str, Any], seed: int
) -> Table:
    """A room played GAMES times by the host (Ann), Bob (who leaves and comes back in
    the first game), Cy (in English where the rulebook has another language too), bots
    in the other seats, a spectator from the lobby and one arriving mid-game. With
    several servers (processes of one database), the room is made on the first and the
    connections go to each in turn (Bob comes back through another)."""
    server = servers[0]
    book = load(rules)
    players = settings["players"]
    names = [*NAMES[:3], *(f"Bot {seat + 1}" for seat in range(3, players))]
    bots = [None, None, None, *(("random", "heuristic")[seat % 2] for seat in range(3, players))]
    table = Table(rules, settings, names, bots)
    timers = {"day": DAY, "steps": dict.fromkeys(family_of(book).pack_steps(), PACK)}
    created = server.create(
        rules=rules,
        host_name="Ann",
        bot_delay=BOT_DELAY,
        pace=PACE,
        timers=timers,
        seed=seed,
        spectators=True,
        **settings,
    )
    table.code = room = created["room"]
    table.lang = settings.get("lang") or book.language
    table.tokens[created["host_token"]] = created["host_seat"]
    rng = random.Random(seed)

    def conn(who: str) -> Conn:
        through = servers[len(table.conns) % len(servers)]
        made = Conn(through, table, who, random.Random(rng.random()))
        table.conns.append(made)
        return made

    host, bob, cy, watcher = conn("Ann"), conn("Bob"), conn("Cy"), conn("a watcher")
    try:
        for each in (host, bob, cy, watcher):
            await each.connect()
        assert (await host.enter({"type": "rejoin", "room": room, "token": created["host_token"]}))[
            "seat"
        ] == 0
        assert (await bob.enter({"type": "join", "room": room, "name": "Bob"}))["seat"] == 1
        other = [lang for lang in book.languages if lang != table.lang]
        cy.lang = other[0] if other else None
        joined = await cy.enter({"type": "join", "room": room, "name": "Cy", "lang": cy.lang})
        assert joined["seat"] == 2
        assert (await watcher.enter({"type": "watch", "room": room}))["seat"] is None
        await host.chat("in the lobby")
        for seat in range(3, players):
            await host.command({"type": "add_bot", "kind": bots[seat], "seat": seat})
        await host.command({"type": "start"})
        while host.view is None:
            await host.receive(30)
        people = [host, bob, cy, watcher]
        last: str | None = None
        async with httpx.AsyncClient(base_url=server.http) as http:
            for number in range(GAMES):
                if number:
                    await host.command({"type": "again"})  # (back to the lobby)
                    await host.command({"type": "start"})
                    while host.view is None or host.view["game"] == last:
                        await host.receive(30)
                game = host.view["game"] if host.view else None
                assert game is not None and game != last
                table.games.append(game)
                # A running game's scenario holds every card: it is not given. (On a
                # loaded machine its timers may have played it out by now: then its
                # room says so, and the scenario is a finished game's.)
                running_game = await http.get(f"/api/games/{game}/scenario")
                if running_game.status_code != 404:
                    shown = (await http.get(f"/api/rooms/{room}")).json()
                    assert shown["status"] == "finished" and shown["game"] == game, shown
                    assert running_game.status_code == 200, running_game.text
                if number == 0:
                    plays = [each.play_game(last) for each in people if each is not bob]
                    plays.append(leave_and_come_back(bob, conn("Bob"), room))
                    plays.append(late(conn("a late watcher"), room))
                else:
                    plays = [each.play_game(last) for each in people]
                await asyncio.gather(*plays)
                if number == 0:
                    bob = table.conns[-2]
                    people = [host, bob, cy, watcher, table.conns[-1]]
                last = game
    finally:
        for each in table.conns:
            with contextlib.suppress(Exception):
                await each.close()
    return table


async def play_leader_table(
    servers: Sequence[Server], rules: str, settings: dict[str, Any], seed: int
) -> Table:
    """A game-leader room played GAMES times by its leader, answering for every seat
    at random, watched by a spectator (through the last of the servers)."""
    server = servers[0]
    book = load(rules)
    table = Table(rules, settings, list(settings["names"]), [None] * settings["players"])
    timers = {"day": DAY, "steps": dict.fromkeys(family_of(book).pack_steps(), PACK)}
    created = server.create(rules=rules, timers=timers, seed=seed, spectators=True, **settings)
    table.code = room = created["room"]
    table.lang = book.language
    table.tokens[created["host_token"]] = None
    rng = random.Random(seed)
    leader = Conn(server, table, "the leader", random.Random(rng.random()))
    watcher = Conn(servers[-1], table, "a watcher", random.Random(rng.random()))
    table.conns += [leader, watcher]
    try:
        for each in table.conns:
            await each.connect()
        welcome = await leader.enter(
            {"type": "rejoin", "room": room, "token": created["host_token"]}
        )
        assert welcome["seat"] == LEADER and welcome["host"]
        assert (await watcher.enter({"type": "watch", "room": room}))["seat"] is None
        last: str | None = None
        for number in range(GAMES):
            if number:
                await leader.command({"type": "again"})  # (back to the lobby)
            await leader.command({"type": "start"})
            while leader.view is None or leader.view["game"] == last:
                await leader.receive(30)
            table.games.append(leader.view["game"])
            await asyncio.gather(leader.play_game(last), watcher.play_game(last))
            last = table.games[-1]
    finally:
        for each in table.conns:
            with contextlib.suppress(Exception):
                await each.close()
    return table


async def leave_and_come_back(bob: Conn, again: Conn, room: str) -> None:
    token = bob.token
    assert token is not None
    await bob.play_game(None, leave_after=4)
    await bob.close()
    await again.connect()
    welcome = await again.enter({"type": "rejoin", "room": room, "token": token})
    assert welcome["seat"] == bob.seat and welcome["token"] is None
    await again.play_game(None)


async def late(watcher: Conn, room: str) -> None:
    await asyncio.sleep(0.3)
    await watcher.connect()
    await watcher.enter({"type": "watch", "room": room})
    await watcher.play_game(None)


# ---------------------------------------------------------------------- the engine's side
@dataclass
class Played:
    """A finished game as the engine replays it, and what each seat could be shown."""

    game: Game
    points: dict[int | None, set[tuple[object, ...]]]
    acted: dict[int, int]


def prompts_key(prompts: tuple[Prompt, ...]) -> tuple[object, ...]:
    return tuple((p.verb, p.unordered, tuple(tuple(c) for c in p.choices)) for p in prompts)


def frame_prompts_key(prompts: list[dict[str, Any]]) -> tuple[object, ...]:
    return tuple(
        (p["verb"], p["unordered"], tuple(tuple(c["args"]) for c in p["choices"])) for p in prompts
    )


def frame_table_key(table: list[dict[str, Any]]) -> tuple[object, ...]:
    return tuple((entry["seat"], frame_prompts_key(entry["prompts"])) for entry in table)


def replayed(data: dict[str, Any]) -> Played:
    """The downloaded scenario replayed action by action: at each point, every seat's
    view as (state id, events, phase, number, finished, waited for, prompts)."""
    result = sc.replay(sc.parse(data))
    assert result.error_index is None and result.game.finished, result.error_message
    final = result.game
    game = sc.setup(sc.parse(data))
    points: dict[int | None, set[tuple[object, ...]]] = {s: set() for s in range(game.n)}
    points[None] = set()
    points[LEADER] = set()

    def record() -> None:
        waiting = set(game.waiting())
        for seat in (*range(game.n), LEADER):
            view = game.view(seat)
            table: tuple[object, ...] = ()
            if seat == LEADER:
                opened = ((s, game.open_prompts(s)) for s in range(game.n))
                table = tuple((s, prompts_key(prompts)) for s, prompts in opened if prompts)
            points[seat].add(
                (
                    view.state_id,
                    len(view.events),
                    view.phase,
                    view.number,
                    view.finished,
                    seat in waiting,
                    prompts_key(view.prompts),
                    table,
                )
            )
        public = game.public_view()
        points[None].add(
            (
                public.state_id,
                len(public.events),
                public.phase,
                public.number,
                public.finished,
                *NOT_ASKED,
            )
        )

    record()
    for action in final.history:
        game.apply(action)
        record()
    assert [to_json(e) for e in game.events] == [to_json(e) for e in final.events]
    return Played(final, points, {seat: final.acted[seat] for seat in range(final.n)})


def as_json(value: object) -> Any:
    return json.loads(json.dumps(value))


def facts(event: dict[str, Any]) -> set[tuple[object, ...]]:
    """The secret facts an event (as JSON) tells: roles (``role_facts``), Lupusburg's
    characters, chests, coins and bets."""
    data, kind = event["data"], event["kind"]
    found: set[tuple[object, ...]] = set()
    if "role" in data and "player" in data:
        found.add(("role", data["player"], data["role"]))
    if "side" in data and "player" in data:
        found.add(("side", data["player"], data["side"]))
    for key, what in (("roles", "role"), ("characters", "character")):
        for seat, card in (data.get(key) or {}).items():
            found.add((what, int(seat), card))
    if "character" in data:
        found.add(("character", data["house"], data["character"]))
    if kind == "characters_dealt":
        found |= {
            ("chest", int(house), int(house) == data["chest"]) for house in data["characters"]
        }
    if kind == "peeked":
        found.add(("chest", data["house"], data["chest"]))
    for house in data.get("chests") or []:
        found.add(("chest", house, True))
    if kind == "coins_drawn":
        found.add(("coins", data["player"], tuple(data["coins"])))
    if kind in ("coin_kept", "coin_picked"):
        found.add(("kept", data["player"], data["kept"]))
    if kind == "bet":
        found.add(("bet", data["player"], data["target"]))
    for seat, bet in (data.get("bets") or {}).items():
        found.add(("bets", int(seat), tuple(bet)))
    return found


def own_facts(own: dict[str, Any] | None) -> set[tuple[object, ...]]:
    """The secret facts a seat's own part of the board (``view.own``) tells."""
    if own is None:
        return set()
    seat = own["seat"]
    found: set[tuple[object, ...]] = set()
    if "cards" in own:  # (a village seat's: its card, its night powers' answers)
        found |= {("role", int(held), role) for held, role in own["cards"].items()}
        for answer in own["answers"]:
            if answer["role"] is not None:
                found.add(("role", answer["seat"], answer["role"]))
            if answer["side"] is not None:
                found.add(("side", answer["seat"], answer["side"]))
        return found
    for house, told in own["characters"].items():
        found.add(("character", int(house), told["character"]))
    for house, told in own["chests"].items():
        found.add(("chest", int(house), told["chest"]))
    if own["drawn"] is not None:
        found.add(("coins", seat, tuple(own["drawn"])))
    if own["coin"] is not None:
        found.add(("kept", seat, own["coin"]))
    return found


def card_words(book: Rulebook) -> dict[str, re.Pattern[str]]:
    """Each card (role or character) -> the words that name it: its id and its names in
    every language of the rulebook, singular and plural."""
    words: dict[str, re.Pattern[str]] = {}
    for role in book.roles:
        spelled = {role}
        for names in book.names.values():
            for key in (role, f"one.{role}", f"many.{role}"):
                if key in names:
                    spelled.add(names[key])
        alternatives = "|".join(re.escape(s) for s in sorted(spelled, key=len, reverse=True))
        words[role] = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)
    return words


# ---------------------------------------------------------------------- the checks
def test_card_words_find_cards() -> None:
    words = card_words(load("werewolf"))
    assert words["villager"].search("Bob was a Simple Villager.")
    assert words["little-girl"].search("the little girl spies")
    assert not words["seer"].search("Bob overseer")
    assert not words["werewolf"].search('{"rules": "werewolves_of"}')


@pytest.fixture(scope="module")
def server(store_kind: str, tmp_path_factory: pytest.TempPathFactory) -> Server:
    with running(tmp_path_factory.mktemp("leaks") / "lupus.db") as started:
        yield started


@pytest.mark.parametrize("rules", available())
def test_every_frame_is_what_its_seat_may_know(server: Server, rules: str) -> None:
    every_frame_checked([server], rules)


def every_frame_checked(servers: Sequence[Server], rules: str) -> None:
    """The rooms of ``rules`` played through ``servers`` (see the module docstring),
    then every frame, answer and log line checked."""
    book = load(rules)
    tables = TABLES.get(rules) or default_tables(book)
    base = 1000 * available().index(rules)

    async def play_all() -> list[Table]:
        plays = [play_table(servers, rules, table, base + n) for n, table in enumerate(tables)]
        plays.append(play_leader_table(servers, rules, leader_table(book), base + 999))
        return list(await asyncio.gather(*plays))

    played = asyncio.run(asyncio.wait_for(play_all(), 240))
    every_token = {token for table in played for token in table.tokens}
    downloads: dict[str, Any] = {}  # each game's scenario, as the first server gave it
    for server in servers:  # (each process gives the same records: the room's)
        with httpx.Client(base_url=server.http) as http:
            for table in played:
                for game_id in table.games:
                    download = http.get(f"/api/games/{game_id}/scenario")
                    assert download.status_code == 200, download.text
                    no_secret_of_identity(download.text, every_token)
                    assert downloads.setdefault(game_id, download.json()) == download.json()
                lobby = http.get(f"/api/rooms/{table.code}")
                no_secret_of_identity(lobby.text, every_token)
                check_lobby(table, book, lobby.json())
    for table in played:
        games = {game_id: replayed(downloads[game_id]) for game_id in table.games}
        for conn in table.conns:
            check_connection(table, book, games, conn)
    # (the clients did try what they may not, and talked)
    assert sum(table.probes for table in played) > 0 and any(table.said for table in played)
    for server in servers:
        no_secret_of_identity(server.log.read_text(errors="replace"), every_token)


def no_secret_of_identity(text: str, tokens: set[str], own: str | None = None) -> None:
    """No token but ``own`` in ``text``, and no token's digest (what the store keeps)."""
    for token in tokens:
        if token != own:
            assert token not in text, "another client's token was sent"
        assert hashlib.sha256(token.encode()).hexdigest() not in text, "a token's digest was sent"


def check_connection(table: Table, book: Rulebook, games: dict[str, Played], conn: Conn) -> None:
    seat = conn.seat
    welcomes = [f for f in conn.frames if f["type"] == "welcome"]
    assert len(welcomes) == 1 and welcomes[0]["version"] == VERSION
    own = welcomes[0]["token"]
    assert own is None or table.tokens[own] == seat
    for frame in conn.frames:
        assert frame["type"] in FIELDS, frame
        assert set(frame) - OPTIONAL.get(frame["type"], set()) == FIELDS[frame["type"]], frame
        if frame["type"] == "view":
            assert ("script" in frame) == (seat == LEADER), (seat, frame.get("script"))
        no_secret_of_identity(json.dumps(frame, ensure_ascii=False), set(table.tokens), own)
    if conn.person:
        assert seat is not None and seat >= 0
    if table.settings.get("mode") == "leader":
        assert seat in (None, LEADER)
    words = card_words(book)
    by_game: dict[str, list[dict[str, Any]]] = {}
    for frame in conn.frames:
        if frame["type"] == "view":
            by_game.setdefault(frame["game"], []).append(frame)
    assert set(by_game) <= set(games), "a view of a game this room did not play"
    own_cards: set[str] = set()
    for game_id, frames in by_game.items():
        own_cards |= check_views(table, book, games[game_id], conn, game_id, frames)
    for frame in conn.frames:
        kind = frame["type"]
        if kind == "welcome":
            assert frame["room"] == table.code and frame["seat"] == seat
        elif kind == "lobby":
            assert frame.pop("you") == seat
            assert type(frame.pop("host")) is bool
            check_lobby(table, book, frame)
        elif kind == "chat":
            check_chat(table, games, conn, frame)
        elif kind == "error":
            assert frame["code"] in CODES, frame
            for card, pattern in words.items():
                if card not in own_cards and seat != LEADER:
                    said = frame["message"] + json.dumps(frame["fields"], ensure_ascii=False)
                    assert not pattern.search(said), (seat, card, frame)
        elif kind in ("ack", "pong"):
            assert frame["id"] is None or isinstance(frame["id"], int)


OPTIONAL = {"view": {"pack", "script"}}
"""The fields a frame carries only sometimes: ``pack``, a pack member's while its step
is open; ``script``, a game leader's (every one of his views, and nobody else's)."""


def pack_seen(received: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]] | None:
    """What ``view.pack`` must be after these events of a seat with prompts: while the
    newest events told to it alone are a ``pack`` event naming it and the choices made
    since, each member's current choice; else nothing."""
    chosen: dict[int, int | None] = {}
    for event in reversed(received):
        if event["audience"] is None:
            continue
        if event["kind"] == "pack_choice":
            chosen.setdefault(event["data"]["player"], event["data"]["target"])
            continue
        if event["kind"] == "pack":
            members = sorted(int(member) for member in event["data"]["roles"])
            if seat not in members:
                return None
            return [{"seat": m, "target": chosen.get(m)} for m in members]
        return None
    return None


def check_views(
    table: Table,
    book: Rulebook,
    played: Played,
    conn: Conn,
    game_id: str,
    frames: list[dict[str, Any]],
) -> set[str]:
    """One connection's views of one game (see the module docstring); the cards its
    seat was told it holds."""
    game, seat = played.game, conn.seat
    engine = game.view(seat) if seat is not None else game.public_view()
    expected = [as_json(to_json(event)) for event in engine.events]
    lang = conn.lang or table.lang
    narrator = Narrator(book, game.names, lang)
    labels = Narrator(book, game.names, lang)
    viewer = engine.seat
    # The public table after each number of public events (``view.public``): read
    # from the public events alone, whoever the connection is.
    reader = family_of(book).table_reader(game.names)
    tables = [reader.table().to_json()]
    for event in game.public_view().events:
        reader.feed(event)
        tables.append(reader.table().to_json())
    received: list[dict[str, Any]] = []
    own = family_of(book).seat_reader(engine.seat)
    for frame in frames:
        assert frame["seat"] == seat, "a view of another seat"
        assert frame["from"] == len(received), "a view skipped or repeated events"
        start = len(received)
        received += frame["events"]
        told = engine.events[start : len(received)]
        assert frame["events"] == expected[start : len(received)], (seat, start)
        assert frame["lines"] == narrator.story(told, viewer), (seat, start)
        public = sum(1 for event in received if event["audience"] is None)
        assert frame["public"] == as_json(tables[public]), (seat, "public table", public)
        for event in told:  # (the seat's own part: read from its events received alone)
            if own is not None:
                own.feed(event)
        assert frame["own"] == (None if own is None else as_json(own.to_json())), seat
        known = set().union(*(facts(event) for event in received)) if received else set()
        assert own_facts(frame["own"]) <= known, (seat, "own", frame["own"])
        offered = [*frame["prompts"], *(p for entry in frame["table"] for p in entry["prompts"])]
        for prompt in offered:
            for choice in prompt["choices"]:
                label = labels.choice(prompt["verb"], tuple(choice["args"]))
                assert choice["label"] == label, (seat, prompt["verb"], choice)
        assert frame["deadline"] is None or isinstance(frame["deadline"], int | float)
        den = pack_seen(received, seat) if frame["prompts"] else None
        assert frame.get("pack") == den, (seat, frame.get("pack"), den)
        point = (frame["state_id"], len(received), frame["phase"], frame["number"])
        point += (frame["finished"], frame["waiting"], frame_prompts_key(frame["prompts"]))
        point += (frame_table_key(frame["table"]),)
        if point in played.points[seat]:
            continue
        # Held back by the night's pacing: the events up to a step's wake, nothing to
        # decide, the phase of the last event shown.
        assert not frame["prompts"] and not frame["table"], ("a view of no point", seat, point)
        assert not frame["waiting"] and not frame["finished"], (
            "a view that is no view of this seat",
            seat,
            point,
        )
        last = received[-1] if received else {"phase": "setup", "number": 0}
        assert (frame["phase"], frame["number"]) == (last["phase"], last["number"]), point
        actions = frame["state_id"] - len(received)
        assert 0 <= actions <= played.acted.get(seat, 0), point
    for event in received:
        assert seat == LEADER or event["audience"] in (None, [seat]), event
    if conn.left_in == game_id:
        assert not frames[-1]["finished"]
    else:
        assert frames[-1]["finished"], "a connection that stayed did not see the end"
        assert received == expected, "the views do not add up to the engine's view"
    allowed = set().union(*(facts(e) for e in expected)) if expected else set()
    for event in received:
        assert facts(event) <= allowed, (seat, event)
    mine: set[str] = set()
    if seat is not None and seat >= 0:
        houses = {2 * seat, 2 * seat + 1} if book.family == "lupusburg" else set()
        for event in received:
            if event["kind"] == "game_over":
                continue
            for fact in facts(event):
                if fact[0] == "role" and fact[1] == seat:
                    mine.add(str(fact[2]))
                if fact[0] == "character" and fact[1] in houses:
                    mine.add(str(fact[2]))
                if event["kind"] == "extra_cards":
                    mine |= set(event["data"]["cards"])
    return mine


def check_lobby(table: Table, book: Rulebook, lobby: dict[str, Any]) -> None:
    """A lobby says the room's public settings and seats, nothing else."""
    settings = table.settings
    mode = settings.get("mode", "players")
    assert set(lobby) == FIELDS["lobby"] - {"you", "host"}
    assert type(lobby["seatless_creator"]) is bool
    assert lobby["room"] == table.code and lobby["rules"] == table.rules
    assert lobby["mode"] == mode and lobby["players"] == settings["players"]
    counts = settings.get("composition") or composition(book, settings["players"])
    assert lobby["composition"] == counts
    assert lobby["options"] == settings.get("options", {})
    assert lobby["seeded"] is True  # (every room of this test is seeded)
    assert lobby["spectators"] is True  # (every room of this test allows them)
    assert lobby["table"] is settings.get("table", False)
    assert lobby["narrator"] == {"by": "host", "seat": None}  # (nobody chose another)
    assert lobby["absent_bots"] is False  # (the harness's rooms: ``UNTIMED``)
    assert lobby["ai"] is False and lobby["allow_export"] is False  # (no model; not asked)
    timers = lobby["timers"]
    assert timers is None or set(timers) == {"night", "day", "steps"}
    # Only finished games' endings, each as its public game-over event told it.
    for ended in lobby["results"]:
        assert ended["game"] in table.games
        assert set(ended) == {"game", "winner", "winners", "scores"}
    assert lobby["lang"] == table.lang
    assert lobby["host_seat"] == (0 if mode == "players" else None)
    assert lobby["status"] in ("lobby", "playing", "finished")
    assert lobby["game"] is None or lobby["game"] in table.games
    assert len(lobby["seats"]) == len(table.names)
    for number, seat in enumerate(lobby["seats"]):
        if seat is None:
            continue
        assert set(seat) == {"name", "bot", "person", "connected", "away"}
        assert (seat["name"], seat["bot"]) == (table.names[number], table.bots[number])
        assert seat["away"] is False  # (everyone stays connected and plays)
        assert isinstance(seat["connected"], bool)
        assert isinstance(seat["person"], bool)


def check_chat(table: Table, games: dict[str, Played], conn: Conn, line: dict[str, Any]) -> None:
    """A line a client sent, reaching only those its channel is for."""
    assert line["text"] in table.said, "a chat line nobody sent"
    said = SAID.match(line["text"])
    assert said is not None
    channel, sender, reader = line["channel"], line["seat"], conn.seat
    assert line["from"] == (None if sender is None else table.names[sender])
    assert said["who"] == (line["from"] or said["who"])
    if said["game"] is None:
        assert channel == "all" and sender == 0
        return
    played = games[table.games[int(said["game"])]]
    game = played.game
    if reader == LEADER:
        assert channel in ("all", "dead"), line  # (he reads every channel)
    elif channel == "pack":
        assert sender is not None and reader is not None, line
        if reader != sender:
            # The pack is told who its members are (privately): nobody else reads it.
            told = [
                fact
                for event in game.view(reader).events
                if event.audience is not None
                for fact in facts(as_json(to_json(event)))
            ]
            assert any(fact[:2] == ("role", sender) for fact in told), (reader, line)
    elif channel == "dead":
        # The dead's talk reaches the dead alone (and a game leader): a spectator may be
        # a living player in a second tab, and a spectator does not talk during a game.
        assert reader is not None and not game.alive[reader], (reader, line)
        assert sender is not None and not game.alive[sender], line
    elif channel == "day":
        assert sender is not None, line
    else:  # sent as the game ended: everyone talks after the end
        assert channel == "all", line


def test_a_hosts_close_tells_nothing_of_a_step_held_back(server: Server) -> None:
    """While the night's next step is held back (the step shown is over: its role
    acted at once, or is dead), the host's ``close`` is answered as during a running
    step: ``ack`` for the view he was shown (closing nothing he was not shown), ``stale``
    for any other state id. Otherwise a host would learn what the pacing hides, by
    closing, and could close the held step (the pack's) before anyone saw it."""
    # Seed 0: Ann (the host) holds a Werewolf, the Seer is a bot that looks at once.
    created = server.create(
        rules="werewolf", players=8, host_name="Ann", bot_delay=0, pace=1.5, seed=0
    )

    async def test() -> None:
        host = await Player(server).connect()
        try:
            await host.rejoin(created["room"], created["host_token"])
            reply = await host.answer(await host.send({"type": "start", "fill": "heuristic"}))
            assert reply["type"] == "ack"
            while not any(e["data"].get("step") == "seer" for e in host.events):
                await host.receive()
            assert {"player": 0, "role": "werewolf"} in [e["data"] for e in host.events]
            await asyncio.sleep(0.3)  # the Seer has looked: the pack's step is held back
            with contextlib.suppress(TimeoutError):
                while True:  # (every frame sent so far)
                    await host.receive(0.2)
            view = host.view
            assert view is not None and not view["prompts"]
            shown = view["state_id"]
            for guess in range(shown + 1, shown + 5):
                message = {"type": "close", "state_id": guess}
                reply = await host.answer(await host.send(message))
                assert (reply["type"], reply.get("code")) == ("error", "stale"), (guess, reply)
            reply = await host.answer(await host.send({"type": "close", "state_id": shown}))
            assert reply["type"] == "ack", reply
            # The pack's step is shown when its time comes, still open: Ann may kill.
            while not (host.view["waiting"] and host.view["prompts"]):
                await host.receive()
            assert host.view["phase"] == "night" and host.view["number"] == 1
            assert "kill" in [prompt["verb"] for prompt in host.view["prompts"]]
        finally:
            await host.close()

    asyncio.run(test())


def test_the_protocol_document_names_every_message_field_and_code() -> None:
    """docs/protocol.md, the contract for every client, keeps up with the code: its
    version, every message a client may send, every frame the server sends with each
    of its fields (``FIELDS``, which the leak test holds every frame to), every error
    code and the limits."""
    doc = (Path(__file__).resolve().parents[1] / "docs" / "protocol.md").read_text("utf-8")
    assert f"**Version: {VERSION}**" in doc
    entering = (protocol.Join, protocol.Rejoin, protocol.Watch, protocol.Ping)
    playing = (protocol.Act, protocol.Chat, protocol.Close)
    for message in (*entering, *playing, *protocol.HOST_ONLY):
        (kind,) = get_args(message.model_fields["type"].annotation)
        assert f"`{kind}`" in doc, kind
        for name in message.model_fields:
            assert f"`{name}`" in doc, (kind, name)
    for kind, fields in FIELDS.items():
        assert f"### `{kind}`" in doc, kind
        for name in fields:
            assert f"`{name}`" in doc, (kind, name)
    for code in CODES:
        assert f"| `{code}` |" in doc, code
    assert f"{MAX_FRAME} bytes" in doc and f"1 to {MAX_CHAT} characters" in doc
