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

from lupus.engine.deal import Deal, checked_deal, deal_request
from lupus.engine.errors import RulebookError, SetupError
from lupus.engine.events import EventSpec
from lupus.engine.family import Family
from lupus.engine.game import Game
from lupus.engine.limits import MAX_PLAYERS, MAX_SEED
from lupus.engine.names import check_count
from lupus.engine.options import measured, resolve_options
from lupus.engine.table import PublicTable, PublicTables, public_table
from lupus.engine.untrusted import exact_int, kind_of, quoted
from lupus.engine.views import View
from lupus.files import printable
from lupus.lupusburg.family import FAMILY as LUPUSBURG
from lupus.rulebooks import load as load_data
from lupus.rulebooks.schema import OptionValue, Rulebook
from lupus.village.family import FAMILY as VILLAGE
from lupus.village.plugin import ANYONE as ANYONE  # (re-exported: lupus.testing)
from lupus.village.plugin import PACK as PACK
from lupus.village.plugin import Role
from lupus.village.plugin import Verb as Verb
from lupus.village.registry import Plays

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
    not know, more players than a game seats (``MAX_PLAYERS``), or what the family itself finds
    (``Family.unplayable``: a rulebook that loads can be played to an end)."""
    unknown = family.unknown_steps(book)
    if unknown:
        where, step_id = unknown[0]
        known = ", ".join(family.step_ids())
        return f"{where}: unknown step {step_id!r} (known: {known})"
    timed = family.timed_step_ids()
    for step_id in book.timers.steps:
        if step_id not in timed:
            return f"timers.steps: unknown step {quoted(step_id)} (known: {', '.join(timed)})"
    for step_id in book.talk:
        if step_id not in timed:
            return f"talk: unknown step {quoted(step_id)} (known: {', '.join(timed)})"
    if book.max_players > MAX_PLAYERS:
        return f"max_players: at most {MAX_PLAYERS}, not {book.max_players}"
    found = family.unplayable(book)
    if found is not None:
        return found
    night = {*book.night.first, *book.night.later, *book.night.preparation}
    for step_id in book.table.taps:
        if step_id not in night:
            return f"table.taps: {quoted(step_id)} is not a step of the night"
    return None


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
    if isinstance(rules, str):
        return load(rules)
    if not isinstance(rules, Rulebook):
        raise RulebookError(
            f"a rulebook is an id, a .toml path or a Rulebook, not {kind_of(rules)}"
        )
    return check(rules)


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
    optionally the ``bag``'s order. Every argument is measured and its type checked
    exactly before anything is copied or set up (``checked_deal``, ``set_up``).

    >>> from lupus import new_game
    >>> game = new_game("werewolf", ["Ann", "Bob", "Cy", "Dee"],
    ...                 ["werewolf", "seer", "villager", "villager"],
    ...                 options={"lift_minimum": True}, seed=1)
    >>> game.phase, game.number, game.waiting()
    ('night', 1, [1])
    """
    book = rulebook(rules)
    measure_table(book, players)  # (the number of players first, as in every refusal)
    dealt = checked_deal(roles, extra_cards, characters, chests, burgomaster, bag)
    return set_up(book, players, dealt, options, seed)


def measure_table(book: Rulebook, players: object) -> None:
    """SetupError unless ``players`` is a list of a number of names ``book`` is played
    by: counted before any name is read."""
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise SetupError(f"the players are a list of names, not {kind_of(players)}")
    check_count(book, len(players))


def set_up(
    rules: str | Rulebook,
    players: Sequence[str],
    deal: Deal,
    options: dict[str, OptionValue] | None = None,
    seed: int = 0,
) -> Game:
    """``new_game`` with the deal as one value (a random ``deal``, a scenario's).

    What a caller hands in is checked before the family sees it: the table's size
    before any name, the deal's parts (``checked_deal``: a ``Deal`` built by hand
    trusts its caller), the options' number and names, the seed (a whole number from
    0 to ``MAX_SEED``)."""
    book = rulebook(rules)
    measure_table(book, players)
    if type(deal) is not Deal:
        raise SetupError(f"a deal is a lupus.Deal, not {kind_of(deal)}")
    deal = checked_deal(
        deal.roles, deal.extra_cards, deal.characters, deal.chests, deal.burgomaster, deal.bag
    )
    if options is not None:
        measured(options)
    seed = exact_int(seed, "the seed", 0, MAX_SEED)
    return family_of(book).new_game(book, players, deal, options, seed)


def deal(
    rules: str | Rulebook,
    players: int,
    counts: Mapping[str, int],
    rng: random.Random,
    options: Mapping[str, OptionValue] | None = None,
) -> Deal:
    """A random deal of ``counts`` to ``players`` seats that the rules accept.

    Everything is checked before a card is laid out: the number of players (exactly an
    int, within the rulebook's bounds), the composition (known roles, whole counts from
    0 to ``MAX_CARDS``, the cards counted against the seats), the generator, the
    options (by exact type, as ``new_game`` checks them)."""
    book = rulebook(rules)
    players, counts = deal_request(book, players, counts)
    if not isinstance(rng, random.Random):
        raise SetupError(f"a deal draws from a random.Random, not {kind_of(rng)}")
    chosen = resolve_options(book, {} if options is None else options)
    return family_of(book).deal(book, players, counts, rng, chosen)


def table_of(view: View) -> PublicTable:
    """The public table of ``view``'s moment (``lupus.engine.table``), read from its
    public events by its family: the same for every seat at that moment."""
    return public_table(view, family_of(view.book).table_reader(view.names))


def tables(book: Rulebook, names: Sequence[str]) -> PublicTables:
    """The public tables of one game of ``book`` played by ``names``, derived
    incrementally (a server keeps one per game)."""
    return PublicTables(family_of(book).table_reader(tuple(names)))


def register_role(role: Role) -> None:
    """Add a village role from outside ``lupus.roles`` (see ``docs/adding-a-role.md``)."""
    VILLAGE.register(role)


def unregister_role(role: Role) -> None:
    """Take back a role ``register_role`` added."""
    VILLAGE.unregister(role)


def role_plugins() -> list[Role]:
    """Every village role plugin, the shipped ones then those registered from outside
    (what ``lupus.testing`` referees a rulebook's verbs against)."""
    return list(VILLAGE.roles())


def village_plays() -> Plays:
    """How the heuristic bot plays the village's roles (their ``Role.bot``, joined)."""
    return VILLAGE.registry().plays


def cards_aside(book: Rulebook, counts: Mapping[str, int]) -> int:
    """How many cards of a deck of ``counts`` lie aside beside the players' (those a
    card brings for its holder, ``Role.extra_cards``: the Thief's two)."""
    return family_of(book).cards_aside(counts)


def bringing_aside(book: Rulebook) -> frozenset[str]:
    """The cards of ``book`` that bring cards set aside (``cards_aside``)."""
    return family_of(book).aside_cards() & frozenset(book.roles)


def card_weights(book: Rulebook) -> dict[str, int]:
    """What each card of ``book`` is worth to its side, in plain villagers
    (``Role.weight``; ``Family.card_weights``). Empty for a family that deals one deck
    only."""
    return family_of(book).card_weights(book)


def event_specs(book: Rulebook) -> Mapping[str, EventSpec]:
    """The event schema of ``book``'s family: one ``EventSpec`` per event kind (the
    village's own and those its role plugins declare, ``Role.events``; a kind declared
    twice is an error)."""
    return family_of(book).event_specs()


def told_kinds_of(book: Rulebook) -> Mapping[str, str]:
    """Event kind -> how a narrator says it aloud at one table (``EventSpec.told``:
    ``"step"`` or ``"say"``), for the kinds of ``book``'s family said at all."""
    return family_of(book).told_kinds()
