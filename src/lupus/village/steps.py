"""Shapes most role steps share: a role that wakes, and a ballot of simultaneous choices."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar, Final

from mypy_extensions import mypyc_attr

from lupus.engine.interned import one_each
from lupus.engine.model import READ_ONLY, Action, Args, Prompt
from lupus.engine.offers import Offers
from lupus.engine.step import Step
from lupus.village.game import VillageGame


def seats(targets: Sequence[int]) -> tuple[Args, ...]:
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
    """A step of the village family: its hooks receive the VillageGame. ``wake``: the
    card it calls, if it calls one (a game leader puts its holders back to sleep)."""

    wake: ClassVar[str | None] = None  # (class-level: read from an outside subclass too)

    def wake_up(self, game: VillageGame) -> None:
        """Announce the step to everyone (``wake``: the narrator calls its card)."""
        game.emit("wake", None, step=self.id)


Traits = tuple[str, str | None, bool, Mapping[str, object]]

_TRAITS: Final[dict[type[Ballot], Traits]] = {}


def traits(kind: type[Ballot]) -> Traits:
    """A ballot class's id, its card called (``wake``), whether it keeps the default
    ``decided`` and ``settled`` (then its waiting is read without calling them: most
    ballots, after every action), and the data of its ``wake`` event, read-only, one
    for every game (``Game.emit_shared``). Read once per class: compiled, reading a
    class attribute of a subclass costs a Python attribute lookup every time."""
    found = _TRAITS.get(kind)
    if found is None:
        default = kind.decided is Ballot.decided and kind.settled is Ballot.settled
        found = _TRAITS[kind] = (kind.id, kind.wake, default, READ_ONLY({"step": kind.id}))
    return found


@mypyc_attr(allow_interpreted_subclasses=True)  # (a role from outside lupus subclasses it)
class Ballot(VillageStep):
    """Several actors decide at once; a decision may be changed until the step resolves.

    ``wake`` names the card called (the step runs, and is announced, whenever that card
    is in the game, alive or not: skipping it would tell everyone the role is gone).
    Without that card in the game the step does nothing at all, so a night leaves it
    out for such a deck (``Cards``): a ``begin`` that overrides this one must not act
    before ``Ballot.begin`` has checked the card.

    What an actor owes follows from one predicate, ``decided``: waiting, completion and
    the first actor waited for are all read from it. ``settled`` says whether the
    decisions, once all taken, stand together (the mafia must agree on one victim).
    Each actor's options are built when first asked and kept (``Offers``); a step whose
    options change with a decision forgets that actor's in ``act``.

    A toast every living player raises or not (the game calls these hooks itself; here
    they are called by hand to show the protocol):

    >>> from lupus import new_game
    >>> from lupus.engine.interned import bare
    >>> from lupus.engine.model import Action
    >>> class Toast(Ballot):
    ...     id = "toast"
    ...     def who(self, game):
    ...         return list(game.living)
    ...     def options(self, game, actor):
    ...         return (bare(actor, "raise"), bare(actor, "pass"))
    >>> game = new_game("werewolf", ["Ann", "Bob", "Cy", "Dee"],
    ...                 ["werewolf", "seer", "villager", "villager"],
    ...                 options={"lift_minimum": True})
    >>> toast = Toast()
    >>> toast.begin(game)
    True
    >>> [prompt.verb for prompt in toast.prompts_for(game, 2)]
    ['raise', 'pass']
    >>> toast.act(game, Action(2, "raise"))
    >>> toast.waiting(game), toast.first_waiting(game), toast.complete(game)
    ([0, 1, 3], 0, False)
    >>> for seat in (0, 1, 3):
    ...     toast.act(game, Action(seat, "pass"))
    >>> toast.complete(game), toast.choice[2].verb
    (True, 'raise')
    """

    # Whether ``__init__`` has run. Compiled, a step class without an ``__init__`` of its
    # own (most roles' ballots) is set up twice when called: mypyc's ``tp_new`` runs the
    # base's ``__init__``, then CPython's type call runs it again as the ``tp_init`` the
    # class inherits from this base, which allows interpreted subclasses. The second
    # time does nothing (it would only make the same empty state again).
    _made: bool = False

    def __init__(self) -> None:
        if self._made:
            return
        self._made = True
        self.voters: tuple[int, ...] = ()
        self.choice: dict[int, Action] = {}
        self.offers = Offers()
        self._first_missing = 0  # see first_waiting
        self._id, self._wake, self._plain, self._waking = traits(type(self))

    def begin(self, game: VillageGame) -> bool:
        wake = self._wake
        if wake is not None:
            if not game.in_deck(wake):
                return False
            self.wake_up(game)
        self.voters = tuple(self.who(game))
        self.started(game)
        return True

    def wake_up(self, game: VillageGame) -> None:
        game.emit_shared("wake", self._waking)  # (its data made once per class)

    def who(self, game: VillageGame) -> list[int]:
        """The actors this step waits for."""
        return []

    def started(self, game: VillageGame) -> None:
        """Private announcements to the actors once they are known."""

    def options(self, game: VillageGame, actor: int) -> tuple[Prompt, ...]:
        return ()

    def prompts(self, game: VillageGame) -> list[Prompt]:
        return [p for a in self.voters for p in self.prompts_for(game, a)]

    def prompts_for(self, game: VillageGame, actor: int) -> tuple[Prompt, ...]:
        # A tuple, so that a view can keep it as it is (``tuple()`` of a tuple is itself).
        offers = self.offers
        if not offers.ready():
            offers.start(game.n, self.voters)
        offered = offers.kept(actor)
        if offered is None:
            offered = offers.keep(actor, self.options(game, actor))
        return offered

    def decided(self, game: VillageGame, actor: int) -> bool:
        """Whether ``actor`` owes this step nothing more (by default: he has chosen).

        Once true it stays true (a decision may be changed, not withdrawn): the search
        for the first actor waited for resumes where it stopped.
        """
        return actor in self.choice

    def settled(self, game: VillageGame) -> bool:
        """Whether the decisions, once every actor has decided, stand together; if not,
        every actor owes a new one (the mafia pointing at different players)."""
        return True

    def waiting(self, game: VillageGame) -> list[int]:
        missing = [a for a in self.voters if not self.decided(game, a)]
        if missing or self.settled(game):
            return missing
        return list(self.voters)

    def first_waiting(self, game: VillageGame) -> int | None:
        voters = self.voters
        first = self._first_missing
        if self._plain:  # (``decided`` is "has chosen": the same search, without calls)
            choice = self.choice
            while first < len(voters) and voters[first] in choice:
                first += 1
        else:
            while first < len(voters) and self.decided(game, voters[first]):
                first += 1
        self._first_missing = first
        if first < len(voters):
            return voters[first]
        return None if not voters or self.settled(game) else voters[0]

    def complete(self, game: VillageGame) -> bool:
        """``waiting`` is empty, asked without listing who is missing (after every action)."""
        if self.closed:
            return True
        if self._plain:  # everyone has chosen (only voters are offered a choice)
            return len(self.choice) == len(self.voters)
        return self.first_waiting(game) is None

    def act(self, game: VillageGame, action: Action) -> None:
        self.choice[action.actor] = action
        self.recorded(game, action)

    def recorded(self, game: VillageGame, action: Action) -> None:
        """Announce a decision to whoever sees it being taken."""

    def picked(self, actor: int, verb: str) -> int | None:
        """The seat an actor chose with ``verb``, if he did."""
        action = self.choice.get(actor)
        if action is None or action.verb != verb:
            return None
        target = action.args[0]
        assert isinstance(target, int)
        return target
