"""Decision datasets: one JSON line per decision a seat took, for those who train or
study players on lupus's games.

A line holds what the seat knew when it decided (its view, as data and as the
sentences of the prompt a model is asked: ``lupus.ai.llm.prompt``), the legal choices
as they were offered, the one taken, whether the heuristic stand-in took it for a
model that failed, and the game's outcome for that seat. Everything but the outcome is
computed from the seat's view alone, so a dataset holds nothing a seat could not see
when it chose; the outcome is known only at the end and is added then. The same lines
come from ``lupus simulate --export`` and from a stored game (``lupus export``), so that
one reader reads both.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import IO, Any

from lupus import scenario
from lupus.ai.llm.prompt import decision
from lupus.ai.llm.talk import Line
from lupus.ai.played import Played
from lupus.engine.game import Game
from lupus.engine.model import LEADER, Action
from lupus.engine.views import View

KEYS = ("game", "seat", "view", "sentences", "choices", "choice", "fallback", "outcome")
"""A line's keys, in the order they are written (docs/ai.md, "Decision datasets")."""


@dataclass(frozen=True)
class DecisionRecord:
    """One decision: ``choice`` is the index in ``choices`` of the move taken (or None
    for a move no prompt offered, which only a stored game of an older lupus can hold);
    ``outcome`` is None until the game is over."""

    game: str
    seat: int
    view: dict[str, Any]
    sentences: tuple[str, ...]
    choices: tuple[str, ...]
    choice: int | None
    fallback: bool
    outcome: dict[str, Any] | None = None

    def line(self) -> str:
        record = {key: getattr(self, key) for key in KEYS}
        record["sentences"] = list(self.sentences)
        record["choices"] = list(self.choices)
        return json.dumps(record, ensure_ascii=False, separators=(",", ":"))

    def ended(self, game: Game) -> DecisionRecord:
        return replace(self, outcome=outcome_of(game, self.seat))


def record(
    game: str,
    view: View,
    action: Action,
    fallback: bool,
    lang: str | None = None,
    heard: Sequence[Line] = (),
) -> DecisionRecord:
    """The record of ``action``, taken by ``view.seat`` from ``view`` (its outcome
    open), having heard ``heard`` (its sentences keep those the seat may read: the
    prompt a model seat was asked)."""
    asked = decision(view, lang, heard)
    story = asked.messages[-1]["content"].splitlines()
    move = (action.verb, tuple(action.args))
    choice = asked.moves.index(move) if move in asked.moves else None
    return DecisionRecord(
        game=game,
        seat=view.seat,
        view=view.to_json(),
        sentences=tuple(line for line in story if line),
        choices=asked.labels,
        choice=choice,
        fallback=fallback,
    )


def outcome_of(game: Game, seat: int) -> dict[str, Any]:
    """How the game ended for ``seat``: the winning faction, whether the seat won, its
    points (Lupusburg) and whether it was still alive; a game stopped without an end
    (the simulator's cap on actions) has no winner and nobody won."""
    outcome = game.outcome
    if outcome is None:
        return {"winner": None, "won": False, "score": None, "alive": game.alive[seat]}
    return {
        "winner": outcome.winner,
        "won": seat in outcome.winners,
        "score": outcome.scores.get(seat),
        "alive": game.alive[seat],
    }


def lines(records: list[DecisionRecord], game: Game) -> Iterator[str]:
    """The JSON lines of a finished game's decisions, each with its seat's outcome."""
    for one in records:
        yield one.ended(game).line()


def decisions(played: Played, game_id: str, lang: str | None = None) -> Iterator[DecisionRecord]:
    """Every decision of a seat in ``played``'s game (the leader's closing of steps is
    none), in order, each with its seat's outcome: the game is replayed from its start
    (its scenario), so each view is the one its seat had just before it acted, and the
    lines it had heard by then are those said before (``Line.at``)."""
    finished = played.game
    game = scenario.setup(scenario.parse(finished.to_scenario(), game_id))
    said = sorted(played.lines, key=lambda line: line.at)
    heard: list[Line] = []
    taken: list[DecisionRecord] = []
    for position, action in enumerate(finished.history):
        while len(heard) < len(said) and said[len(heard)].at <= position:
            heard.append(said[len(heard)])
        if action.actor != LEADER:
            view = game.seen(action.actor)
            fallback = position in played.fallbacks
            taken.append(record(game_id, view, action, fallback, lang, heard))
        game.apply(action)
    for one in taken:
        yield one.ended(finished)


def write(records: Iterable[DecisionRecord], out: IO[str]) -> int:
    """``records`` as JSON lines on ``out``; how many."""
    count = 0
    for one in records:
        out.write(one.line())
        out.write("\n")
        count += 1
    return count
