"""The village family's setup checks: a deal the rules can play, the minimum table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from lupus.engine.counting import count_cards
from lupus.engine.errors import SetupError
from lupus.rulebooks.schema import OptionValue, Rulebook


def check_deal(
    book: Rulebook,
    names: Sequence[str],
    roles: Sequence[str],
    extra_cards: Sequence[str],
    options: dict[str, OptionValue],
) -> None:
    """Refuse, with the reason, a deal that cannot be played under ``book`` (its names
    already passed ``player_names``)."""
    n = len(names)
    if len(roles) != n:
        raise SetupError(f"{n} players need {n} role cards, got {len(roles)}")
    for role in [*roles, *extra_cards]:
        if role not in book.roles:
            raise SetupError(f"unknown role {role!r} in {book.id} (roles: {', '.join(book.roles)})")
    counts = count_cards(roles, extra_cards)
    for role, count in counts.items():
        most = book.roles[role].max
        if most is not None and count > most:
            raise SetupError(f"at most {most} {role} card(s) in a game, got {count}")
        size = book.roles[role].comes_in
        if count % size:
            raise SetupError(f"{role} cards come in sets of {size}, got {count}")
    thief_dealt = "thief" in roles
    # The Thief's card may lie among the two aside (a deal of the whole deck): the two
    # are out of play, but still cards of the game, whose steps run with nobody awake.
    thief_aside = "thief" in extra_cards and not thief_dealt
    if (thief_dealt or thief_aside) and len(extra_cards) != 2:
        raise SetupError(f"a thief needs exactly two extra cards, got {len(extra_cards)}")
    if not (thief_dealt or thief_aside) and extra_cards:
        raise SetupError("extra cards are only dealt for a thief, and no player holds the thief")
    pack = book.tagged(book.mechanics.pack_tag)
    forced = thief_dealt and all(card in pack for card in extra_cards)
    if not any(r in pack for r in roles) and not forced:
        raise SetupError(f"no {book.mechanics.pack_tag} is dealt to a player")
    if all(r in pack for r in roles):
        raise SetupError(f"every player is a {book.mechanics.pack_tag}: nobody to play against")
    check_minimum(book, n, count_cards(roles) if thief_aside else counts, options)
    if options.get("quick"):
        prepared = [r for r in book.night.preparation if counts.get(r)]
        if prepared:
            raise SetupError(
                f"the quick game has no preparation round, so {', '.join(prepared)} cannot play"
            )


def check_minimum(
    book: Rulebook, players: int, counts: dict[str, int], options: Mapping[str, OptionValue]
) -> None:
    """Refuse a game below the rulebook's minimum configuration, quoting its rule.

    (The werewolf seed: "The minimum configuration is: 2 Werewolves, 1 Seer, 5 Simple
    Villagers"; a house-rules option lifts it.)
    """
    minimum = book.minimum
    short = below_minimum(book, players, counts, options)
    if minimum is not None and short:
        lift = minimum.lifted_by
        how = f" (house rules: the option {lift} lifts the minimum)" if lift else ""
        raise SetupError(f'"{minimum.rule}" This game has {" and ".join(short)}{how}.')


def below_minimum(
    book: Rulebook, players: int, counts: dict[str, int], options: Mapping[str, OptionValue]
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
