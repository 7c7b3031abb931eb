"""Every prompt is one the role plugins declare (``lupus.testing.declared``): to a
living seat a verb of its card (or everyone's), at its time, a night verb in its own
step, against the living if its targets are; to a dead seat only a last breath (the
Hunter's shot, the dying Captain's successor). A family whose roles declare no verbs
(Lupusburg) has nothing to check here."""

from __future__ import annotations

from lupus.engine.game import Game
from lupus.engine.model import LEADER
from lupus.testing.declared import Declared
from lupus.testing.errors import Broken

WAKE = "wake"
"""The public event a night's step announces itself with (its ``step`` field)."""


class Offers:
    """Checks each state's prompts against the declarations, following the steps."""

    def __init__(self, declared: Declared) -> None:
        self.declared = declared
        self.last_verbs = frozenset(
            v for role in declared.last_breath for v in declared.last_verbs(role)
        )
        self.step: str | None = None
        self.cursor = 0

    def check(self, game: Game) -> None:
        events = game.events
        for ev in events[self.cursor :]:
            if ev.kind == WAKE and ev.audience is None and "step" in ev.data:
                self.step = ev.text("step")
        self.cursor = len(events)
        roles, alive = getattr(game, "roles", None), getattr(game, "alive", None)
        if not self.declared.living or not isinstance(roles, list) or alive is None:
            return
        living = alive.__getitem__
        for p in game.prompts():
            if p.actor == LEADER:
                continue
            if not living(p.actor):
                if p.verb not in self.last_verbs:
                    raise Broken("declared", f"{p.verb!r} offered to dead seat {p.actor}")
                continue
            refused = self.declared.refusal(
                p, roles[p.actor], game.phase, game.number, self.step, living
            )
            if refused is not None:
                raise Broken("declared", refused)
