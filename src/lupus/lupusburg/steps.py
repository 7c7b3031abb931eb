"""Shapes Lupusburg's steps share: a step of the family, and one actor's turn."""

from __future__ import annotations

from lupus.engine.interned import one_each
from lupus.engine.model import Action, Args, Prompt
from lupus.engine.step import Step
from lupus.lupusburg.game import LupusburgGame


def houses(targets: list[int]) -> tuple[Args, ...]:
    """The choices of a verb that names one house among ``targets``."""
    return one_each(targets)


class LupusburgStep(Step[LupusburgGame]):
    """A step of the Lupusburg family: its hooks receive the LupusburgGame."""


class Turn(LupusburgStep):
    """One actor (or nobody) owes one decision; shared by most Lupusburg steps."""

    def __init__(self) -> None:
        self.actor: int | None = None
        self.choice: Action | None = None
        self._offered: tuple[Prompt, ...] | None = None

    def prompts(self, game: LupusburgGame) -> list[Prompt]:
        return [] if self.actor is None else list(self.prompts_for(game, self.actor))

    def forget_prompts(self) -> None:
        self._offered = None

    def options(self, game: LupusburgGame, actor: int) -> list[Prompt]:
        return []

    def prompts_for(self, game: LupusburgGame, actor: int) -> tuple[Prompt, ...]:
        if actor != self.actor or not self.owes():
            return ()
        # The options only change when a decision is recorded (then the game calls
        # forget_prompts), so they are built once per decision, not once per question.
        if self._offered is None:
            self._offered = tuple(self.options(game, actor))
        return self._offered

    def owes(self) -> bool:
        """Whether the actor still owes his decision."""
        return self.actor is not None and self.choice is None

    def waiting(self, game: LupusburgGame) -> list[int]:
        return [self.actor] if self.actor is not None and self.owes() else []

    def first_waiting(self, game: LupusburgGame) -> int | None:
        return self.actor if self.owes() else None

    def complete(self, game: LupusburgGame) -> bool:
        return self.closed or not self.owes()

    def act(self, game: LupusburgGame, action: Action) -> None:
        self.choice = action
        self.recorded(game, action)

    def recorded(self, game: LupusburgGame, action: Action) -> None:
        """Announce the decision to whoever sees it being taken."""

    def target(self) -> int | None:
        if self.choice is None or not self.choice.args:
            return None
        arg = self.choice.args[0]
        assert isinstance(arg, int)
        return arg
