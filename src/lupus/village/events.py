"""The village family's events (werewolf, tit-albert, maffia, mafia-classic): the
schema of every kind the family and its roles emit (see ``lupus.engine.events``).

Here are the kinds the game itself emits and those several roles share (a vote's, the
pack's, a shot); a kind only one role emits is declared in that role's module
(``Role.events``), and ``lupus.families.event_specs`` joins them into the family's
table. ``told`` and ``script`` say how each kind is told (``lupus.engine.events``).
"""

from __future__ import annotations

from typing import Final

from lupus.engine.events import (
    INT,
    JSON,
    SEAT,
    SEAT_INT,
    SEAT_OR_NONE,
    SEAT_TEXT,
    SEATS,
    SEATS_OR_NONE,
    TEXT,
    TEXT_INT,
    TEXTS,
    EventSpec,
    field_variant,
    table,
)
from lupus.engine.model import Event

A_ROLE: Final = frozenset({"role"})
"""``discloses`` of a kind that tells a seat's role in its ``role`` field."""
SOME_ROLES: Final = frozenset({"roles"})
"""``discloses`` of a kind that tells roles by seat in its ``roles`` field."""


def ballot_variant(ev: Event) -> str:
    """A ballot is told by its vote, and as a blank one when it names nobody."""
    return ev.text("vote") + ("" if ev.maybe_seat("target") is not None else ".none")


def none_if_nobody(ev: Event) -> str | None:
    """A choice or victim that names nobody (the pack slept, the night is quiet)."""
    return "none" if ev.data.get("target") is None else None


def sleep_if_nobody(ev: Event) -> str | None:
    return "sleep" if ev.data.get("target") is None else None


def hidden_role(ev: Event) -> str | None:
    """A death whose role the rulebook keeps hidden."""
    return None if "role" in ev.data else "hidden"


EVENTS: Final[dict[str, EventSpec]] = table(
    # ------------------------------------------------------------ the game (village/)
    EventSpec(
        "game_starts",
        {"players": TEXTS, "composition": TEXT_INT, "options": JSON},
        told="step",
        script="skipped",
    ),
    EventSpec(
        "role_dealt",
        {"player": SEAT, "role": TEXT},
        discloses=A_ROLE,
        script="skipped",
        shows="held",
    ),
    EventSpec("night", {"number": INT}, told="step"),
    EventSpec("day", {"number": INT}, told="say"),
    EventSpec("dawn", {"number": INT}, told="step", table="decides"),
    EventSpec("no_death", {}, told="say", table="nobody"),
    # ``role`` only where the rulebook reveals a dead player's role.
    EventSpec(
        "death",
        {"player": SEAT, "cause": TEXT, "role": TEXT},
        optional=A_ROLE,
        discloses=A_ROLE,
        told="say",
        variant=hidden_role,
    ),
    EventSpec("failed_attempt", {}, told="say"),
    EventSpec(
        "game_over",
        {
            "winner": TEXT,
            "winners": SEATS,
            "reason": TEXT,
            "roles": SEAT_TEXT,
            "lovers": SEATS_OR_NONE,
        },
        discloses=SOME_ROLES,
        told="say",
    ),
    # A step that calls a card (village/steps.py, and the couple's, cupid's, the
    # werewolves' and the mafia's steps).
    EventSpec("wake", {"step": TEXT}, told="step", script="opens", variant=field_variant("step")),
    # ------------------------------------------------------------ votes (lynch,
    # day_vote, nominations; captain: ballot and tie)
    EventSpec(
        "vote_opens",
        {"round": INT, "candidates": SEATS},
        told="step",
        script="opens",
        table="counted_vote",
    ),
    EventSpec(
        "ballot",
        {"player": SEAT, "target": SEAT_OR_NONE, "vote": TEXT},
        script="echoes",
        variant=ballot_variant,
    ),
    EventSpec("tally", {"votes": SEAT_INT}, told="say"),
    EventSpec("tie", {"players": SEATS, "vote": TEXT}, told="say", script="opens"),
    EventSpec("no_elimination", {"reason": TEXT}, told="say", table="nobody"),
    # ------------------------------------------------------------ the pack (werewolves,
    # mafia)
    EventSpec("pack", {"roles": SEAT_TEXT}, discloses=SOME_ROLES),
    EventSpec(
        "pack_choice",
        {"player": SEAT, "target": SEAT_OR_NONE},
        script="noted",
        variant=sleep_if_nobody,
    ),
    EventSpec("pack_victim", {"target": SEAT_OR_NONE}, variant=none_if_nobody, shows="pointed"),
    # ------------------------------------------------------------ a shot (hunter:
    # public; avenger: to the avenger)
    EventSpec("shot", {"player": SEAT, "target": SEAT}, told="say", script="noted"),
)
"""The kinds the village family emits itself or several of its roles share -> their
schema (``lupus.families.event_specs`` adds those of each role)."""
