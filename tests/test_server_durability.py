"""Durability over the wire: ``lupus serve`` killed with SIGKILL in the middle of games,
then started again on the same database (issue 13, "Durable games").

The tables here are played by people only (one WebSocket client a seat, no bots, no
timers, ``pace=0``) in lockstep: one action at a time, and after each one every client
has read its news (a ``ping`` each: its answer comes after whatever the action queued
for that client). Nothing happens in such a room but what its clients do, so a kill
lands exactly where the test chose, right after an action was acknowledged and with
nothing else done since. After each kill:

- the database holds exactly the acknowledged actions of each game, in order (read
  through the store while the server is dead);
- the restarted server has every room; each client rejoins with its token and is sent
  a view equal to the one it had (events, sentences, prompts, state id), or, for a
  client that had not read its news yet, one its old view is a prefix of;
- the game plays on to its end over the wire, and its scenario
  (``GET /api/games/{id}/scenario``) replays every acknowledged action, in order, to a
  finished game.

One test lets the kill land while actions are in flight in several rooms at once: an
action sent but not acknowledged may or may not be kept, nothing else may differ.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from tests.server_harness import Player, Server, store_at

from lupus import scenario as sc
from lupus.engine.model import LEADER, Action
from lupus.server.hub import Hub
from lupus.server.rooms import Room
from lupus.server.settings import RoomSettings
from lupus.server.store import Store

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")

PASSIVE = frozenset({"sleep", "pass", "abstain"})
"""Verbs a table's people avoid when they have another (wolves that all sleep starve:
the game would end before its first vote)."""

Done = tuple[int, str, tuple[Any, ...]]
"""An action as the store keeps it: actor (a seat, or LEADER for a close), verb, args."""

VIEW_KEYS = ("game", "seat", "phase", "number", "state_id", "finished", "waiting", "prompts")


@contextlib.contextmanager
def serving(database: Path) -> Iterator[Server]:
    server = Server(database).start()
    try:
        yield server
    finally:
        if server.process is not None and server.process.poll() is None:
            server.stop()


class Table:
    """A room of people who play in lockstep (see the module docstring)."""

    def __init__(self, server: Server, rules: str = "werewolf", seed: int = 1) -> None:
        self.server = server
        self.rules = rules
        self.seed = seed
        self.rng = random.Random(seed)
        self.code = ""
        self.game_id = ""
        self.tokens: list[str] = []
        self.people: list[Player] = []
        self.done: list[Done] = []  # every action acknowledged, in order
        self.in_flight: Done | None = None  # sent, not answered yet
        self.since_change = 0  # actions since the phase last changed
        self.settled = True  # every client has read its news

    # ------------------------------------------------------------------ setting up
    async def open(self, players: int = 8) -> None:
        created = self.server.create(
            rules=self.rules, players=players, host_name=NAMES[0], seed=self.seed, pace=0
        )
        self.code = created["room"]
        host = await Player(self.server).connect()
        await host.rejoin(self.code, created["host_token"])
        self.people = [host]
        for name in NAMES[1:players]:
            person = await Player(self.server).connect()
            await person.join(self.code, name)
            self.people.append(person)
        self.tokens = [str(person.token) for person in self.people]
        ref = await host.send({"type": "start"})
        assert (await host.answer(ref))["type"] == "ack"
        await self.settle()
        assert host.lobby is not None and host.lobby["status"] == "playing"
        self.game_id = str(host.lobby["game"])

    async def close(self) -> None:
        for person in self.people:
            with contextlib.suppress(Exception):
                await person.close()

    # ------------------------------------------------------------------ playing
    @property
    def host(self) -> Player:
        return self.people[0]

    @property
    def view(self) -> dict[str, Any]:
        view = self.host.view
        assert view is not None
        return view

    @property
    def finished(self) -> bool:
        return all(person.view is not None and person.view["finished"] for person in self)

    def __iter__(self) -> Iterator[Player]:
        return iter(self.people)

    def waited(self) -> list[Player]:
        return [p for p in self if p.view is not None and p.view["waiting"] and p.view["prompts"]]

    async def settle(self) -> None:
        """Every client has read what the server queued for it so far."""
        await asyncio.gather(*(barrier(person) for person in self))
        self.settled = True

    async def step(self, settle: bool = True) -> Done:
        """One action: a waited person's (at random, avoiding passive verbs), or the
        host closing the step when nobody is waited for (or a pack keeps disagreeing)."""
        assert self.settled, "a step needs everyone's news"
        before = (self.view["phase"], self.view["number"])
        waited = self.waited()
        if not waited or self.since_change > 4 * len(self.people):
            sender = self.host
            message: dict[str, Any] = {"type": "close", "state_id": self.view["state_id"]}
            done: Done = (LEADER, "close", ())
        else:
            sender = self.rng.choice(waited)
            view = sender.view
            assert view is not None
            prompts = [p for p in view["prompts"] if p["verb"] not in PASSIVE]
            prompt = self.rng.choice(prompts or view["prompts"])
            args = self.rng.choice(prompt["choices"])["args"]
            message = {
                "type": "act",
                "verb": prompt["verb"],
                "args": args,
                "state_id": view["state_id"],
            }
            assert sender.seat is not None
            done = (sender.seat, prompt["verb"], tuple(args))
        self.in_flight = done
        while True:
            ref = await sender.send(message)
            reply = await sender.answer(ref)
            if reply["type"] == "ack":
                break
            assert reply["code"] == "slow_down", reply  # (the test plays fast)
            await asyncio.sleep(0.2)
        self.in_flight = None
        self.done.append(done)
        self.settled = False
        if settle:
            await self.settle()
            now = (self.view["phase"], self.view["number"])
            self.since_change = 0 if now != before else self.since_change + 1
        return done

    async def until(self, reached: Callable[[Table], bool], limit: int = 400) -> None:
        """Play until ``reached`` holds right after an action."""
        while True:
            assert not self.finished, f"the game ended before the point: {self.done}"
            assert len(self.done) < limit, "the game goes on and on"
            await self.step()
            if reached(self):
                return

    async def to_end(self, limit: int = 600) -> None:
        while not self.finished:
            assert len(self.done) < limit, "the game goes on and on"
            await self.step()

    # ------------------------------------------------------------------ after a restart
    async def reconnect(self) -> None:
        """Everyone comes back with a new connection and his token, and is sent a view
        that continues (or equals, if he had read all his news) the one he had."""
        old, settled = self.people, self.settled
        self.people = []
        for person, token in zip(old, self.tokens, strict=True):
            with contextlib.suppress(Exception):
                await person.close()
            again = await Player(self.server).connect()
            welcome = await again.rejoin(self.code, token)
            assert welcome["seat"] == person.seat
            self.people.append(again)
        await self.settle()
        for person, was in zip(self.people, old, strict=True):
            assert person.view is not None and was.view is not None
            assert person.events[: len(was.events)] == was.events, "a view went back"
            assert person.lines[: len(was.lines)] == was.lines
            if settled:
                assert person.events == was.events
                assert person.lines == was.lines
                assert shown(person.view) == shown(was.view)

    def check_stored(self, database: Path) -> None:
        """While the server is dead: the store holds exactly what was acknowledged (and
        perhaps the one action in flight, whose acknowledgement was lost)."""
        store = store_at(database)
        try:
            found = store.scenario(self.game_id)
        finally:
            store.close()
        assert found is not None, f"game {self.game_id} was lost"
        stored = [(actor, verb, tuple(args)) for actor, verb, args in found[1]]
        if self.in_flight is not None and stored == [*self.done, self.in_flight]:
            self.done.append(self.in_flight)
        self.in_flight = None
        assert stored == self.done

    def check_scenario(self) -> None:
        """The finished game's download replays every acknowledged action, in order."""
        answer = httpx.get(f"{self.server.http}/api/games/{self.game_id}/scenario", timeout=10)
        assert answer.status_code == 200, answer.text
        replayed = sc.replay(sc.parse(answer.json()))
        assert replayed.game.finished
        played = [(a.actor, a.verb, tuple(a.args)) for a in replayed.game.history]
        assert played == self.done


async def barrier(person: Player) -> None:
    """A ping answered: everything queued for ``person`` before it was read. (A ping
    the rate limit refuses is answered in order too.)"""
    ref = await person.send({"type": "ping"})
    while True:
        frame = await person.receive()
        if frame["type"] in ("pong", "error") and frame.get("id") == ref:
            return


def prompts(person: Player) -> list[dict[str, Any]]:
    return list(person.view["prompts"]) if person.view is not None else []


def shown(view: dict[str, Any]) -> dict[str, Any]:
    return {key: view[key] for key in VIEW_KEYS}


def mid_night(table: Table) -> bool:
    """A night action was just taken and someone is still waited for in that night."""
    return table.view["phase"] == "night" and table.done[-1][0] != LEADER and bool(table.waited())


def mid_pack(table: Table) -> bool:
    """One werewolf chose the pack's victim, the pack has not decided yet."""
    return table.view["phase"] == "night" and table.done[-1][1] == "kill" and bool(table.waited())


def mid_vote(table: Table) -> bool:
    """A day vote was just cast and others still have to vote."""
    if table.view["phase"] != "day" or table.done[-1][1] != "vote":
        return False
    return any(p["verb"] == "vote" for q in table.waited() for p in prompts(q))


def last_vote_due(table: Table) -> bool:
    """One person is left to vote (his vote ends the day)."""
    return table.view["phase"] == "day" and len(table.waited()) == 1


def rooms_on(server: Server) -> int:
    return int(httpx.get(f"{server.http}/healthz", timeout=5).json()["rooms"])


def restart(server: Server, tables: list[Table]) -> None:
    """SIGKILL, the store checked while the server is dead, and a start on the same
    database and port."""
    server.kill()
    for table in tables:
        table.check_stored(server.database)
    server.start()


def test_sigkill_mid_night_mid_vote_and_right_after_an_ack(tmp_path: Path) -> None:
    """One table killed three times in one game: in the middle of a night (the pack
    half decided), in the middle of a day vote, and the instant the last vote of a day
    is acknowledged (before anyone else read the news); it resumes each time and plays
    to its end."""
    with serving(tmp_path / "lupus.db") as server:

        async def play() -> None:
            table = Table(server, seed=11)
            await table.open()
            try:
                await table.until(mid_pack)
                restart(server, [table])
                assert rooms_on(server) == 1
                await table.reconnect()

                await table.until(mid_vote)
                restart(server, [table])
                await table.reconnect()

                await table.until(last_vote_due)
                await table.step(settle=False)  # its ack read, nobody else's news
                restart(server, [table])
                await table.reconnect()

                await table.to_end()
            finally:
                await table.close()
            table.check_scenario()

        asyncio.run(play())


def test_sigterm_stops_cleanly_and_loses_nothing(tmp_path: Path) -> None:
    """A graceful stop with clients connected: exit status 0, the clients are told
    (their connections close), and the game resumes where it was."""
    with serving(tmp_path / "lupus.db") as server:

        async def play() -> None:
            table = Table(server, seed=5)
            await table.open()
            try:
                await table.until(mid_night)
                assert server.stop() == 0
                with pytest.raises(websockets.ConnectionClosed):
                    await table.host.receive(timeout=5)
                table.check_stored(server.database)
                server.start()
                await table.reconnect()
                await table.until(mid_vote)
                assert server.stop() == 0
                table.check_stored(server.database)
                server.start()
                await table.reconnect()
                await table.to_end()
            finally:
                await table.close()
            table.check_scenario()

        asyncio.run(play())


def test_several_rooms_survive_kills(tmp_path: Path) -> None:
    """Six rooms at once: four tables of people stopped at different points (one just
    dealt, one mid-night, one mid-vote, a maffia table by day), a lobby, and a person playing
    with seven bots, whose moves land whenever they do. Killed, restarted: every room is
    there, the bots move on by themselves. Then the tables play on all at once and the
    server is killed again while actions are in flight; restarted, all play to the end."""
    with serving(tmp_path / "lupus.db") as server:

        async def play() -> None:
            tables = [
                Table(server, seed=21),
                Table(server, seed=22),
                Table(server, seed=23),
                Table(server, rules="maffia", seed=24),
            ]
            lobby = await open_lobby(server)
            try:
                for table in tables:
                    await table.open()
                await asyncio.gather(
                    tables[1].until(mid_night),
                    tables[2].until(mid_vote),
                    tables[3].until(lambda t: t.view["phase"] == "day" and len(t.done) >= 3),
                )
                bots = BotRoom(server)
                await bots.open()
                await bots.until_day()
                restart(server, tables)
                bots.check_stored(server.database)
                assert rooms_on(server) == 6
                for table in tables:
                    await table.reconnect()
                await check_lobby(server, *lobby)
                await bots.reconnect()
                await bots.to_end()
                bots.check_scenario()

                # Now all at once, and a kill while actions are on the wire.
                acks_before = sum(len(table.done) for table in tables)
                stop = asyncio.Event()

                async def run(table: Table) -> None:
                    while not stop.is_set() and not table.finished:
                        await table.step()

                running = [asyncio.create_task(run(table)) for table in tables]
                while sum(len(t.done) for t in tables) < acks_before + 40:
                    assert not all(task.done() for task in running)
                    await asyncio.sleep(0.002)
                stop.set()
                server.kill()
                await asyncio.gather(*running, return_exceptions=True)
                for table in tables:
                    table.check_stored(server.database)
                    table.settled = False  # (some had not read their news)
                server.start()
                assert rooms_on(server) == 6
                for table in tables:
                    await table.reconnect()
                await asyncio.gather(*(table.to_end() for table in tables))
            finally:
                for table in tables:
                    await table.close()
            for table in tables:
                table.check_scenario()

        asyncio.run(play())


async def open_lobby(server: Server) -> tuple[str, list[str]]:
    """A room that has not started: its host and two friends sit in it."""
    created = server.create(rules="werewolf", players=8, host_name="Ann", pace=0)
    code = created["room"]
    tokens = [created["host_token"]]
    for name in ("Bob", "Cy"):
        person = await Player(server).connect()
        await person.join(code, name)
        tokens.append(str(person.token))
        await person.close()
    return code, tokens


async def check_lobby(server: Server, code: str, tokens: list[str]) -> None:
    """The lobby came back: its seats, and each token holds its seat."""
    lobby = httpx.get(f"{server.http}/api/rooms/{code}", timeout=5).json()
    assert lobby["status"] == "lobby"
    assert [s and s["name"] for s in lobby["seats"]][:4] == ["Ann", "Bob", "Cy", None]
    for seat, token in enumerate(tokens):
        person = await Player(server).connect()
        assert (await person.rejoin(code, token))["seat"] == seat
        await person.close()


class BotRoom:
    """A person (the host) and seven heuristic bots; the bots move a tenth of a second
    after each change, whenever that falls, the person when his view says so."""

    def __init__(self, server: Server, seed: int = 25) -> None:
        self.server = server
        self.seed = seed
        self.code = ""
        self.token = ""
        self.game_id = ""
        self.person = Player(server, random.Random(seed))
        self.playing: asyncio.Task[None] | None = None
        self.acked: list[Done] = []  # the person's acknowledged actions (of every session)

    async def open(self) -> None:
        created = self.server.create(
            rules="werewolf", players=8, host_name="Ann", seed=self.seed, pace=0, bot_delay=0.1
        )
        self.code, self.token = created["room"], created["host_token"]
        await self.person.connect()
        await self.person.rejoin(self.code, self.token)
        ref = await self.person.send({"type": "start", "fill": "heuristic"})
        assert (await self.person.answer(ref))["type"] == "ack"
        assert self.person.lobby is not None
        self.game_id = str(self.person.lobby["game"])
        self.playing = asyncio.create_task(self.person.play(timeout=60))

    async def until_day(self) -> None:
        """The bots (and the person) played the first night."""
        while self.person.view is None or self.person.view["phase"] != "day":
            assert self.playing is not None and not self.playing.done()
            await asyncio.sleep(0.005)

    def mine(self) -> list[Done]:
        return [(0, a["verb"], tuple(a["args"])) for a in self.person.acked]

    def check_stored(self, database: Path) -> None:
        """After the kill: the person's acknowledged actions are all kept, in order (and
        perhaps the one he had in flight)."""
        assert self.playing is not None
        if self.playing.done():
            self.playing.exception()  # (the connection was cut: that is expected)
        else:
            self.playing.cancel()
        store = store_at(database)
        try:
            found = store.scenario(self.game_id)
        finally:
            store.close()
        assert found is not None
        his = [(actor, verb, tuple(args)) for actor, verb, args in found[1] if actor == 0]
        self.acked += self.mine()
        assert his[: len(self.acked)] == self.acked
        assert len(his) - len(self.acked) <= 1
        self.acked = his

    async def reconnect(self) -> None:
        with contextlib.suppress(Exception):
            await self.person.close()
        self.person = Player(self.server, random.Random(self.seed + 1))
        await self.person.connect()
        assert (await self.person.rejoin(self.code, self.token))["seat"] == 0

    async def to_end(self) -> None:
        await self.person.play(timeout=60)
        self.acked += self.mine()
        await self.person.close()

    def check_scenario(self) -> None:
        answer = httpx.get(f"{self.server.http}/api/games/{self.game_id}/scenario", timeout=10)
        assert answer.status_code == 200, answer.text
        replayed = sc.replay(sc.parse(answer.json()))
        assert replayed.game.finished
        his = [(a.actor, a.verb, tuple(a.args)) for a in replayed.game.history if a.actor == 0]
        assert his == self.acked


def test_a_room_that_cannot_be_restored_keeps_its_game_secret(tmp_path: Path) -> None:
    """A room whose stored state no longer loads is left out at start (logged), and its
    running game is not handed out as a scenario (which names every card)."""
    with serving(tmp_path / "lupus.db") as server:

        async def play() -> None:
            table = Table(server, seed=31)
            await table.open()
            await table.step()
            await table.close()

        asyncio.run(play())
        server.kill()
        server.sql("UPDATE rooms SET state = '{}'")
        server.start()
        assert rooms_on(server) == 0
        ((game_id,),) = server.sql("SELECT id FROM games")
        game = httpx.get(f"{server.http}/api/games/{game_id}/scenario")
        assert game.status_code == 404


def test_lobby_chat_survives_a_restart(tmp_path: Path) -> None:
    with serving(tmp_path / "lupus.db") as server:

        async def talk() -> None:
            created = server.create(rules="werewolf", players=8, host_name="Ann", pace=0)
            code, token = created["room"], created["host_token"]
            host = await Player(server).connect()
            await host.rejoin(code, token)
            ref = await host.send({"type": "chat", "text": "hello"})
            assert (await host.answer(ref))["type"] == "ack"
            restart(server, [])
            host = await Player(server).connect()
            await host.rejoin(code, token)
            ref = await host.send({"type": "chat", "text": "again"})
            reply = await host.answer(ref)
            said = [frame["text"] for frame in host.frames if frame["type"] == "chat"]
            await host.close()
            assert reply["type"] == "ack", reply
            assert said == ["hello", "again"]

        asyncio.run(talk())


# ---------------------------------------------------------------------- in one process


class Killed(Exception):
    """The process died: nothing after this reaches the database."""


class DiesAfter:
    """A store whose process dies right after its ``fatal`` method committed."""

    def __init__(self, store: Store, fatal: str) -> None:
        self.store, self.fatal, self.dead = store, fatal, False

    def __getattr__(self, name: str) -> Any:
        if self.dead:
            raise Killed
        method = getattr(self.store, name)
        if name != self.fatal:
            return method

        def then_die(*args: Any) -> Any:
            done = method(*args)
            self.dead = True
            return done

        return then_die


def no_schedule(delay: float, call: Callable[[], None]) -> None:
    return None


def test_a_kill_between_the_deal_and_the_rooms_save(tmp_path: Path) -> None:
    """The host starts with bots in the empty seats and the process dies right after
    the game's setup is committed: the restored room still has its bots."""
    database = tmp_path / "lupus.db"
    store = store_at(database)
    settings = RoomSettings(rules="werewolf", players=8, host_name="Ann")
    dying = DiesAfter(store, "start_game")
    room = Room("ABCDE", settings, dying, no_schedule)  # type: ignore[arg-type]
    room.create_host()
    with pytest.raises(Killed):
        room.start("heuristic")
    store.close()
    again = store_at(database)
    try:
        (record,) = again.open_rooms()
        restored = Room.restore(record.code, record.state, record.game, again, no_schedule)
        assert restored.game is not None and restored.status == "playing"
        assert all(seat is not None for seat in restored.seats)
    finally:
        again.close()


def test_a_new_room_never_takes_an_expired_rooms_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An expired room is marked dropped, not deleted (its games stay downloadable): a
    new room under its code would be dropped with it at the next restart."""
    database = tmp_path / "lupus.db"
    settings = RoomSettings(rules="werewolf", players=8, host_name="Ann")
    codes = iter(["ABCDE", "ABCDE", "FGHJK"])
    monkeypatch.setattr("lupus.server.hub.new_code", lambda: next(codes))
    now = [time.time()]
    hub = Hub(store_at(database), no_schedule, lambda: now[0])
    hub.create(settings)
    now[0] += settings.expire_after + 1
    hub.sweep()
    assert not hub.rooms
    room, _, _ = hub.create(settings)
    assert room.code == "FGHJK"
    hub.store.close()
    restarted = Hub(store_at(database), no_schedule)
    try:
        assert restarted.restore() == 1 and "FGHJK" in restarted.rooms
    finally:
        restarted.store.close()


def play_to_the_end(room: Room) -> None:
    """Each seat the game waits for takes its first choice, each one committed as the
    room commits a decision, until the game is over."""
    game = room.game
    assert game is not None
    while not game.finished:
        seat = game.first_waiting()
        if seat is None:
            game.apply(Action(LEADER, "close"))
        else:
            prompt = game.view(seat).prompts[0]
            game.apply(Action(seat, prompt.verb, tuple(prompt.choices[0])))
        room.record(game)


def test_a_restart_between_games_keeps_the_lobby(tmp_path: Path) -> None:
    """ "Play again" (issue 25) takes the room back to the lobby with the same seats,
    bots and results; a restart then comes back to that lobby (not to the last game),
    where the host moves a seat and starts the next game."""
    database = tmp_path / "lupus.db"
    store = store_at(database)
    settings = RoomSettings(rules="mafia-classic", players=4, host_name="Ann", pace=0)
    room = Room("ABCDE", settings, store, no_schedule)
    room.create_host()
    room.start("heuristic")
    play_to_the_end(room)
    first = room.game_id
    room.again()
    assert (room.status, room.number, room.game) == ("lobby", 1, None)
    seats = [None if seat is None else (seat.name, seat.bot) for seat in room.seats]
    store.close()
    again = store_at(database)
    try:
        (record,) = again.open_rooms()
        restored = Room.restore(record.code, record.state, record.game, again, no_schedule)
        assert (restored.status, restored.number, restored.game) == ("lobby", 1, None)
        assert [None if s is None else (s.name, s.bot) for s in restored.seats] == seats
        assert [ended["game"] for ended in restored.results] == [first]
        assert restored.settings == settings
        restored.swap(1, 2)  # (the host may change seats between games)
        restored.start()
        assert restored.status == "playing" and restored.number == 2
        assert restored.game_id != first
    finally:
        again.close()
