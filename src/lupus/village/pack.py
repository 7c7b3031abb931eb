"""The pack's step: its living members choose one victim together, and agree.

Each member names a target (the werewolves may also stay asleep) and may send his
choice again, as often as he likes, until the step closes; every choice is told to
the den (``pack_choice``), so the members see each other's current choice. The step
resolves on its own as soon as every living member has made the same choice (the
same target, or all asleep); a mix of names, or of names and sleep, is no agreement,
and the step then stays open until the game leader (a timer) closes it, when the
rulebook's rule decides as it always did (the target named most often, a tie drawn by
the seeded generator, a member who never chose counting as one who named nobody).
Only *when* the step closes depends on agreement, never what it decides.

A rulebook whose pack need not agree (``pack_must_agree = false``: the classic mafia)
resolves once every member has chosen, whatever they chose.

While the members disagree, the game waits on those who have had the fewest says in
the step (all of them at first): a member who has just changed his choice has had his
turn, and the others owe an answer to it. Someone who runs a game without a clock
(the simulator, the terminal) closes the step, as a timer would, once it is
``stalled``: every member has chosen twice and they still disagree.

Nobody dies during the step (the Little Girl decides before it), so its members are
the living members when it begins; a dead member is never waited for.
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from lupus.engine.model import Action
from lupus.village.game import VillageGame
from lupus.village.steps import Ballot

STALL: int = 2
"""How many times every member has chosen when a split pack is ``stalled``."""


@mypyc_attr(allow_interpreted_subclasses=True)  # (a role from outside lupus subclasses it)
class PackBallot(Ballot):
    """A ballot that resolves on agreement (see the module); subclasses set ``voters``
    in ``begin`` and call ``pack_begins`` there."""

    def __init__(self) -> None:
        if self._made:  # (compiled, called twice for a class without its own: ``Ballot._made``)
            return
        super().__init__()
        self.must_agree = True
        self.says: dict[int, int] = {}  # how many times each member has chosen
        self.agreed = True  # the choices made so far are all the same

    def pack_begins(self, game: VillageGame) -> None:
        """The members are known (``voters``): read the rulebook's rule once."""
        self.must_agree = game.facts.pack_must_agree
        self.says = {member: 0 for member in self.voters}

    def act(self, game: VillageGame, action: Action) -> None:
        actor = action.actor
        choice = self.choice
        choice[actor] = action
        says = self.says  # (compiled, ``+=`` on an item is a generic number call)
        says[actor] = says[actor] + 1
        agreed = True
        for other in choice.values():
            if other.verb != action.verb or other.args != action.args:
                agreed = False
                break
        self.agreed = agreed
        self.recorded(game, action)

    def all_chosen(self) -> bool:
        return len(self.choice) == len(self.voters)

    def split(self) -> bool:
        """Every member has chosen, and the choices stand apart (the step stays open)."""
        return self.must_agree and not self.agreed and self.all_chosen()

    def complete(self, game: VillageGame) -> bool:
        if self.closed:
            return True
        return self.all_chosen() and (self.agreed or not self.must_agree)

    def settled(self, game: VillageGame) -> bool:
        return self.agreed or not self.must_agree

    def waiting(self, game: VillageGame) -> list[int]:
        choice = self.choice
        missing = [m for m in self.voters if m not in choice]
        if missing or not self.split():
            return missing
        fewest = min(self.says.values())
        return [m for m in self.voters if self.says[m] == fewest]

    def first_waiting(self, game: VillageGame) -> int | None:
        choice = self.choice
        for member in self.voters:
            if member not in choice:
                return member
        if not self.split():
            return None
        says = self.says
        fewest = min(says.values())
        for member in self.voters:
            if says[member] == fewest:
                return member
        return None  # (not reached: some member has had the fewest says)

    def stalled(self, game: VillageGame) -> bool:
        """Every member has chosen at least ``STALL`` times and they still disagree."""
        return self.split() and min(self.says.values()) >= STALL
