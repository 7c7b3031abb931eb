"""A random agent playing lupus through PettingZoo (docs/ai.md).

    pip install 'lupus[ai]'
    python examples/random_agent.py --rules werewolf --players 8 --games 20 --seed 1

Each seat draws a uniformly random legal action id from its action mask. With
``--simulator`` the seats are instead played by the project's random bot drawing from
``env.rng``, and the games are exactly those of
``lupus simulate --rules ... --players ... --seed ... --bots random``.
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np

import lupus.ai
from lupus.bots.random_bot import RandomBot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="werewolf")
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--simulator", action="store_true", help="play lupus simulate's games")
    args = parser.parse_args()

    env = lupus.ai.env(args.rules, args.players)
    bot = RandomBot()
    picker = np.random.default_rng(args.seed)
    winners: Counter[str] = Counter()
    returns: Counter[str] = Counter()
    for game in range(args.games):
        env.reset(seed=args.seed, options={"game": game})
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                returns[agent] += reward
                env.step(None)  # a finished seat leaves the game
                continue
            if args.simulator:
                chosen = bot.act(info["view"], env.rng)
                action = env.id_of(chosen.verb, chosen.args)
            else:
                action = int(picker.choice(np.flatnonzero(observation["action_mask"])))
            env.step(action)
        winners[info.get("winner") or "nobody"] += 1
    print(f"{args.games} games of {args.rules} at {args.players}: wins {dict(winners)}")
    print("returns by seat:", {agent: returns[agent] for agent in env.possible_agents})


if __name__ == "__main__":
    main()
