"""The yardstick: random 8-player games of the PyPI package ``werewolf-engine`` 0.1.0.

Install it with ``pip install -e '.[bench]'`` (the ``bench`` extra pins
``werewolf-engine==0.1.0``), then::

    python benchmarks/peer_werewolf_engine.py --games 20000

Each game: 8 players, 2 werewolves, a seer, a doctor and 4 villagers (the issue's
deal); at night the actor ``current_actor`` names a uniformly random target among
``get_available_targets`` (``night_skip`` if there is none); by day every living player
votes for a uniformly random other living player; until ``Phase.END``. The package
draws from the global ``random`` module (its deal, the hunter's shot), so the script
seeds it. Prints games per second on one core (the median of ``--repeat`` timed runs).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

try:
    from werewolf_engine import Game, GameConfig, Phase
except ImportError:  # pragma: no cover - the message is the point
    sys.exit("werewolf-engine is not installed: pip install -e '.[bench]'")

NAMES = [f"P{i + 1}" for i in range(8)]
ROLES = {"werewolf": 2, "seer": 1, "doctor": 1, "villager": 4}


def play(rng: random.Random) -> int:
    """One random game to its end; returns the number of decisions taken."""
    game = Game(NAMES, GameConfig(role_counts=dict(ROLES)))
    game.start()
    actions = 0
    while game.phase != Phase.END:
        if game.phase == Phase.NIGHT:
            nights = game.night_manager
            actor = nights.current_actor
            targets = nights.get_available_targets(actor)
            if targets:
                game.night_action(actor.id, rng.choice(targets).id)
            else:
                game.night_skip(actor.id)
            actions += 1
        else:
            living = [p for p in game.players if p.is_alive()]
            for voter in living:
                if game.phase != Phase.DAY:
                    break
                others = [p for p in living if p is not voter]
                game.day_vote(voter.id, rng.choice(others).id)
                actions += 1
    return actions


def run(games: int, seed: int) -> tuple[float, float, int]:
    """Play ``games`` games: wall and CPU seconds, actions."""
    random.seed(seed)  # the package's own draws (deal, hunter) use the global module
    rng = random.Random(seed)
    actions = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(games):
        actions += play(rng)
    return time.perf_counter() - wall, time.process_time() - cpu, actions


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5, help="timed runs; the median is printed")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    run(min(args.games, 500), args.seed)  # warm-up, as in bench_engine.py
    rates, cpu_rates, per_game = [], [], []
    for r in range(args.repeat):
        wall, cpu, actions = run(args.games, args.seed + r)
        rates.append(args.games / wall)
        cpu_rates.append(args.games / cpu)
        per_game.append(actions / args.games)
    rate = statistics.median(rates)
    mean_actions = statistics.fmean(per_game)
    print(
        f"{'werewolf-engine':<14} 0.1.0, 8 players (2 werewolves, seer, doctor, 4 villagers)\n"
        f"{'':<14} {rate:>9,.0f} games/s  {rate * mean_actions:>10,.0f} actions/s  "
        f"{mean_actions:6.1f} actions/game  {statistics.median(cpu_rates):>9,.0f} games/CPU-s  "
        f"(median of {args.repeat} x {args.games}; min {min(rates):,.0f}, max {max(rates):,.0f})"
    )


if __name__ == "__main__":
    main()
