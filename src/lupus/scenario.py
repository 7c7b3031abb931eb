"""Scenario files: a whole game as JSON (rulebook, deal, seed, actions), replayed exactly.

This is how rules are tested and how users reproduce, share and report a game. The
contract is documented in docs/scenarios.md.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from lupus.engine.errors import IllegalAction, LupusError
from lupus.engine.game import Game
from lupus.engine.limits import (
    MAX_ARGS,
    MAX_BAG,
    MAX_CARDS,
    MAX_ID_LENGTH,
    MAX_OPTIONS,
    MAX_PATH_LENGTH,
    MAX_PLAYERS,
    MAX_SCENARIO_ACTIONS,
    MAX_SEED,
    MAX_TEXT,
)
from lupus.engine.model import LEADER, Action, Arg, Death, Event
from lupus.engine.names import check_count
from lupus.engine.untrusted import quoted
from lupus.engine.views import View
from lupus.families import check, family_of, load, set_up
from lupus.files import read_text, shown_path, validation_problems
from lupus.rulebooks import from_data
from lupus.rulebooks.schema import Rulebook


class ScenarioError(LupusError, ValueError):
    """A scenario file that cannot be read or set up (exit status 1)."""


Text = Annotated[StrictStr, Field(max_length=MAX_TEXT)]
"""Any string of a scenario file (a name, an id, a verb, the description)."""
Card = Annotated[StrictStr, Field(max_length=MAX_ID_LENGTH)]
"""A role or character id."""


class ScenarioAction(BaseModel):
    """One line of ``actions``; types are exact (a coin is a JSON integer, not ``"3"``
    or ``true``), strings and lists bounded."""

    model_config = ConfigDict(extra="forbid")

    actor: Text
    do: Text
    target: Text | None = None
    targets: list[Text] | None = Field(default=None, max_length=MAX_ARGS)
    card: Card | None = None
    coin: StrictInt | None = Field(default=None, ge=-(10**9), le=10**9)


class Scenario(BaseModel):
    """A scenario file (docs/scenarios.md). Every value has its exact JSON type (a seed
    is an integer, not ``"3"`` or ``true``) and every string, list and table a bounded
    size (``lupus.engine.limits``), checked before anything is set up; the rules check
    the rest (names, cards, options)."""

    model_config = ConfigDict(extra="forbid")

    # A shipped rulebook's id or a .toml path, or a whole rulebook (the tables of its
    # file, as ``Game.to_scenario`` writes any rulebook that is not a shipped one).
    rules: Annotated[StrictStr, Field(max_length=MAX_PATH_LENGTH)] | dict[StrictStr, Any]
    description: Text | None = None
    expect: dict[StrictStr, Any] | None = Field(
        default=None, description="what the replay must give (test metadata, ignored in play)"
    )
    options: dict[Text, Any] = Field(default_factory=dict, max_length=MAX_OPTIONS)
    seed: StrictInt = Field(default=0, ge=0, le=MAX_SEED)
    players: list[Text] = Field(max_length=MAX_PLAYERS)
    roles: dict[Text, Card] | None = Field(default=None, max_length=MAX_PLAYERS)
    extra_cards: list[Card] = Field(default_factory=list, max_length=MAX_CARDS)
    characters: dict[Text, Annotated[list[Card], Field(max_length=MAX_ARGS)]] | None = Field(
        default=None, max_length=MAX_PLAYERS
    )
    chests: dict[Text, StrictInt] | None = Field(default=None, max_length=MAX_PLAYERS)
    burgomaster: Text | None = None
    bag: list[StrictInt] | None = Field(default=None, max_length=MAX_BAG)
    actions: list[ScenarioAction] = Field(default_factory=list, max_length=MAX_SCENARIO_ACTIONS)


@dataclass
class Replay:
    """A replayed scenario: the game where it stopped, and the first refused action
    (its line, the reason, and whose it was: a seat, LEADER, or None for a line naming
    no player)."""

    game: Game
    error_index: int | None = None
    error_message: str | None = None
    error_actor: int | None = None


def read(path: Path) -> Scenario:
    """The scenario in a file, or ScenarioError in one line saying why it cannot be
    (unreadable, not UTF-8, not JSON, a number too long, nesting too deep, bad keys)."""
    text = read_text(path, ScenarioError)
    where = shown_path(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"{where}: not valid JSON: {exc}") from exc
    except ValueError as exc:  # an integer longer than Python reads (4300 digits)
        raise ScenarioError(f"{where}: not valid JSON: a number has too many digits") from exc
    except RecursionError as exc:
        raise ScenarioError(f"{where}: not valid JSON: nested too deeply") from exc
    return parse(data, where)


SIZES = {
    "players": MAX_PLAYERS,
    "roles": MAX_PLAYERS,
    "characters": MAX_PLAYERS,
    "chests": MAX_PLAYERS,
    "extra_cards": MAX_CARDS,
    "bag": MAX_BAG,
    "options": MAX_OPTIONS,
    "actions": MAX_SCENARIO_ACTIONS,
}
"""The most items each list or table of a scenario holds (measured before its items
are read: the schema reads every item before it counts them)."""


def parse(data: object, source: str = "scenario") -> Scenario:
    """The scenario ``data`` (decoded JSON) describes, or ScenarioError naming the key
    and the problem: the size of every list and table first, then every value's exact
    type and bounds."""
    source = shown_path(source)
    if isinstance(data, dict):
        for key, most in SIZES.items():
            value = data.get(key)
            if isinstance(value, (list, dict)) and len(value) > most:
                raise ScenarioError(f"{source}: {key}: at most {most} items, not {len(value)}")
    try:
        return Scenario.model_validate(data)
    except ValidationError as exc:
        problems = validation_problems(exc)
        raise ScenarioError(f"{source}: {problems}") from exc
    except RecursionError as exc:
        raise ScenarioError(f"{source}: nested too deeply") from exc


def setup(scenario: Scenario) -> Game:
    """The scenario's game before any action, or ScenarioError saying why it cannot be."""
    players = scenario.players
    try:
        book = rulebook_of(scenario)
        # The number of players first, before anything per name (60,000 names are
        # refused at once).
        check_count(book, len(players))
        record = scenario.model_dump(include=DEAL_KEYS)
        try:
            dealt = family_of(book).deal_of(record, players)
        except ValueError as exc:
            raise ScenarioError(str(exc)) from exc
        return set_up(book, players, dealt, scenario.options, scenario.seed)
    except ScenarioError:
        raise
    except LupusError as exc:
        raise ScenarioError(str(exc)) from exc


def rulebook_of(scenario: Scenario) -> Rulebook:
    """The rulebook a scenario names (an id or a path, read now) or holds whole."""
    rules = scenario.rules
    if isinstance(rules, str):
        return load(rules)
    return check(from_data(rules, "rules"))


DEAL_KEYS = {"roles", "extra_cards", "characters", "chests", "burgomaster", "bag"}
"""The keys of a scenario that record the deal (``Game.deal_record``, ``Family.deal_of``)."""


def to_action(game: Game, step: ScenarioAction) -> Action:
    """The engine's action for a scenario line; unknown names are refused like any move.
    Names are read in NFC, the form the game keeps (see ``lupus.engine.names``)."""
    who = unicodedata.normalize("NFC", step.actor)
    if who == "leader":
        actor = LEADER
    elif who in game.names:
        actor = game.names.index(who)
    else:
        raise IllegalAction(f"there is no player named {quoted(step.actor)}")
    args: list[Arg] = []
    for name in ([step.target] if step.target is not None else []) + (step.targets or []):
        args.append(game.parse_target(step.do, unicodedata.normalize("NFC", name)))
    if step.card is not None:
        args.append(step.card)
    if step.coin is not None:
        args.append(step.coin)
    return Action(actor, step.do, tuple(args))


def to_actions(game: Game, step: ScenarioAction) -> list[Action]:
    """The engine's actions for a scenario line: one, except Lupusburg's shorthand
    ``{"do": "bet", "target": NAME, "coin": VALUE}``, which is a ``bet`` on the player
    and then ``keep`` of that coin."""
    return game.expand(to_action(game, step))


def replay(scenario: Scenario) -> Replay:
    """Apply the scenario's actions until the end or the first refused one (its index
    is the line's in the file, also when a shorthand line stands for two actions)."""
    game = setup(scenario)
    for index, step in enumerate(scenario.actions):
        try:
            for action in to_actions(game, step):
                game.apply(action)
        except IllegalAction as exc:
            return Replay(game, index, str(exc), _actor_of(game, step))
    return Replay(game)


def _actor_of(game: Game, step: ScenarioAction) -> int | None:
    """The seat (or LEADER) a line's actor names, read as ``to_action`` reads it; None
    if it names nobody."""
    bare = step.model_copy(update={"target": None, "targets": None, "card": None, "coin": None})
    try:
        return to_action(game, bare).actor
    except IllegalAction:
        return None


STOPPED = "the replay stops here (an action of another player was refused)"
"""The error a seat's summary gives for a refused action that was not its own."""


def summary(result: Replay, seat: int | None = None) -> dict[str, object]:
    """The machine-readable outcome of a replay (the ``--json`` contract).

    With ``seat`` (a player's seat), the outcome as that player saw it, computed from his
    view alone (see ``seat_summary``); without, the game leader's, who sees everything.
    """
    if seat is not None and seat != LEADER:
        return seat_summary(result, seat)
    game = result.game
    names = game.names
    outcome = game.outcome
    waiting: list[dict[str, object]] = []
    if outcome is None:
        for seat in game.waiting():
            verbs = sorted({p.verb for p in game.prompts(seat)})
            waiting.append({"actor": names[seat], "verbs": verbs})
    alive = [names[s] for s in game.living]
    out: dict[str, object] = {
        "finished": outcome is not None,
        "winner": outcome.winner if outcome else None,
        "winners": [names[s] for s in outcome.winners] if outcome else [],
        "alive": alive,
        "deaths": [death_record(game, d) for d in game.deaths],
        "waiting_for": waiting,
        "error": None
        if result.error_index is None
        else {"index": result.error_index, "message": result.error_message},
    }
    if outcome is not None and outcome.scores:
        out["scores"] = {names[s]: points for s, points in sorted(outcome.scores.items())}
    return out


def seat_summary(result: Replay, seat: int) -> dict[str, object]:
    """The ``--json`` outcome as ``seat`` saw it, from ``game.view(seat)``: the deaths
    he was told of, who he knows to be alive, the end if he was told of it, his own
    prompts only (if the game waits for him), and the refused action's reason only if
    it was his own (else a neutral note that the replay stops there)."""
    game = result.game
    view = game.view(seat)
    out = view_summary(game, view)
    # His own entry of the leader's list: his prompts, if the game waits for him.
    verbs = sorted({p.verb for p in view.prompts})
    owed = bool(verbs) and seat in game.waiting()
    out["waiting_for"] = [{"actor": view.names[seat], "verbs": verbs}] if owed else []
    error: dict[str, object] | None = None
    if result.error_index is not None:
        own = result.error_actor == seat
        message = result.error_message if own else STOPPED
        error = {"index": result.error_index, "message": message}
    out["error"] = error
    return out


def view_summary(game: Game, view: View) -> dict[str, object]:
    """What a view tells of the outcome (``finished``, ``winner``, ``winners``,
    ``alive``, ``deaths``, and ``scores`` once told), read from its events only; ``game``
    only names houses. The leader's view tells what ``summary`` reads from the state,
    but for the deaths of a night not told yet (they are told at dawn)."""
    names = view.names
    deaths: list[dict[str, object]] = []
    over: Event | None = None
    for ev in view.events:
        if ev.kind in ("death", "character_dies"):
            record: dict[str, object] = {
                "player": names[ev.seat("player")],
                "cause": ev.text("cause"),
                "phase": ev.phase,
                "number": ev.number,
            }
            if "house" in ev.data:
                record["house"] = game.house_name(ev.seat("house"))
            deaths.append(record)
        elif ev.kind == "game_over":
            over = ev
    out: dict[str, object] = {
        "finished": over is not None,
        "winner": None if over is None else over.maybe_text("winner"),
        "winners": [] if over is None else [names[s] for s in over.seats("winners")],
        "alive": [names[s] for s in view.alive()],
        "deaths": deaths,
    }
    scores = {} if over is None or "scores" not in over.data else over.seat_ints("scores")
    if scores:
        out["scores"] = {names[s]: points for s, points in sorted(scores.items())}
    return out


def death_record(game: Game, death: Death) -> dict[str, object]:
    record: dict[str, object] = {
        "player": game.names[death.player],
        "cause": death.cause,
        "phase": death.phase,
        "number": death.number,
    }
    if death.house is not None:
        record["house"] = game.house_name(death.house)
    return record
