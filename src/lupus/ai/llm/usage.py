"""What a game's model seats spend, counted while it is played: shared by the seats'
decisions (``lupus.ai.llm.bot``) and their talk (``lupus.ai.llm.discussion``), which
draw on one token budget."""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field

from lupus.ai.played import Cost


@dataclass
class Usage:
    """What one game's model seats cost and how often the stand-in decided for them:
    ``decisions`` asked, ``calls`` made (recorded replies included, talk too),
    ``cached`` of them read back, ``tokens`` spent and ``seconds`` taken (decisions and
    talk: one budget), ``fallbacks`` taken, by reason (``bad``: no legal choice in the
    last answer, ``failure``, ``timeout``, ``budget``), ``talks`` asked and lines
    ``said`` (``lupus.ai.llm.discussion``)."""

    decisions: int = 0
    calls: int = 0
    cached: int = 0
    tokens: int = 0
    seconds: float = 0.0
    fallbacks: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    talks: int = 0
    said: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def fell_back(self, reason: str) -> None:
        with self.lock:
            self.fallbacks += 1
            self.reasons[reason] += 1

    def cost(self) -> Cost:
        """The game's cost as its ``Played`` record keeps it."""
        return Cost(
            decisions=self.decisions,
            calls=self.calls,
            cached=self.cached,
            tokens=self.tokens,
            seconds=self.seconds,
            fallbacks=Counter(self.reasons),
            talks=self.talks,
            said=self.said,
        )
