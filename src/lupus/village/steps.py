"""Shapes most role steps share: a role that wakes, and a ballot of simultaneous choices."""

from __future__ import annotations

from collections.abc import Sequence

from mypy_extensions import mypyc_attr

from lupus.engine.game import Step
from lupus.engine.model import Action, Args, Prompt, one_each
from lupus.village.game import VillageGame


def seats(targets: list[int]) -> tuple[Args, ...]:
    """The choices of a verb that names one seat among ``targets``."""
    return one_each(targets)


def tally(targets: Sequence[int | None]) -> dict[int, int]:
    """How often each seat was named (None, nobody named, is not counted)."""
    counts: dict[int, int] = {}
    for target in targets:
        if target is not None:
            counts[target] = counts.get(target, 0) + 1
    return counts


@mypyc_attr(allow_interpreted_subclasses=True)  # (a role from outside lupus subclasses it)
class VillageStep(Step[VillageGame]):
    """A step of the village family: its hooks receive the VillageGame."""

    def game(self, game: object) -> VillageGame:
        assert isinstance(game, VillageGame)
        return game


@mypyc_attr(allow_interpreted_subclasses=True)  # (a role from outside lupus subclasses it)
class Ballot(VillageStep):
    """Several actors decide at once; a decision may be changed until the step resolves.

    ``wake`` names the card called (the step runs, and is announced, whenever that card
    is in the game, alive or not: skipping it would tell everyone the role is gone).
    Without that card in the game the step does nothing at all, so a night leaves it
    out for such a deck (``Cards``): a ``begin`` that overrides this one must not act
    before ``Ballot.begin`` has checked the card.

    Each actor's options are built once, when first asked for, and kept for the whole
    step: a ballot's choices do not depend on the decisions recorded in it. A step whose
    options do (the Witch: a potion used is gone) sets ``options_follow_decisions``, and
    its options are built again after every decision.
    """

    wake: str | None = None
    options_follow_decisions: bool = False
    # Whether the step is complete once every voter has chosen (``waiting`` is the
    # ballot's own); a step whose ``waiting`` says more sets it False.
    complete_when_all_chose: bool = True

    def __init__(self) -> None:
        self.voters: tuple[int, ...] = ()
        self.choice: dict[int, Action] = {}
        self._offered: list[tuple[Prompt, ...] | None] = []  # by seat, when first asked
        self._first_missing = 0  # see first_waiting

    def begin(self, g: VillageGame) -> bool:
        if self.wake is not None:
            if not g.in_deck(self.wake):
                return False
            g.emit("wake", None, step=self.id)
        self.voters = tuple(self.who(g))
        self.started(g)
        return True

    def who(self, g: VillageGame) -> list[int]:
        """The actors this step waits for."""
        return []

    def started(self, g: VillageGame) -> None:
        """Private announcements to the actors once they are known."""

    def options(self, g: VillageGame, actor: int) -> tuple[Prompt, ...]:
        return ()

    def prompts(self, g: VillageGame) -> list[Prompt]:
        return [p for a in self.voters for p in self.prompts_for(g, a)]

    def prompts_for(self, g: VillageGame, actor: int) -> tuple[Prompt, ...]:
        # A tuple, so that a view can keep it as it is (``tuple()`` of a tuple is itself).
        if not self._offered:
            # Nothing for those who do not decide; the voters' options when first asked.
            self._offered = [()] * g.n
            for voter in self.voters:
                self._offered[voter] = None
        offered = self._offered[actor]
        if offered is None:
            offered = self._offered[actor] = self.options(g, actor)
        return offered

    def waiting(self, g: VillageGame) -> list[int]:
        choice = self.choice
        if len(choice) == len(self.voters):
            return []  # everyone has decided (only voters are offered a decision)
        return [a for a in self.voters if a not in choice]

    def first_waiting(self, g: VillageGame) -> int | None:
        if not self.complete_when_all_chose:
            return super().first_waiting(g)
        # Decisions are only ever added (or changed): the voters before the first one
        # found missing last time have all decided, so the search starts from there.
        voters, choice = self.voters, self.choice
        first = self._first_missing
        while first < len(voters) and voters[first] in choice:
            first += 1
        self._first_missing = first
        return voters[first] if first < len(voters) else None

    def complete(self, g: VillageGame) -> bool:
        """``waiting`` is empty, asked without listing who is missing (after every action)."""
        if self.closed:
            return True
        if self.complete_when_all_chose:
            return len(self.choice) == len(self.voters)
        return not self.waiting(g)

    def forget_prompts(self) -> None:
        if self.options_follow_decisions:
            self._offered = []

    def act(self, g: VillageGame, action: Action) -> None:
        self.choice[action.actor] = action
        self.recorded(g, action)

    def recorded(self, g: VillageGame, action: Action) -> None:
        """Announce a decision to whoever sees it being taken."""

    def picked(self, actor: int, verb: str) -> int | None:
        """The seat an actor chose with ``verb``, if he did."""
        action = self.choice.get(actor)
        if action is None or action.verb != verb:
            return None
        target = action.args[0]
        assert isinstance(target, int)
        return target
