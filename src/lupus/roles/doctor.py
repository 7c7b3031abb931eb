"""The Doctor (Läkaren): each night he protects one player from the night's murder.

He may protect himself. He may not protect the same player two nights in a row, unless
that player was actually saved the night before (the mafia attacked him and the
protection stopped it). A murder he stops is announced at dawn as a failed attempt,
without saying on whom (``mechanics.announce_failed_attempt``), if the target is alive
then: one who died earlier that night of the Avenger's shot or of heartbreak (which he
never protects from) was neither murdered nor saved.

His protection is only recorded here: the night's attack is settled at dawn, when the
village wakes and learns who was murdered. Until then nobody, the victim included, knows
of the murder, so a murdered Detective, Couple member or Avenger still wakes tonight.
"""

from __future__ import annotations

from typing import ClassVar

from lupus.bots.village_brain import shield
from lupus.engine.events import SEAT, EventSpec
from lupus.engine.interned import alone
from lupus.engine.model import Action, Event, Prompt, Value
from lupus.village.game import VillageGame
from lupus.village.night import NightRecord
from lupus.village.plugin import Play, Role, Verb
from lupus.village.steps import Ballot, seats


class LastProtection(Value):
    """What the Doctor keeps across nights: whom he protected last, and that night's
    record (whose ``saved`` tells, after its dawn, whether the protection saved him).
    Equal by what it decides: the player he protected and the one he may not protect."""

    __slots__ = ("night", "target")
    FIELDS: ClassVar[tuple[str, ...]] = ("target", "forbidden")
    UNCOMPARED: ClassVar[tuple[str, ...]] = ("night",)  # read through ``forbidden``

    def __init__(self) -> None:
        self.target: int | None = None
        self.night: NightRecord | None = None

    @property
    def forbidden(self) -> int | None:
        return self.banned()

    def banned(self) -> int | None:
        """The player he may not protect tonight: last night's, unless it saved him."""
        night = self.night
        if night is not None and night.saved is not None and night.saved == self.target:
            return None
        return self.target


def last_protection(game: VillageGame) -> LastProtection:
    kept = game.memory("doctor")
    assert isinstance(kept, LastProtection)
    return kept


class DoctorStep(Ballot):
    id = "doctor"
    wake = "doctor"

    def who(self, game: VillageGame) -> list[int]:
        return game.holders("doctor")

    def options(self, game: VillageGame, actor: int) -> tuple[Prompt, ...]:
        banned = last_protection(game).banned()
        return (Prompt(actor, "protect", seats([s for s in game.standing() if s != banned])),)

    def recorded(self, game: VillageGame, action: Action) -> None:
        game.emit("protection", alone(action.actor), player=action.actor, target=action.args[0])

    def resolve(self, game: VillageGame) -> None:
        protected = next(
            (t for t in (self.picked(d, "protect") for d in self.voters) if t is not None), None
        )
        game.night.protected = protected
        last = last_protection(game)
        last.target, last.night = protected, game.night  # (dawn tells whether it saved him)


def own_protection(ev: Event) -> str | None:
    """The Doctor protecting himself (the protector alone sees his protection)."""
    audience = ev.audience
    return "self" if audience is not None and ev.data.get("target") in audience else None


ROLE = Role(
    "doctor",
    weight=3,
    bot=Play({"protect": shield("protect")}, prey=2),
    events=(
        # ``player``: the Doctor (the eliminated who watch the night see who acts).
        EventSpec(
            "protection", {"player": SEAT, "target": SEAT}, script="noted", variant=own_protection
        ),
    ),
    card="doctor",
    steps={"doctor": DoctorStep},
    memory=LastProtection,
    verbs=(Verb("protect", "doctor", ("doctor",), "night", targets="standing"),),
    messages={
        "wake.doctor": "The {N[doctor]} wakes up and protects a player.",
        "protection": "{player}, the {N[doctor]}, protects {target}.",
        "protection.self": "{player}, the {N[doctor]}, protects themselves.",
        "menu.protect": "Protect {target}",
        "step.doctor": "the {N[doctor]}",
    },
)
