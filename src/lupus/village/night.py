"""What a night's steps decided, until dawn turns it into deaths."""

from __future__ import annotations


class NightRecord:
    """What the night's steps decided; dawn turns it into deaths.

    The night's attack (``victim``) is *settled* once, at dawn: it lands, or it is
    stopped by a heal or a protection. Until then the victim is still in the game and
    wakes for his own steps (maffia: "Nu är det morgon ... Det meddelas vem som mördats
    under natten och den spelaren åker ut"). Other night deaths (the Avenger's shot, the
    Couple's heartbreak) are real at once; whatever the village will learn (deaths, a
    failed attempt, a couple revealed) waits in ``news`` and is announced at dawn, in
    the order it happened, before the attack's outcome.
    """

    def __init__(self) -> None:
        self.victim: int | None = None
        self.healed = False
        self.poisoned: list[int] = []
        self.protected: int | None = None
        self.saved: int | None = None
        self.settled = False
        self.dawned = False
        self.news: list[tuple[str, dict[str, object]]] = []
        self.unannounced: list[int] = []
        self.spying: list[int] = []  # Little Girls who peep during the werewolves' step
