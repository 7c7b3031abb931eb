"""The fixed-size encoding of one seat's view (docs/ai.md, "Observation").

Everything here is read from a ``View`` and the public setup it carries, nothing else,
so an observation can hold no more than the seat may know (``tests/test_ai_env.py``
checks it with the property tests' referee). The layout, for ``n`` seats, ``c`` cards
(the rulebook's card ids, sorted) and ``t`` targets (``n``, or Lupusburg's ``2n``
houses), as consecutive blocks of one int vector:

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
choices    n * t        at (player, target): how many times the view saw
                        ``player`` name ``target`` this phase (ballots,
                        tokens, bets, nominations, the pack's picks)
=========  ===========  ====================================================

Lupusburg's characters are shown by house: the ``cards`` block has ``2n`` rows there
(house ``h`` is row ``h``), one per house, instead of ``n``.
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
        self.targets: Final = 2 * players if houses else players
        n, c = players, len(self.cards)
        self.blocks: Final[tuple[tuple[str, int], ...]] = (
            ("seat", n),
            ("phase", len(PHASES)),
            ("finished", 1),
            ("number", 1),
            ("alive", n),
            ("cards", self.holders * c),
            ("choices", n * self.targets),
        )
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
        choices = start["choices"]
        for event in view.events:
            if event.phase != view.phase or event.number != view.number:
                continue
            data = event.data
            player, target = data.get("player"), data.get("target", data.get("house"))
            if type(player) is int and type(target) is int:
                assert isinstance(player, int) and isinstance(target, int)
                if 0 <= player < n and 0 <= target < self.targets:
                    place = choices + player * self.targets + target
                    out[place] = min(out[place] + 1, MOST)
        return out

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
