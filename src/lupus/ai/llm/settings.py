"""What a run asks of its language-model seats (``lupus simulate --llm-*``).

A plain frozen dataclass: it travels inside a ``SimConfig`` and is pickled with it. It
holds no endpoint and no key: those are read from ``OPENAI_BASE_URL`` and
``OPENAI_API_KEY`` when the first call is made, so that they never reach a result, a
cache file or a log.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from lupus.engine.errors import SetupError

DEFAULT_TIMEOUT: Final = 30.0
"""Seconds a decision may take, all its attempts together (``--llm-timeout``)."""

DEFAULT_CONCURRENCY: Final = 4
"""Games in flight, and so calls at once (``--llm-concurrency``)."""

TALK: Final = 1
"""Lines each model seat says in a discussion, the day's or its pack's (``--llm-talk``),
one a round."""

MAX_TALK: Final = 10

RETRIES: Final = 1
"""A bad answer (or a failed call) is asked again this many times before the
heuristic bot's choice replaces it."""


@dataclass(frozen=True)
class LlmSettings:
    """``model``: the name the chat API knows it by; ``timeout``: seconds per decision;
    ``budget``: tokens per game (None: no limit; past it every decision falls back);
    ``concurrency``: games played at once (each waits on its own calls); ``cache``: a
    JSONL file of every reply, read first and appended to; ``lang``: the language the
    prompt is told in (None: the rulebook's); ``talk``: lines each model seat says in a
    day's discussion (0: model seats never talk, by day or at night)."""

    model: str
    timeout: float = DEFAULT_TIMEOUT
    budget: int | None = None
    concurrency: int = DEFAULT_CONCURRENCY
    cache: str | None = None
    retries: int = RETRIES
    lang: str | None = None
    talk: int = TALK

    def check(self) -> None:
        """SetupError unless every value is one a run can use."""
        if not self.model.strip():
            raise SetupError("--llm-model: name the model (as the chat API knows it)")
        if not 0 < self.timeout <= 3600:
            raise SetupError(f"--llm-timeout: 0 to 3600 seconds, not {self.timeout}")
        if self.budget is not None and self.budget < 0:
            raise SetupError(f"--llm-budget: a number of tokens, not {self.budget}")
        if not 1 <= self.concurrency <= 256:
            raise SetupError(f"--llm-concurrency: 1 to 256, not {self.concurrency}")
        if type(self.talk) is not int or not 0 <= self.talk <= MAX_TALK:
            raise SetupError(f"--llm-talk: 0 to {MAX_TALK} lines a day, not {self.talk}")
        if not 0 <= self.retries <= 10:
            raise SetupError(f"retries: 0 to 10, not {self.retries}")
