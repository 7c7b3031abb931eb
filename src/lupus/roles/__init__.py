"""The roles' steps, looked up by the step ids a rulebook's night and day name.

To add a role: write its module here (its steps, and a death hook if its death sets
something off), register the steps below, and name them in a rulebook file.
"""

from __future__ import annotations

from collections.abc import Callable

from lupus.engine.village import DeathHook
from lupus.roles import captain, cupid, hunter
from lupus.roles.avenger import AvengerStep
from lupus.roles.base import Ballot, VillageStep
from lupus.roles.captain import ElectionStep
from lupus.roles.couple import CoupleStep
from lupus.roles.cupid import CupidStep, LoversStep
from lupus.roles.day_vote import VoteStep
from lupus.roles.detective import DetectiveStep
from lupus.roles.doctor import DoctorStep
from lupus.roles.little_girl import LittleGirlStep
from lupus.roles.lynch import LynchStep
from lupus.roles.mafia import MafiaStep
from lupus.roles.nominations import BanishmentStep, DefenceStep, NominationsStep
from lupus.roles.seer import SeerStep
from lupus.roles.thief import ThiefStep
from lupus.roles.werewolves import WerewolvesStep
from lupus.roles.witch import WitchStep
from lupus.rulebooks.schema import Rulebook

STEPS: dict[str, Callable[[], VillageStep]] = {
    "thief": ThiefStep,
    "cupid": CupidStep,
    "lovers": LoversStep,
    "seer": SeerStep,
    "little_girl": LittleGirlStep,
    "werewolves": WerewolvesStep,
    "witch": WitchStep,
    "election": ElectionStep,
    "vote": VoteStep,
    "mafia": MafiaStep,
    "doctor": DoctorStep,
    "detective": DetectiveStep,
    "couple": CoupleStep,
    "avenger": AvengerStep,
    "nominations": NominationsStep,
    "defence": DefenceStep,
    "banishment": BanishmentStep,
    "lynch": LynchStep,
}


def carded_steps(steps: dict[str, Callable[[], VillageStep]]) -> dict[str, str]:
    """Step id -> its ``wake`` card, for the steps that do nothing at all without that
    card in the game (a ``Ballot`` with ``wake``: it announces nothing and waits for
    nobody), so that a night leaves them out for a deck without it."""
    carded: dict[str, str] = {}
    for step_id, make in steps.items():
        step = make()  # (read from a step, not its class: compiled, ``wake`` is a field)
        if isinstance(step, Ballot) and step.wake is not None:
            carded[step_id] = step.wake
    return carded


CARDED: dict[str, str] = carded_steps(STEPS)

# The maffia roles need none: the Couple's partner dies in a later couple step, and the
# Avenger's shot is his night step, not a reaction to his death.
DEATH_HOOKS: list[DeathHook] = [
    cupid.heartbreak,  # the partner dies at once, before anything the death sets off
    hunter.on_death,
    captain.on_death,
]


def make_step(step_id: str) -> VillageStep:
    return STEPS[step_id]()


def check_steps(book: Rulebook) -> None:
    """Refuse a rulebook whose night or day names a step lupus does not know."""
    if book.family != "roles":
        return
    for where, ids in (
        ("night.first", book.night.first),
        ("night.later", book.night.later),
        ("night.preparation", book.night.preparation),
        ("day", book.day),
    ):
        for step_id in ids:
            if step_id not in STEPS:
                raise ValueError(f"{where}: unknown step {step_id!r} (known: {', '.join(STEPS)})")
