"""`lupus play`: one human in the terminal against bots, reading only his own view.

The terminal is a front end like any other: it owns the game (it is the game master),
shows the human the narration of *his* view and menus built from *his* prompts, lets
bots answer theirs, and closes a step (the leader's timer) when only the leader can
move it on.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from lupus.bots.base import Bot
from lupus.bots.kinds import make_bot
from lupus.engine.deal import composition, seat_names
from lupus.engine.game import Game
from lupus.engine.model import LEADER, Action, Prompt
from lupus.engine.views import View
from lupus.families import deal, load, new_game
from lupus.narration import Narrator

Ask = Callable[[str], str | None]
"""Reads one answer (None at the end of input)."""
Say = Callable[[str], None]


def label(narrator: Narrator, view: View, prompt: Prompt, args: tuple[object, ...]) -> str:
    """A menu line in the reader's language ("Nominera Ann", "Vote to banish Dan")."""
    return narrator.choice(prompt.verb, args)


def choose(narrator: Narrator, view: View, ask: Ask, say: Say) -> Action | None:
    menu = [(p, args) for p in view.prompts for args in p.choices]
    say("")
    for i, (prompt, args) in enumerate(menu, 1):
        say(f"  {i:>2}. {label(narrator, view, prompt, args)}")
    while True:
        answer = ask(narrator.t("ui_choose", count=len(menu)))
        if answer is None:
            return None
        answer = answer.strip()
        # (ASCII digits, and few: int() refuses 4,300 digits, and "²" is a digit)
        if (
            answer.isascii()
            and answer.isdigit()
            and len(answer) <= 6
            and 1 <= int(answer) <= len(menu)
        ):
            prompt, args = menu[int(answer) - 1]
            return Action(view.seat, prompt.verb, args)
        say(narrator.t("ui_bad_choice", count=len(menu)))


def play(
    rules: str,
    players: int,
    seat: int,
    ask: Ask,
    say: Say,
    lang: str | None = None,
    seed: int | None = None,
    bots: str = "random",
) -> Game:
    """Play one game with a human at ``seat``; returns the finished (or abandoned) game."""
    book = load(rules)
    rng = random.Random(seed)
    names = seat_names(players)
    d = deal(book, players, composition(book, players), rng)
    game = new_game(
        book,
        names,
        d.roles,
        d.extra_cards,
        seed=rng.getrandbits(63),
        characters=d.characters,
        chests=d.chests,
        burgomaster=d.burgomaster,
    )
    narrator = Narrator(book, names, lang)
    bot: Bot = make_bot(bots, book)
    shown = 0
    say(narrator.t("ui_you", player=names[seat]))
    while not game.finished:
        view = game.view(seat)
        for line in narrator.story(view.events[shown:], seat):
            say(line)
        shown = len(view.events)
        waiting = game.waiting()
        others = [s for s in waiting if s != seat]
        step = game.step
        if step is not None and step.stalled(game):
            game.apply(Action(LEADER, "close"))  # (a pack that keeps disagreeing: a timer)
        elif others:
            game.apply(bot.act(game.view(others[0]), rng))
        elif waiting:
            action = choose(narrator, view, ask, say)
            if action is None:
                say(narrator.t("ui_abandoned"))
                return game
            game.apply(action)
        else:
            game.apply(Action(LEADER, "close"))
    view = game.view(seat)
    for line in narrator.story(view.events[shown:], seat):
        say(line)
    return game
