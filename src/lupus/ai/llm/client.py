"""The calls to an OpenAI-compatible chat API, through the official ``openai`` client.

The endpoint and key are the client's own environment variables (``OPENAI_BASE_URL``,
``OPENAI_API_KEY``), read when the first call is made: a replay from a cache never
needs them, and nothing of them is stored. The client's own retries are off
(``max_retries=0``): a decision's retries are the bot's, counted and bounded by its
time-out, and each attempt is one request of the cache.
"""

from __future__ import annotations

import os
import threading
import time
from typing import TYPE_CHECKING, Any

from lupus.ai.llm.cache import Replies, Reply
from lupus.ai.llm.settings import LlmSettings

if TYPE_CHECKING:
    from openai import OpenAI

NO_KEY = "unset"
"""The key sent when ``OPENAI_API_KEY`` is not set (local servers need none; the client
refuses to start without one)."""


class Model:
    """One model for a whole run: its settings, the shared reply cache, and at most
    ``settings.concurrency`` calls at once."""

    def __init__(self, settings: LlmSettings, replies: Replies | None = None) -> None:
        self.settings = settings
        self.replies = replies if replies is not None else Replies(settings.cache)
        self.slots = threading.Semaphore(settings.concurrency)
        self.lock = threading.Lock()
        self._client: OpenAI | None = None

    def client(self) -> OpenAI:
        with self.lock:
            if self._client is None:
                from openai import OpenAI  # (only when a call is made: see lupus.ai.llm)

                self._client = OpenAI(
                    api_key=os.environ.get("OPENAI_API_KEY") or NO_KEY,
                    base_url=os.environ.get("OPENAI_BASE_URL") or None,
                    max_retries=0,
                    timeout=self.settings.timeout,
                )
            return self._client

    def request(
        self,
        messages: tuple[dict[str, str], ...],
        response_format: dict[str, object] | None = None,
    ) -> dict[str, object]:
        """The request as sent and as the cache keys it (a talk request asks for free
        text: no ``response_format``)."""
        request: dict[str, object] = {
            "model": self.settings.model,
            "messages": [dict(m) for m in messages],
        }
        if response_format is not None:
            request["response_format"] = response_format
        return request

    def ask(
        self, request: dict[str, object], timeout: float, attempt: int = 0
    ) -> tuple[Reply, bool]:
        """The reply to ``request`` (recorded, or asked now within ``timeout``
        seconds), and whether it was recorded before. ``attempt`` is part of the key: a
        failed call asked again is another request of the cache."""
        keyed = {**request, "attempt": attempt}
        return self.replies.get(keyed, lambda: self.call(request, timeout))

    def call(self, request: dict[str, object], timeout: float) -> Reply:
        """One call: an answer, or the failure or time-out it met (never raises for
        what the server or the network did)."""
        import openai

        started = time.monotonic()
        with self.slots:
            try:
                # (its overloads want each keyword spelled out; the request is built)
                create: Any = self.client().chat.completions.create
                response: Any = create(**request, timeout=timeout)
            except openai.APITimeoutError:
                return Reply("timeout", f"no answer within {timeout:.3g} s", 0, timeout)
            except openai.OpenAIError as exc:
                seconds = time.monotonic() - started
                return Reply("failure", f"{type(exc).__name__}: {exc}"[:500], 0, seconds)
        seconds = time.monotonic() - started
        usage = getattr(response, "usage", None)
        tokens = getattr(usage, "total_tokens", 0) or 0
        try:
            content = response.choices[0].message.content
        except (AttributeError, IndexError, TypeError):
            content = None
        if not isinstance(content, str):
            return Reply("failure", "an answer without content", int(tokens), seconds)
        return Reply("answer", content, int(tokens), seconds)
