"""The village family's setup checks: a deal the rules can play, the minimum table.

One predicate, ``deal_problem``, says whether a deal is a game: set-up refuses a deal
for its reason, and the random dealer deals again on it, so that the dealer hands out
exactly the deals set-up accepts, each as often as a shuffle gives it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from lupus.engine.counting import count_cards
from lupus.engine.errors import SetupError
from lupus.rulebooks.facts import WinRule
from lupus.rulebooks.schema import OptionValue, Rulebook
from lupus.village.registry import Aside

NUMBERS: Final = {1: "one", 2: "two", 3: "three"}


def check_deal(
    book: Rulebook,
    names: Sequence[str],
    roles: Sequence[str],
    extra_cards: Sequence[str],
    options: Mapping[str, OptionValue],
    aside: Aside,
) -> None:
    """Refuse, with the reason, a deal that cannot be played under ``book`` (its names
    already passed ``player_names``)."""
    n = len(names)
    if len(roles) != n:
        raise SetupError(f"{n} players need {n} role cards, got {len(roles)}")
    problem = deal_problem(book, roles, extra_cards, options, aside)
    if problem is not None:
        raise SetupError(problem)


def deal_problem(
    book: Rulebook,
    roles: Sequence[str],
    extra_cards: Sequence[str],
    options: Mapping[str, OptionValue],
    aside: Aside,
) -> str | None:
    """Why the deal (a card per player, and a Thief's two extra cards) is no game under
    ``book`` and ``options``, or None when it is one. The Thief is any card that sets
    cards aside for its holder (``aside``, from ``Role.extra_cards``).

    The werewolf cards that can come into play are those dealt and the Thief's two
    extra cards: a deal whose only werewolf cards lie among them is a game (README: the
    Thief chooses, and must take one when both are werewolves). A deal whose Thief plays
    is judged after his step (``lupus.roles.thief``): set-up never calls it already won.
    """
    counts = count_cards(roles, extra_cards)
    problem = cards_problem(book, counts)
    if problem is not None:
        return problem
    thief = aside.taker(roles)
    thief_dealt = thief is not None
    # The Thief's card may lie among the two aside (a random deal of the whole deck):
    # the two are then out of play, but still cards of the game, whose steps are
    # announced and run with nobody awake (leaving them out would tell the table that
    # the Thief is not among them).
    lying = None if thief_dealt else aside.taker(extra_cards)
    thief_aside = lying is not None
    taker = thief or lying
    if taker is not None and len(extra_cards) != aside.extra[taker]:
        wanted = NUMBERS.get(aside.extra[taker], aside.extra[taker])
        return f"a {taker} needs exactly {wanted} extra cards, got {len(extra_cards)}"
    if taker is None and extra_cards:
        takers = " or ".join(sorted(aside.cards)) or "card that takes them"
        return f"extra cards are only dealt for a {takers}, and no player holds the {takers}"
    pack = book.facts.pack
    tag = book.mechanics.pack_tag
    takeable = extra_cards if thief_dealt else ()
    if not any(r in pack for r in roles) and not any(c in pack for c in takeable):
        if thief_dealt:
            return f"no {tag} is dealt to a player or among the {thief}'s extra cards"
        return f"no {tag} is dealt to a player"
    if all(r in pack for r in roles):
        return f"every player is a {tag}: nobody to play against"
    in_play = count_cards(roles) if thief_aside else counts
    problem = minimum_problem(book, len(roles), in_play, options)
    if problem is not None:
        return problem
    quick = bool(options.get("quick"))
    problem = quick_problem(book, counts, options)
    if problem is not None:
        return problem
    steps = aside.steps.get(thief, frozenset()) if thief is not None else frozenset()
    thief_plays = thief_dealt and not steps.isdisjoint(book.night.first) and not quick
    if not thief_plays and won_at_start(book, roles) is not None:
        return "this composition is decided before anyone plays (a side already won)"
    return None


def cards_problem(book: Rulebook, counts: Mapping[str, int]) -> str | None:
    """Why these cards cannot all be in one game (a role unknown to ``book``, more
    copies than its ``max``, not a whole number of its sets), or None."""
    for role in counts:
        if role not in book.roles:
            return f"unknown role {role!r} in {book.id} (roles: {', '.join(book.roles)})"
    for role, count in counts.items():
        most = book.roles[role].max
        if most is not None and count > most:
            return f"at most {most} {role} card(s) in a game, got {count}"
        size = book.roles[role].comes_in
        if count % size:
            return f"{role} cards come in sets of {size}, got {count}"
    return None


def composition_problem(
    book: Rulebook, counts: Mapping[str, int], options: Mapping[str, OptionValue]
) -> str | None:
    """Why a composition (every card a random deal shuffles, the two aside included)
    cannot be dealt at all, or None: a card unknown to ``book``, more copies than a
    role's ``max`` (tit-albert's five Tit Albert: they could all come into play), not
    whole sets, a card of the preparation round in a quick game."""
    return cards_problem(book, counts) or quick_problem(book, counts, options)


def quick_problem(
    book: Rulebook, counts: Mapping[str, int], options: Mapping[str, OptionValue]
) -> str | None:
    """The quick game's refusal of the cards that act only in the preparation round."""
    if options.get("quick"):
        prepared = [r for r in book.night.preparation if counts.get(r)]
        if prepared:
            return f"the quick game has no preparation round, so {', '.join(prepared)} cannot play"
    return None


def won_at_start(book: Rulebook, roles: Sequence[str]) -> str | None:
    """The faction that has won before anyone plays with these cards dealt (no lovers
    yet, everyone alive), or None."""
    alive_in = count_cards([book.facts.faction_of_role[r] for r in roles])
    for spec in book.facts.wins:
        if spec.when != "mixed_lovers_last_two" and holds(spec, len(roles), alive_in):
            return spec.faction
    return None


def holds(spec: WinRule, living: int, alive_in: dict[str, int]) -> bool:
    """Whether a win rule other than the mixed lovers' holds with ``living`` players
    alive, ``alive_in`` of them in each faction (read by every win check too: a plain
    dict, whose ``get`` compiled code calls directly, where a ``Mapping``'s is a method
    looked up by name)."""
    if spec.when == "none_alive":
        return spec.of is None or alive_in.get(spec.of, 0) == 0
    members = alive_in.get(spec.faction, 0)
    if members == 0:
        return False
    if spec.when == "others_at_most":
        return living - members <= spec.count
    return 2 * members >= living  # at_least_half


def check_minimum(
    book: Rulebook, players: int, counts: dict[str, int], options: Mapping[str, OptionValue]
) -> None:
    """Refuse a game below the rulebook's minimum configuration, quoting its rule.

    (The werewolf seed: "The minimum configuration is: 2 Werewolves, 1 Seer, 5 Simple
    Villagers"; a house-rules option lifts it.)
    """
    problem = minimum_problem(book, players, counts, options)
    if problem is not None:
        raise SetupError(problem)


def minimum_problem(
    book: Rulebook, players: int, counts: Mapping[str, int], options: Mapping[str, OptionValue]
) -> str | None:
    """The refusal of a game below the rulebook's minimum configuration, or None."""
    minimum = book.minimum
    short = below_minimum(book, players, counts, options)
    if minimum is None or not short:
        return None
    lift = minimum.lifted_by
    how = f" (house rules: the option {lift} lifts the minimum)" if lift else ""
    return f'"{minimum.rule}" This game has {" and ".join(short)}{how}.'


def below_minimum(
    book: Rulebook, players: int, counts: Mapping[str, int], options: Mapping[str, OptionValue]
) -> list[str]:
    """What the game lacks to meet the rulebook's minimum configuration, or [] when it
    meets it (or the option that lifts it is on, or the rulebook has none)."""
    minimum = book.minimum
    if minimum is None or (minimum.lifted_by is not None and options.get(minimum.lifted_by)):
        return []
    short: list[str] = []
    if players < minimum.players:
        short.append(f"{players} players, not {minimum.players}")
    for role, needed in minimum.cards.items():
        held = counts.get(role, 0)
        if held < needed:
            short.append(f"{held} {book.name(role)} card{'s' if held != 1 else ''}, not {needed}")
    return short
