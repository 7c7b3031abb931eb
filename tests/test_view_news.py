"""``View.news``: a reader's news since an earlier view of his seat is exactly the tail
of the whole log (a server sends only that, without merging the log again)."""

from __future__ import annotations

import random

import pytest

from lupus.engine.deal import composition
from lupus.engine.game import view_of
from lupus.engine.model import LEADER, PUBLIC
from lupus.families import load
from lupus.rulebooks import available
from lupus.sim.config import SimConfig
from lupus.sim.selfplay import TIMER, Table, set_up

PLAYERS = {"werewolf": 8, "tit-albert": 8, "maffia": 8, "mafia-classic": 7, "lupusburg": 6}


@pytest.mark.parametrize("rules", available())
def test_news_is_the_tail_of_the_log(rules: str) -> None:
    book = load(rules)
    config = SimConfig(
        rules=rules, players=PLAYERS[rules], counts=composition(book, PLAYERS[rules])
    )
    rng = random.Random(3)
    for index in range(4):
        game, _ = set_up(Table(config), index)
        readers = [*range(game.n), LEADER, PUBLIC]
        seen = {reader: (0, 0) for reader in readers}
        shown: dict[int, int] = {reader: 0 for reader in readers}
        for _ in range(400):
            if game.finished:
                break
            for reader in readers:
                view = view_of(game, reader)
                news = view.news(*seen[reader])
                assert news == view.events[shown[reader] :]
                assert view.news(*seen[reader]) == news  # (once the log is merged, too)
                seen[reader], shown[reader] = view.counts(), len(view.events)
                assert sum(view.counts()) == len(view.events)
            seat = game.first_waiting()
            actions = game.legal_actions(seat) if seat is not None else []
            game.apply(rng.choice(actions) if actions else TIMER)
