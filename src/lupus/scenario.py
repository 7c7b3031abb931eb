"""Scenario files: a whole game as JSON (rulebook, deal, seed, actions), replayed exactly.

This is how rules are tested and how users reproduce, share and report a game. The
contract is documented in docs/scenarios.md.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from lupus.engine.errors import IllegalAction, LupusError
from lupus.engine.game import Game
from lupus.engine.model import LEADER, Action, Arg, Death
from lupus.engine.setup import new_game


class ScenarioError(LupusError, ValueError):
    """A scenario file that cannot be read or set up (exit status 1)."""


class ScenarioAction(BaseModel):
    model_config = ConfigDict(extra="forbid")

    actor: str
    do: str
    target: str | None = None
    targets: list[str] | None = None
    card: str | None = None
    coin: int | None = None


class Scenario(BaseModel):
    model_config = ConfigDict(extra="forbid")

    rules: str
    description: str | None = None
    expect: dict[str, Any] | None = Field(
        default=None, description="what the replay must give (test metadata, ignored in play)"
    )
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int = 0
    players: list[str]
    roles: dict[str, str] | None = None
    extra_cards: list[str] = Field(default_factory=list)
    characters: dict[str, list[str]] | None = None
    chests: dict[str, int] | None = None
    burgomaster: str | None = None
    bag: list[int] | None = None
    actions: list[ScenarioAction] = Field(default_factory=list)


@dataclass
class Replay:
    """A replayed scenario: the game where it stopped, and the first refused action."""

    game: Game
    error_index: int | None = None
    error_message: str | None = None


def read(path: Path) -> Scenario:
    try:
        data = json.loads(path.read_text("utf-8"))
    except OSError as exc:
        raise ScenarioError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"{path}: not valid JSON: {exc}") from exc
    return parse(data, str(path))


def parse(data: object, source: str = "scenario") -> Scenario:
    try:
        return Scenario.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '(top)'}: {err['msg']}"
            for err in exc.errors()
        )
        raise ScenarioError(f"{source}: {problems}") from exc


def setup(scenario: Scenario) -> Game:
    """The scenario's game before any action, or ScenarioError saying why it cannot be."""
    players = scenario.players
    try:
        if scenario.characters is not None or scenario.rules == "lupusburg":
            return _setup_lupusburg(scenario)
        if scenario.roles is None:
            raise ScenarioError("roles: missing (name -> role id for every player)")
        _every_player("roles", scenario.roles, players, "no role for")
        roles = [scenario.roles[p] for p in players]
        return new_game(
            scenario.rules, players, roles, scenario.extra_cards, scenario.options, scenario.seed
        )
    except ScenarioError:
        raise
    except LupusError as exc:
        raise ScenarioError(str(exc)) from exc


def _every_player(what: str, table: Mapping[str, object], players: list[str], gap: str) -> None:
    """A per-player table must name every player, and nobody else."""
    missing = [p for p in players if p not in table]
    extra = [name for name in table if name not in players]
    if missing:
        raise ScenarioError(f"{what}: {gap} {', '.join(missing)}")
    if extra:
        raise ScenarioError(f"{what}: {', '.join(extra)} is not among the players")


def _setup_lupusburg(scenario: Scenario) -> Game:
    from lupus.lupusburg.game import LupusburgGame
    from lupus.rulebooks import load

    players = scenario.players
    if scenario.roles is not None:
        raise ScenarioError("roles: Lupusburg deals characters, use `characters` and `chests`")
    if scenario.characters is None or scenario.chests is None:
        raise ScenarioError("characters and chests: both are needed for Lupusburg")
    _every_player("characters", scenario.characters, players, "nothing for")
    _every_player("chests", scenario.chests, players, "nothing for")
    if scenario.burgomaster is not None and scenario.burgomaster not in players:
        raise ScenarioError(f"burgomaster: {scenario.burgomaster!r} is not among the players")
    book = load(scenario.rules)
    if book.family != "lupusburg":
        raise ScenarioError(f"characters and chests are for Lupusburg, not {book.id}")
    return LupusburgGame(
        book,
        players,
        characters=[scenario.characters[p] for p in players],
        chests=[scenario.chests[p] for p in players],
        burgomaster=players.index(scenario.burgomaster) if scenario.burgomaster else 0,
        bag=scenario.bag,
        options=scenario.options,
        seed=scenario.seed,
    )


def to_action(game: Game, step: ScenarioAction) -> Action:
    """The engine's action for a scenario line; unknown names are refused like any move."""
    if step.actor == "leader":
        actor = LEADER
    elif step.actor in game.names:
        actor = game.names.index(step.actor)
    else:
        raise IllegalAction(f"there is no player named {step.actor!r}")
    args: list[Arg] = []
    for name in ([step.target] if step.target is not None else []) + (step.targets or []):
        args.append(game.parse_target(step.do, name))
    if step.card is not None:
        args.append(step.card)
    if step.coin is not None:
        args.append(step.coin)
    return Action(actor, step.do, tuple(args))


def to_actions(game: Game, step: ScenarioAction) -> list[Action]:
    """The engine's actions for a scenario line: one, except Lupusburg's shorthand
    ``{"do": "bet", "target": NAME, "coin": VALUE}``, which is a ``bet`` on the player
    and then ``keep`` of that coin."""
    if step.do == "bet" and step.coin is not None and game.rulebook.family == "lupusburg":
        bet = to_action(game, step.model_copy(update={"coin": None}))
        return [bet, Action(bet.actor, "keep", (step.coin,))]
    return [to_action(game, step)]


def replay(scenario: Scenario) -> Replay:
    """Apply the scenario's actions until the end or the first refused one (its index
    is the line's in the file, also when a shorthand line stands for two actions)."""
    game = setup(scenario)
    for index, step in enumerate(scenario.actions):
        try:
            for action in to_actions(game, step):
                game.apply(action)
        except IllegalAction as exc:
            return Replay(game, index, str(exc))
    return Replay(game)


def summary(result: Replay) -> dict[str, object]:
    """The machine-readable outcome of a replay (the ``--json`` contract)."""
    game = result.game
    names = game.names
    outcome = game.outcome
    waiting: list[dict[str, object]] = []
    if outcome is None:
        for seat in game.waiting():
            verbs = sorted({p.verb for p in game.prompts(seat)})
            waiting.append({"actor": names[seat], "verbs": verbs})
    alive = [names[s] for s in game.alive_seats()]
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
