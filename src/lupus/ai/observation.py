"""The fixed-size encoding of one seat's view (docs/ai.md, "Observation").

Everything here is read from a ``View`` and the public setup it carries, nothing else,
so an observation can hold no more than the seat may know (``tests/test_ai_env.py``
checks it with the property tests' referee). The layout, for ``n`` seats and ``c`` cards
(the rulebook's card ids, sorted), as consecutive blocks of one int vector:

=========  ===========  ====================================================
block      size         content
=========  ===========  ====================================================
seat       n            1 at the seat's own place
phase      3            1 at setup, night or day
finished   1            1 once the game is over
number     1            the night's or day's number
alive      n            1 for each player the view knows to be in the game
cards      n * c        1 at (seat, card) for each card the view was shown
                        a seat holds (its own included; the latest wins)
choices    n * n        at (player, target): how many times the view saw
                        ``player`` name the seat ``target`` this phase
                        (ballots, nominations, the pack's picks, bets)
=========  ===========  ====================================================

Lupusburg's characters live in houses (``2n``, house ``h`` of seat ``h // 2``): there
the ``cards`` block has one row per house (``2n * c``), and two blocks follow:

============  =======  ==================================================
houses_alive  2n       1 for each house whose character the view knows alive
house_votes   n * 2n   at (player, house): how many times the view saw
                       ``player`` name ``house`` this phase (tokens, the
                       second voting's ballots it was told)
============  =======  ==================================================
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from lupus.engine.model import Event
from lupus.engine.views import View, role_facts
from lupus.rulebooks.schema import Rulebook

PHASES: Final = ("setup", "night", "day")

MOST: Final = 1_000_000
"""The largest value of any entry (a day's number, a count): the space's bound."""


class Encoder:
    """The encoding of one rulebook at one table size (see the module)."""

    def __init__(self, book: Rulebook, players: int, houses: bool) -> None:
        self.n: Final = players
        self.cards: Final = tuple(sorted(book.roles))
        self._card: Final = {card: i for i, card in enumerate(self.cards)}
        self.houses: Final = houses
        self.holders: Final = 2 * players if houses else players  # the cards block's rows
        n, c = players, len(self.cards)
        blocks = [
            ("seat", n),
            ("phase", len(PHASES)),
            ("finished", 1),
            ("number", 1),
            ("alive", n),
            ("cards", self.holders * c),
            ("choices", n * n),
        ]
        if houses:
            blocks += [("houses_alive", 2 * n), ("house_votes", n * 2 * n)]
        self.blocks: Final[tuple[tuple[str, int], ...]] = tuple(blocks)
        self.size: Final = sum(size for _, size in self.blocks)
        starts: dict[str, int] = {}
        at = 0
        for name, size in self.blocks:
            starts[name] = at
            at += size
        self.start: Final = starts

    def encode(self, view: View) -> npt.NDArray[np.int32]:
        """The vector of ``view`` (a seat's view; see the module for the layout)."""
        out = np.zeros(self.size, dtype=np.int32)
        n, start = self.n, self.start
        if 0 <= view.seat < n:
            out[start["seat"] + view.seat] = 1
        if view.phase in PHASES:
            out[start["phase"] + PHASES.index(view.phase)] = 1
        out[start["finished"]] = int(view.finished)
        out[start["number"]] = min(view.number, MOST)
        for seat in view.alive():
            out[start["alive"] + seat] = 1
        cards = start["cards"]
        width = len(self.cards)
        known: dict[int, str] = {}
        for event in view.events:
            for holder, card in self.facts(event):
                known[holder] = card
        for holder, card in known.items():
            place = self._card.get(card)
            if place is not None and 0 <= holder < self.holders:
                row = cards + holder * width
                out[row : row + width] = 0
                out[row + place] = 1
        self.count_choices(view, out, "choices", "target", n)
        if self.houses:
            alive = start["houses_alive"]
            out[alive : alive + 2 * n] = 1
            for event in view.events:
                if event.kind == "character_dies" and type(event.data.get("house")) is int:
                    house = event.seat("house")
                    if 0 <= house < 2 * n:
                        out[alive + house] = 0
            self.count_choices(view, out, "house_votes", "house", 2 * n)
        return out

    def count_choices(
        self, view: View, out: npt.NDArray[np.int32], block: str, field: str, width: int
    ) -> None:
        """Count into ``block`` each event of the view's current phase in which a
        ``player`` names a ``field`` (a seat or a house) below ``width``."""
        start, n = self.start[block], self.n
        for event in view.events:
            if event.phase != view.phase or event.number != view.number:
                continue
            data = event.data
            player, target = data.get("player"), data.get(field)
            if type(player) is int and type(target) is int and event.kind != "character_dies":
                assert isinstance(player, int) and isinstance(target, int)
                if 0 <= player < n and 0 <= target < width:
                    place = start + player * width + target
                    out[place] = min(out[place] + 1, MOST)

    def facts(self, event: Event) -> list[tuple[int, str]]:
        """The (holder, card) facts an event tells: a seat's card (``role_facts``), or
        in Lupusburg a house's character."""
        if not self.houses:
            return role_facts(event)
        data = event.data
        found: list[tuple[int, str]] = []
        if "character" in data and type(data.get("house")) is int:
            found.append((event.seat("house"), event.text("character")))
        if "characters" in data:
            found.extend(event.seat_texts("characters").items())
        return found
