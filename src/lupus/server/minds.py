"""The server's language model (``lupus serve --llm-model``), shared by every room's AI
players, and the threads its calls wait in.

A call to the model blocks for seconds; the event loop serves every room and never
waits on one. So each decision or line of an AI player is asked in a thread of
``Minds.pool`` (``settings.concurrency`` of them: the calls waiting at once), and its
answer comes back to the loop as an ``asyncio`` future's result, where the room
applies it as it would any seat's. The model's reply cache (``--llm-cache``) is the
one ``lupus simulate`` keeps: a server restarted on it answers the same questions
without the model.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from lupus.ai.llm.client import Model
from lupus.ai.llm.settings import LlmSettings

T = TypeVar("T")


class Minds:
    """The model every AI player of this server asks, and its threads."""

    def __init__(self, settings: LlmSettings, model: Model | None = None) -> None:
        settings.check()
        self.settings = settings
        self.model = model if model is not None else Model(settings)
        self.pool = ThreadPoolExecutor(settings.concurrency, thread_name_prefix="lupus-ai")

    def run(self, call: Callable[[], T]) -> asyncio.Future[T]:
        """``call()`` in a thread; its result as a future of the running loop (whose
        callbacks run on the loop)."""
        return asyncio.get_running_loop().run_in_executor(self.pool, call)

    def close(self) -> None:
        """The server stops: calls not begun are dropped (their rooms ask again after a
        restart: an AI seat is part of the room's state)."""
        self.pool.shutdown(wait=False, cancel_futures=True)
