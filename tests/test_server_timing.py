"""Fair timing over the wire: a night step lasts as long, and shows everyone outside
it the same messages, whether the role that wakes in it is alive or dead.

A dead role's step resolves at once in the engine (nobody can act in it); the server
holds the next step back until the dead step has lasted its full minimum
(``lupus.server.pacing``: ``pace`` and a share drawn from the game's seed). Measured
here from a spectator's side of the wire, with bots that act quickly, on the server's
own clock (each view's ``time``: when its latest public event was shown), so that a
loaded machine's late frames cannot make a step look shorter: every night step, dead
or alive, lasts at least its minimum, and at most a loose bound more (the machine's
lateness). ``tests/test_server_fair.py`` checks every step of every rulebook so, and
``tests/test_server_pacing.py`` the exact lengths on a clock the test moves.
"""

from __future__ import annotations

import asyncio
import random
import time
from itertools import pairwise
from typing import Any

import httpx
import pytest
from tests.server_harness import Player, Server, running

from lupus import scenario as sc
from lupus.engine.game import Game
from lupus.server.pacing import minimum

PACE = 0.2
SLACK = 1.0  # how much later than its minimum a step may end on a busy machine
SEEDS = (1, 2, 3)  # tables where a Seer, Witch or Little Girl dies before a later night


@pytest.fixture(scope="module")
def server(store_kind: str, tmp_path_factory: pytest.TempPathFactory) -> Server:
    with running(tmp_path_factory.mktemp("timing") / "lupus.db") as started:
        yield started


async def watch_a_game(server: Server, seed: int) -> tuple[list[dict[str, Any]], Game]:
    """A room of bots played to the end, watched by its host (a spectator): every view
    frame, and the game replayed from its scenario."""
    created = server.create(rules="werewolf", players=8, seed=seed, pace=PACE, bot_delay=0.02)
    host = await Player(server).connect()
    try:
        await host.rejoin(created["room"], created["host_token"])
        ref = await host.send({"type": "start", "fill": "heuristic"})
        await host.answer(ref)
        while host.view is None or not host.view["finished"]:
            await host.receive(30)
    finally:
        await host.close()
    lobby = httpx.get(f"{server.http}/api/rooms/{created['room']}").json()
    scenario = httpx.get(f"{server.http}/api/games/{lobby['game']}/scenario").json()
    views = [frame for frame in host.frames if frame["type"] == "view"]
    return views, sc.replay(sc.parse(scenario)).game


def night_steps(game: Game) -> list[tuple[str, bool]]:
    """Each night step's wake, in order: its id, and whether a holder of its card was
    alive when it woke."""
    found = []
    dead: set[int] = set()
    for event in game.events:
        if event.kind == "death":
            dead.add(event.seat("player"))
        if event.kind == "wake" and event.audience is None and event.phase == "night":
            step = event.text("step")
            card = {"werewolves": "werewolf"}.get(step, step.replace("_", "-"))
            holders = [s for s, role in enumerate(game.dealt) if role == card]
            found.append((step, any(s not in dead for s in holders)))
    return found


def test_a_dead_roles_step_lasts_as_long_as_a_living_ones(server: Server) -> None:
    async def watch_all() -> list[tuple[list[dict[str, Any]], Game]]:
        return list(await asyncio.gather(*(watch_a_game(server, seed) for seed in SEEDS)))

    lasted: dict[bool, list[float]] = {True: [], False: []}
    shown: dict[bool, set[tuple[str, ...]]] = {True: set(), False: set()}
    for views, game in asyncio.run(watch_all()):
        steps = night_steps(game)
        draws = random.Random(f"{game.seed}-pace")
        least = [minimum(PACE, draws) for _ in steps]
        # Each public night event but nightfall (a wake, the dawn and what follows),
        # with the frame that showed it.
        marks = [
            (event, frame)
            for frame in views
            for event in frame["events"]
            if event["audience"] is None and event["phase"] == "night" and event["kind"] != "night"
        ]
        wake = 0
        for (event, frame), (_, after) in pairwise(marks):
            if event["kind"] != "wake":
                continue
            step, alive = steps[wake]
            assert event["data"]["step"] == step
            length = after["time"] - frame["time"]
            # Never shorter than its minimum (the guarantee, on the server's clock: the
            # views' times are to the millisecond); longer only by the machine's lateness.
            assert least[wake] - 2e-3 <= length <= least[wake] + SLACK, (step, alive, length)
            lasted[alive].append(length - least[wake])
            shown[alive].add((step, *[e["kind"] for e in frame["events"]][-2:]))
            wake += 1
        assert wake == len(steps)
    assert lasted[False], "no dead role's step was seen: pick other seeds"
    assert lasted[True]
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
