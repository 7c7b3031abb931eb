"""What a narrator reads aloud at the table, and how: the marks of spoken lines.

Kept apart from ``lupus.narration`` (which words every event) so that what is said
aloud is one table a reader holds whole.
"""

from __future__ import annotations

from typing import Final

from lupus.engine.model import Event

STEP: Final = "step"
"""A spoken line that begins a new step of the game (a phase, a card's wake, a vote
opening, the dawn): a narrator drops what it has not said yet from before it."""

SAY: Final = "say"
"""A spoken line that belongs to the step under way (a step's public result: a death,
a vote's count, a successor, the end)."""

SPOKEN: Final[dict[str, str]] = {
    # the game and its phases
    "game_starts": STEP,
    "night": STEP,
    "wake": STEP,
    "dawn": STEP,
    "day": SAY,
    "death": SAY,
    "character_dies": SAY,
    "no_death": SAY,
    "failed_attempt": SAY,
    "game_over": SAY,
    # the day's votes (each ballot, nomination or token is not told aloud: its result is)
    "vote_opens": STEP,
    "tally": SAY,
    "tie": SAY,
    "no_elimination": SAY,
    "election": STEP,
    "captain": SAY,
    "decided": SAY,
    "succession": SAY,
    "no_successor": SAY,
    "nominations_open": STEP,
    "nominees": STEP,
    "no_nominations": SAY,
    "defence": STEP,
    "banishment_opens": STEP,
    # a last breath and what the table is told of a night
    "hunter_aims": STEP,
    "hunter_spares": SAY,
    "shot": SAY,
    "starvation": SAY,
    "caught": SAY,
    "couple_revealed": SAY,
    "unharmed": SAY,
    # Lupusburg's day
    "privilege": SAY,
    "no_privilege": SAY,
    "privilege_declined": SAY,
    "suspects": STEP,
    "ballots": SAY,
    "burgomaster": SAY,
}
"""What a narrator reads aloud, by event kind: the one place that says it (a role that
brings a public event worth saying adds its kind here). Only public events are ever
spoken; a kind not listed (a ballot, a nomination, a pack's choice) is shown, not said.
The server sends each line's mark with the view (``view.spoken``, docs/protocol.md)."""


def spoken(ev: Event) -> str | None:
    """How a narrator tells ``ev`` aloud: ``STEP``, ``SAY``, or None (not at all)."""
    return SPOKEN.get(ev.kind) if ev.audience is None else None
