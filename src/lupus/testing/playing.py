"""Seeded random play, one legal action at a time, with the game leader closing what
random play would not (a step nobody is waited for, a pack that keeps disagreeing).

Nothing here reads global random state: a game is its setup and the generator's seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from lupus.engine.errors import IllegalAction
from lupus.engine.game import Game
from lupus.engine.model import LEADER, Action
from lupus.testing.errors import Broken

CLOSE = Action(LEADER, "close")


@dataclass
class Chooser:
    """Picks the next action: mostly a seat the step waits for, sometimes one that
    already chose (``change_chance``), sometimes the leader (``close_chance``, a
    stalled step, ``idle_close`` when nobody is waited for, and ``patience`` actions in
    a row that leave the same seats waited for)."""

    rng: random.Random
    close_chance: float = 0.02
    change_chance: float = 0.05
    idle_close: float = 0.3
    patience: int = 6
    _last: tuple[object, ...] | None = None
    _repeats: int = 0

    def actor(self, game: Game) -> int:
        rng = self.rng
        waiting = game.waiting()
        key = (game.phase, game.number, tuple(waiting))
        self._repeats = self._repeats + 1 if key == self._last else 0
        self._last = key
        step = game.step
        if rng.random() < self.close_chance:
            return LEADER
        if not waiting and rng.random() < self.idle_close:
            return LEADER
        if waiting and self._repeats >= self.patience and rng.random() < 0.5:
            return LEADER
        if step is not None and step.stalled(game) and rng.random() < 0.5:
            return LEADER
        if waiting and rng.random() >= self.change_chance:
            return rng.choice(waiting)
        actors = sorted({p.actor for p in game.prompts() if p.actor != LEADER})
        return rng.choice(actors) if actors else LEADER

    def action(self, game: Game) -> Action:
        actor = self.actor(game)
        if actor == LEADER:
            return CLOSE
        options = game.legal_actions(actor)
        return self.rng.choice(options) if options else CLOSE


class Refused(Broken):
    """An offered action ``apply`` refused: the game stands just before it."""

    def __init__(self, action: Action, reason: str) -> None:
        super().__init__("offered-accepted", f"{action} was offered, then refused: {reason}")
        self.action = action


Observer = Callable[[Game, Action | None, int], None]
"""Called after the start (no action) and after every applied action, with the index
of the action's first event."""


def play(game: Game, chooser: Chooser, most: int, observe: Observer) -> Game:
    """Play ``game`` to its end; an offered action refused, or no end after ``most``
    actions, breaks the contract."""
    observe(game, None, 0)
    actions = 0
    while not game.finished:
        if actions >= most:
            raise Broken("ends", f"no end after {most} actions")
        action = chooser.action(game)
        before = len(game.events)
        try:
            game.apply(action)
        except IllegalAction as exc:
            raise Refused(action, str(exc)) from None
        actions += 1
        observe(game, action, before)
    return game
