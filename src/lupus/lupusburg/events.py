"""Lupusburg's events: the schema of every kind the family emits (see
``lupus.engine.events``). Houses are ints (a player's are ``2 * seat`` and
``2 * seat + 1``); a tie's ``tie_break`` is plain JSON (``of``, ``score``, ``chosen``,
``over``, ``why``: see ``LupusburgGame.tie_break``).
"""

from __future__ import annotations

from typing import Final

from lupus.engine.events import (
    BOOL,
    HOUSE,
    HOUSE_INT,
    HOUSE_TEXT,
    HOUSES,
    INT,
    INTS,
    JSON,
    SEAT,
    SEAT_INT,
    SEAT_INTS,
    SEAT_TEXT_INT,
    SEATS,
    TEXT,
    TEXTS,
    EventSpec,
    field_variant,
    table,
)

CHARACTER: Final = frozenset({"character"})
CHARACTERS: Final = frozenset({"characters"})
TIE_BREAK: Final = frozenset({"tie_break"})

EVENTS: Final[dict[str, EventSpec]] = table(
    # ------------------------------------------------------------ the game (game.py)
    EventSpec("game_starts", {"players": TEXTS, "burgomaster": SEAT, "coins": INTS}, told="step"),
    EventSpec(
        "characters_dealt",
        {"player": SEAT, "characters": HOUSE_TEXT, "chest": HOUSE},
        discloses=CHARACTERS,
    ),
    EventSpec("character_dies", {"player": SEAT, "house": HOUSE, "cause": TEXT}, told="say"),
    # ``parts`` (each score's parts) when the Werewolf lost, ``tie_break`` when the
    # best score was tied.
    EventSpec(
        "game_over",
        {
            "winner": TEXT,
            "winners": SEATS,
            "reason": TEXT,
            "scores": SEAT_INT,
            "characters": HOUSE_TEXT,
            "chests": HOUSES,
            "bets": SEAT_INTS,
            "parts": SEAT_TEXT_INT,
            "tie_break": JSON,
        },
        optional=frozenset({"parts", "tie_break"}),
        discloses=CHARACTERS,
        told="say",
    ),
    # ------------------------------------------------------------ phases (phases.py)
    EventSpec("night", {"number": INT, "burgomaster": SEAT}, told="step"),
    EventSpec("day", {"number": INT, "burgomaster": SEAT}, told="say"),
    EventSpec("dawn", {"number": INT}, told="step"),
    EventSpec("no_death", {}, told="say"),
    EventSpec("wake", {"step": TEXT}, told="step", variant=field_variant("step")),
    # ------------------------------------------------------------ the thief's night
    EventSpec("peeked", {"house": HOUSE, "chest": BOOL}),
    # ------------------------------------------------------------ the werewolf's night
    EventSpec("clawed", {"house": HOUSE}),
    # ------------------------------------------------------------ the privilege
    EventSpec("no_privilege", {"player": SEAT}, told="say"),
    EventSpec("privilege", {"player": SEAT, "house": HOUSE}, told="say"),
    EventSpec("privilege_seen", {"house": HOUSE, "character": TEXT}, discloses=CHARACTER),
    EventSpec(
        "privilege_shown",
        {"player": SEAT, "to": SEAT, "house": HOUSE, "character": TEXT},
        discloses=CHARACTER,
    ),
    EventSpec("privilege_declined", {"player": SEAT}, told="say"),
    # ------------------------------------------------------------ betting
    EventSpec("bet", {"player": SEAT, "target": SEAT}),
    EventSpec("coins_drawn", {"player": SEAT, "coins": INTS}),
    EventSpec("coin_kept", {"player": SEAT, "kept": INT}),
    EventSpec("coin_picked", {"player": SEAT, "kept": INT}),  # the leader closed the turn
    EventSpec("no_bet", {"player": SEAT}),
    # ------------------------------------------------------------ the votes
    EventSpec("token", {"player": SEAT, "house": HOUSE, "round": INT}),
    EventSpec(
        "suspects",
        {"houses": HOUSES, "tokens": HOUSE_INT, "tie_break": JSON},
        optional=TIE_BREAK,
        told="step",
    ),
    EventSpec("ballot_cast", {"player": SEAT, "house": HOUSE}),
    EventSpec("ballots", {"votes": HOUSE_INT, "tie_break": JSON}, optional=TIE_BREAK, told="say"),
    EventSpec("burgomaster", {"player": SEAT}, told="say"),
)
"""Every kind Lupusburg emits -> its schema."""
