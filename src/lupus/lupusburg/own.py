"""What one Lupusburg seat alone knows of the board (``view.own``, docs/protocol.md),
read from the events its view holds, oldest first: the public board
(``lupus.lupusburg.board``) is what everyone knows, this is the rest.

- ``characters``: every house whose character this seat was told, with how: ``own``
  (its two, dealt to it), ``seen`` (the privilege it used as Burgomaster), ``shown``
  (what a Burgomaster showed it in return). ``chests``: its own chest house and its own
  other house (``own``), and every house it peeked under as the Thief (``peeked``).
- ``claw``: the house it pointed the claw at tonight, as the Werewolf (until the next
  night begins; the slaughter at dawn is the public board's).
- ``drawn``: the coins in its hand after its bet, until it keeps one; ``coin``: the coin
  it kept under its seal (the table sees it at the end only).
- ``ballots``: its secret ballots of today's second voting, per house.

A game leader's (seat -1) holds every seat's deal (``characters`` and ``chests``, all
``own``: he deals the cards), and what a Werewolf's claw points at.

Nothing here comes from an event its view does not hold: the reader is fed the seat's
own events, and reads what is about the seat itself only (the leader: the deal too).
"""

from __future__ import annotations

from typing import ClassVar, Final, final

from lupus.engine.model import LEADER, Event, Value
from lupus.engine.sealed import seal

OWN: Final = "own"


@final
class LupusburgOwn(Value):
    """One seat's own knowledge at one moment (see the module)."""

    __slots__ = ("ballots", "characters", "chests", "claw", "coin", "drawn", "seat")
    FIELDS: ClassVar[tuple[str, ...]] = (
        "seat",
        "characters",
        "chests",
        "claw",
        "drawn",
        "coin",
        "ballots",
    )

    def __init__(
        self,
        seat: int,
        characters: tuple[tuple[int, str, str], ...],
        chests: tuple[tuple[int, bool, str], ...],
        claw: int | None,
        drawn: tuple[int, ...] | None,
        coin: int | None,
        ballots: tuple[tuple[int, int], ...],
    ) -> None:
        self.seat: Final = seat
        self.characters: Final = characters
        self.chests: Final = chests
        self.claw: Final = claw
        self.drawn: Final = drawn
        self.coin: Final = coin
        self.ballots: Final = ballots

    def to_json(self) -> dict[str, object]:
        drawn = self.drawn
        return {
            "seat": self.seat,
            "characters": {str(h): {"character": c, "how": how} for h, c, how in self.characters},
            "chests": {str(h): {"chest": chest, "how": how} for h, chest, how in self.chests},
            "claw": self.claw,
            "drawn": None if drawn is None else list(drawn),
            "coin": self.coin,
            "ballots": {str(house): n for house, n in self.ballots},
        }


seal(LupusburgOwn)


class OwnReader:
    """Reads one seat's events, oldest first, into what it alone knows (``Family.
    seat_reader``): fed each event once, in the order its view holds them."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.count = 0  # the events read so far
        self.characters: dict[int, tuple[str, str]] = {}
        self.chests: dict[int, tuple[bool, str]] = {}
        self.claw: int | None = None
        self.drawn: tuple[int, ...] | None = None
        self.coin: int | None = None
        self.ballots: dict[int, int] = {}
        self.made: LupusburgOwn | None = None

    def feed(self, event: Event) -> None:
        """Read the seat's next event (one that tells it nothing is read for nothing)."""
        self.count += 1
        read = READ.get(event.kind)
        if read is not None:
            read(self, event)
            self.made = None

    def mine(self, event: Event) -> bool:
        """Whether the event is about this seat itself (its deal, its coins, its
        ballots: a game leader's view holds everyone's)."""
        return event.seat("player") == self.seat

    def told(self, house: int, character: str, how: str) -> None:
        known = self.characters.get(house)
        if known is None or known[1] != OWN:
            self.characters[house] = (character, how)

    def value(self) -> LupusburgOwn:
        """What the seat knows now: the same object while nothing changed."""
        made = self.made
        if made is None:
            made = self.made = LupusburgOwn(
                self.seat,
                tuple([(h, c, how) for h, (c, how) in sorted(self.characters.items())]),
                tuple([(h, chest, how) for h, (chest, how) in sorted(self.chests.items())]),
                self.claw,
                self.drawn,
                self.coin,
                tuple(sorted(self.ballots.items())),
            )
        return made

    def to_json(self) -> dict[str, object]:
        return self.value().to_json()


# ---------------------------------------------------------------------- the kinds
def _dealt(own: OwnReader, event: Event) -> None:
    if not own.mine(event) and own.seat != LEADER:  # (a game leader deals every seat)
        return
    chest = event.seat("chest")
    for house, character in event.seat_texts("characters").items():
        own.characters[house] = (character, OWN)
        own.chests[house] = (house == chest, OWN)


def _night(own: OwnReader, event: Event) -> None:
    own.claw = None


def _clawed(own: OwnReader, event: Event) -> None:
    own.claw = event.seat("house")


def _peeked(own: OwnReader, event: Event) -> None:
    house = event.seat("house")
    known = own.chests.get(house)
    if known is None or known[1] != OWN:
        chest = event.data["chest"]
        own.chests[house] = (chest is True, "peeked")


def _day(own: OwnReader, event: Event) -> None:
    own.ballots = {}


def _seen(own: OwnReader, event: Event) -> None:
    own.told(event.seat("house"), event.text("character"), "seen")


def _shown(own: OwnReader, event: Event) -> None:
    own.told(event.seat("house"), event.text("character"), "shown")


def _drawn(own: OwnReader, event: Event) -> None:
    if own.mine(event):
        own.drawn = tuple(event.seats("coins"))


def _kept(own: OwnReader, event: Event) -> None:
    if own.mine(event):
        own.coin, own.drawn = event.count("kept"), None


def _ballot(own: OwnReader, event: Event) -> None:
    if own.mine(event):
        house = event.seat("house")
        own.ballots[house] = own.ballots.get(house, 0) + 1


def _over(own: OwnReader, event: Event) -> None:
    own.drawn = None


READ: Final = {
    "characters_dealt": _dealt,
    "night": _night,
    "clawed": _clawed,
    "peeked": _peeked,
    "day": _day,
    "privilege_seen": _seen,
    "privilege_shown": _shown,
    "coins_drawn": _drawn,
    "coin_kept": _kept,
    "coin_picked": _kept,
    "ballot_cast": _ballot,
    "game_over": _over,
}
"""What each kind a seat may be told does to what it knows (any other: nothing)."""
