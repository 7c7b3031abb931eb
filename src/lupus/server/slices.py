"""A finished game's record made in slices: its replay and its story, on the event loop
a couple of milliseconds at a time.

A stored game is replayed action by action to give its scenario or its story
(``GET /api/games/{id}/scenario``, ``/story``): tens of milliseconds for a long game
of thirty players, and a client may ask for ten at once (``render_burst``). Made in
one go, they held every room's frames back for as long (a ping of another room waited
190 ms); a thread does not help, for the replay holds the interpreter's lock and the
loop waits its turn for it at every wake-up. So the work yields to the loop after
each ``WORK_SLICE`` (2 ms), as the bots' work does (``work.Worker``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator, Sequence
from typing import TypeVar

from lupus.engine.event_json import to_json as event_json
from lupus.engine.game import Game
from lupus.engine.model import LEADER, Action
from lupus.families import table_of
from lupus.narration import Narrator
from lupus.scenario import parse
from lupus.scenario import setup as scenario_setup
from lupus.server.limits import WORK_SLICE

Item = TypeVar("Item")

CHUNK = 16
"""Items done between two looks at the clock."""


class Slicer:
    """Counts the time spent since the loop last had its turn."""

    def __init__(self, budget: float = WORK_SLICE) -> None:
        self.budget = budget
        self.began = time.perf_counter()

    async def pause(self) -> None:
        """Let the loop serve everyone else if this slice is spent."""
        if time.perf_counter() - self.began >= self.budget:
            await asyncio.sleep(0)
            self.began = time.perf_counter()


def chunks(items: Sequence[Item]) -> Iterator[Sequence[Item]]:
    for start in range(0, len(items), CHUNK):
        yield items[start : start + CHUNK]


async def replayed(header: dict[str, object], actions: list[list[object]]) -> Game:
    """``records.replayed`` in slices: the stored game, every action applied again."""
    slicer = Slicer()
    game = scenario_setup(parse({**header, "actions": []}, "stored game"))
    for chunk in chunks(actions):
        for actor, verb, args in chunk:
            assert isinstance(actor, int) and isinstance(verb, str) and isinstance(args, list)
            game.apply(Action(actor, verb, tuple(args)))
        await slicer.pause()
    return game


async def story(game_id: str, game: Game, lang: str | None) -> dict[str, object]:
    """A finished game as the replay page reads it (``GET /api/games/{id}/story``), in
    slices: the game leader's view of it (every event, every card, whom each private
    one was told), in words and as data."""
    slicer = Slicer()
    view = game.view(LEADER)
    narrator = Narrator(view.book, view.names, lang)
    lines: list[str] = []
    events: list[object] = []
    for chunk in chunks(view.events):
        lines += narrator.story(chunk, view.seat)  # (it goes on from the chunk before)
        events += [event_json(event) for event in chunk]
        await slicer.pause()
    return {
        "game": game_id,
        "rules": game.rulebook.id,
        "players": list(game.names),
        "lines": lines,
        "events": events,
        # The public table at the end (every card is public then, and the end says who
        # won), as a view's ``public``: the replay page reads it, not the events.
        "public": table_of(view).to_json(),
    }
