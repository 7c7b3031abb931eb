"""The values of the public table (``lupus.engine.table`` reads them from the public
events): a seat, a Lupusburg house, the last outcome's deaths and votes, the public
step under way with its entries, the game's end. Each is immutable and says itself as
plain JSON data (``to_json``: ``view.public`` of docs/protocol.md).
"""

from __future__ import annotations

from typing import ClassVar, Final, Protocol, final

from lupus.engine.event_json import plain
from lupus.engine.model import Value
from lupus.engine.sealed import seal


@final
class TableHouse(Value):
    """A Lupusburg house as the table knows it: its character and whether it holds a
    chest stay None until they are made public (the game's end); ``death`` is how its
    character died and when, ``(cause, phase, number)``, None while it lives."""

    __slots__ = ("alive", "character", "chest", "death", "house")
    FIELDS: ClassVar[tuple[str, ...]] = ("house", "alive", "character", "chest", "death")

    def __init__(
        self,
        house: int,
        alive: bool,
        character: str | None,
        chest: bool | None,
        death: tuple[str, str, int] | None = None,
    ) -> None:
        self.house: Final = house
        self.alive: Final = alive
        self.character: Final = character
        self.chest: Final = chest
        self.death: Final = death

    def to_json(self) -> dict[str, object]:
        death = self.death
        return {
            "house": self.house,
            "alive": self.alive,
            "character": self.character,
            "chest": self.chest,
            "death": None
            if death is None
            else {"cause": death[0], "phase": death[1], "number": death[2]},
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
    his card (None while it is not public); in Lupusburg the house of the character.
    ``event`` is the place of the event that told it among the game's public events
    (the same for every reader: a page finds its sentence with it, without a search)."""

    __slots__ = ("card", "cause", "event", "house", "seat")
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "cause", "card", "house", "event")

    def __init__(
        self, seat: int, cause: str | None, card: str | None, house: int | None, event: int
    ) -> None:
        self.seat: Final = seat
        self.cause: Final = cause
        self.card: Final = card
        self.house: Final = house
        self.event: Final = event

    def to_json(self) -> dict[str, object]:
        shown: dict[str, object] = {"seat": self.seat, "cause": self.cause, "card": self.card}
        if self.house is not None:
            shown["house"] = self.house
        shown["event"] = self.event
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
    round to come): a vote that tied has decided nothing so far. ``nobody_event`` and
    ``failed_event`` are the places among the public events of the event that told
    that nobody died (a night's ``no_death``, a day's ``no_elimination``) and of the
    failed attempt's, None if there was none (a page shows their sentences)."""

    __slots__ = (
        "deaths",
        "failed_attempt",
        "failed_event",
        "nobody_event",
        "number",
        "phase",
        "tie",
        "votes",
    )
    FIELDS: ClassVar[tuple[str, ...]] = (
        "phase",
        "number",
        "deaths",
        "votes",
        "failed_attempt",
        "tie",
        "nobody_event",
        "failed_event",
    )

    def __init__(
        self,
        phase: str,
        number: int,
        deaths: tuple[TableDeath, ...],
        votes: tuple[TableVote, ...] | None,
        failed_attempt: bool,
        tie: tuple[int, ...] | None = None,
        nobody_event: int | None = None,
        failed_event: int | None = None,
    ) -> None:
        self.phase: Final = phase
        self.number: Final = number
        self.deaths: Final = deaths
        self.votes: Final = votes
        self.failed_attempt: Final = failed_attempt
        self.tie: Final = tie
        self.nobody_event: Final = nobody_event
        self.failed_event: Final = failed_event

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
            "nobody_event": self.nobody_event,
            "failed_event": self.failed_event,
        }


@final
class TableEntry(Value):
    """One public entry in the step under way: a ballot (``target`` None: an
    abstention, a blank ballot) or a nomination, by the seat that cast it."""

    __slots__ = ("seat", "target")
    FIELDS: ClassVar[tuple[str, ...]] = ("seat", "target")

    def __init__(self, seat: int, target: int | None) -> None:
        self.seat: Final = seat
        self.target: Final = target

    def to_json(self) -> dict[str, object]:
        return {"seat": self.seat, "target": self.target}


@final
class TableStep(Value):
    """The public step under way: the one the latest public event that opens a step
    (``EventSpec.script == "opens"``: a night step's ``wake``, a vote, the nominations,
    a tie for the Captain, the Hunter's aim) opened, until a public event other than an
    entry in it comes (a night step lasts through what is said of it, until the dawn:
    ``TableReader.ends_step``).

    ``kind``, ``phase`` and ``number`` are its opening event's; ``place`` counts the
    steps opened in that phase (1 for the first: a night's steps are ``number.place``);
    ``event`` is the opening event's place among the public events. ``step`` is the
    night step's id (a ``wake``'s), ``vote`` what the players enter (``"counted"``: the
    vote that decides the day; ``"other"``: another vote, an election;
    ``"nominations"``; None: nothing public), ``candidates``, ``needed`` and ``round``
    the opening event's (None where it has none). ``entries`` are the public ballots
    or nominations cast in it so far, in the order their seats first cast one, each
    seat's latest (a withdrawn nomination is gone): a secret ballot's never show.
    """

    __slots__ = (
        "candidates",
        "entries",
        "event",
        "kind",
        "needed",
        "number",
        "phase",
        "place",
        "round",
        "step",
        "vote",
    )
    FIELDS: ClassVar[tuple[str, ...]] = (
        "kind",
        "phase",
        "number",
        "place",
        "event",
        "step",
        "vote",
        "candidates",
        "needed",
        "round",
        "entries",
    )

    def __init__(
        self,
        kind: str,
        phase: str,
        number: int,
        place: int,
        event: int,
        step: str | None,
        vote: str | None,
        candidates: tuple[int, ...] | None,
        needed: int | None,
        round: int | None,
        entries: tuple[TableEntry, ...],
    ) -> None:
        self.kind: Final = kind
        self.phase: Final = phase
        self.number: Final = number
        self.place: Final = place
        self.event: Final = event
        self.step: Final = step
        self.vote: Final = vote
        self.candidates: Final = candidates
        self.needed: Final = needed
        self.round: Final = round
        self.entries: Final = entries

    def to_json(self) -> dict[str, object]:
        candidates = self.candidates
        return {
            "kind": self.kind,
            "phase": self.phase,
            "number": self.number,
            "place": self.place,
            "event": self.event,
            "step": self.step,
            "vote": self.vote,
            "candidates": None if candidates is None else list(candidates),
            "needed": self.needed,
            "round": self.round,
            "entries": [entry.to_json() for entry in self.entries],
        }


@final
class TableEnd(Value):
    """The game's end as ``game_over`` told it: the side that won (``winner``), the
    seats that won, why it ended; in Lupusburg each seat's ``scores``, their ``parts``,
    the ``tie_break`` and every seat's ``bets`` (its target and coin) where it told
    them (else None)."""

    __slots__ = ("bets", "parts", "reason", "scores", "tie_break", "winner", "winners")
    FIELDS: ClassVar[tuple[str, ...]] = (
        "winner",
        "winners",
        "reason",
        "scores",
        "parts",
        "tie_break",
        "bets",
    )

    def __init__(
        self,
        winner: str,
        winners: tuple[int, ...],
        reason: str,
        scores: tuple[tuple[int, int], ...] | None,
        parts: object,
        tie_break: object,
        bets: object = None,
    ) -> None:
        self.winner: Final = winner
        self.winners: Final = winners
        self.reason: Final = reason
        self.scores: Final = scores
        self.parts: Final = parts  # (the event's read-only data, as it was told)
        self.tie_break: Final = tie_break
        self.bets: Final = bets

    def to_json(self) -> dict[str, object]:
        scores = self.scores
        return {
            "winner": self.winner,
            "winners": list(self.winners),
            "reason": self.reason,
            "scores": None if scores is None else {str(seat): n for seat, n in scores},
            "parts": plain(self.parts),
            "tie_break": plain(self.tie_break),
            "bets": plain(self.bets),
        }


class Board(Protocol):
    """A family's own public board (Lupusburg's day: ``lupus.lupusburg.board``): a
    value, equal by what it holds, said as plain JSON data (``view.public.board``)."""

    def to_json(self) -> dict[str, object]: ...


@final
class PublicTable(Value):
    """The public state of the table at one public moment of a game (see the module):
    ``players`` in seat order, ``outcome`` None until a phase has had one, ``step`` the
    public step under way (None: none), ``end`` None until the game is over, ``board``
    the family's own public board (None for a family without one: the village)."""

    __slots__ = ("board", "end", "outcome", "players", "step")
    FIELDS: ClassVar[tuple[str, ...]] = ("players", "outcome", "step", "end", "board")

    def __init__(
        self,
        players: tuple[TableSeat, ...],
        outcome: TableOutcome | None,
        step: TableStep | None = None,
        end: TableEnd | None = None,
        board: Board | None = None,
    ) -> None:
        self.players: Final = players
        self.outcome: Final = outcome
        self.step: Final = step
        self.end: Final = end
        self.board: Final = board

    def to_json(self) -> dict[str, object]:
        """As plain JSON data: ``view.public`` of docs/protocol.md."""
        outcome = self.outcome
        step = self.step
        end = self.end
        shown: dict[str, object] = {
            "players": [seat.to_json() for seat in self.players],
            "outcome": None if outcome is None else outcome.to_json(),
            "step": None if step is None else step.to_json(),
            "end": None if end is None else end.to_json(),
        }
        board = self.board
        if board is not None:  # (a family without a board says nothing of it)
            shown["board"] = board.to_json()
        return shown


seal(TableHouse)
seal(TableSeat)
seal(TableDeath)
seal(TableVote)
seal(TableOutcome)
seal(TableEntry)
seal(TableStep)
seal(TableEnd)
seal(PublicTable)
