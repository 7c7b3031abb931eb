"""What one seat of a village game alone knows (``view.own``, docs/protocol.md), read
from the events its view holds, oldest first: the public table (``lupus.village.table``)
is what everyone knows, this is the rest, so that a page never reads the event log
again to find it.

- ``cards``: the card each seat holds now, as the events this view holds told it
  (``EventSpec.shows`` ``"held"``: the deal, the Thief's exchange; the latest wins): a
  player's own card alone, every seat's for a game leader.
- ``answers``: what the seat's night powers told it of other seats, oldest first
  (``"card"``: a vision's card; ``"side"``: an inspection's side), with the night.
- ``died``: each dead seat -> the index, among this view's events, of the ``death``
  that told it (a game leader's page knows who was awake and alive at each event of
  its script by it; deaths are public).

Which kinds do what is declared with each kind (``EventSpec.shows``), so that a role's
events bring their own effect; nothing here comes from an event the view does not hold.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, Final, final

from lupus.engine.model import LEADER, Event, Value
from lupus.engine.sealed import seal

DEATH: Final = "death"
HELD: Final = "held"
CARD: Final = "card"
SIDE: Final = "side"


@final
class VillageAnswer(Value):
    """One answer a night power gave its seat: whose card (``role``) or side."""

    __slots__ = ("number", "role", "seat", "side")
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "role", "side", "number")

    def __init__(self, seat: int, role: str | None, side: str | None, number: int) -> None:
        self.seat: Final = seat
        self.role: Final = role
        self.side: Final = side
        self.number: Final = number

    def to_json(self) -> dict[str, object]:
        return {"seat": self.seat, "role": self.role, "side": self.side, "number": self.number}


seal(VillageAnswer)


@final
class VillageOwn(Value):
    """One seat's own knowledge at one moment (see the module)."""

    __slots__ = ("answers", "cards", "died", "seat")
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "cards", "answers", "died")

    def __init__(
        self,
        seat: int,
        cards: tuple[tuple[int, str], ...],
        answers: tuple[VillageAnswer, ...],
        died: tuple[tuple[int, int], ...],
    ) -> None:
        self.seat: Final = seat
        self.cards: Final = cards
        self.answers: Final = answers
        self.died: Final = died

    def to_json(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "cards": {str(seat): role for seat, role in self.cards},
            "answers": [answer.to_json() for answer in self.answers],
            "died": {str(seat): at for seat, at in self.died},
        }


seal(VillageOwn)


class VillageOwnReader:
    """Reads one seat's events (or a game leader's), oldest first, into what it alone
    knows (``Family.seat_reader``). ``shows``: each kind's ``EventSpec.shows`` mark."""

    def __init__(self, seat: int, shows: Mapping[str, str]) -> None:
        self.seat = seat
        self.shows = shows
        self.count = 0  # the events read so far
        self.cards: dict[int, str] = {}
        self.answers: list[VillageAnswer] = []
        self.died: dict[int, int] = {}
        self.made: VillageOwn | None = None

    def feed(self, event: Event) -> None:
        """Read the seat's next event (one that tells it nothing is read for nothing)."""
        at = self.count
        self.count += 1
        if event.kind == DEATH:
            self.died.setdefault(event.seat("player"), at)
            self.made = None
            return
        mark = self.shows.get(event.kind)
        if mark is None or event.audience is None:
            return
        if mark == HELD:
            self.cards[event.seat("player")] = event.text("role")
        elif mark in (CARD, SIDE) and self.seat in event.audience:
            target = event.seat("player")
            if target == self.seat:  # (nothing new: a seat knows its own card)
                return
            role = event.text("role") if mark == CARD else None
            side = event.text("side") if mark == SIDE else None
            self.answers.append(VillageAnswer(target, role, side, event.number))
        else:
            return
        self.made = None

    def value(self) -> VillageOwn:
        """What the seat knows now: the same object while nothing changed."""
        made = self.made
        if made is None:
            made = self.made = VillageOwn(
                self.seat,
                tuple(sorted(self.cards.items())),
                tuple(self.answers),
                tuple(sorted(self.died.items())),
            )
        return made

    def to_json(self) -> dict[str, object]:
        return self.value().to_json()


def village_own(seat: int, shows: Mapping[str, str]) -> VillageOwnReader | None:
    """A player's or a game leader's reader; none for a spectator (the public table is
    all a spectator knows)."""
    return VillageOwnReader(seat, shows) if seat >= LEADER else None
