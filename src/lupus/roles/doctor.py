"""The Doctor (Läkaren): each night he protects one player from the night's murder.

He may protect himself. He may not protect the same player two nights in a row, unless
that player was actually saved the night before (the mafia attacked him and the
protection stopped it). A murder he stops is announced at dawn as a failed attempt,
without saying on whom (``mechanics.announce_failed_attempt``).

Once his turn is over the night's attack is settled: the murdered player is out from
then on, so he does not wake again this night (the seed: the murdered do not open their
eyes), and his death is announced at dawn.
"""

from __future__ import annotations

from lupus.engine.game import alone
from lupus.engine.model import Action, Prompt
from lupus.engine.village import VillageGame
from lupus.roles.base import Ballot, seats


class DoctorStep(Ballot):
    id = "doctor"
    wake: str | None = "doctor"

    def begin(self, g: VillageGame) -> bool:
        if not g.in_deck(self.wake or self.id):
            g.settle_attack()  # no protector in this game: the attack lands now
            return False
        return super().begin(g)

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
        g.settle_attack()
        g.protected_last = protected
        g.saved_last = protected is not None and g.night.saved == protected
