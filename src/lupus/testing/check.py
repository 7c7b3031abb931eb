"""``check_rulebook``: the engine's whole contract, checked on seeded random games of a
rulebook (docs/architecture.md, "Checking a rulebook")."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from functools import partial
from pathlib import Path

from lupus.engine.errors import SetupError
from lupus.engine.game import Game
from lupus.engine.model import LEADER, Action
from lupus.engine.views import role_facts
from lupus.families import rulebook as checked_rulebook
from lupus.rulebooks.schema import Rulebook
from lupus.testing.contract import (
    Menus,
    bots_finish,
    check_json,
    check_narration,
    check_replays,
)
from lupus.testing.decks import Setup, setup, sizes
from lupus.testing.declared import Declared, declared, every_verb
from lupus.testing.errors import Broken, ConformanceError
from lupus.testing.knowledge import Knowledge
from lupus.testing.offers import Offers
from lupus.testing.playing import Chooser, Refused, play
from lupus.testing.refusals import illegal_attempts, refuse_after_the_end, try_illegal
from lupus.testing.seen import check_seen

MOST_ACTIONS = 5000
"""A game of random play that has not ended after this many actions breaks "ends"."""
BOT_KINDS = ("random", "heuristic")
OTHER_VERBS = ("close", "fly")
VIEW_GROWTH = (1.3, 2.2)
"""Every view is compared with the game whole (a cost that grows with the game) at
states spaced further and further apart, each this many times the last (at random
within the range): some ten times a game, early and late. Each new event's secrets
are checked at every state, and the views again at the end."""


def check_rulebook(
    rulebook: str | Rulebook,
    games: int = 20,
    seed: int = 0,
    *,
    scenarios: str | Path | None = None,
    most: int = MOST_ACTIONS,
) -> None:
    """Play ``games`` seeded random games of ``rulebook`` (an id, a ``.toml`` path or a
    loaded ``Rulebook``), over every playable size in turn and random legal decks and
    options, and check the engine's contract on each (``lupus.testing.errors.RULES``);
    then the same decks played by every kind of bot.

    The first rule broken raises :class:`ConformanceError` naming it, with the scenario
    of a game that breaks it (written to the folder ``scenarios`` if given). The same
    arguments check the same games."""
    for name, value, least in (("games", games, 1), ("seed", seed, 0), ("most", most, 1)):
        if type(value) is not int or value < least:
            raise SetupError(f"check_rulebook: {name} is a whole number from {least} on")
    book = checked_rulebook(rulebook)
    rng = random.Random(seed)
    tables = declared(book)
    for index, players in enumerate(sizes(book, games, rng)):
        made = _setup(book, players, rng, index)
        game_seed = rng.getrandbits(32)
        game = made.new_game()
        _guarded(game, scenarios, partial(_one_game, tables=tables, seed=game_seed, most=most))
        for kind in BOT_KINDS:
            bots = partial(bots_finish, kind=kind, seed=game_seed + index, most=most)
            _guarded(made.new_game(), scenarios, bots)


def _setup(book: Rulebook, players: int, rng: random.Random, index: int) -> Setup:
    try:
        return setup(book, players, rng, index)
    except Broken as broken:
        raise ConformanceError(broken.rule, broken.detail, {"rules": book.id}) from None


def _guarded(game: Game, folder: str | Path | None, run: Callable[[Game], object]) -> None:
    """Run a check on ``game``; a broken rule becomes a ConformanceError with the game's
    scenario (and the refused action as its last line)."""
    try:
        run(game)
    except Broken as broken:
        record = game.to_scenario()
        if isinstance(broken, Refused):
            actions = record.get("actions")
            assert isinstance(actions, list)
            actions.append(game.scenario_line(broken.action))
        path = None if folder is None else _write(record, Path(folder), broken.rule)
        raise ConformanceError(broken.rule, broken.detail, record, path) from None


def _write(record: dict[str, object], folder: Path, rule: str) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"conformance-{rule}.json"
    path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", "utf-8")
    return str(path)


def _one_game(game: Game, tables: Declared, seed: int, most: int) -> None:
    """One game of random play, every contract checked along the way and at its end."""
    rng = random.Random(seed)
    knowledge = Knowledge(game, tables)
    offers = Offers(tables)
    next_views = [1]
    menus = Menus(game)
    verbs = every_verb() or ("vote",)

    def observe(game: Game, action: Action | None, before: int) -> None:
        if action is not None:
            knowledge.on_action(action, before)
        knowledge.on_events(game)
        offers.check(game)
        menus.check(game)
        if not game.finished and not any(p.actor != LEADER for p in game.prompts()):
            raise Broken("ends", "the game is not over, but nobody is asked anything")
        if rng.random() < 0.3:
            dead = sorted({d.player for d in game.deaths})
            attempts = illegal_attempts(game, rng, verbs, OTHER_VERBS, dead, lambda p: [(0, 1, 2)])
            try_illegal(game, attempts)
        if game.state_id >= next_views[0]:
            next_views[0] = max(game.state_id + 1, int(game.state_id * rng.uniform(*VIEW_GROWTH)))
            check_views(game, knowledge)

    play(game, Chooser(rng), most, observe)
    check_views(game, knowledge)
    refuse_after_the_end(game)
    check_replays(game)
    check_narration(game)
    check_json(game)


def check_views(game: Game, knowledge: Knowledge) -> None:
    """Every view holds exactly its seat's events and prompts, and tells only the
    roles its seat may know, truly."""
    events = game.events
    check_seen(LEADER, game.view(LEADER).events, events)
    truth = getattr(game, "roles", None)
    for seat in range(game.n):
        view = game.view(seat)
        mine = check_seen(seat, view.events, events)
        if tuple(view.prompts) != tuple(game.prompts(seat)):
            raise Broken("views", f"the view of seat {seat} holds other prompts than the game")
        for i in mine:
            for who, _ in role_facts(events[i]):
                if not knowledge.may_know(seat, who, i):
                    raise Broken("secrets", f"the view of seat {seat} tells the role of {who}")
        if isinstance(truth, list):
            for who, role in view.known_roles().items():
                if role != truth[who]:
                    raise Broken("secrets", f"the view of seat {seat} says {who} is {role}")
