"""A decision of one seat told to a model, and the model's answer read back.

Everything here is computed from the seat's :class:`~lupus.engine.views.View` and
nothing else (its rulebook, names, events and prompts all come with it): what a prompt
can tell is what the view holds, the same guarantee the narration gives the pages. The
words are the rulebook's and its language's (``lupus.rules_text``, ``lupus.narration``
and the ``llm_*`` messages of the locales), never code's.

The legal choices are given twice, so that a server that ignores structured output can
still answer: as the enum of a JSON schema (``response_format``) and as a numbered list
in the text. Each enum value is its number and its label ("3. Vote against Dan"), so
the two agree and no two choices read alike.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from lupus.ai.llm.talk import Line
from lupus.engine.model import Action, Args
from lupus.engine.views import View
from lupus.narration import Narrator
from lupus.rules_text import describe

Message = dict[str, str]

NUMBER: Final = re.compile(r"(?<![\w.])([0-9]{1,4})(?![0-9])")
"""A choice's number in a free answer ("2", "I choose 2.", "**2**"): ASCII digits only
(``int`` reads other scripts' digits too) and few of them."""


@dataclass(frozen=True)
class Decision:
    """One decision as the model is asked it: the chat ``messages``, the structured
    output it must fit (``response_format``) and the choices its answer picks from, in
    the order they are numbered (``moves``: verb and arguments, ``labels``: as read)."""

    seat: int
    messages: tuple[Message, ...]
    response_format: dict[str, object]
    moves: tuple[tuple[str, Args], ...]
    labels: tuple[str, ...]
    narrator: Narrator

    @property
    def enum(self) -> list[str]:
        return [f"{i}. {label}" for i, label in enumerate(self.labels, 1)]

    def action(self, index: int) -> Action:
        verb, args = self.moves[index]
        return Action(self.seat, verb, args)

    def retry(self, answer: str) -> tuple[Message, ...]:
        """The messages asking again after ``answer``, which picked no choice: the
        question, the bad answer, and a reminder of the numbers."""
        again = self.narrator.t("llm_retry", count=len(self.moves))
        return (
            *self.messages,
            {"role": "assistant", "content": answer},
            {"role": "user", "content": again},
        )

    def pick(self, answer: str) -> int | None:
        """The index of the choice ``answer`` names, or None: by the schema (a JSON
        object whose ``choice`` is one of the enum), else by its number (the first
        number in the text), else by a label written out whole."""
        text = answer.strip()
        enum = self.enum
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if isinstance(data, dict):
            choice = data.get("choice")
            if isinstance(choice, str) and choice in enum:
                return enum.index(choice)
            if isinstance(choice, str):
                text = choice
            elif isinstance(choice, int) and not isinstance(choice, bool):
                text = str(choice)
        elif isinstance(data, int) and not isinstance(data, bool):
            text = str(data)
        if text in enum:
            return enum.index(text)
        if self.labels.count(text) == 1:
            return self.labels.index(text)
        found = NUMBER.search(text)
        if found is not None and 1 <= int(found.group(1)) <= len(self.moves):
            return int(found.group(1)) - 1
        return None


def situation(
    view: View, lang: str | None, heard: Sequence[Line]
) -> tuple[Narrator, str, list[str]]:
    """What every request of ``view.seat`` opens with: its narrator, the system message
    (who the seat is, the rules) and the seat's story, then what it heard said (the
    lines it may read, and only those: ``lupus.ai.llm.talk``)."""
    book = view.book
    text = Narrator(book, view.names, lang)
    name = view.names[view.seat]
    you = text.t(
        "llm_you", player=name, seat=view.seat + 1, rulebook=book.name("rulebook", text.lang)
    )
    rules = describe(book, text.lang)
    system = "\n".join([you, "", text.t("llm_rules"), *rules])
    story = [text.t("llm_story"), *(line for line in text.lines(view) if line)]
    said = [line for line in heard if line.read_by(view.seat)]
    if said:
        story += ["", text.t("llm_heard")]
        story += [
            text.t("llm_heard_line", player=view.names[line.seat], text=line.text) for line in said
        ]
    return text, system, story


def decision(view: View, lang: str | None = None, heard: Sequence[Line] = ()) -> Decision:
    """The decision ``view.seat`` owes now, told from ``view`` alone (ValueError if it
    owes none): who the seat is, the rules, its story and what it heard, its numbered
    choices."""
    if not view.prompts:
        raise ValueError(f"seat {view.seat} has nothing to decide now")
    text, system, story = situation(view, lang, heard)
    moves = tuple((p.verb, args) for p in view.prompts for args in p.choices)
    labels = tuple(text.choice(verb, args) for verb, args in moves)
    numbered = [f"{i}. {label}" for i, label in enumerate(labels, 1)]
    user = "\n".join(
        [
            *story,
            "",
            text.t("llm_choices"),
            *numbered,
            "",
            text.t("llm_answer", count=len(moves)),
        ]
    )
    schema = {
        "type": "object",
        "properties": {"choice": {"type": "string", "enum": numbered}},
        "required": ["choice"],
        "additionalProperties": False,
    }
    response_format: dict[str, object] = {
        "type": "json_schema",
        "json_schema": {"name": "choice", "strict": True, "schema": schema},
    }
    return Decision(
        seat=view.seat,
        messages=({"role": "system", "content": system}, {"role": "user", "content": user}),
        response_format=response_format,
        moves=moves,
        labels=labels,
        narrator=text,
    )
