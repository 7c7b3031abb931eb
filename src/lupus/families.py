"""The registry of game families, and the entry points that go through it.

A rulebook's ``family`` names the mechanics that play it; each family is registered
here once (``FAMILIES``), with everything that differs between families (see
``lupus.engine.family.Family``). Setting up a game, dealing at random, checking that a
rulebook names only steps its family knows: all of it asks the family, and nothing
else in lupus branches on a family or a rulebook id.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Final

from lupus.engine.deal import Deal
from lupus.engine.errors import RulebookError
from lupus.engine.family import Family
from lupus.engine.game import Game
from lupus.engine.interned import MAX_SEATS
from lupus.files import printable
from lupus.lupusburg.family import FAMILY as LUPUSBURG
from lupus.rulebooks import load as load_data
from lupus.rulebooks.schema import OptionValue, Rulebook
from lupus.village.family import FAMILY as VILLAGE
from lupus.village.plugin import Role

FAMILIES: Final[dict[str, Family]] = {VILLAGE.name: VILLAGE, LUPUSBURG.name: LUPUSBURG}


def family_of(book: Rulebook) -> Family:
    """The family that plays ``book``, or RulebookError if lupus has none by its name."""
    family = FAMILIES.get(book.family)
    if family is None:
        known = ", ".join(FAMILIES)
        raise RulebookError(f"{book.id}: unknown family {book.family!r} (known: {known})")
    return family


def check(book: Rulebook) -> Rulebook:
    """``book`` if its family can play it to an end; else RulebookError naming the key
    and the reason (``problem``).

    Kept in the book's facts with the family's ``revision`` (a role registered or taken
    back changes what the family can play)."""
    family = family_of(book)
    facts = book.facts
    stamp = (family.name, family.revision)
    if facts.playable == stamp:
        return book
    found = problem(book, family)
    if found:
        raise RulebookError(printable(f"{book.id}: {found}", 300))
    facts.playable = stamp
    return book


def problem(book: Rulebook, family: Family) -> str | None:
    """Why ``family`` cannot play ``book`` (``key: reason``), or None: a step it does
    not know, more seats than a game has, or what the family itself finds
    (``Family.unplayable``: a rulebook that loads can be played to an end)."""
    unknown = family.unknown_steps(book)
    if unknown:
        where, step_id = unknown[0]
        known = ", ".join(family.step_ids())
        return f"{where}: unknown step {step_id!r} (known: {known})"
    if book.max_players > MAX_SEATS:
        return f"max_players: at most {MAX_SEATS}, not {book.max_players}"
    return family.unplayable(book)


def load(rules: str) -> Rulebook:
    """A rulebook by id or path (``lupus.rulebooks.load``: a file is read as it is now),
    checked by its family (a file's refusal names the file)."""
    book = load_data(rules)
    try:
        return check(book)
    except RulebookError as exc:
        if rules == book.id:
            raise
        reason = str(exc).removeprefix(f"{book.id}: ")
        raise RulebookError(f"{printable(rules, 100)}: {reason}") from exc


def rulebook(rules: str | Rulebook) -> Rulebook:
    """A rulebook given by id, path or as a loaded one, checked by its family."""
    return load(rules) if isinstance(rules, str) else check(rules)


def new_game(
    rules: str | Rulebook,
    players: Sequence[str],
    roles: Sequence[str] = (),
    extra_cards: Sequence[str] = (),
    options: dict[str, OptionValue] | None = None,
    seed: int = 0,
    *,
    characters: Sequence[Sequence[str]] = (),
    chests: Sequence[int] = (),
    burgomaster: int = 0,
    bag: Sequence[int] | None = None,
) -> Game:
    """A started game with a fixed deal (nothing shuffled), ready for its first prompts.

    Village rulebooks take ``roles`` (one card per player, in seat order) and, with a
    Thief, ``extra_cards``; Lupusburg takes ``characters`` (two per player, under house
    1 and house 2), ``chests`` (1 or 2 per player), the first ``burgomaster`` and
    optionally the ``bag``'s order.

    >>> from lupus import new_game
    >>> game = new_game("werewolf", ["Ann", "Bob", "Cy", "Dee"],
    ...                 ["werewolf", "seer", "villager", "villager"],
    ...                 options={"lift_minimum": True}, seed=1)
    >>> game.phase, game.number, game.waiting()
    ('night', 1, [1])
    """
    deal = Deal(
        roles=tuple(roles),
        extra_cards=tuple(extra_cards),
        characters=tuple(tuple(pair) for pair in characters),
        chests=tuple(chests),
        burgomaster=burgomaster,
        bag=None if bag is None else tuple(bag),
    )
    return set_up(rules, players, deal, options, seed)


def set_up(
    rules: str | Rulebook,
    players: Sequence[str],
    deal: Deal,
    options: dict[str, OptionValue] | None = None,
    seed: int = 0,
) -> Game:
    """``new_game`` with the deal as one value (a random ``deal``, a scenario's)."""
    book = rulebook(rules)
    return family_of(book).new_game(book, players, deal, options, seed)


def deal(
    rules: str | Rulebook,
    players: int,
    counts: Mapping[str, int],
    rng: random.Random,
    options: Mapping[str, OptionValue] | None = None,
) -> Deal:
    """A random deal of ``counts`` to ``players`` seats that the rules accept."""
    book = rulebook(rules)
    return family_of(book).deal(book, players, counts, rng, options or {})


def register_role(role: Role) -> None:
    """Add a village role from outside ``lupus.roles`` (see ``docs/adding-a-role.md``)."""
    VILLAGE.register(role)


def unregister_role(role: Role) -> None:
    """Take back a role ``register_role`` added."""
    VILLAGE.unregister(role)
