"""How long a game takes to be written down and rebuilt from its record.

A server that keeps each game as its scenario (``game.to_scenario()``, docs/scenarios.md)
rebuilds it by replaying the record: JSON text -> ``scenario.parse`` -> ``scenario.replay``.
This times both ways on a game of 200 actions: the first 200 actions of a simulated
game (``lupus.sim.selfplay``, random bots, the first game of the run that lasts that
long), so every action went through ``game.apply`` like anyone's.

    python benchmarks/bench_rebuild.py                    # maffia, 16 players, 200 actions
    python benchmarks/bench_rebuild.py --rules werewolf --players 18 --actions 150

It prints whether the engine runs compiled or as pure Python, then the median of
``--repeat`` timed runs (after one warm-up) of: writing the record (``to_scenario`` and
``json.dumps``), and rebuilding the game from that text (``json.loads``, ``parse``,
``replay``), with the rebuild's time per action.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from lupus import scenario as sc
from lupus.engine.game import Game
from lupus.sim import selfplay
from lupus.sim.config import SimConfig


def build() -> str:
    """Whether the engine runs compiled (``setup.py``) or as pure Python."""
    import lupus.engine.game

    where = lupus.engine.game.__file__ or ""
    return "pure Python" if where.endswith(".py") else "compiled with mypyc"


def long_game(config: SimConfig, actions: int) -> Game:
    """The first game of the run with at least ``actions`` actions, stopped after them."""
    table = selfplay.Table(config)
    for index in range(10_000):
        full, count = selfplay.play(table, index)
        if count < actions:
            continue
        game, _ = selfplay.set_up(table, index)
        for action in full.history[:actions]:
            game.apply(action)
        return game
    raise SystemExit(f"no game of {config.rules} lasts {actions} actions")


def timed(run: object, repeat: int) -> float:
    """The median wall time of ``repeat`` calls of ``run`` (after one warm-up)."""
    assert callable(run)
    run()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="maffia")
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--actions", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args(argv)
    game = long_game(SimConfig(args.rules, args.players, seed=1), args.actions)
    text = json.dumps(game.to_scenario())
    rebuilt = sc.replay(sc.parse(json.loads(text))).game
    assert rebuilt.events == game.events and rebuilt.history == game.history

    def write() -> None:
        json.dumps(game.to_scenario())

    def rebuild() -> None:
        sc.replay(sc.parse(json.loads(text)))

    print(f"lupus engine: {build()}")
    print(
        f"{args.rules}, {game.n} players, {len(game.history)} actions, "
        f"{len(game.events)} events, record {len(text):,} bytes of JSON"
    )
    wrote = timed(write, args.repeat)
    built = timed(rebuild, args.repeat)
    print(f"  write the record (to_scenario + json.dumps):    {wrote * 1e3:8.3f} ms")
    print(
        f"  rebuild the game (json.loads + parse + replay): {built * 1e3:8.3f} ms "
        f"({built / len(game.history) * 1e6:.1f} us per action)"
    )


if __name__ == "__main__":
    main()
