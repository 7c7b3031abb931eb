"""The checks of a finished game: it replays from its scenario, its events survive
JSON, its views narrate in every language of the rulebook; and bots finish a game."""

from __future__ import annotations

import json
import random

from lupus.bots.kinds import make_bot
from lupus.engine.errors import IllegalAction
from lupus.engine.event_check import check
from lupus.engine.event_json import from_json, to_json
from lupus.engine.game import Game, view_of
from lupus.engine.model import LEADER, Action
from lupus.engine.untrusted import bounded
from lupus.families import event_specs
from lupus.testing.errors import Broken
from lupus.testing.playing import Refused
from lupus.testing.refusals import offered


def check_replays(game: Game) -> None:
    """``game.to_scenario()``, through JSON text, replays to the same game."""
    from lupus import scenario as sc

    record = game.to_scenario()
    try:
        result = sc.replay(sc.parse(json.loads(json.dumps(record))))
    except Exception as exc:  # (a scenario that does not even set up)
        raise Broken("replays", f"the scenario does not replay: {bounded(str(exc))}") from None
    again = result.game
    if result.error_index is not None:
        why = bounded(result.error_message)
        raise Broken("replays", f"its action {result.error_index} is refused: {why}")
    if again.events != game.events:
        first = next(
            (i for i, (a, b) in enumerate(zip(again.events, game.events, strict=False)) if a != b),
            min(len(again.events), len(game.events)),
        )
        raise Broken("replays", f"the replay differs from event {first} on")
    if again.outcome != game.outcome or again.state_id != game.state_id:
        raise Broken("replays", "the replay ends differently")


def check_json(game: Game) -> None:
    """Every event, as recorded and as the leader's and first seat's views hand it
    out, fits its schema and comes back from JSON (and JSON text) as itself."""
    specs = event_specs(game.rulebook)
    recorded = len(game.events)
    every = [*game.events, *game.view(LEADER).events, *game.view(0).events]
    for i, ev in enumerate(every):
        spec = specs.get(ev.kind)
        if spec is None:
            raise Broken("json", f"undeclared event kind {ev.kind!r}")
        problem = check(spec, ev)
        if problem is not None:
            raise Broken("json", f"{ev.kind}: {problem}")
        obj = to_json(ev)
        try:
            back = from_json(json.loads(json.dumps(obj, ensure_ascii=False)), specs)
        except ValueError as exc:
            raise Broken("json", f"{ev.kind} does not come back: {bounded(str(exc))}") from None
        if check(spec, back) is not None or to_json(back) != obj or (i < recorded and back != ev):
            raise Broken("json", f"{ev.kind} comes back from JSON changed")


def check_narration(game: Game) -> None:
    """Every seat's view (the leader's too) and its prompts narrate in every language
    the rulebook offers, strictly (a missing message or field is an error)."""
    from lupus.narration import Narrator

    book = game.rulebook
    for lang in book.languages:
        for seat in [LEADER, *range(game.n)]:
            view = game.view(seat)
            narrator = Narrator(book, game.names, lang, strict=True)
            try:
                told = narrator.lines(view)
                menus = [
                    narrator.choice(prompt.verb, args)
                    for prompt in view.prompts
                    for args in prompt.choices[:3]
                ]
            except Exception as exc:
                why = bounded(str(exc))
                raise Broken("narrates", f"[{lang}] the view of seat {seat}: {why}") from None
            if not told or not all(line.strip() for line in menus):
                raise Broken("narrates", f"[{lang}] seat {seat} is told nothing, or a blank menu")


class Menus:
    """Every prompt of every state narrated as menu lines, strictly, in every language
    of the rulebook (one narrator per language: a menu line reads no view)."""

    def __init__(self, game: Game) -> None:
        from lupus.narration import Narrator

        book = game.rulebook
        self.narrators = {
            lang: Narrator(book, game.names, lang, strict=True) for lang in book.languages
        }

    def check(self, game: Game) -> None:
        for lang, narrator in self.narrators.items():
            for prompt in game.prompts():
                for args in prompt.choices[:3]:
                    try:
                        line = narrator.choice(prompt.verb, args)
                    except Exception as exc:
                        why = bounded(str(exc))
                        raise Broken("narrates", f"[{lang}] {prompt.verb!r}: {why}") from None
                    if not line.strip():
                        raise Broken("narrates", f"[{lang}] {prompt.verb!r} reads blank")


def bots_finish(game: Game, kind: str, seed: int, most: int) -> Game:
    """``game`` played to its end by bots of ``kind`` at every seat, the leader closing
    a step that waits on nobody or that the bots keep open (as a timer would)."""
    bot = make_bot(kind, game.rulebook)
    rng = random.Random(seed)
    step, budget = game.step, 0
    for _ in range(most):
        if game.finished:
            return game
        if game.step is not step:
            step, budget = game.step, 0
        budget += 1
        seat = game.first_waiting()
        stalled = budget > 4 and step is not None and step.stalled(game)
        if seat is None or budget > 4 * game.n or stalled:
            action = Action(LEADER, "close")
        else:
            action = bot.act(view_of(game, seat), rng)
        try:
            game.apply(action)
        except IllegalAction as exc:
            if offered(game, action):
                raise Refused(action, str(exc)) from None
            why = bounded(str(exc))
            raise Broken(
                "bots-finish", f"the {kind} bot chose {action}, not offered: {why}"
            ) from None
    if not game.finished:
        raise Broken("bots-finish", f"{kind} bots do not finish within {most} actions")
    return game
