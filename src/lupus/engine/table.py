"""The public table: each seat as everyone at the table knows it, and the last phase's
outcome, derived from the public events alone.

A page shows who sits where, who is dead, which cards are known, who holds a title,
and what the night or the vote just did. Every client used to work it out from the
event log; the server now derives it once per public moment of a game and sends it in
every view (``view.public``, docs/protocol.md). It is read from the public events of a
view and its setup's names, nothing else: the table of a seat's view, of the leader's
and of a spectator's at the same moment are the same, and none can hold a secret.

A family reads its own events (``Family.table_reader``: ``lupus.village.table``,
``lupus.lupusburg.table``) into a ``TableReader``, which keeps the state this module
shares: who is alive, the cards made public, the titles, the outcome being built.
``PublicTables`` keeps one reader per game and feeds it only the events it has not
read, so a server pays for each public event once, not for every frame; the engine
itself never does any of this (nothing here runs unless a table is asked for).
"""

from __future__ import annotations

from typing import ClassVar, Final, final

from lupus.engine.ledger import oldest_first
from lupus.engine.model import Event, Value
from lupus.engine.sealed import seal
from lupus.engine.views import View, role_facts

NIGHT: Final = "night"


@final
class TableHouse(Value):
    """A Lupusburg house as the table knows it: its character and whether it holds a
    chest stay None until they are made public (the game's end)."""

    __slots__ = ("alive", "character", "chest", "house")
    FIELDS: ClassVar[tuple[str, ...]] = ("house", "alive", "character", "chest")

    def __init__(self, house: int, alive: bool, character: str | None, chest: bool | None) -> None:
        self.house: Final = house
        self.alive: Final = alive
        self.character: Final = character
        self.chest: Final = chest

    def to_json(self) -> dict[str, object]:
        return {
            "house": self.house,
            "alive": self.alive,
            "character": self.character,
            "chest": self.chest,
        }


NO_HOUSES: Final[tuple[TableHouse, ...]] = ()


@final
class TableSeat(Value):
    """One seat as the table knows it: its name, whether its player is still in the
    game, his card once it is public (else None), the titles he holds (ids, in the
    rulebook's names on a page) and, in Lupusburg, his two houses."""

    __slots__ = ("alive", "card", "houses", "name", "seat", "titles")
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "name", "alive", "card", "titles", "houses")

    def __init__(
        self,
        seat: int,
        name: str,
        alive: bool,
        card: str | None,
        titles: tuple[str, ...],
        houses: tuple[TableHouse, ...] = NO_HOUSES,
    ) -> None:
        self.seat: Final = seat
        self.name: Final = name
        self.alive: Final = alive
        self.card: Final = card
        self.titles: Final = titles
        self.houses: Final = houses

    def to_json(self) -> dict[str, object]:
        shown: dict[str, object] = {
            "seat": self.seat,
            "name": self.name,
            "alive": self.alive,
            "card": self.card,
            "titles": list(self.titles),
        }
        if self.houses:
            shown["houses"] = [house.to_json() for house in self.houses]
        return shown


@final
class TableDeath(Value):
    """A death of the phase: whose, of what (None where the rulebook does not say) and
    his card (None while it is not public); in Lupusburg the house of the character."""

    __slots__ = ("card", "cause", "house", "seat")
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "cause", "card", "house")

    def __init__(self, seat: int, cause: str | None, card: str | None, house: int | None) -> None:
        self.seat: Final = seat
        self.cause: Final = cause
        self.card: Final = card
        self.house: Final = house

    def to_json(self) -> dict[str, object]:
        shown: dict[str, object] = {"seat": self.seat, "cause": self.cause, "card": self.card}
        if self.house is not None:
            shown["house"] = self.house
        return shown


@final
class TableVote(Value):
    """The votes one candidate received in the day's deciding vote (in Lupusburg, a
    character: its house, and the seat of its owner)."""

    __slots__ = ("house", "seat", "votes")
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "votes", "house")

    def __init__(self, seat: int, votes: int, house: int | None) -> None:
        self.seat: Final = seat
        self.votes: Final = votes
        self.house: Final = house

    def to_json(self) -> dict[str, object]:
        shown: dict[str, object] = {"seat": self.seat}
        if self.house is not None:
            shown["house"] = self.house
        shown["votes"] = self.votes
        return shown


@final
class TableOutcome(Value):
    """What the last phase did, as the table was told: its deaths in the order they were
    announced, the day's deciding vote (None after a night), whether a failed attempt
    was announced, and the seats of a tie not settled yet (a Captain to decide, a new
    round to come): a vote that tied has decided nothing so far."""

    __slots__ = ("deaths", "failed_attempt", "number", "phase", "tie", "votes")
    FIELDS: ClassVar[tuple[str, ...]] = (
        "phase",
        "number",
        "deaths",
        "votes",
        "failed_attempt",
        "tie",
    )

    def __init__(
        self,
        phase: str,
        number: int,
        deaths: tuple[TableDeath, ...],
        votes: tuple[TableVote, ...] | None,
        failed_attempt: bool,
        tie: tuple[int, ...] | None = None,
    ) -> None:
        self.phase: Final = phase
        self.number: Final = number
        self.deaths: Final = deaths
        self.votes: Final = votes
        self.failed_attempt: Final = failed_attempt
        self.tie: Final = tie

    def to_json(self) -> dict[str, object]:
        votes = self.votes
        tie = self.tie
        return {
            "phase": self.phase,
            "number": self.number,
            "deaths": [death.to_json() for death in self.deaths],
            "votes": None if votes is None else [vote.to_json() for vote in votes],
            "failed_attempt": self.failed_attempt,
            "tie": None if tie is None else list(tie),
        }


@final
class PublicTable(Value):
    """The public state of the table at one public moment of a game (see the module):
    ``players`` in seat order, ``outcome`` None until a phase has had one."""

    __slots__ = ("outcome", "players")
    FIELDS: ClassVar[tuple[str, ...]] = ("players", "outcome")

    def __init__(self, players: tuple[TableSeat, ...], outcome: TableOutcome | None) -> None:
        self.players: Final = players
        self.outcome: Final = outcome

    def to_json(self) -> dict[str, object]:
        """As plain JSON data: ``view.public`` of docs/protocol.md."""
        outcome = self.outcome
        return {
            "players": [seat.to_json() for seat in self.players],
            "outcome": None if outcome is None else outcome.to_json(),
        }


class TableReader:
    """Reads one game's public events, oldest first, into its public table.

    This base reads what every family shares: a card disclosed by a public event (the
    fields each kind declares in ``discloses``), and the bookkeeping of the outcome.
    A family's reader (``read_kind``) says which of its events kill, decide a phase,
    count the deciding vote, tell a failed attempt or give a title, through ``died``,
    ``decided``, ``counted``, ``failed_attempt`` and ``titles`` (title id -> holder).
    Read only the public events of one game, in order: the reader trusts its caller
    for that (``PublicTables`` and ``public_table`` read nothing else).
    """

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.n = len(names)
        self.count = 0  # the public events read so far
        self.alive = [True] * self.n
        self.cards: list[str | None] = [None] * self.n
        self.titles: dict[str, int] = {}  # title id -> the seat that holds it
        # The outcome being built: its phase (None: no phase has had one yet), its
        # deaths as (seat, cause, house), the deciding vote's counts, the failed attempt.
        self.phase: str | None = None
        self.number = 0
        self.deaths: list[tuple[int, str | None, int | None]] = []
        self.votes: list[TableVote] | None = None
        self.failed = False
        self.tie: tuple[int, ...] | None = None  # a tie not settled yet
        # What the last table was made of, kept while it stays true: most public events
        # (a ballot, a step's wake, a token) change no seat and no outcome.
        self.entries: list[TableSeat | None] = [None] * self.n
        self.outcome: TableOutcome | None = None
        self.outcome_stale = True
        self.made: PublicTable | None = None

    def fresh(self) -> TableReader:
        """A reader of the same kind that has read nothing (to read a game again)."""
        return TableReader(self.names)

    # ------------------------------------------------------------------ reading
    def feed(self, event: Event) -> None:
        """Read the next public event."""
        self.count += 1
        self.read_kind(event)
        for seat, role in role_facts(event):
            if 0 <= seat < self.n:
                self.cards[seat] = role
                self.outcome_stale = True  # (a death's card may show now)

    def read_kind(self, event: Event) -> None:
        """What a family's event does to the table (the base: nothing)."""

    def decided(self, event: Event) -> None:
        """The event's phase has an outcome now (a dawn, a vote decided, a death): it
        becomes the table's last phase, empty at first, unless it is already."""
        phase, number = event.phase, event.number
        self.outcome_stale = True
        self.tie = None  # (whatever decides the phase settles its tie)
        if phase == self.phase and number == self.number:
            return
        self.phase, self.number = phase, number
        self.deaths = []
        self.votes = None if phase == NIGHT else []
        self.failed = False

    def died(self, event: Event, seat: int, cause: str | None, house: int | None) -> None:
        """A death the event announces, in its phase's outcome."""
        self.decided(event)
        self.deaths.append((seat, cause, house))

    def counted(self, event: Event, votes: list[TableVote]) -> None:
        """The deciding vote's counts (a later round's replace an earlier one's), most
        votes first, then in seat (house) order."""
        self.decided(event)
        if self.phase != NIGHT:
            self.votes = sorted(votes, key=vote_order)

    def tied(self, event: Event, seats: tuple[int, ...]) -> None:
        """The deciding vote tied between ``seats``: nothing is decided until a later
        event settles it (a decision, a death, a new round's count)."""
        self.decided(event)
        self.tie = seats

    def failed_attempt(self, event: Event) -> None:
        """The table is told of a failed attempt in the event's phase."""
        self.decided(event)
        self.failed = True

    # ------------------------------------------------------------------ the table
    def table(self) -> PublicTable:
        """The table as the events read so far make it: the same object as the last
        one while nothing in it changed (its seats and outcome are made again only
        when they change)."""
        players = tuple([self.seat_entry(seat) for seat in range(self.n)])
        outcome = self.outcome
        if self.outcome_stale:
            outcome = self.outcome = self.made_outcome()
            self.outcome_stale = False
        made = self.made
        if made is not None and made.outcome is outcome and same(made.players, players):
            return made
        made = self.made = PublicTable(players, outcome)
        return made

    def made_outcome(self) -> TableOutcome | None:
        phase = self.phase
        if phase is None:
            return None
        deaths = tuple(
            [
                TableDeath(seat, cause, self.death_card(seat, house), house)
                for seat, cause, house in self.deaths
            ]
        )
        votes = self.votes
        counts = None if votes is None else tuple(votes)
        return TableOutcome(phase, self.number, deaths, counts, self.failed, self.tie)

    def seat_entry(self, seat: int) -> TableSeat:
        """One seat of the table, made again only when it changed."""
        alive, card = self.alive[seat], self.cards[seat]
        titles, houses = self.titles_of(seat), self.houses_of(seat)
        kept = self.entries[seat]
        if (
            kept is not None
            and kept.alive == alive
            and kept.card == card
            and kept.titles == titles
            and kept.houses is houses
        ):
            return kept
        made = TableSeat(seat, self.names[seat], alive, card, titles, houses)
        self.entries[seat] = made
        return made

    def houses_of(self, seat: int) -> tuple[TableHouse, ...]:
        """A seat's houses (a family with houses keeps each seat's as one tuple, made
        again when one of them changes)."""
        return NO_HOUSES

    def titles_of(self, seat: int) -> tuple[str, ...]:
        if not self.titles:
            return ()
        return tuple(sorted([title for title, holder in self.titles.items() if holder == seat]))

    def death_card(self, seat: int, house: int | None) -> str | None:
        """The card a death shows: the dead player's, once it is public."""
        return self.cards[seat]


def same(kept: tuple[TableSeat, ...], made: tuple[TableSeat, ...]) -> bool:
    """Whether two tables' seats are the very same entries."""
    return len(kept) == len(made) and all(kept[place] is made[place] for place in range(len(made)))


def vote_order(vote: TableVote) -> tuple[int, int, int]:
    house = vote.house
    return (-vote.votes, vote.seat, -1 if house is None else house)


def public_table(view: View, reader: TableReader) -> PublicTable:
    """The public table of ``view``, read from its public events by a ``reader`` that
    has read nothing yet (``Family.table_reader``)."""
    head, count = view.public_chain()
    for event in oldest_first(head, count, 0):
        reader.feed(event)
    return reader.table()


class PublicTables:
    """The public tables of one game, derived incrementally: each public event is read
    once, however many views ask (the views of one game only).

    The table of a moment already derived is kept (the latest one: every client of a
    room is shown the same public moment, one after the other). A view behind the
    reader (rare: none in a server's normal flow) is read again from the start.
    """

    def __init__(self, reader: TableReader) -> None:
        self.reader = reader
        self.latest: PublicTable | None = None  # the reader's table, once made

    def of(self, view: View) -> PublicTable:
        """The public table of ``view``'s moment."""
        head, count = view.public_chain()
        reader = self.reader
        if count < reader.count:
            return public_table(view, reader.fresh())
        if count > reader.count:
            for event in oldest_first(head, count, reader.count):
                reader.feed(event)
            self.latest = None
        latest = self.latest
        if latest is None:
            latest = self.latest = reader.table()
        return latest


seal(TableHouse)
seal(TableSeat)
seal(TableDeath)
seal(TableVote)
seal(TableOutcome)
seal(PublicTable)
