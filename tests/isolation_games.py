"""Games described as plain JSON, played the same way in this process or a fresh one.

``tests/test_isolation.py`` plays each of these after other games and compares what it
gives, byte for byte, with the same game played in a fresh interpreter (``python -c``
reading the description on stdin): anything a game leaves behind that reaches a later
game shows as a difference.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

import lupus
from lupus.bots.random_bot import RandomBot
from lupus.engine.deal import Deal
from lupus.engine.model import LEADER, Action
from lupus.families import set_up

MOST_ACTIONS = 3000


def play(spec: dict[str, Any]) -> str:
    """The game ``spec`` describes, played by seeded random bots: the JSON of the
    leader's view (every event, in order), or the refusal of its setup.

    ``spec``: ``rules`` (an id or a path), ``players`` (names), then either ``roles`` and
    ``extra_cards`` (a fixed village deal) or ``counts`` and ``deal_seed`` (a random deal,
    ``lupus.deal``), ``options``, ``seed`` (the game's) and ``play_seed`` (the bots')."""
    options = spec.get("options", {})
    try:
        book = lupus.load(spec["rules"])
        players = spec["players"]
        if "roles" in spec:
            dealt = Deal(roles=tuple(spec["roles"]), extra_cards=tuple(spec.get("extra_cards", ())))
        else:
            rng = random.Random(spec["deal_seed"])
            dealt = lupus.deal(book, len(players), spec["counts"], rng, options)
        game = set_up(book, players, dealt, options, spec.get("seed", 0))
    except lupus.LupusError as exc:
        return json.dumps({"refused": type(exc).__name__, "why": str(exc)})
    bot, rng = RandomBot(), random.Random(spec.get("play_seed", 0))
    for _ in range(MOST_ACTIONS):
        if game.finished:
            break
        seat = game.first_waiting()
        game.apply(Action(LEADER, "close") if seat is None else bot.act(game.view(seat), rng))
    view = game.view(LEADER).to_json()
    return json.dumps({"events": view["events"], "options": view["options"]}, sort_keys=True)


if __name__ == "__main__":  # (a fresh process: one description on stdin, its game out)
    sys.stdout.write(play(json.loads(sys.stdin.read())))
