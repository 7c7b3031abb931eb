"""A step: one moment of a game that may wait for decisions (see ``lupus.engine.game``).

Role authors subclass it (through their family's own base, such as ``VillageStep``):
the game calls these hooks, and checks every action against ``prompts_for`` before
``act`` sees it.
"""

from __future__ import annotations

from typing import ClassVar, Generic, Protocol

from mypy_extensions import mypyc_attr
from typing_extensions import TypeVar

from lupus.engine.errors import IllegalAction
from lupus.engine.model import Action, Prompt


class Host(Protocol):
    """What the base step reads of its game (``lupus.engine.game.Game`` is one): named
    here so that this module does not import the game, which imports it. A family's
    steps take their own game class (``Step[VillageGame]``) and read all of it."""

    def actor_name(self, actor: int) -> str: ...


G = TypeVar("G", bound=Host, default=Host)


@mypyc_attr(allow_interpreted_subclasses=True)  # (a role from outside lupus subclasses it)
class Step(Generic[G]):
    """One moment of the game that may wait for decisions.

    Subclasses are small: ``begin`` announces the step and decides whether it runs,
    ``prompts`` lists what is owed, ``act`` records a validated decision, ``resolve``
    applies the step's effects. A step never validates by hand what ``prompts`` already
    says: the game checks every action against the prompts before ``act`` sees it.

    ``G`` is the game family the step belongs to (``Step[VillageGame]``), so that its
    hooks receive the game already typed; a bare ``Step`` knows only the ``Host`` of its game.
    """

    id: ClassVar[str] = "step"  # (class-level: read from an outside subclass too)
    closed: bool = False

    def begin(self, game: G) -> bool:
        """Start the step; False skips it silently (nothing to announce, nothing owed)."""
        return True

    def prompts(self, game: G) -> list[Prompt]:
        """Every decision that may be taken now, including changes of a given vote."""
        return []

    def prompts_for(self, game: G, actor: int) -> tuple[Prompt, ...]:
        """One actor's prompts; steps override it when that is cheaper than filtering.

        A tuple, which a view keeps as it is: a step may hand out a cached one.
        """
        return tuple([p for p in self.prompts(game) if p.actor == actor])

    def waiting(self, game: G) -> list[int]:
        """Actors who still owe an input before the step can resolve."""
        return []

    def first_waiting(self, game: G) -> int | None:
        """The first of ``waiting``; steps override it when that is cheaper."""
        waiting = self.waiting(game)
        return waiting[0] if waiting else None

    def stalled(self, game: G) -> bool:
        """Whether the step can only end by the leader's close although its actors keep
        answering (a pack that has had its say twice and still disagrees): a runner
        without a clock, such as the simulator, then closes it, as a timer would."""
        return False

    def act(self, game: G, action: Action) -> None:
        raise IllegalAction(f"{game.actor_name(action.actor)} has nothing to do now")

    def forget_prompts(self) -> None:
        """Drop cached prompts: the game calls it after every recorded decision."""

    def complete(self, game: G) -> bool:
        return self.closed or not self.waiting(game)

    def close(self, game: G) -> None:
        """The leader ends the step; whatever is missing counts as a pass or abstention."""
        self.closed = True

    def resolve(self, game: G) -> None:
        """Apply the step's effects once its inputs are in."""

    def refusal(self, game: G, action: Action) -> str | None:
        """Why the rules forbid an action its prompt does not list, when the list alone
        would not tell a player (the captain's election: not for oneself); None else."""
        return None
