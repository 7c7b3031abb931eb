"""The compositions a rulebook accepts for a table: the field the balance search plays.

A composition is a ``{role: count}`` mapping, written ``werewolf=2,seer=1,villager=5``
(`key`, the ``--roles`` syntax). The candidates for ``players`` are every composition
whose pack size lies in a range, every special role from 0 to its ``max`` in sets of
``comes_in``, the filler role making up the rest, the cards a card sets aside (a
Thief's two, ``Role.extra_cards``), and that
``new_game`` accepts with the rulebook's options; a family that deals one deck only
(``Family.fixed_deck``) has that deck as its single candidate.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping

from lupus.engine.deal import seat_names
from lupus.engine.errors import SetupError
from lupus.engine.limits import MAX_CANDIDATES
from lupus.families import bringing_aside, card_weights, cards_aside, family_of, new_game
from lupus.rulebooks.schema import OptionValue, Rulebook

Counts = dict[str, int]
PackRange = tuple[int | None, int | None]
"""Pack sizes to try, low and high; None: the default (`default_pack_range`)."""


def key(counts: Mapping[str, int]) -> str:
    """``werewolf=2,seer=1,villager=5`` in the rulebook's role order (``--roles`` syntax)."""
    return ",".join(f"{r}={n}" for r, n in counts.items() if n)


def ordered(book: Rulebook, counts: Mapping[str, int]) -> Counts:
    """The pack first, then the other roles in the rulebook's order, the filler last."""
    pack = book.tagged(book.mechanics.pack_tag)
    filler = fillers(book)[1]
    order = sorted(book.roles, key=lambda r: (r not in pack, r == filler))
    return {r: counts[r] for r in order if counts.get(r)}


def points(book: Rulebook, counts: Mapping[str, int]) -> int:
    """The deck's score as game designers count it: each card's worth to its side
    (``families.card_weights``, from ``Role.weight``) summed; near 0 is a deck a
    designer would call even, before a game is played."""
    return summed(card_weights(book), counts)


def summed(weights: Mapping[str, int], counts: Mapping[str, int]) -> int:
    """The points of ``counts`` by these weights (``points``, its weights read once)."""
    return sum(weights.get(card, 0) * count for card, count in counts.items())


def closest_by_points(book: Rulebook, pool: list[Counts], field: int) -> list[Counts]:
    """The ``field`` candidates of ``pool`` whose points are nearest 0 (ties in the
    pool's order), kept in the pool's order: the prior a search narrows a wide field
    with before it plays."""
    if len(pool) <= field:
        return pool
    weights = card_weights(book)
    ranked = sorted(range(len(pool)), key=lambda i: (abs(summed(weights, pool[i])), i))
    kept = sorted(ranked[:field])
    return [pool[i] for i in kept]


def pack_size(book: Rulebook, counts: Mapping[str, int]) -> int:
    pack = book.tagged(book.mechanics.pack_tag)
    return sum(n for r, n in counts.items() if r in pack)


def cards_needed(book: Rulebook, players: int, counts: Mapping[str, int]) -> int:
    """The seats' cards and those a card sets aside (``families.cards_aside``)."""
    return players + cards_aside(book, counts)


def default_pack_range(book: Rulebook, players: int) -> tuple[int, int]:
    """1 to a third of the table (rounded up): beyond that no rulebook is near even odds."""
    return 1, max(1, math.ceil(players / 3))


def fillers(book: Rulebook) -> tuple[str | None, str | None]:
    """The unlimited single-card role of the pack and of the village, if any."""
    pack = book.tagged(book.mechanics.pack_tag)
    free = [r for r, s in book.roles.items() if s.max is None and s.comes_in == 1]
    return (
        next((r for r in free if r in pack), None),
        next((r for r in free if r not in pack), None),
    )


def acceptable(
    book: Rulebook,
    players: int,
    counts: Mapping[str, int],
    options: Mapping[str, OptionValue] | None = None,
) -> str | None:
    """Why the setup refuses this composition, or None: it is dealt the plain way (the
    pack in play, a thief's extra cards taken from the filler first) to ``new_game``."""
    fixed = family_of(book).fixed_deck(players)
    if fixed is not None:
        return None if dict(counts) == fixed else f"{book.id} deals one deck only: {key(fixed)}"
    cards = [r for r, n in counts.items() for _ in range(n)]
    if len(cards) != cards_needed(book, players, counts):
        return f"{len(cards)} cards for {players} players"
    pack = book.tagged(book.mechanics.pack_tag)
    extra: list[str] = []
    aside = cards_aside(book, counts)
    if aside:
        # Spare the pack and the card that sets cards aside: the cards least likely to
        # decide the game lie aside.
        bringing = bringing_aside(book)
        order = sorted(
            (c for c in cards if c not in bringing),
            key=lambda c: (c in pack, book.roles[c].max is not None, c),
        )
        extra = order[:aside]
        for c in extra:
            cards.remove(c)
    try:
        new_game(book, seat_names(players), cards, extra, dict(options or {}))
    except SetupError as exc:
        return str(exc)
    return None


def candidates(
    book: Rulebook,
    players: int,
    pack: PackRange | None = None,
    options: Mapping[str, OptionValue] | None = None,
) -> list[Counts]:
    """Every composition for ``players`` the rulebook accepts, with a pack size in
    ``pack`` (default: `default_pack_range`), in a fixed order. The pack counts every
    card of the pack's tag (a Godfather too)."""
    fixed = family_of(book).fixed_deck(players)
    if fixed is not None:
        return [fixed]
    lo, hi = default_pack_range(book, players)
    if pack is not None:
        lo = lo if pack[0] is None else pack[0]
        hi = hi if pack[1] is None else pack[1]
    # (no deck holds more cards than the seats and all that its cards may set aside)
    cards = players + cards_aside(book, dict.fromkeys(bringing_aside(book), 1))
    hi = min(hi, cards)
    pack_roles = book.tagged(book.mechanics.pack_tag)
    pack_filler, filler = fillers(book)
    listed = [r for r in book.roles if r not in (pack_filler, filler)]
    ranges = []
    for r in listed:
        spec = book.roles[r]
        most = min(spec.max, cards) if spec.max is not None else players
        ranges.append(range(0, most + 1, spec.comes_in))
    # Counted before a single one is listed: many roles without a ``max`` make millions.
    considered = math.prod(len(r) for r in ranges) * max(1, hi - lo + 1)
    if considered > MAX_CANDIDATES:
        raise SetupError(
            f"{book.id} makes {considered} compositions to try for {players} players; "
            f"a search tries at most {MAX_CANDIDATES} (narrow --pack, or give roles a max)"
        )
    found: list[Counts] = []
    for picks in itertools.product(*ranges):
        counts: Counts = {r: n for r, n in zip(listed, picks, strict=True) if n}
        listed_pack = sum(n for r, n in counts.items() if r in pack_roles)
        if listed_pack > hi:
            continue
        for size in range(max(lo, listed_pack), hi + 1):
            trial = dict(counts)
            if size > listed_pack:
                if pack_filler is None:
                    break
                trial[pack_filler] = size - listed_pack
            rest = cards_needed(book, players, trial) - sum(trial.values())
            if rest < 0 or (rest and filler is None):
                continue
            if rest:
                assert filler is not None
                trial[filler] = rest
            trial = ordered(book, trial)
            if acceptable(book, players, trial, options) is None:
                found.append(trial)
    return sorted(found, key=lambda c: (pack_size(book, c), key(c)))
