"""Steps every village rulebook has: nightfall and daybreak, dawn's deaths, the win check."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from lupus.engine.model import READ_ONLY
from lupus.village.game import VillageGame
from lupus.village.night import NightRecord
from lupus.village.steps import VillageStep

_NUMBERED: Final = tuple([READ_ONLY({"number": number}) for number in range(64)])


def numbered(number: int) -> Mapping[str, object]:
    """The data of a night's, a day's or a dawn's event, ``{"number": number}``, read-only:
    one for every game up to the 64th (``Game.emit_shared``), each of a game's phases
    announcing itself with no dict nor proxy of its own."""
    return _NUMBERED[number] if 0 <= number < len(_NUMBERED) else READ_ONLY({"number": number})


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
        game.emit_shared(self.phase, numbered(self.number))
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
        game.emit_shared("dawn", numbered(game.number))
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


# The family's own steps as the registry makes them (``Registry.phase_start``, ``dawn``,
# ``win_check``): compiled, a function builds its step directly, where calling the class
# through the registry goes through CPython's generic type call and argument parsing.
def phase_start(phase: str, number: int) -> VillageStep:
    return PhaseStart(phase, number)


def dawn() -> VillageStep:
    return Dawn()


def win_check() -> VillageStep:
    return WinCheck()
