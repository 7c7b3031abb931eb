"""A model seat's turn to talk: asked apart from its decisions, read back as one line.

A talk request is the seat's situation (``prompt.situation``: who it is, the rules, its
story and what it heard) and the channel's invitation (``llm_talk_day``,
``llm_talk_pack``), asked for free text with no schema. Its reply goes through the same
cache as decisions, so that a recorded tournament replays its talk too. What comes back
is cleaned into one line a table can show: one paragraph, no name or quotation marks
around it, at most ``MAX_CHARS`` characters; an empty answer, a failure or a time-out
says nothing (a seat that does not talk plays on).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from lupus.ai.llm.cache import Reply
from lupus.ai.llm.client import Model
from lupus.ai.llm.prompt import situation
from lupus.ai.llm.talk import Line
from lupus.engine.views import View

MAX_CHARS: Final = 300
"""The longest line a model seat says (a person's chat line is bounded too)."""

CHANNELS: Final = {"day": "llm_talk_day", "pack": "llm_talk_pack"}

QUOTES: Final = "\"'“”«»‘’„"


@dataclass(frozen=True)
class Spoken:
    """What one talk request gave: the line said (None: nothing to say) and the reply
    it came from (its tokens and seconds count like a decision's)."""

    text: str | None
    reply: Reply
    cached: bool


def speech_messages(
    view: View, heard: Sequence[Line], channel: str, lang: str | None = None
) -> tuple[dict[str, str], ...]:
    """The messages asking ``view.seat`` what it says on ``channel`` now."""
    if channel not in CHANNELS:
        raise ValueError(f"no channel {channel!r}: one of {sorted(CHANNELS)}")
    text, system, story = situation(view, lang, heard)
    invite = text.t(CHANNELS[channel], player=view.names[view.seat])
    user = "\n".join([*story, "", invite])
    return ({"role": "system", "content": system}, {"role": "user", "content": user})


def cleaned(answer: str, name: str) -> str | None:
    """``answer`` as one line: whitespace folded, a leading "Name:" and the quotation
    marks around it dropped, cut at ``MAX_CHARS`` (at a word where it can)."""
    text = re.sub(r"\s+", " ", answer).strip()
    prefix = f"{name}:"
    if text.casefold().startswith(prefix.casefold()):
        text = text[len(prefix) :].strip()
    if len(text) >= 2 and text[0] in QUOTES and text[-1] in QUOTES:
        text = text[1:-1].strip()
    text = "".join(ch for ch in text if ch.isprintable())
    if len(text) > MAX_CHARS:
        cut = text[:MAX_CHARS].rsplit(" ", 1)[0]
        text = (cut if len(cut) > MAX_CHARS // 2 else text[:MAX_CHARS]).rstrip() + "…"
    return text or None


def speak(
    model: Model,
    view: View,
    heard: Sequence[Line],
    channel: str,
    timeout: float | None = None,
) -> Spoken:
    """What ``view.seat`` says on ``channel``, asked once within ``timeout`` seconds
    (the settings' time-out if None)."""
    settings = model.settings
    messages = speech_messages(view, heard, channel, settings.lang)
    request = model.request(messages)
    reply, cached = model.ask(request, settings.timeout if timeout is None else timeout)
    if reply.kind != "answer":
        return Spoken(None, reply, cached)
    return Spoken(cleaned(reply.text, view.names[view.seat]), reply, cached)
