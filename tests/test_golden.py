"""Every game replays event for event: the scenarios and a few hundred seeded games.

``tests/golden/games.json`` holds a digest of each game's whole record (every event
with its audience, phase and data, every action, the outcome), taken before the
engine's redesign of issue #12. A change that alters any game, even one event's
audience or the order of two deaths, fails here, whichever test would have missed it.
A deliberate change of the rules regenerates the file:
``LUPUS_GOLDEN_WRITE=1 python -m pytest tests/test_golden.py``, and says why in its
commit.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from lupus import scenario as sc
from lupus.engine.game import Game
from lupus.engine.views import plain
from lupus.sim.config import SimConfig
from lupus.sim.selfplay import Table, play

ROOT = Path(__file__).parent
GOLDEN = ROOT / "golden" / "games.json"
SCENARIOS = sorted((ROOT / "scenarios").rglob("*.json"))

# (rulebook, players, bots, games): a few hundred seeded self-play games of every
# rulebook, random and heuristic bots, small and large tables.
RUNS: list[tuple[str, int, str, int]] = [
    ("werewolf", 8, "random", 30),
    ("werewolf", 12, "heuristic", 30),
    ("werewolf", 18, "random", 15),
    ("tit-albert", 7, "random", 30),
    ("tit-albert", 12, "heuristic", 30),
    ("maffia", 6, "random", 30),
    ("maffia", 12, "heuristic", 30),
    ("mafia-classic", 7, "random", 30),
    ("mafia-classic", 10, "heuristic", 30),
    ("lupusburg", 5, "random", 30),
    ("lupusburg", 8, "heuristic", 30),
]


def digest(game: Game) -> str:
    """A fingerprint of everything the game did."""
    record = {
        "events": [
            [
                ev.kind,
                None if ev.audience is None else sorted(ev.audience),
                ev.phase,
                ev.number,
                plain(ev.data),
            ]
            for ev in game.events
        ],
        "actions": [[a.actor, a.verb, list(a.args)] for a in game.history],
        "outcome": None
        if game.outcome is None
        else [game.outcome.winner, list(game.outcome.winners), game.outcome.reason],
    }
    text = json.dumps(record, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def scenario_key(path: Path) -> str:
    return "scenario:" + path.relative_to(ROOT / "scenarios").as_posix()


def run_key(rules: str, players: int, bots: str, index: int) -> str:
    return f"game:{rules}:{players}:{bots}:{index}"


def scenario_digest(path: Path) -> str:
    return digest(sc.replay(sc.read(path)).game)


def run_digests(rules: str, players: int, bots: str, games: int) -> dict[str, str]:
    table = Table(SimConfig(rules, players, bots={"*": bots}, seed=12))
    return {run_key(rules, players, bots, i): digest(play(table, i)[0]) for i in range(games)}


def everything() -> dict[str, str]:
    found = {scenario_key(p): scenario_digest(p) for p in SCENARIOS}
    for run in RUNS:
        found.update(run_digests(*run))
    return found


if os.environ.get("LUPUS_GOLDEN_WRITE") == "1":  # pragma: no cover (regeneration)
    GOLDEN.write_text(json.dumps(everything(), indent=0, sort_keys=True) + "\n")

KNOWN: dict[str, str] = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}


def test_every_scenario_and_run_is_recorded() -> None:
    wanted = {scenario_key(p) for p in SCENARIOS}
    for rules, players, bots, games in RUNS:
        wanted |= {run_key(rules, players, bots, i) for i in range(games)}
    missing = sorted(wanted - set(KNOWN))
    assert not missing, f"not in {GOLDEN.name}: {missing[:5]} (new scenarios: regenerate)"


@pytest.mark.parametrize("path", SCENARIOS, ids=[scenario_key(p) for p in SCENARIOS])
def test_scenario_replays_event_for_event(path: Path) -> None:
    assert scenario_digest(path) == KNOWN.get(scenario_key(path))


@pytest.mark.parametrize("run", RUNS, ids=[f"{r[0]}-{r[1]}-{r[2]}" for r in RUNS])
def test_seeded_games_replay_event_for_event(run: tuple[str, int, str, int]) -> None:
    found = run_digests(*run)
    changed = [key for key, value in found.items() if KNOWN.get(key) != value]
    assert not changed, f"{len(changed)} games changed, e.g. {changed[:3]}"
