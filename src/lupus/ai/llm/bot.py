"""The ``llm`` bot kind: a seat played by a language model, with the heuristic bot as
its stand-in.

Each decision is asked from the seat's view alone (``lupus.ai.llm.prompt``). An answer
that names no legal choice, or a failed call, is asked again (``settings.retries``
times); a time-out (all attempts of a decision together get ``settings.timeout``
seconds), a game past its token budget, or the last bad answer hands the decision to
the heuristic bot, which is counted (``Usage.fallbacks``, by reason). A model that
cannot be reached therefore never stops or decides a game: the game goes on.

The seconds a decision has spent are the replies' own (measured, or read back from
the cache), so a replay falls back exactly where the recorded run did.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from lupus.ai.llm.client import Model
from lupus.ai.llm.prompt import decision
from lupus.ai.llm.talk import Line
from lupus.ai.llm.usage import Usage
from lupus.bots.heuristic import HeuristicBot
from lupus.engine.model import Action
from lupus.engine.views import View
from lupus.rulebooks.schema import Rulebook

if TYPE_CHECKING:
    from lupus.ai.llm.discussion import Discussion


class Decided(NamedTuple):
    """One decision of a model seat: the action, and whether the heuristic stand-in
    took it (the model failed, was slow, or named no legal choice)."""

    action: Action
    fell_back: bool


class LlmBot:
    """Plays every model seat of one game (one bot per game, as the simulator makes
    every kind but the random one), sharing the game's token budget. With the game's
    ``discussion``, each decision hears the lines said so far (those its seat may read)
    and each decision the stand-in takes is noted at its place in the game."""

    name = "llm"

    def __init__(
        self,
        book: Rulebook,
        model: Model,
        usage: Usage | None = None,
        discussion: Discussion | None = None,
    ) -> None:
        self.model = model
        self.settings = model.settings
        self.usage = usage if usage is not None else Usage()
        self.discussion = discussion
        self.stand_in = HeuristicBot(book)

    def act(self, view: View, rng: random.Random, heard: Sequence[Line] = ()) -> Action:
        """The model's choice for ``view.seat``, or the heuristic bot's in its place;
        ``heard``: the lines said that the seat may read (``talk.heard``)."""
        return self.decide(view, rng, heard).action

    def decide(self, view: View, rng: random.Random, heard: Sequence[Line] = ()) -> Decided:
        """``act``, saying whether the stand-in took the decision: a server's AI seat
        stores who played each action (``lupus export`` marks the stand-in's), and its
        decisions run in threads at once, where counting ``usage.fallbacks`` before and
        after would count another seat's."""
        usage = self.usage
        usage.decisions += 1
        talk = self.discussion
        if talk is not None:  # (the simulator's games: the lines said so far)
            heard = talk.lines
        asked = decision(view, self.settings.lang, heard)
        budget = self.settings.budget
        messages = asked.messages
        spent = 0.0
        reason = "bad"
        for attempt in range(1 + self.settings.retries):
            if budget is not None and usage.tokens >= budget:
                reason = "budget"
                break
            left = self.settings.timeout - spent
            if left <= 0:
                reason = "timeout"
                break
            request = self.model.request(messages, asked.response_format)
            reply, cached = self.model.ask(request, left, attempt)
            usage.calls += 1
            usage.cached += cached
            usage.tokens += reply.tokens
            usage.seconds += reply.seconds
            spent += reply.seconds
            if reply.kind == "timeout":
                reason = "timeout"
                break
            if reply.kind == "failure":
                reason = "failure"
                continue  # (the same question again: a server may fail once)
            index = asked.pick(reply.text)
            if index is not None:
                return Decided(asked.action(index), fell_back=False)
            reason = "bad"
            messages = asked.retry(reply.text)
        usage.fell_back(reason)
        if talk is not None:
            talk.fallbacks.add(talk.at)
        return Decided(self.stand_in.act(view, rng), fell_back=True)
