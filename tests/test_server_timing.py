"""Fair timing over the wire: a night step lasts as long, and shows everyone outside
it the same messages, whether the role that wakes in it is alive or dead.

A dead role's step resolves at once in the engine (nobody can act in it); the server
holds the next step back until the dead step has lasted its full time
(``lupus.server.pacing``). Measured here from a spectator's side of the wire, with
bots that act quickly: every night step, dead or alive, lasts the room's pace.
"""

from __future__ import annotations

import asyncio
import time
from itertools import pairwise
from typing import Any

import httpx
import pytest
from tests.server_harness import Player, Server, running

from lupus import scenario as sc
from lupus.engine.game import Game

PACE = 0.4
SEEDS = (1, 2, 3)  # tables where a Seer, Witch or Little Girl dies before a later night


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Server:
    with running(tmp_path_factory.mktemp("timing") / "lupus.db") as started:
        yield started


def watch_a_game(server: Server, seed: int) -> tuple[list[tuple[float, dict[str, Any]]], Game]:
    """A room of bots played to the end, watched by its host (a spectator): every view
    frame with the time it arrived, and the game replayed from its scenario."""
    created = server.create(rules="werewolf", players=8, seed=seed, pace=PACE, bot_delay=0.02)

    async def watch() -> list[tuple[float, dict[str, Any]]]:
        host = await Player(server).connect()
        try:
            await host.rejoin(created["room"], created["host_token"])
            ref = await host.send({"type": "start", "fill": "heuristic"})
            await host.answer(ref)
            seen: list[tuple[float, dict[str, Any]]] = []
            while host.view is None or not host.view["finished"]:
                frame = await host.receive(30)
                if frame["type"] == "view":
                    seen.append((time.monotonic(), frame))
            return seen
        finally:
            await host.close()

    frames = asyncio.run(watch())
    lobby = httpx.get(f"{server.http}/api/rooms/{created['room']}").json()
    scenario = httpx.get(f"{server.http}/api/games/{lobby['game']}/scenario").json()
    return frames, sc.replay(sc.parse(scenario)).game


def night_steps(game: Game) -> list[tuple[int, str, bool]]:
    """Each night step's wake (its place in the ledger), its id, and whether a holder
    of its card was alive when it woke."""
    found = []
    dead: set[int] = set()
    for event in game.events:
        if event.kind == "death":
            dead.add(event.seat("player"))
        if event.kind == "wake" and event.audience is None and event.phase == "night":
            step = event.text("step")
            card = step.replace("_", "-")
            holders = [s for s, role in enumerate(game.dealt) if role == card]
            if holders:
                found.append((event.seq, step, any(s not in dead for s in holders)))
    return found


def test_a_dead_roles_step_lasts_as_long_as_a_living_ones(server: Server) -> None:
    lasted: dict[bool, list[float]] = {True: [], False: []}
    shown: dict[bool, set[tuple[str, ...]]] = {True: set(), False: set()}
    for seed in SEEDS:
        frames, game = watch_a_game(server, seed)
        steps = {place: (step, alive) for place, step, alive in night_steps(game)}
        # When each public night mark (a wake, or the dawn ending the night) arrived.
        arrived: list[tuple[float, int, int, list[str]]] = []  # time, night, place, kinds
        for at, frame in frames:
            kinds = [event["kind"] for event in frame["events"]]
            for place, event in enumerate(frame["events"], start=frame["from"]):
                if event["phase"] == "night" and event["kind"] in ("wake", "dawn"):
                    arrived.append((at, event["number"], place, kinds))
        public = [e for e in game.events if e.audience is None]
        for (at, night, place, kinds), (then, next_night, _, _) in pairwise(arrived):
            if night != next_night:
                continue
            seq = public[place].seq
            if seq not in steps:
                continue
            step, alive = steps[seq]
            lasted[alive].append(then - at)
            shown[alive].add((step, *kinds))

    assert lasted[False], "no dead role's step was seen: pick other seeds"
    assert lasted[True]
    # No step is shown before the one before it has lasted the pace (the guarantee);
    # later is the machine's scheduling, alike for both (a loaded machine's noise).
    for alive, durations in lasted.items():
        for duration in durations:
            assert PACE - 0.05 <= duration <= PACE + 1.0, (alive, durations)
    living = sorted(lasted[True])[len(lasted[True]) // 2]
    dead = sorted(lasted[False])[len(lasted[False]) // 2]
    assert abs(living - dead) < 0.1, (living, dead)  # medians: one late frame is noise
    # The frame that shows a dead role's step looks like one showing a living role's:
    # the same events (its wake, after nightfall's for the night's first step).
    assert shown[False] <= shown[True], shown


def test_timers_close_the_steps_of_a_player_who_does_nothing(server: Server) -> None:
    """A person who never answers: each step waiting on him closes when its timer runs
    out (his choice missing counts as a pass), and his views carry the deadline."""
    created = server.create(
        rules="werewolf",
        players=6,
        host_name="Ann",
        seed=7,
        bot_delay=0.01,
        timers={"night": 0.3, "day": 0.3, "steps": {"vote": 0.4}},
        options={"lift_minimum": True},
        composition={"werewolf": 1, "seer": 1, "villager": 4},
    )

    async def idle() -> list[dict[str, Any]]:
        host = await Player(server).connect()
        try:
            await host.rejoin(created["room"], created["host_token"])
            await host.answer(await host.send({"type": "start", "fill": "heuristic"}))
            while host.view is None or not host.view["finished"]:
                await host.receive(30)
            return [f for f in host.frames if f["type"] == "view"]
        finally:
            await host.close()

    started = time.time()
    views = asyncio.run(idle())
    deadlines = [v["deadline"] for v in views if v["deadline"] is not None]
    assert deadlines, "no view carried a deadline"
    assert all(started < d < time.time() + 1 for d in deadlines)
    waited = [v for v in views if v["waiting"]]
    assert waited and all(v["deadline"] is not None for v in waited)
    assert views[-1]["finished"]
