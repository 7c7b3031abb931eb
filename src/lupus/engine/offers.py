"""What each actor of a step is offered, built when first asked and then kept.

A step is asked for prompts far more often than its options change (after every
action, by every front end and bot), so building them once per actor matters. Those
who do not decide in the step are offered nothing. Options that change with a
decision (the Witch: a potion used is gone) are forgotten for that actor by the step
that records it, and built again when next asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import final

from lupus.engine.model import Prompt


@final
class Offers:
    """Each actor's prompts in one step (see the module)."""

    __slots__ = ("_kept",)

    def __init__(self) -> None:
        # By seat: None for an actor whose prompts are still to build, () for a seat
        # that decides nothing here. None until the actors are known (no list made
        # only to be dropped: a step makes its ``Offers`` before it knows its actors).
        self._kept: list[tuple[Prompt, ...] | None] | None = None

    def ready(self) -> bool:
        """Whether ``start`` was called (a step learns its actors in ``begin``)."""
        return self._kept is not None

    def start(self, seats: int, actors: Sequence[int]) -> None:
        kept: list[tuple[Prompt, ...] | None] = [()] * seats
        if isinstance(actors, tuple):  # (a ballot's voters: compiled, an exact loop)
            voters: tuple[int, ...] = actors
            for actor in voters:
                kept[actor] = None
        else:
            for actor in actors:
                kept[actor] = None
        self._kept = kept

    def kept(self, actor: int) -> tuple[Prompt, ...] | None:
        """The actor's prompts, or None when they are to build (then ``keep`` them)."""
        return self.started()[actor]

    def keep(self, actor: int, prompts: tuple[Prompt, ...]) -> tuple[Prompt, ...]:
        self.started()[actor] = prompts
        return prompts

    def forget(self, actor: int) -> None:
        """The actor's options changed with his decision: build them again when asked."""
        kept = self._kept
        if kept is not None:
            kept[actor] = None

    def started(self) -> list[tuple[Prompt, ...] | None]:
        kept = self._kept
        if kept is None:
            raise IndexError("no actor is offered anything before start")
        return kept
