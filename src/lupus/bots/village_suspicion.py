"""Public suspicion in the village family (werewolf, tit-albert, maffia, mafia-classic).

Every heuristic player computes it identically from public events only, so it is kept
once per game (``VillagePublic``, shared by the seats; see ``lupus.bots.memory``).
There is no chat, so ballots are the only signal. A sensible village follows the lead
of the ballots already cast (a bandwagon) unless it suspects someone more; a ballot
that breaks ranks (neither with the players most voted so far nor with the most
suspected player) makes its author suspect, as does voting for oneself. When an
eliminated player's card is revealed, those who voted for a werewolf gain trust, those
who turned away from a werewolf the vote was leaning to gain suspicion, and those who
opened a vote against a revealed villager gain a little.

The family's events are read here; a role's public events as the role says
(``Play.records``, in the role's module: the Captain's election, the nominations), with
the readings below, so that no kind of a role is named here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import ClassVar

from lupus.bots.memory import Public, as_int, int_list, maybe_int, top_set
from lupus.engine.model import Event
from lupus.engine.views import View
from lupus.families import village_plays

# Suspicion a ballot that breaks ranks earns its author, by kind of ballot.
DEVIATION = {"vote": 1.0, "nominate": 1.0, "banish": 0.5, "elect": 0.5}
SELF_VOTE = 1.0
TRUST_FOR_WOLF_VOTE = 1.5
SHIELDED_WOLF = 1.0
OPENED_ON_VILLAGER = 0.5
TRUSTED = 1.5  # a player this trusted is not followed into a vote against him
FOLLOW_FLOOR = 1.0  # a suspect is followed over the ballots' lead from this suspicion on
SURE = 100.0
CLEARED = 3.0  # inspected "town" where a disguised pack role exists: likely, not sure


@dataclass(slots=True)
class BallotRecord:
    voter: int
    target: int | None
    kind: str
    leaders: frozenset[int]
    opener: bool


class Round:
    """One public round of ballots (a vote, an election, the nominations)."""

    def __init__(self, kind: str, candidates: Sequence[int] | None) -> None:
        self.kind = kind
        self.candidates = None if candidates is None else list(candidates)
        self.tally: Counter[int] = Counter()
        self.first: dict[int, int] = {}
        self.ballots: dict[int, int] = {}  # voter -> target, the latest of each

    def add(self, target: int, weight: int = 1, voter: int | None = None) -> None:
        self.tally[target] += weight
        self.first.setdefault(target, len(self.first))
        if voter is not None:
            self.ballots[voter] = target

    def leaders(self, among: Collection[int] | None = None) -> set[int]:
        counts = {t: c for t, c in self.tally.items() if c > 0 and (among is None or t in among)}
        if not counts:
            return set()
        top = max(counts.values())
        return {t for t, c in counts.items() if c == top}


class VillagePublic(Public):
    """Public suspicion and the public record of ballots, deaths and the captain."""

    def __init__(self, view: View) -> None:
        super().__init__(view)
        book = view.book
        self.pack_roles = book.tagged(book.mechanics.pack_tag)
        self.dead: set[int] = set()
        self.captain: int | None = None
        self.susp: dict[int, float] = {}
        self.round: Round | None = None
        self.nominations: Round | None = None
        self.banish_leaders: frozenset[int] = frozenset()
        self.banish_top: frozenset[int] = frozenset()
        self.history: list[BallotRecord] = []
        self.readings = village_plays().records  # the roles' kinds (``Play.records``)

    def see(self, event: Event) -> None:
        handler = self.HANDLERS.get(event.kind)
        if handler is None:
            handler = self.readings.get(event.kind)
        if handler is not None:
            handler(self, event)

    def living(self) -> list[int]:
        return [s for s in range(self.n) if s not in self.dead]

    # The readings a role's events are given (``Play.records``), and the family's.
    def on_captain(self, event: Event) -> None:
        """The player whose vote counts twice now (``player``)."""
        self.captain = as_int(event.data["player"])

    def on_vote_opens(self, event: Event) -> None:
        self.round = Round("vote", int_list(event.data.get("candidates")))

    def on_election(self, event: Event) -> None:
        """An election opens among ``candidates``."""
        self.round = Round("elect", int_list(event.data.get("candidates")))

    def on_nominations_open(self, event: Event) -> None:
        """Nominations open (a round whose entries name the nominees)."""
        self.nominations = Round("nominate", None)
        self.round = self.nominations

    def on_nomination(self, event: Event) -> None:
        """A ``player`` nominates a ``target``."""
        if self.nominations is None:
            self.on_nominations_open(event)
        assert self.nominations is not None
        self.judge(self.nominations, as_int(event.data["player"]), as_int(event.data["target"]))

    def on_withdrawal(self, event: Event) -> None:
        """A nomination of ``target`` is taken back."""
        if self.nominations is not None:
            self.nominations.tally[as_int(event.data["target"])] -= 1

    def on_banishment_opens(self, event: Event) -> None:
        """The vote among the nominees (``candidates``) opens."""
        pool = int_list(event.data.get("candidates"))
        noms = self.nominations
        self.banish_leaders = frozenset(noms.leaders(pool) if noms else ())
        self.banish_top = frozenset(top_set(self.susp, pool, FOLLOW_FLOOR))
        self.round = Round("banish", pool)

    def on_ballot(self, event: Event) -> None:
        voter = as_int(event.data["player"])
        target = maybe_int(event.data.get("target"))
        kind = str(event.data.get("vote", "vote"))
        rnd = self.round
        if rnd is None or rnd.kind != kind:
            rnd = self.round = Round(kind, None)
        self.judge(rnd, voter, target)

    def judge(self, rnd: Round, voter: int, target: int | None) -> None:
        """Public suspicion: the ballot is weighed against what the village expected."""
        kind = rnd.kind
        if kind == "banish":
            leaders = set(self.banish_leaders) - {voter}
            expected = leaders | (set(self.banish_top) - {voter})
        elif kind == "elect":
            leaders = rnd.leaders() - {voter}
            expected = leaders | {voter} if leaders else set()
        else:
            pool = rnd.candidates if rnd.candidates is not None else self.living()
            others = [c for c in pool if c != voter and c not in self.dead]
            leaders = rnd.leaders(set(others))
            expected = leaders | top_set(self.susp, others, FOLLOW_FLOOR)
        if target is not None:
            if target == voter and kind != "elect":
                self.susp[voter] = self.susp.get(voter, 0.0) + SELF_VOTE
            elif expected and target not in expected:
                self.susp[voter] = self.susp.get(voter, 0.0) + DEVIATION.get(kind, 0.5)
            if kind != "banish":
                weight = 2 if kind == "vote" and voter == self.captain else 1
                rnd.add(target, weight, voter)
        if kind != "elect":
            self.history.append(
                BallotRecord(voter, target, kind, frozenset(leaders), opener=not expected)
            )

    def on_death(self, event: Event) -> None:
        seat = as_int(event.data["player"])
        self.dead.add(seat)
        role = event.data.get("role")
        if role is None:
            return
        wolf = str(role) in self.pack_roles
        for rec in self.history:
            if rec.target == seat:
                if wolf:
                    self.susp[rec.voter] = self.susp.get(rec.voter, 0.0) - TRUST_FOR_WOLF_VOTE
                elif rec.opener:
                    self.susp[rec.voter] = self.susp.get(rec.voter, 0.0) + OPENED_ON_VILLAGER
            elif wolf and seat in rec.leaders and rec.target is not None:
                self.susp[rec.voter] = self.susp.get(rec.voter, 0.0) + SHIELDED_WOLF

    # What each kind of the family's events tells (functions of the class, not bound
    # methods: a table of bound methods would make every memory a reference cycle).
    HANDLERS: ClassVar[dict[str, Callable[[VillagePublic, Event], None]]] = {
        "vote_opens": on_vote_opens,
        "ballot": on_ballot,
        "death": on_death,
    }
