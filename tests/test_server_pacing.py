"""Fair timing in-process, on a clock the test moves: every night step lasts exactly its
minimum whoever holds its card, and nothing anyone is told follows the game past what
was shown.

The wire tests (``tests/test_server_fair.py``) see the same from a client's side, with
a real machine's jitter; here time is exact, so durations are compared exactly:

- a room of bots of every kind of holder (a living one, a dead one, a card aside):
  every night step of every game, night 1's first included, lasts exactly its
  minimum (``pace`` and the share drawn for it, or the night timer), and a spectator
  is sent exactly one frame in it, the one that shows its wake;
- a machine that runs every scheduled call late (up to 0.4 s): each step still lasts
  its whole minimum from when it was really shown;
- while a step is held back, the answers to acts, chat lines, ``again`` and the lobby
  are those of the step shown (the same as while that step was running), and a
  night's victim learns he is dead, and may speak to the dead, only at dawn;
- a restart holds back what was held, for a full minimum again.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import pairwise
from typing import Any

import pytest
from tests.fake_clock import Clock

from lupus.server.clients import Client
from lupus.server.hub import Hub
from lupus.server.limits import ServerLimits
from lupus.server.pacing import minimum
from lupus.server.rooms import Room
from lupus.server.settings import RoomSettings
from lupus.server.store_sqlite import SQLiteStore
from lupus.village.game import VillageGame

Frame = dict[str, Any]

PACE = 1.0
CARDS = {
    "werewolf": 2,
    "seer": 1,
    "witch": 1,
    "little-girl": 1,
    "cupid": 1,
    "thief": 1,
    "villager": 4,
}  # 9 players, and the Thief's two
CARD_OF = {
    "thief": "thief",
    "cupid": "cupid",
    "lovers": "cupid",
    "seer": "seer",
    "little_girl": "little-girl",
    "werewolves": "werewolf",
    "witch": "witch",
}


class Conn:
    """An in-process connection: its messages go through the hub's one way in, its
    frames are read from its outbox."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.client = Client()
        self.frames: list[Frame] = []
        self.events: list[Frame] = []
        self.view: Frame | None = None
        self.lobby: Frame | None = None
        self.next_id = 0

    def read(self) -> list[Frame]:
        """The frames sent since the last read."""
        new = []
        while self.client.outbox.frames:
            frame = json.loads(self.client.outbox.frames.popleft())
            new.append(frame)
            if frame["type"] == "view":
                if frame["from"] == 0:
                    self.events = []
                assert frame["from"] == len(self.events)
                self.events += frame["events"]
                self.view = frame
            elif frame["type"] == "lobby":
                self.lobby = frame
        self.frames += new
        return new

    def answer(self, message: Frame) -> Frame:
        """Send ``message``; its answer (ack, error or welcome)."""
        self.next_id += 1
        self.hub.handle(self.client, json.dumps({**message, "id": self.next_id}))
        for frame in self.read():
            if frame.get("id") == self.next_id and frame["type"] in ("ack", "error", "welcome"):
                return frame
        raise AssertionError(f"no answer to {message}")

    def refused(self, message: Frame) -> tuple[str, str]:
        answer = self.answer(message)
        assert answer["type"] == "error", (message, answer)
        return answer["code"], answer["message"]

    @property
    def seat(self) -> int | None:
        return self.client.seat


def hub_with(clock: Clock, store: SQLiteStore | None = None) -> Hub:
    # (bots move at once on the test's clock: no floor on their delay)
    limits = ServerLimits(min_bot_delay=0.0)
    return Hub(store or SQLiteStore(":memory:"), clock.schedule, clock, clock, limits=limits)


def settings(**given: Any) -> RoomSettings:
    base: dict[str, Any] = {
        "rules": "werewolf",
        "players": 9,
        "bot_delay": 0.05,
        "pace": PACE,
        "timers": "off",
    }
    return RoomSettings.model_validate({**base, **given})


def bots_game(clock: Clock, seed: int, **given: Any) -> tuple[Room, Conn]:
    """A room of bots played to its end, watched by its host from no seat (random bots
    in odd seeds: a random Thief leaves the Seer's card aside as often as not)."""
    hub = hub_with(clock)
    options = {"lift_minimum": True}
    room, token, _ = hub.create(settings(composition=CARDS, options=options, seed=seed, **given))
    host = Conn(hub)
    host.answer({"type": "rejoin", "room": room.code, "token": token})
    fill = ("heuristic", "random")[seed % 2]
    assert host.answer({"type": "start", "fill": fill})["type"] == "ack"
    game = room.game
    assert game is not None

    def over() -> bool:
        host.read()
        return game.finished and room.pacer.held is None

    clock.run(over)
    return room, host


def conditions(game: VillageGame) -> list[tuple[str, str]]:
    """Each public night wake of the game, in order: its step, and whether its card was
    held by a living player, by dead ones only, or by nobody (aside)."""
    roles = list(game.dealt)
    dead: set[int] = set()
    found = []
    for event in game.events:
        if event.kind == "role_taken":
            roles[event.seat("player")] = event.text("role")
        elif event.kind == "death":
            dead.add(event.seat("player"))
        elif event.kind == "wake" and event.audience is None and event.phase == "night":
            step = event.text("step")
            holders = [seat for seat, role in enumerate(roles) if role == CARD_OF[step]]
            state = "aside" if not holders else "dead" if set(holders) <= dead else "living"
            found.append((step, state))
    return found


def night_marks(views: list[Frame]) -> list[tuple[Frame, int]]:
    """Every public night event a spectator was sent but nightfall (the wakes, the dawn
    and what follows it), with the index of the view frame that brought it, in order."""
    found = []
    for index, frame in enumerate(views):
        for event in frame["events"]:
            if event["phase"] == "night" and event["kind"] != "night":
                found.append((event, index))
    return found


def steps_seen(host: Conn) -> list[tuple[float, list[Frame]]]:
    """For each night step the host saw: how long it lasted on the server's clock (from
    its wake's frame to the next night event's), and the view frames sent in it."""
    views = [frame for frame in host.frames if frame["type"] == "view"]
    marks = night_marks(views)
    found = []
    for (event, start), (_, end) in pairwise(marks):
        if event["kind"] == "wake":
            found.append((views[end]["time"] - views[start]["time"], views[start:end]))
    return found


def minimums(game: VillageGame, timer: float | None = None) -> list[float]:
    """What each night step of the game must last, in the order of its wakes: the
    night timer, or ``pace`` and the share the game's generator draws for it."""
    draws = random.Random(f"{game.seed}-pace")
    wakes = [e for e in game.events if e.kind == "wake" and e.audience is None]
    shares = [minimum(PACE, draws) for _ in wakes]
    return [timer if timer is not None else share for share in shares]


@pytest.mark.parametrize(
    ("timer", "bot_delay"),
    [(None, 0.05), (0.7, 0.05), (None, 5.0)],
    ids=["pace", "night-timer", "slow-bots"],
)
def test_every_night_step_lasts_its_minimum_whoever_holds_its_card(
    timer: float | None, bot_delay: float
) -> None:
    """(Slow bots: a bot that waits 5 s before it moves, longer than any step's minimum,
    still decides a night step within it, or a living bot's card would show.)"""
    seen: Counter[tuple[str, str]] = Counter()
    for seed in range(40):
        clock = Clock()
        timers = {} if timer is None else {"night": timer}
        room, host = bots_game(clock, seed, timers=timers, bot_delay=bot_delay)
        game = room.game
        assert isinstance(game, VillageGame)
        wanted = minimums(game, timer)
        held = conditions(game)
        steps = steps_seen(host)
        assert len(steps) == len(held), (seed, len(steps), len(held))
        for (lasted, inside), least, (step, state) in zip(steps, wanted, held, strict=False):
            seen[step, state] += 1
            # (exact, but for the frames' times, to the millisecond)
            assert lasted == pytest.approx(least, abs=1.1e-3), (seed, step, state, lasted, least)
            # One frame in the step, the one that shows its wake: a step decided at once,
            # or nobody's, shows nothing more (with a timer, its deadline to its end).
            assert len(inside) == 1, (seed, step, state, inside)
            (frame,) = inside
            if timer is None:
                assert frame["deadline"] is None
            else:
                assert frame["deadline"] == pytest.approx(frame["time"] + timer, abs=2e-3)
    for step in ("seer", "little_girl", "witch"):
        assert all(seen[step, state] for state in ("living", "dead", "aside")), (step, seen)
    for step in ("thief", "cupid", "lovers"):
        assert all(seen[step, state] for state in ("living", "aside")), (step, seen)


def test_a_step_shown_late_still_lasts_its_whole_minimum() -> None:
    """A busy machine runs every call late, up to 0.4 s: a step shown late lasts its
    whole minimum from when it was shown (the next one is not due earlier for it)."""
    late = 0
    for seed in range(8):
        clock = Clock(lag=lambda order: random.Random(order).uniform(0.0, 0.4))
        room, host = bots_game(clock, seed)
        game = room.game
        assert isinstance(game, VillageGame)
        for (lasted, _), least in zip(steps_seen(host), minimums(game), strict=False):
            assert lasted >= least - 1.1e-3, (seed, lasted, least)
            late += lasted > least + 0.01
    assert late  # (the calls did run late)


# ---------------------------------------------------------------------- held back
def mafia_table(clock: Clock, players: int) -> tuple[Room, list[Conn], Conn]:
    """A mafia-classic room opening with a night, every seat a person (Ann, the host,
    first), and a spectator; dealt and started, the mafia's step shown."""
    hub = hub_with(clock)
    given = settings(
        rules="mafia-classic",
        players=players,
        host_name="Ann",
        options={"first_phase": "night"},
        spectators=True,
        pace=5.0,
        seed=4,
    )
    room, token, _ = hub.create(given)
    table = [Conn(hub) for _ in range(players)]
    table[0].answer({"type": "rejoin", "room": room.code, "token": token})
    for number, conn in enumerate(table[1:], 1):
        assert conn.answer({"type": "join", "room": room.code, "name": f"P{number}"})["seat"]
    watcher = Conn(hub)
    watcher.answer({"type": "watch", "room": room.code})
    assert table[0].answer({"type": "start"})["type"] == "ack"
    for conn in [*table, watcher]:
        conn.read()
    return room, table, watcher


def roles_of(table: list[Conn]) -> dict[int, str]:
    found = {}
    for conn in table:
        dealt = next(e for e in conn.events if e["kind"] == "role_dealt")
        assert conn.seat is not None
        found[conn.seat] = dealt["data"]["role"]
    return found


def probes(mafia: Conn, victim: Conn, other: Conn, watcher: Conn) -> list[object]:
    """What anyone outside the mafia's step may ask, and the answers they get."""
    assert other.view is not None and victim.view is not None
    junk = {"type": "act", "verb": "kill", "args": [0]}
    answers: list[object] = [
        victim.refused({"type": "chat", "text": "am I dead?"}),
        other.refused({"type": "chat", "text": "hello?"}),
        other.refused({**junk, "state_id": other.view["state_id"]}),
        victim.refused({**junk, "state_id": victim.view["state_id"]}),
        other.refused({**junk, "state_id": 0}),
        watcher.refused({"type": "chat", "text": "hi"}),
        watcher.refused({**junk, "state_id": 0}),
    ]
    said = mafia.answer({"type": "chat", "text": "psst"})
    answers.append(said["type"])
    answers.append([line["channel"] for line in other.read() + watcher.read() if "text" in line])
    return answers


def test_while_a_step_is_held_back_every_answer_is_the_step_shown() -> None:
    """The mafia's step, then the dawn held back after their kill: a villager's junk
    act, the victim's and a spectator's chat get the same answers while the step runs
    and while the dawn is held; the victim is told he is dead, and may speak to the
    dead, when the dawn is shown."""
    clock = Clock()
    room, table, watcher = mafia_table(clock, 4)
    roles = roles_of(table)
    (mafia,) = [conn for conn in table if roles[conn.seat or 0] == "mafia"]
    victim, other = [conn for conn in table if conn is not mafia][:2]
    running = probes(mafia, victim, other, watcher)
    assert mafia.view is not None and mafia.view["prompts"]
    kill = {"type": "act", "verb": "kill", "args": [victim.seat]}
    assert mafia.answer({**kill, "state_id": mafia.view["state_id"]})["type"] == "ack"
    assert room.pacer.held is not None  # the dawn waits for the step's minimum
    for conn in [*table, watcher]:
        conn.read()
    held = probes(mafia, victim, other, watcher)
    assert held == running, (running, held)
    assert held[0] == ("muted", "at night you sleep: no talking")
    name = "Ann" if other.seat == 0 else f"P{other.seat}"
    assert held[2] == ("illegal", f"{name} has nothing to do now")
    assert held[4][0] == "stale" and held[6][0] == "not_allowed"  # type: ignore[index]
    assert held[5] == ("muted", "spectators watch in silence during a game")
    assert held[7:] == ["ack", []]  # the pack talks while its step is shown, alone
    clock.run(lambda: room.pacer.held is None)
    for conn in [*table, watcher]:
        conn.read()
    assert victim.view is not None and victim.view["phase"] == "day"
    before = {id(conn): len(conn.frames) for conn in [*table, watcher]}
    assert victim.answer({"type": "chat", "text": "from beyond"})["type"] == "ack"
    heard = {}
    for conn in [*table, watcher]:
        conn.read()
        new = conn.frames[before[id(conn)] :]
        heard[id(conn)] = [f["channel"] for f in new if f.get("text") == "from beyond"]
    assert heard.pop(id(victim)) == ["dead"]
    assert not any(heard.values())  # (neither the living nor the spectator)


def test_a_game_ended_in_a_held_step_ends_for_everyone_when_shown() -> None:
    """The game ends at the first dawn, held back: until it is shown the lobby says
    the game is being played, with no result, ``again`` and ``start`` are refused and
    nobody is shown the end; then every seat is, and ``again`` starts the next game."""
    clock = Clock()
    room, table, watcher = mafia_table(clock, 3)
    roles = roles_of(table)
    (mafia,) = [conn for conn in table if roles[conn.seat or 0] == "mafia"]
    victim = next(conn for conn in table if conn is not mafia)
    assert mafia.view is not None
    kill = {"type": "act", "verb": "kill", "args": [victim.seat]}
    assert mafia.answer({**kill, "state_id": mafia.view["state_id"]})["type"] == "ack"
    assert room.game is not None and room.game.finished and room.pacer.held is not None
    host = table[0]
    assert host.refused({"type": "again"})[0] == "not_allowed"
    assert host.refused({"type": "start"})[0] == "started"
    lobby = json.loads(room.lobby_text())
    assert (lobby["status"], lobby["results"]) == ("playing", [])
    for conn in [*table, watcher]:
        conn.read()
        assert conn.view is not None and not conn.view["finished"]
        assert conn.lobby is not None and conn.lobby["status"] == "playing"
    assert victim.view is not None
    junk = {"type": "act", "verb": "kill", "args": [0], "state_id": victim.view["state_id"]}
    assert victim.refused(junk)[0] == "illegal"
    clock.run(lambda: room.pacer.held is None)
    for conn in [*table, watcher]:
        conn.read()
        assert conn.view is not None and conn.view["finished"]
        assert conn.events[-1]["kind"] == "game_over"
        assert conn.lobby is not None and conn.lobby["status"] == "finished"
        assert len(conn.lobby["results"]) == 1
    assert host.answer({"type": "again"})["type"] == "ack"
    assert (room.status, room.number) == ("lobby", 1)  # (back in the lobby: issue 25)
    assert host.answer({"type": "start"})["type"] == "ack"
    assert room.number == 2


def test_a_restart_holds_back_what_was_held() -> None:
    store = SQLiteStore(":memory:")
    clock = Clock()
    hub = hub_with(clock, store)
    room, _, _ = hub.create(settings(composition=CARDS, seed=2, options={"lift_minimum": True}))
    room.start("heuristic")
    clock.run(lambda: room.pacer.held is not None)
    held = room.pacer.held
    shown_step = room.pacer.marks[room.pacer.shown - 1]
    later = Clock()
    later.now = clock.now + 100.0
    restarted = hub_with(later, store)
    assert restarted.restore() == 1
    again = restarted.rooms[room.code]
    assert again.pacer.held == held
    start = later.now
    later.run(lambda: again.pacer.held != held)
    assert later.now - start == pytest.approx(shown_step.least, abs=1e-6)
