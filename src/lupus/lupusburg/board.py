"""Lupusburg's public board (``view.public.board``, docs/protocol.md): the day as the
whole table saw it, read from the public events alone by ``lupus.lupusburg.table``.

A page draws the bag, the privilege, the bets, the first voting's tokens, the suspects
and the second voting's ballots from it, not by reading the event log again. What a
seat alone knows (its characters, its peeks, its coin) is its own part of the frame
(``lupus.lupusburg.own``), never here: the board of a seat's view, of the leader's and
of a spectator's at the same moment are the same.

- ``stage`` is where the game stands, as the table can tell: ``setup``, ``night``,
  ``privilege`` (a day began: the Burgomaster's privilege), ``betting`` (the privilege
  was told declined or impossible, or a bet or a pass was told), ``first_voting`` (a
  token was laid), ``second_voting`` (the suspects were named), ``lynched`` (the
  ballots were revealed) and ``over``. A privilege used stays ``privilege`` until the
  first bet or pass is told: what was shown in return, and when, is told to two seats.
- ``day``, ``night``: the latest day and night begun (0: none yet).
- ``coins``: the bag's coins at the start, highest first; ``bag``: how many are still
  in it as the table counts them (each bet keeps one for good).
- ``privilege``: today's, once told: ``used`` (on ``house``), ``declined`` or ``none``
  (the Burgomaster could not use it), with the Burgomaster's ``player``, until the
  night; ``looked``: the house it looked at, until the next day begins.
- ``bets``: every seat that bet (in this game: one bet each) and on whom; the coins are
  face down until the end (``end.bets``). ``passed``: the seats that did not bet today;
  ``keeping``: the seat whose bet was told last today, while no other betting news came
  (he may still be choosing his coin, which nobody else sees).
- ``tokens``: today's first voting, each house's tokens by who laid them, in turn;
  ``laid`` counts them, ``round`` is the latest token's round.
- ``suspects``: today's suspect houses, the first (``paw``) then the second (``fur``),
  with ``suspect_tokens`` and the ``tie_break`` the event told; ``votes``: the second
  voting's ballots per suspect once revealed (else None).
- ``slaughtered``: the house the Werewolf killed at the latest dawn, until the next
  night begins; ``lynched``: today's lynched house, until the next day begins.
- ``turn``: whose turn it is as anyone can tell (the bets, then the tokens, from the
  Burgomaster clockwise), ``(step, seat)``, or None.
"""

from __future__ import annotations

from typing import ClassVar, Final, final

from lupus.engine.event_json import plain
from lupus.engine.model import Event, Value
from lupus.engine.sealed import seal

SETUP: Final = "setup"
BETTING: Final = "betting"
FIRST_VOTING: Final = "first_voting"

Pairs = tuple[tuple[int, int], ...]


@final
class LupusburgBoard(Value):
    """The public board at one public moment (see the module)."""

    __slots__ = (
        "bag",
        "bets",
        "coins",
        "day",
        "keeping",
        "laid",
        "looked",
        "lynched",
        "night",
        "passed",
        "privilege",
        "round",
        "slaughtered",
        "stage",
        "suspect_tokens",
        "suspects",
        "tie_break",
        "tokens",
        "turn",
        "votes",
    )
    FIELDS: ClassVar[tuple[str, ...]] = (
        "stage",
        "day",
        "night",
        "coins",
        "bag",
        "privilege",
        "looked",
        "bets",
        "passed",
        "keeping",
        "tokens",
        "laid",
        "round",
        "suspects",
        "suspect_tokens",
        "tie_break",
        "votes",
        "slaughtered",
        "lynched",
        "turn",
    )

    def __init__(
        self,
        stage: str,
        day: int,
        night: int,
        coins: tuple[int, ...],
        bag: int,
        privilege: tuple[str, int, int | None] | None,
        looked: int | None,
        bets: Pairs,
        passed: tuple[int, ...],
        keeping: int | None,
        tokens: tuple[tuple[int, tuple[int, ...]], ...],
        laid: int,
        round: int,
        suspects: tuple[int, ...],
        suspect_tokens: Pairs,
        tie_break: object,
        votes: Pairs | None,
        slaughtered: int | None,
        lynched: int | None,
        turn: tuple[str, int] | None,
    ) -> None:
        self.stage: Final = stage
        self.day: Final = day
        self.night: Final = night
        self.coins: Final = coins
        self.bag: Final = bag
        self.privilege: Final = privilege
        self.looked: Final = looked
        self.bets: Final = bets
        self.passed: Final = passed
        self.keeping: Final = keeping
        self.tokens: Final = tokens
        self.laid: Final = laid
        self.round: Final = round
        self.suspects: Final = suspects
        self.suspect_tokens: Final = suspect_tokens
        self.tie_break: Final = tie_break  # (the event's read-only data, as it was told)
        self.votes: Final = votes
        self.slaughtered: Final = slaughtered
        self.lynched: Final = lynched
        self.turn: Final = turn

    def to_json(self) -> dict[str, object]:
        privilege, votes, turn = self.privilege, self.votes, self.turn
        return {
            "stage": self.stage,
            "day": self.day,
            "night": self.night,
            "coins": list(self.coins),
            "bag": self.bag,
            "privilege": None
            if privilege is None
            else {"state": privilege[0], "player": privilege[1], "house": privilege[2]},
            "looked": self.looked,
            "bets": {str(seat): target for seat, target in self.bets},
            "passed": list(self.passed),
            "keeping": self.keeping,
            "tokens": {str(house): list(by) for house, by in self.tokens},
            "laid": self.laid,
            "round": self.round,
            "suspects": list(self.suspects),
            "suspect_tokens": {str(house): n for house, n in self.suspect_tokens},
            "tie_break": plain(self.tie_break),
            "votes": None if votes is None else {str(house): n for house, n in votes},
            "slaughtered": self.slaughtered,
            "lynched": self.lynched,
            "turn": None if turn is None else {"step": turn[0], "seat": turn[1]},
        }


seal(LupusburgBoard)


class BoardReader:
    """Reads the public events, oldest first, into the board (see the module); the
    table's reader (``LupusburgTable``) feeds it and names the Burgomaster."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.stage = SETUP
        self.day = self.night = 0
        self.coins: tuple[int, ...] = ()
        self.privilege: tuple[str, int, int | None] | None = None
        self.bets: dict[int, int] = {}
        self.passed: list[int] = []
        self.keeping: int | None = None
        self.slaughtered: int | None = None
        self.new_day()
        self.made: LupusburgBoard | None = None  # the last board, while it stays true
        self.made_for: int | None = None  # (the Burgomaster it was made for)

    def new_day(self) -> None:
        """What a day begins without: the day's tokens, suspects, ballots and lynch."""
        self.tokens: dict[int, list[int]] = {}
        self.laid = self.round = 0
        self.suspects: tuple[int, ...] = ()
        self.suspect_tokens: Pairs = ()
        self.tie_break: object = None
        self.votes: Pairs | None = None
        self.lynched: int | None = None
        self.looked: int | None = None
        self.passed = []
        self.keeping = None

    def feed(self, event: Event) -> None:
        """Read the next public event (one that changes nothing is read for nothing)."""
        read = READ.get(event.kind)
        if read is not None:
            read(self, event)
            self.made = None

    def board(self, burgomaster: int | None) -> LupusburgBoard:
        """The board as the events read so far make it: the same object while nothing
        changed (the Burgomaster, the turns' first seat, comes from the titles)."""
        made = self.made
        if made is not None and self.made_for == burgomaster:
            return made
        made = self.made = LupusburgBoard(
            self.stage,
            self.day,
            self.night,
            self.coins,
            max(0, len(self.coins) - len(self.bets)),
            self.privilege,
            self.looked,
            tuple(sorted(self.bets.items())),
            tuple(self.passed),
            self.keeping,
            tuple(sorted([(house, tuple(by)) for house, by in self.tokens.items()])),
            self.laid,
            self.round,
            self.suspects,
            self.suspect_tokens,
            self.tie_break,
            self.votes,
            self.slaughtered,
            self.lynched,
            self.turn(burgomaster),
        )
        self.made_for = burgomaster
        return made

    def turn(self, first: int | None) -> tuple[str, int] | None:
        """Whose turn it is in a turn-by-turn step, as anyone can tell: the bets go from
        the Burgomaster clockwise (those who have not bet yet, once a day), then the
        tokens (every player, twice); None when nobody can tell."""
        n = self.n
        if first is None or not n:
            return None
        if self.stage == BETTING:
            for k in range(n):
                seat = (first + k) % n
                if seat not in self.bets and seat not in self.passed:
                    return (BETTING, seat)
            return (FIRST_VOTING, first)
        if self.stage == FIRST_VOTING and self.laid < 2 * n:
            return (FIRST_VOTING, (first + self.laid % n) % n)
        return None


# ---------------------------------------------------------------------- the kinds
def _game_starts(board: BoardReader, event: Event) -> None:
    board.coins = tuple(event.seats("coins"))


def _night(board: BoardReader, event: Event) -> None:
    board.stage, board.night = "night", event.number
    board.slaughtered = board.privilege = None


def _day(board: BoardReader, event: Event) -> None:
    board.stage, board.day = "privilege", event.number
    board.privilege = None
    board.new_day()


def _no_privilege(board: BoardReader, event: Event) -> None:
    board.privilege = ("none", event.seat("player"), None)
    board.stage = BETTING


def _declined(board: BoardReader, event: Event) -> None:
    board.privilege = ("declined", event.seat("player"), None)
    board.stage = BETTING


def _privilege(board: BoardReader, event: Event) -> None:
    board.looked = event.seat("house")
    board.privilege = ("used", event.seat("player"), board.looked)


def _bet(board: BoardReader, event: Event) -> None:
    player = event.seat("player")
    board.bets[player] = event.seat("target")
    board.keeping, board.stage = player, BETTING


def _no_bet(board: BoardReader, event: Event) -> None:
    board.passed.append(event.seat("player"))
    board.keeping, board.stage = None, BETTING


def _token(board: BoardReader, event: Event) -> None:
    board.tokens.setdefault(event.seat("house"), []).append(event.seat("player"))
    board.laid += 1
    board.round = event.count("round")
    board.stage, board.keeping = FIRST_VOTING, None


def _suspects(board: BoardReader, event: Event) -> None:
    board.suspects = tuple(event.seats("houses"))
    board.suspect_tokens = tuple(sorted(event.seat_ints("tokens").items()))
    board.tie_break = event.data.get("tie_break")
    board.stage = "second_voting"


def _ballots(board: BoardReader, event: Event) -> None:
    board.votes = tuple(sorted(event.seat_ints("votes").items()))
    board.stage = "lynched"


def _dies(board: BoardReader, event: Event) -> None:
    cause, house = event.text("cause"), event.seat("house")
    if cause == "werewolf":
        board.slaughtered = house
    elif cause == "vote":
        board.lynched = house


def _over(board: BoardReader, event: Event) -> None:
    board.stage, board.keeping = "over", None


READ: Final = {
    "game_starts": _game_starts,
    "night": _night,
    "day": _day,
    "no_privilege": _no_privilege,
    "privilege_declined": _declined,
    "privilege": _privilege,
    "bet": _bet,
    "no_bet": _no_bet,
    "token": _token,
    "suspects": _suspects,
    "ballots": _ballots,
    "character_dies": _dies,
    "game_over": _over,
}
"""What each public kind does to the board (any other changes nothing)."""
