"""The village family's events (werewolf, tit-albert, maffia, mafia-classic): the
schema of every kind the family and its roles emit (see ``lupus.engine.events``).

Grouped by who emits them: the game itself, the kinds several roles share, then one
group per role (each group will move into its role's module).
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
    table,
)

ROLE: Final = frozenset({"role"})
ROLES: Final = frozenset({"roles"})

EVENTS: Final[dict[str, EventSpec]] = table(
    # ------------------------------------------------------------ the game (village/)
    EventSpec("game_starts", {"players": TEXTS, "composition": TEXT_INT, "options": JSON}),
    EventSpec("role_dealt", {"player": SEAT, "role": TEXT}, discloses=ROLE),
    EventSpec("night", {"number": INT}),
    EventSpec("day", {"number": INT}),
    EventSpec("dawn", {"number": INT}),
    EventSpec("no_death", {}),
    # ``role`` only where the rulebook reveals a dead player's role.
    EventSpec(
        "death",
        {"player": SEAT, "cause": TEXT, "role": TEXT},
        optional=ROLE,
        discloses=ROLE,
    ),
    EventSpec("failed_attempt", {}),
    EventSpec(
        "game_over",
        {
            "winner": TEXT,
            "winners": SEATS,
            "reason": TEXT,
            "roles": SEAT_TEXT,
            "lovers": SEATS_OR_NONE,
        },
        discloses=ROLES,
    ),
    # A step that calls a card (village/steps.py, and the couple's, cupid's, the
    # werewolves' and the mafia's steps).
    EventSpec("wake", {"step": TEXT}),
    # ------------------------------------------------------------ votes (lynch,
    # day_vote, nominations; captain: ballot and tie)
    EventSpec("vote_opens", {"round": INT, "candidates": SEATS}),  # lynch, day_vote
    EventSpec("ballot", {"player": SEAT, "target": SEAT_OR_NONE, "vote": TEXT}),
    EventSpec("tally", {"votes": SEAT_INT}),
    EventSpec("tie", {"players": SEATS, "vote": TEXT}),
    EventSpec("no_elimination", {"reason": TEXT}),
    # ------------------------------------------------------------ day_vote (the captain
    # decides a tie)
    EventSpec("decided", {"player": SEAT, "target": SEAT}),
    # ------------------------------------------------------------ the pack (werewolves,
    # mafia)
    EventSpec("pack", {"roles": SEAT_TEXT}, discloses=ROLES),
    EventSpec("pack_choice", {"player": SEAT, "target": SEAT_OR_NONE}),
    EventSpec("pack_victim", {"target": SEAT_OR_NONE}),
    # ------------------------------------------------------------ a shot (hunter:
    # public; avenger: to the avenger)
    EventSpec("shot", {"player": SEAT, "target": SEAT}),
    # ------------------------------------------------------------ werewolves
    EventSpec("starvation", {}),
    # ------------------------------------------------------------ little_girl
    EventSpec("spied", {"roles": SEAT_TEXT, "target": SEAT_OR_NONE}, discloses=ROLES),
    EventSpec("spied_nothing", {}),
    EventSpec("caught", {"player": SEAT, "role": TEXT}, discloses=ROLE),
    # ------------------------------------------------------------ seer
    EventSpec("vision", {"player": SEAT, "role": TEXT}, discloses=ROLE),
    # ------------------------------------------------------------ witch
    EventSpec("victim_shown", {"target": SEAT_OR_NONE}),
    EventSpec("potion", {"kind": TEXT, "target": SEAT}),
    # ------------------------------------------------------------ thief
    EventSpec("extra_cards", {"cards": TEXTS}),
    EventSpec("role_taken", {"player": SEAT, "role": TEXT}, discloses=ROLE),
    # ------------------------------------------------------------ cupid
    EventSpec("linked", {"players": SEATS}),
    # ``player`` and ``role`` where the rulebook tells lovers each other's role.
    EventSpec(
        "in_love",
        {"partner": SEAT, "player": SEAT, "role": TEXT},
        optional=frozenset({"player", "role"}),
        discloses=ROLE,
    ),
    # ------------------------------------------------------------ couple
    EventSpec("couple", {"players": SEATS, "roles": SEAT_TEXT}, discloses=ROLES),
    EventSpec("couple_revealed", {"players": SEATS, "roles": SEAT_TEXT}, discloses=ROLES),
    # ------------------------------------------------------------ hunter
    EventSpec("hunter_aims", {"player": SEAT}),
    EventSpec("hunter_spares", {"player": SEAT}),
    # ------------------------------------------------------------ captain
    EventSpec("election", {"round": INT, "candidates": SEATS}),
    EventSpec("captain", {"player": SEAT, "how": TEXT}),
    EventSpec("succession", {"player": SEAT}),
    EventSpec("no_successor", {"player": SEAT}),
    # ------------------------------------------------------------ doctor
    # ``player``: the Doctor (the eliminated who watch the night see who acts).
    EventSpec("protection", {"player": SEAT, "target": SEAT}),
    # ------------------------------------------------------------ detective
    # ``player`` is investigated, ``by`` the Detective.
    EventSpec("inspection", {"player": SEAT, "side": TEXT, "by": SEAT}),
    # ------------------------------------------------------------ avenger
    EventSpec("unharmed", {"player": SEAT, "role": TEXT, "cause": TEXT}, discloses=ROLE),
    # ------------------------------------------------------------ nominations
    EventSpec("nominations_open", {}),
    EventSpec("nomination", {"player": SEAT, "target": SEAT}),
    EventSpec("withdrawal", {"player": SEAT, "target": SEAT}),
    EventSpec("nominees", {"players": SEATS}),
    EventSpec("no_nominations", {}),
    EventSpec("defence", {"player": SEAT}),
    EventSpec("banishment_opens", {"candidates": SEATS, "needed": INT}),
)
"""Every kind the village family emits -> its schema."""
