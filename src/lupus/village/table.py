"""The village family's public table (werewolf, tit-albert, maffia, mafia-classic): how
its public events make the table (``lupus.engine.table``; docs/protocol.md,
"The public table").

- A ``death`` takes a player out, in the outcome of its phase, with its ``cause``; his
  card is public where the death discloses it (``reveal_on_death``), or once any
  other public event does (maffia's ``couple_revealed``, ``game_over``).
- A night has its outcome from its ``dawn`` (deaths come after it, the Hunter's shot
  at dawn included); a ``failed_attempt`` is announced where the rulebook does it
  (``announce_failed_attempt``: maffia's Doctor saved the target); ``no_death`` tells
  that nobody died, as ``no_elimination`` does after a day.
- A day has its outcome once its elimination vote is counted (``tally`` after
  ``vote_opens`` or ``banishment_opens``, a later round's replacing the first's), or
  decided otherwise (``no_elimination``, ``no_nominations``, the Captain's ``decided``),
  or at its first death. The Captain's election is no elimination vote. A ``tie`` of
  that vote is the outcome's ``tie`` until something settles it (the Captain's
  decision, a death, a new round's count, no elimination).
- The Captain's title goes with ``captain`` (elected, drawn or appointed) and ends
  with his death: his successor holds it when appointed, nobody if he names nobody.

- The public step under way opens with a public kind the leader's script ``opens``
  (``wake``, ``vote_opens``, ``election``, ``nominations_open``, ``banishment_opens``,
  the Captain's ``tie``, ``hunter_aims``); its entries are the public ``echoes``
  (``ballot``, ``nomination``; a ``withdrawal`` takes one back); any other public
  event ends it, but a night step lasts through what is said of it (``starvation``,
  ``caught``) until the dawn. ``game_over`` is the table's ``end``.

Which kinds open the counted vote, decide a phase or give a title is declared with
each kind (``EventSpec.table``, ``EventSpec.script``), so that a role's events bring
their own effect.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from lupus.engine.model import Event
from lupus.engine.table import ENTERS, OPENS, WITHDRAWS, TableReader, TableVote

VOTES: Final = {"counted_vote": "counted", "other_vote": "other", "nominations": "nominations"}
"""What the players enter in a step, by the ``table`` mark of the kind that opens it."""


class VillageTable(TableReader):
    """The village's reader (see the module). ``marks``: what each kind does to the
    table (``EventSpec.table``, declared with the kind by the family or its roles);
    ``scripts``: its place in the leader's script (``EventSpec.script``), which says
    which kinds open a public step (``opens``) and which are entries in it (``echoes``);
    ``said``: how a narrator says it (``EventSpec.told``)."""

    def __init__(
        self,
        names: tuple[str, ...],
        marks: Mapping[str, str],
        scripts: Mapping[str, str],
        said: Mapping[str, str],
    ) -> None:
        super().__init__(names)
        self.marks = marks
        self.scripts = scripts
        self.said = said
        self.eliminating = False  # the vote now counted is the day's elimination vote

    def fresh(self) -> TableReader:
        return VillageTable(self.names, self.marks, self.scripts, self.said)

    def told(self, kind: str) -> str | None:
        return self.said.get(kind)

    def step_mark(self, kind: str) -> str | None:
        script = self.scripts.get(kind)
        if script == "opens":
            return OPENS
        if script == "echoes":
            return WITHDRAWS if self.marks.get(kind) == "withdraws" else ENTERS
        return None

    def vote_of(self, kind: str) -> str | None:
        return VOTES.get(self.marks.get(kind, ""))

    def read_kind(self, event: Event) -> None:
        kind = event.kind
        mark = self.marks.get(kind)
        if kind == "death":
            seat = event.seat("player")
            if 0 <= seat < self.n:
                self.alive[seat] = False
                for title in [t for t, holder in self.titles.items() if holder == seat]:
                    del self.titles[title]
            self.died(event, seat, event.maybe_text("cause"), None)
        elif kind == "tally":
            if self.eliminating:
                counts = event.seat_ints("votes")
                self.counted(event, [TableVote(s, n, None) for s, n in counts.items()])
        elif kind == "tie":
            if self.eliminating:
                self.tied(event, tuple(event.seats("players")))
        elif mark == "counted_vote":
            self.eliminating = True
        elif mark == "other_vote" or kind == "day" or kind == "night":
            self.eliminating = False
        elif mark == "title":
            self.titles[kind] = event.seat("player")
        elif kind == "failed_attempt":
            self.failed_attempt(event)
        elif mark == "decides":
            self.decided(event)
        elif mark == "nobody":
            self.nobody_died(event)
        elif kind == "game_over":
            self.ended(event)
