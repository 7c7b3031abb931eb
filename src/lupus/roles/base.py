"""Shapes most role steps share: a role that wakes, and a ballot of simultaneous choices."""

from __future__ import annotations

from lupus.engine.game import Step
from lupus.engine.model import Action, Args, Prompt
from lupus.engine.village import VillageGame


def seats(targets: list[int]) -> tuple[Args, ...]:
    return tuple((t,) for t in targets)


class VillageStep(Step):
    """A step of the village family (its game is a VillageGame)."""

    def game(self, game: object) -> VillageGame:
        assert isinstance(game, VillageGame)
        return game


class Ballot(VillageStep):
    """Several actors decide at once; a decision may be changed until the step resolves.

    ``wake`` names the card called (the step runs, and is announced, whenever that card
    is in the game, alive or not: skipping it would tell everyone the role is gone).
    """

    wake: str | None = None

    def __init__(self) -> None:
        self.voters: tuple[int, ...] = ()
        self.choice: dict[int, Action] = {}
        self._offered: dict[int, list[Prompt]] = {}

    def begin(self, game: object) -> bool:
        g = self.game(game)
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

    def options(self, g: VillageGame, actor: int) -> list[Prompt]:
        return []

    def prompts(self, game: object) -> list[Prompt]:
        g = self.game(game)
        return [p for a in self.voters for p in self.options(g, a)]

    def prompts_for(self, game: object, actor: int) -> list[Prompt]:
        # Options only change when a decision is recorded, so they are kept until then.
        offered = self._offered.get(actor)
        if offered is None:
            offered = self.options(self.game(game), actor) if actor in self.voters else []
            self._offered[actor] = offered
        return offered

    def waiting(self, game: object) -> list[int]:
        return [a for a in self.voters if a not in self.choice]

    def forget_prompts(self) -> None:
        self._offered.clear()

    def act(self, game: object, action: Action) -> None:
        self.choice[action.actor] = action
        self.recorded(self.game(game), action)

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
