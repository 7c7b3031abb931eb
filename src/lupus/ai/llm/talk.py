"""What model seats say: the day's discussion and the pack's night channel.

A ``Line`` is one thing one seat said, with the seats that may read it (``readers``;
None: every seat, the day's open talk). Who may read a line is decided when it is said,
by the same rule as the server's chat (``lupus.server.chat``): the day's talk is open,
the pack's is read by the pack members awake with the speaker. A seat's later prompts
hold the lines it may read and no others (``heard``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Line:
    """One line said by ``seat`` on ``channel`` ("day" or "pack") in the day's or
    night's ``number``; ``readers``: the seats that read it (None: every seat); ``at``:
    how many actions the game had taken when it was said (``len(game.history)``), so
    that a dataset knows which lines were heard before each decision: those with
    ``at`` at most the decision's position in the history."""

    seat: int
    channel: str
    number: int
    text: str
    readers: tuple[int, ...] | None = None
    at: int = 0

    def read_by(self, seat: int) -> bool:
        return self.readers is None or seat in self.readers or seat == self.seat

    def to_json(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "channel": self.channel,
            "number": self.number,
            "text": self.text,
            "readers": None if self.readers is None else list(self.readers),
            "at": self.at,
        }


def heard(lines: Iterable[Line], seat: int, before: int | None = None) -> list[Line]:
    """The lines of ``lines`` that ``seat`` may read, in the order they were said (with
    ``before``: those said by then, ``at`` at most ``before``)."""
    return [line for line in lines if line.read_by(seat) and (before is None or line.at <= before)]
