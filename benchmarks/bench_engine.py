"""How fast lupus plays random games, through the public path only.

Every game is ``lupus.sim.selfplay.play``, the simulator's own loop (what a run's games
share, its ``Table``, is worked out once per run, as ``play_range`` does): a seeded
random deal, ``new_game``, then at each decision the random bot is handed
``game.view(seat)`` and its action goes through ``game.apply`` (validated against the
prompts like anyone's); a step that waits on nobody, or that the bots keep reopening, is
closed by the game leader. No shortcut.

    python benchmarks/bench_engine.py                 # every rulebook, one core
    python benchmarks/bench_engine.py werewolf --games 20000
    python benchmarks/bench_engine.py --scaling       # lupus.sim.simulate, 1..all cores
    python benchmarks/bench_engine.py --vs-peer       # werewolf against werewolf-engine

The first line says whether the engine runs compiled (the default install, see
``setup.py``) or as pure Python (``LUPUS_COMPILE=0``).

``--vs-peer`` plays lupus's werewolf games and the peer's (``peer_werewolf_engine.py``,
``pip install -e '.[bench]'``) in turn, a slice of each per round, in one process, so
that both see the same machine; it prints each side's rate and the median ratio of the
rounds.

The werewolf and tit-albert deal is the issue's: 8 players, 2 werewolves, a seer, a
witch and 4 villagers; maffia, mafia-classic and lupusburg play their rulebook's
recommended composition (8, 8 and 6 players).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from dataclasses import dataclass

from lupus.sim.runner import SimConfig, Table, play, simulate

WITCH_DEAL = {"werewolf": 2, "seer": 1, "witch": 1, "villager": 4}


@dataclass(frozen=True)
class Bench:
    name: str
    config: SimConfig

    def describe(self) -> str:
        deal = ", ".join(f"{n} {r}" for r, n in sorted(self.config.composition().items()))
        return f"{self.config.players} players ({deal})"


BENCHES = {
    "werewolf": Bench("werewolf", SimConfig("werewolf", 8, WITCH_DEAL)),
    "tit-albert": Bench("tit-albert", SimConfig("tit-albert", 8, WITCH_DEAL)),
    "maffia": Bench("maffia", SimConfig("maffia", 8)),
    "mafia-classic": Bench("mafia-classic", SimConfig("mafia-classic", 8)),
    "lupusburg": Bench("lupusburg", SimConfig("lupusburg", 6)),
}


def run(config: SimConfig, first: int, games: int) -> tuple[float, float, int]:
    """Play games ``first .. first + games`` of the run: wall and CPU seconds, actions."""
    table = Table(config, config.book)
    actions = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for index in range(first, first + games):
        actions += play(table, index)[1]
    return time.perf_counter() - wall, time.process_time() - cpu, actions


def one_core(bench: Bench, games: int, repeat: int) -> None:
    run(bench.config, 10**9, min(games, 500))  # warm-up (imports, caches)
    rates, cpu_rates, per_game = [], [], []
    for r in range(repeat):
        wall, cpu, actions = run(bench.config, r * games, games)
        rates.append(games / wall)
        cpu_rates.append(games / cpu)
        per_game.append(actions / games)
    rate = statistics.median(rates)
    mean_actions = statistics.fmean(per_game)
    print(
        f"{bench.name:<14} {bench.describe()}\n"
        f"{'':<14} {rate:>9,.0f} games/s  {rate * mean_actions:>10,.0f} actions/s  "
        f"{mean_actions:6.1f} actions/game  {statistics.median(cpu_rates):>9,.0f} games/CPU-s  "
        f"(median of {repeat} x {games}; min {min(rates):,.0f}, max {max(rates):,.0f})",
        flush=True,
    )


def scaling(games: int, max_workers: int) -> None:
    config = BENCHES["werewolf"].config
    print(f"lupus.sim.simulate, werewolf {BENCHES['werewolf'].describe()}, {games} games")
    print(f"{'workers':>7} {'games/s':>10} {'speed-up':>9}")
    base = 0.0
    for workers in range(1, max_workers + 1):
        result = simulate(config, games, workers=workers)
        rate = result.tally.games / result.seconds
        base = base or rate
        print(f"{workers:>7} {rate:>10,.0f} {rate / base:>8.2f}x", flush=True)


def versus_peer(games: int, rounds: int) -> None:
    from peer_werewolf_engine import play as peer_play  # this folder is on sys.path

    config = BENCHES["werewolf"].config
    table = Table(config, config.book)
    random.seed(1)  # the peer's own draws (deal, hunter) use the global module
    peer_rng = random.Random(1)
    per_round = max(1, games // rounds)
    for index in range(500):  # warm-up, both sides
        play(table, 10**9 + index)
        peer_play(peer_rng)
    ours = {"wall": 0.0, "cpu": 0.0}
    theirs = {"wall": 0.0, "cpu": 0.0}
    ratios = []
    for r in range(rounds):
        wall, cpu = time.perf_counter(), time.process_time()
        for index in range(r * per_round, (r + 1) * per_round):
            play(table, index)
        ours_cpu = time.process_time() - cpu
        ours["wall"] += time.perf_counter() - wall
        ours["cpu"] += ours_cpu
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(per_round):
            peer_play(peer_rng)
        theirs_cpu = time.process_time() - cpu
        theirs["wall"] += time.perf_counter() - wall
        theirs["cpu"] += theirs_cpu
        ratios.append(theirs_cpu / ours_cpu)  # lupus's speed over the peer's, this round
    played = per_round * rounds
    print(f"{rounds} rounds of {per_round} games each, in turn, one process")
    for name, t in (("lupus werewolf", ours), ("werewolf-engine", theirs)):
        print(
            f"{name:<16} {played / t['wall']:>9,.0f} games/s  "
            f"{played / t['cpu']:>9,.0f} games/CPU-s"
        )
    print(
        f"lupus / peer: {statistics.median(ratios):.2f} (median of the rounds' CPU ratios; "
        f"min {min(ratios):.2f}, max {max(ratios):.2f})"
    )


def build() -> str:
    """Whether the engine runs compiled (``setup.py``) or as pure Python."""
    import lupus.engine.game

    where = lupus.engine.game.__file__ or ""
    return "pure Python" if where.endswith(".py") else "compiled with mypyc"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rules", nargs="*", help=f"any of {', '.join(BENCHES)} (default: all)")
    parser.add_argument("--games", type=int, default=10_000, help="games per timed run")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs; the median is shown")
    parser.add_argument("--scaling", action="store_true", help="1..all cores with simulate")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--vs-peer", action="store_true", help="werewolf against the peer")
    parser.add_argument("--rounds", type=int, default=20, help="rounds of --vs-peer")
    args = parser.parse_args(argv)
    unknown = [r for r in args.rules if r not in BENCHES]
    if unknown:
        parser.error(f"unknown rulebook {unknown[0]!r} (known: {', '.join(BENCHES)})")
    print(f"lupus engine: {build()}", flush=True)
    if args.scaling:
        scaling(args.games * 4, args.workers)
        return
    if args.vs_peer:
        versus_peer(args.games, args.rounds)
        return
    for name in args.rules or list(BENCHES):
        one_core(BENCHES[name], args.games, args.repeat)


if __name__ == "__main__":
    main()
