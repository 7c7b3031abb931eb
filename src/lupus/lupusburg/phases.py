"""The steps that frame Lupusburg's phases and ask nobody anything: a phase's start,
dawn's death, the win check and the Burgomaster's office passing on."""

from __future__ import annotations

from lupus.lupusburg.game import LupusburgGame
from lupus.lupusburg.steps import LupusburgStep


class PhaseStart(LupusburgStep):
    id = "phase"

    def __init__(self, phase: str, number: int) -> None:
        self.phase = phase
        self.number = number

    def begin(self, game: LupusburgGame) -> bool:
        game.phase = self.phase
        game.number = self.number
        game.claw = None
        game.tokens.clear()
        game.emit(self.phase, None, number=self.number, burgomaster=game.burgomaster)
        return False


class Dawn(LupusburgStep):
    id = "dawn"

    def resolve(self, game: LupusburgGame) -> None:
        game.emit("dawn", None, number=game.number)
        if game.claw is None:
            game.emit("no_death", None)
        else:
            game.kill_house(game.claw, "werewolf")


class WinCheck(LupusburgStep):
    id = "win_check"

    def resolve(self, game: LupusburgGame) -> None:
        game.check_end()


class PassBurgomaster(LupusburgStep):
    id = "burgomaster"

    def begin(self, game: LupusburgGame) -> bool:
        game.burgomaster = (game.burgomaster + 1) % game.n
        game.emit("burgomaster", None, player=game.burgomaster)
        return False
