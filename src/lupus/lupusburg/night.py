"""Lupusburg's night: the Thief peeks under a house, the Werewolf points the claw."""

from __future__ import annotations

from lupus.engine.interned import alone
from lupus.engine.model import Prompt
from lupus.lupusburg.game import LupusburgGame
from lupus.lupusburg.steps import Turn, houses


class ThiefStep(Turn):
    """The Thief looks under one house: is there a chest? The step always runs."""

    id = "thief"

    def begin(self, game: LupusburgGame) -> bool:
        game.emit("wake", None, step=self.id)
        if game.living_count(game.thief):
            self.actor = game.thief
        return True

    def options(self, game: LupusburgGame, actor: int) -> list[Prompt]:
        mine = game.houses_of(actor)
        return [Prompt(actor, "peek", houses([h for h in game.living_houses() if h not in mine]))]

    def resolve(self, game: LupusburgGame) -> None:
        house = self.target()
        if house is not None and self.actor is not None:
            game.emit(
                "peeked", alone(self.actor), house=house, chest=game.chest[house // 2] == house
            )


class WerewolfStep(Turn):
    """The Werewolf points the claw at a house; its character is slaughtered at dawn."""

    id = "werewolf"

    def begin(self, game: LupusburgGame) -> bool:
        game.emit("wake", None, step=self.id)
        if game.living_count(game.werewolf):
            self.actor = game.werewolf
        return True

    def options(self, game: LupusburgGame, actor: int) -> list[Prompt]:
        mine = game.houses_of(actor)
        own_allowed = game.living_count(actor) == 2
        targets = [h for h in game.living_houses() if own_allowed or h not in mine]
        return [Prompt(actor, "claw", houses(targets))]

    def resolve(self, game: LupusburgGame) -> None:
        game.claw = self.target()
        if game.claw is not None and self.actor is not None:
            game.emit("clawed", alone(self.actor), house=game.claw)
