"""The Thief's card among the two set aside: still a card of the game, whose step runs.

The deck is public (a room's composition), so a night without the Thief's step would
tell the table that his card, and one other, lie in the middle. A random deal of the
whole deck therefore keeps its two extra cards even when the Thief's is one of them;
his step (and that of the other card aside) is announced and resolves with nobody to
wake, as a dead role's does, and the night's public events are the same as with a
Thief in play.
"""

from __future__ import annotations

import random

import pytest

from lupus import scenario as sc
from lupus.engine.errors import SetupError
from lupus.engine.game import Game
from lupus.engine.model import Action
from lupus.families import deal, load, new_game

NAMES = [f"P{n}" for n in range(8)]
DECK = {"werewolf": 2, "seer": 1, "witch": 1, "thief": 1, "little-girl": 1, "villager": 4}


def public_night_one(game: Game) -> list[tuple[str, dict[str, object]]]:
    """The public events up to the first seat the game waits for, after the Thief's
    step (its wake included), played by nobody."""
    return [(e.kind, dict(e.data)) for e in game.events if e.audience is None]


@pytest.mark.parametrize("rules", ["werewolf", "tit-albert"])
def test_a_deal_keeps_the_thiefs_card_aside_and_his_step_is_announced(rules: str) -> None:
    book = load(rules)
    aside = held = 0
    for seed in range(60):
        dealt = deal(book, 8, DECK, random.Random(seed), {})
        assert len(dealt.extra_cards) == 2  # the whole deck, always
        game = new_game(rules, NAMES, dealt.roles, dealt.extra_cards, seed=seed)
        wakes = [e.text("step") for e in game.events if e.kind == "wake"]
        assert wakes[0] == "thief", wakes
        if "thief" in dealt.roles:
            held += 1
            continue
        aside += 1
        assert "thief" in dealt.extra_cards
        # Nobody is woken for it: the game has moved on to the next step already, and
        # the step of the other card aside is announced when its turn comes too.
        assert game.waiting() and game.step is not None and game.step.id != "thief"
        other = next(card for card in dealt.extra_cards if card != "thief")
        if other in ("seer", "little-girl", "witch"):
            while other.replace("-", "_") not in wakes and not game.finished:
                game.apply(Action(-1, "close"))
                wakes = [e.text("step") for e in game.events if e.kind == "wake"]
            # (a pack that never wakes starves at once in werewolf: the night ends there)
            assert other.replace("-", "_") in wakes or game.finished
    assert aside and held  # both kinds of deal were seen


def test_the_thiefs_step_shows_the_same_whoever_holds_his_card() -> None:
    """The same table, its Thief a player who keeps his card or the card aside: the
    public events of the night are the same up to the pack's step."""
    base = ["werewolf", "werewolf", "seer", "villager", "villager", "villager", "villager"]
    held = new_game("werewolf", NAMES, [*base, "thief"], ["villager", "villager"], seed=3)
    held.apply(Action(7, "keep"))
    aside = new_game("werewolf", NAMES, [*base, "villager"], ["thief", "villager"], seed=3)
    assert public_night_one(held) == public_night_one(aside)
    assert held.waiting() == aside.waiting() == [2]  # the Seer's turn, in both


def test_a_game_with_the_thief_aside_replays() -> None:
    base = ["werewolf", "werewolf", "seer", "villager", "villager", "villager", "villager"]
    game = new_game("werewolf", NAMES, [*base, "villager"], ["thief", "witch"], seed=5)
    while not game.finished:
        game.apply(Action(-1, "close"))
    scenario = game.to_scenario()
    assert scenario["extra_cards"] == ["thief", "witch"]
    again = sc.replay(sc.parse(scenario)).game
    assert [(e.kind, dict(e.data)) for e in again.events] == [
        (e.kind, dict(e.data)) for e in game.events
    ]


def test_the_minimum_counts_the_cards_in_play_when_the_thief_is_aside() -> None:
    """With the Thief in play a card aside may come into play (he may take it); with
    his card aside, the two are out of play: the Seer aside leaves the game short."""
    base = ["werewolf", "werewolf", "villager", "villager", "villager", "villager", "villager"]
    with pytest.raises(SetupError, match="minimum configuration"):
        new_game("werewolf", NAMES, [*base, "villager"], ["thief", "seer"])
    new_game("werewolf", NAMES, [*base, "villager"], ["thief", "seer"], {"lift_minimum": True})
    with pytest.raises(SetupError, match="two extra cards"):
        new_game("werewolf", NAMES, [*base, "villager"], ["thief"])
