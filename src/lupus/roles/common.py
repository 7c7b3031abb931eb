"""Steps every village rulebook has: nightfall and daybreak, dawn's deaths, the win check."""

from __future__ import annotations

from lupus.engine.game import Step
from lupus.engine.village import NightRecord, VillageGame


class PhaseStart(Step):
    """Night or day begins; a public announcement that moves the clock of deaths."""

    id = "phase"

    def __init__(self, phase: str, number: int) -> None:
        self.phase = phase
        self.number = number

    def begin(self, game: object) -> bool:
        assert isinstance(game, VillageGame)
        game.phase = self.phase
        game.number = self.number
        if self.phase == "night":
            game.night = NightRecord()
        game.emit(self.phase, None, number=self.number)
        return False


class Dawn(Step):
    """The village wakes: the night's victim (unless saved) and the poisoned die."""

    id = "dawn"

    def resolve(self, game: object) -> None:
        assert isinstance(game, VillageGame)
        night = game.night
        game.emit("dawn", None, number=game.number)
        dead_before = len(game.deaths)
        victim = night.victim
        saved = victim is not None and (night.healed or night.protected == victim)
        game.murdered_last_night = False
        if victim is not None and saved:
            if game.rulebook.mechanics.announce_failed_attempt:
                game.emit("failed_attempt", None)
        elif victim is not None and game.alive[victim]:
            game.kill(victim, game.rulebook.mechanics.kill_cause)
            game.murdered_last_night = True
        for target in night.poisoned:
            game.kill(target, "poison")
        if len(game.deaths) == dead_before:
            game.emit("no_death", None)


class WinCheck(Step):
    """Runs once every death of a chain is resolved (heartbreak, hunter's shot)."""

    id = "win_check"

    def resolve(self, game: object) -> None:
        assert isinstance(game, VillageGame)
        won = game.winner()
        if won is not None:
            game.finish(*won)
