"""Seeded random decks of a rulebook, one per game, over every playable size.

A deck starts from the rulebook's recommended composition for its size and moves a few
cards from one role to another (whole ``comes_in`` groups); the options are drawn from
what the rulebook declares. A draw the rules refuse is drawn again, and the
recommended composition with the default options is the last resort: every size plays.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from lupus.engine.deal import Deal, composition, seat_names
from lupus.engine.errors import SetupError
from lupus.engine.game import Game
from lupus.families import deal, family_of
from lupus.rulebooks.schema import OptionValue, Rulebook
from lupus.testing.errors import Broken

TRIES = 12
"""Random decks tried for a size before its recommended composition."""


@dataclass(frozen=True)
class Setup:
    """One game before its first action: deal, options and the game's seed."""

    book: Rulebook
    players: int
    dealt: Deal
    options: dict[str, OptionValue]
    seed: int

    def new_game(self) -> Game:
        names = seat_names(self.players)
        return family_of(self.book).new_game(
            self.book, names, self.dealt, dict(self.options), self.seed
        )


def sizes(book: Rulebook, games: int, rng: random.Random) -> list[int]:
    """``games`` table sizes: every playable size once (in a shuffled order) before any
    size twice, so that ``games`` at least the span of sizes plays each."""
    span = list(range(book.min_players, book.max_players + 1))
    chosen: list[int] = []
    while len(chosen) < games:
        batch = list(span)
        rng.shuffle(batch)
        chosen += batch
    return chosen[:games]


def options(book: Rulebook, rng: random.Random) -> dict[str, OptionValue]:
    """Options drawn from their declarations (about half of them left at their default)."""
    drawn: dict[str, OptionValue] = {}
    for key, spec in book.options.items():
        if rng.random() < 0.5:
            continue
        if spec.type == "bool":
            drawn[key] = rng.random() < 0.5
        elif spec.type == "choice":
            drawn[key] = rng.choice(spec.choices)
        elif spec.type == "float" and spec.min is not None and spec.max is not None:
            drawn[key] = rng.choice([spec.min, spec.max, rng.uniform(spec.min, spec.max)])
        elif spec.type == "int" and spec.min is not None and spec.max is not None:
            drawn[key] = rng.randint(int(spec.min), int(spec.max))
    return drawn


def counts(book: Rulebook, players: int, rng: random.Random, index: int) -> dict[str, int]:
    """The recommended composition with a few cards moved from one role to another,
    the first to a role it leaves out (game ``index`` features the index-th of them):
    every role of the rulebook plays in a few games."""
    deck = dict(composition(book, players))
    absent = sorted(r for r in book.roles if not deck.get(r))
    if absent:
        common = max(sorted(deck), key=lambda r: deck[r])
        featured = absent[index % len(absent)]
        group = max(book.roles[common].comes_in, book.roles[featured].comes_in)
        if deck[common] > group:
            deck[common] -= group
            deck[featured] = group
    for _ in range(rng.randint(0, 2)):
        held = sorted(r for r, c in deck.items() if c)
        if not held:
            break
        source, target = rng.choice(held), rng.choice(sorted(book.roles))
        group = max(book.roles[source].comes_in, book.roles[target].comes_in)
        if source != target and deck[source] >= group:
            deck[source] -= group
            deck[target] = deck.get(target, 0) + group
    return {r: c for r, c in deck.items() if c}


def lifted(book: Rulebook) -> dict[str, OptionValue]:
    """The default options, with the house rule that lifts a minimum configuration on."""
    minimum = book.minimum
    if minimum is None or minimum.lifted_by is None:
        return {}
    return {minimum.lifted_by: True}


def setup(book: Rulebook, players: int, rng: random.Random, index: int = 0) -> Setup:
    """A random legal game of ``players`` seats, the ``index``-th of a check (see the
    module and :func:`counts`)."""
    for attempt in range(TRIES + 1):
        last = attempt == TRIES
        cards = (
            dict(composition(book, players))
            if last
            else counts(book, players, rng, index + attempt)
        )
        chosen = lifted(book) if last else options(book, rng)
        try:
            dealt = deal(book, players, cards, rng, chosen)
            made = Setup(book, players, dealt, chosen, rng.getrandbits(63))
            made.new_game()
        except SetupError as exc:
            if last:
                raise Broken("deals", f"{players} players: {exc}") from None
            continue
        return made
    raise AssertionError("unreachable")
