"""Steps every village rulebook has: nightfall and daybreak, dawn's deaths, the win check."""

from __future__ import annotations

from lupus.village.game import VillageGame
from lupus.village.night import NightRecord
from lupus.village.steps import VillageStep


class PhaseStart(VillageStep):
    """Night or day begins; a public announcement that moves the clock of deaths."""

    id = "phase"

    def __init__(self, phase: str, number: int) -> None:
        self.phase = phase
        self.number = number

    def begin(self, game: VillageGame) -> bool:
        game.phase = self.phase
        game.number = self.number
        if self.phase == "night":
            game.night = NightRecord()
        game.emit(self.phase, None, number=self.number)
        return False


class Dawn(VillageStep):
    """The village wakes: what happened in the night is told, in the order it happened.

    First the news held back during the night (deaths that happened at once, a failed
    attempt, a couple revealed), then the night's attack (unless saved), then the
    poisoned: these die together, each of his own cause (a poisoned lover of the victim
    dies of the poison, not of heartbreak). "Nobody died" if the night took nobody.
    """

    id = "dawn"

    def resolve(self, game: VillageGame) -> None:
        night = game.night
        game.emit("dawn", None, number=game.number)
        game.release_news()
        victim = game.settle_attack()
        deaths = [] if victim is None else [(victim, game.facts.kill_cause)]
        for target in night.poisoned:
            deaths.append((target, "poison"))
        game.kill_together(deaths)
        if not any(d.phase == "night" and d.number == game.number for d in game.deaths):
            game.emit("no_death", None)


class WinCheck(VillageStep):
    """Runs once every death of a chain is resolved (heartbreak, hunter's shot)."""

    id = "win_check"

    def resolve(self, game: VillageGame) -> None:
        game.check_win()
