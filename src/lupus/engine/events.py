"""Typed events: one schema per event kind, and the JSON round trip of an event.

An event stays what the engine records (``model.Event``: a kind, an audience, a plain
mapping of data, the phase and its number); nothing here runs while a game is played.
A family declares the schema of every kind it emits (``lupus.village.events``,
``lupus.lupusburg.events``): an ``EventSpec`` names each field with one tag of a
small, closed set (a seat, a list of seats, a text, a mapping of seat to role id...).
With it, ``lupus.engine.event_check`` says why an event does not fit its schema, and
``lupus.engine.event_json`` turns an event into JSON data and back.

Types are exact, as for actions: ``True`` is not a seat and ``2.0`` is not a count.
Seats and houses are ints from 0 up. A list may be a tuple and a mapping any mapping
in a game's own events (a view's copies are read-only: tuples and proxies); from JSON,
lists stay lists.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final, final

from lupus.engine.model import Event

# ---------------------------------------------------------------------- the tags
SEAT: Final = "seat"
"""A player's seat: an int from 0 (``player``, ``target``...)."""
SEAT_OR_NONE: Final = "seat_or_none"
"""A seat, or None for nobody (a pack that sleeps, an abstention)."""
SEATS: Final = "seats"
"""A list of seats (``candidates``, ``winners``)."""
SEATS_OR_NONE: Final = "seats_or_none"
"""A list of seats, or None (the lovers of a game without any)."""
HOUSE: Final = "house"
"""A Lupusburg house: an int from 0 (the player's seat is ``house // 2``)."""
HOUSES: Final = "houses"
"""A list of houses."""
INT: Final = "int"
"""An int (a round, a count, a coin)."""
INT_OR_NONE: Final = "int_or_none"
"""An int, or None."""
INTS: Final = "ints"
"""A list of ints (coins)."""
NUMBER: Final = "number"
"""A float (finite)."""
TEXT: Final = "text"
"""A str (a role id, a cause, a step id)."""
TEXT_OR_NONE: Final = "text_or_none"
"""A str, or None."""
TEXTS: Final = "texts"
"""A list of strs (names, cards)."""
BOOL: Final = "bool"
"""A bool."""
SEAT_TEXT: Final = "seat_text"
"""A mapping of seat to str (``roles``: seat -> role id)."""
SEAT_INT: Final = "seat_int"
"""A mapping of seat to int (a tally's ``votes``, Lupusburg's ``scores``)."""
SEAT_INTS: Final = "seat_ints"
"""A mapping of seat to a list of ints (Lupusburg's ``bets``: seat -> [target, coin])."""
SEAT_TEXT_INT: Final = "seat_text_int"
"""A mapping of seat to a mapping of str to int (Lupusburg's score ``parts``)."""
HOUSE_TEXT: Final = "house_text"
"""A mapping of house to str (Lupusburg's ``characters``: house -> character)."""
HOUSE_INT: Final = "house_int"
"""A mapping of house to int (Lupusburg's ``tokens``, its ballots' ``votes``)."""
TEXT_INT: Final = "text_int"
"""A mapping of str to int (the ``composition``: role id -> cards)."""
JSON: Final = "json"
"""Any plain JSON value, kept as it is (``options``, a ``tie_break``): None, bool, int,
finite float, str, lists of these and mappings with str keys."""

# How each tag is built: (shape, key, inner). A scalar's shape is its kind (``seat``,
# ``house``, ``int``, ``number``, ``text``, ``bool``, ``json``); ``maybe`` is the inner
# tag or None; ``list`` a list of the inner tag; ``map`` a mapping of key kind (``seat``,
# ``house`` or ``text``) to the inner tag.
TAGS: Final[dict[str, tuple[str, str, str]]] = {
    SEAT: ("seat", "", ""),
    SEAT_OR_NONE: ("maybe", "", SEAT),
    SEATS: ("list", "", SEAT),
    SEATS_OR_NONE: ("maybe", "", SEATS),
    HOUSE: ("house", "", ""),
    HOUSES: ("list", "", HOUSE),
    INT: ("int", "", ""),
    INT_OR_NONE: ("maybe", "", INT),
    INTS: ("list", "", INT),
    NUMBER: ("number", "", ""),
    TEXT: ("text", "", ""),
    TEXT_OR_NONE: ("maybe", "", TEXT),
    TEXTS: ("list", "", TEXT),
    BOOL: ("bool", "", ""),
    SEAT_TEXT: ("map", "seat", TEXT),
    SEAT_INT: ("map", "seat", INT),
    SEAT_INTS: ("map", "seat", INTS),
    SEAT_TEXT_INT: ("map", "seat", TEXT_INT),
    HOUSE_TEXT: ("map", "house", TEXT),
    HOUSE_INT: ("map", "house", INT),
    TEXT_INT: ("map", "text", INT),
    JSON: ("json", "", ""),
}

DESCRIPTIONS: Final[dict[str, str]] = {
    SEAT: "a seat (an int from 0)",
    SEAT_OR_NONE: "a seat or null",
    SEATS: "a list of seats",
    SEATS_OR_NONE: "a list of seats or null",
    HOUSE: "a house (an int from 0)",
    HOUSES: "a list of houses",
    INT: "an int",
    INT_OR_NONE: "an int or null",
    INTS: "a list of ints",
    NUMBER: "a finite float",
    TEXT: "a text",
    TEXT_OR_NONE: "a text or null",
    TEXTS: "a list of texts",
    BOOL: "a bool",
    SEAT_TEXT: "a mapping of seat to text",
    SEAT_INT: "a mapping of seat to int",
    SEAT_INTS: "a mapping of seat to a list of ints",
    SEAT_TEXT_INT: "a mapping of seat to a mapping of text to int",
    HOUSE_TEXT: "a mapping of house to text",
    HOUSE_INT: "a mapping of house to int",
    TEXT_INT: "a mapping of text to int",
    JSON: "plain JSON data",
}

MAX_DEPTH: Final = 64
"""How deep a JSON value may nest (deeper is refused, not a recursion error)."""

NO_FIELDS: Final[frozenset[str]] = frozenset()


TOLD: Final = frozenset({"step", "say"})
"""How a public event may be said aloud at one table (``EventSpec.told``): ``"step"``
begins a new step (a narrator drops what it has not said from before it), ``"say"``
belongs to the step under way (a death, a vote's count, the end)."""

SCRIPT: Final = frozenset({"opens", "echoes", "noted", "skipped"})
"""What an event is in a game leader's script (``EventSpec.script``): it ``opens`` a
step where players choose; it ``echoes`` one player's entry in an open step (a ballot:
not news to read out); it is ``noted``, the leader's own record (a pack's pick, a
potion); it is ``skipped`` (the deal, which the leader's page shows apart). Any other
event is read out (public) or shown to its audience (private)."""


TABLE: Final = frozenset(
    {"counted_vote", "other_vote", "nominations", "withdraws", "decides", "nobody", "title"}
)
"""What an event does to the public table (``EventSpec.table``; ``lupus.engine.table``)
beside the family's own kinds (a death, a count): it opens the vote whose count decides
the phase (``counted_vote``), another vote (``other_vote``: an election) or the
nominations; an entry (``script="echoes"``) ``withdraws`` the player's earlier one; it
``decides`` its phase with nobody dead (the Captain's decision), or tells that nobody
died (``nobody``); it gives its ``player`` a ``title``, which his death ends. A public
``script="opens"`` event opens the table's step, which a public non-entry ends."""


SHOWS: Final = frozenset({"held", "card", "side", "victim", "pointed"})
"""What a private event tells its audience (``EventSpec.shows``): ``held``, the card
its ``player`` holds from now on (``role``: the deal, the Thief's exchange); ``card``,
another seat's card (``player``'s ``role``: a vision); ``side``, another seat's side
(``player``'s ``side``: an inspection); ``victim``, the night's victim (``target``, or
null: shown to the Witch); ``pointed``, the victim a pack points at (``target``), which
a game leader shows it to approve."""


@final
class EventSpec:
    """The schema of one event kind: each field's tag, the fields that may be absent
    (``optional``: ``death.role`` where the rulebook keeps roles hidden) and the fields
    that disclose a hidden identity (``discloses``: a seat's role, a house's character;
    the facts the secrecy tests audit). Two marks say how the kind is told, declared
    with its fields so that a role's event is whole where the role is: ``told``, how
    a narrator says it aloud at one table (``TOLD``; None: shown, never said; only a
    public event is ever said), and ``script``, its place in a game leader's script
    (``SCRIPT``; the pages get both from the server, ``GET /api/rulebooks``). And
    ``variant`` picks the message that tells one event of the kind: ``"<kind>.<variant>"``
    before ``"<kind>"`` (``field_variant("how")``: the Captain elected or drawn),
    ``table`` what it does to the public table (``TABLE``), and ``shows`` what a private
    event tells the seats it is told to (``SHOWS``: the card a seat holds, a vision's
    card, an inspection's side, a victim), which the server reads into a seat's own
    part of its frame and a game leader's page shows them (so that no page names the
    kind)."""

    __slots__ = (
        "discloses",
        "fields",
        "kind",
        "optional",
        "script",
        "shows",
        "table",
        "told",
        "variant",
    )

    def __init__(
        self,
        kind: str,
        fields: dict[str, str],
        optional: frozenset[str] = NO_FIELDS,
        discloses: frozenset[str] = NO_FIELDS,
        *,
        told: str | None = None,
        script: str | None = None,
        variant: Callable[[Event], str | None] | None = None,
        table: str | None = None,
        shows: str | None = None,
    ) -> None:
        for name, tag in fields.items():
            if tag not in TAGS:
                raise ValueError(f"{kind}.{name}: unknown tag {tag!r}")
        for what, names in (("optional", optional), ("discloses", discloses)):
            stray = sorted([name for name in names if name not in fields])
            if stray:
                raise ValueError(f"{kind}: {what} names no field of the event: {stray}")
        for what, mark, marks in (
            ("told", told, TOLD),
            ("script", script, SCRIPT),
            ("table", table, TABLE),
            ("shows", shows, SHOWS),
        ):
            if mark is not None and mark not in marks:
                raise ValueError(f"{kind}: {what} is one of {sorted(marks)}, not {mark!r}")
        self.kind: Final = kind
        self.fields: Final = dict(fields)
        self.optional: Final = optional
        self.discloses: Final = discloses
        self.told: Final = told
        self.script: Final = script
        self.variant: Final = variant
        self.table: Final = table
        self.shows: Final = shows

    def __repr__(self) -> str:
        return f"EventSpec({self.kind!r}, {self.fields!r})"


def field_variant(name: str) -> Callable[[Event], str | None]:
    """An ``EventSpec.variant`` that is the text of the event's field ``name``."""

    def variant(ev: Event) -> str | None:
        return ev.text(name)

    return variant


def table(*specs: EventSpec) -> dict[str, EventSpec]:
    """A family's table, kind -> schema (a kind declared twice is an error)."""
    found: dict[str, EventSpec] = {}
    for spec in specs:
        if spec.kind in found:
            raise ValueError(f"event kind {spec.kind!r} is declared twice")
        found[spec.kind] = spec
    return found


SCALAR_SHAPES: Final = frozenset({"seat", "house", "int", "number", "text", "bool"})


def told_kinds(specs: Mapping[str, EventSpec]) -> dict[str, str]:
    """Kind -> how a narrator says it aloud (``EventSpec.told``), for the kinds of
    ``specs`` said at all."""
    return {kind: spec.told for kind, spec in specs.items() if spec.told is not None}


def scalar_kinds(specs: Mapping[str, EventSpec]) -> frozenset[str]:
    """The kinds of ``specs`` whose every field holds a number, a text, a bool or None:
    their data are immutable as emitted, so the ledger need not look at them
    (``Ledger.record``). ``tests/test_events.py`` checks that every event fits its
    kind's schema."""
    found: list[str] = []
    for kind, spec in specs.items():
        scalar = True
        for tag in spec.fields.values():
            shape, _, inner = TAGS[tag]
            if shape == "maybe":
                shape = TAGS[inner][0]
            if shape not in SCALAR_SHAPES:
                scalar = False
                break
        if scalar:
            found.append(kind)
    return frozenset(found)
