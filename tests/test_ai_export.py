"""Decision datasets (``lupus.ai.export``): a line per decision, from the seat's view."""

from __future__ import annotations

import json

import pytest

from lupus.ai.export import KEYS, record
from lupus.ai.export import lines as export_lines
from lupus.bots.random_bot import RandomBot
from lupus.rulebooks import available
from lupus.sim.config import SimConfig
from lupus.sim.selfplay import TIMER, Table, set_up


@pytest.mark.parametrize("rules", available())
def test_every_decision_of_a_game_is_one_line_told_from_its_view(rules: str) -> None:
    table = Table(SimConfig(rules, 6 if rules == "lupusburg" else 8, seed=3))
    game, rng = set_up(table, 0)
    bot, taken = RandomBot(), []
    while not game.finished and len(taken) < 5000:
        seat = game.first_waiting()
        if seat is None:
            game.apply(TIMER)
            continue
        view = game.seen(seat)
        action = bot.act(view, rng)
        taken.append((view, action, record("g0", view, action, False)))
        game.apply(action)
    assert game.finished
    written = [json.loads(line) for line in export_lines([r for *_, r in taken], game)]
    assert len(written) == len(taken)
    for (view, action, _), line in zip(taken, written, strict=True):
        assert tuple(line) == KEYS
        assert line["view"] == json.loads(json.dumps(view.to_json()))
        assert line["seat"] == view.seat and line["game"] == "g0"
        offered = [(p.verb, tuple(args)) for p in view.prompts for args in p.choices]
        assert offered[line["choice"]] == (action.verb, tuple(action.args))
        assert len(line["choices"]) == len(offered) and line["sentences"]
        assert line["outcome"]["won"] == (view.seat in game.outcome.winners)
