"""The Doctor (Läkaren): each night he protects one player from the night's murder.

He may protect himself. He may not protect the same player two nights in a row, unless
that player was actually saved the night before (the mafia attacked him and the
protection stopped it). A murder he stops is announced at dawn as a failed attempt,
without saying on whom (``mechanics.announce_failed_attempt``).

His protection is only recorded here: the night's attack is settled at dawn, when the
village wakes and learns who was murdered. Until then nobody, the victim included, knows
of the murder, so a murdered Detective, Couple member or Avenger still wakes tonight.
"""

from __future__ import annotations

from lupus.engine.model import Action, Prompt, alone
from lupus.engine.village import VillageGame
from lupus.roles.base import Ballot, seats


class DoctorStep(Ballot):
    id = "doctor"
    wake: str | None = "doctor"

    def who(self, g: VillageGame) -> list[int]:
        return g.holders("doctor")

    def options(self, g: VillageGame, actor: int) -> tuple[Prompt, ...]:
        banned = g.protected_last if not g.saved_last else None
        return (Prompt(actor, "protect", seats([s for s in g.standing() if s != banned])),)

    def recorded(self, g: VillageGame, action: Action) -> None:
        g.emit("protection", alone(action.actor), target=action.args[0])

    def resolve(self, g: VillageGame) -> None:
        protected = next(
            (t for t in (self.picked(d, "protect") for d in self.voters) if t is not None), None
        )
        g.night.protected = protected
        g.protected_last = protected  # (dawn tells whether he was saved: ``saved_last``)
