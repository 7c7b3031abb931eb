"""The random bot: a uniformly random legal choice among the ways to act.

It takes a passive verb (pass, abstain, sleep, keep) only when no other is open, so a
random village votes uniformly among the living and a random pack always picks a victim,
which is what the theory of random play (and the speed comparisons) assume.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from lupus.bots.base import PASSIVE
from lupus.engine.draw import below
from lupus.engine.model import Action, Prompt
from lupus.engine.views import View


class RandomBot:
    name = "random"

    def act(self, view: View, rng: random.Random) -> Action:
        prompts = view.prompts
        if len(prompts) == 1:
            pool: Sequence[Prompt] = prompts
        else:
            pool = [p for p in prompts if p.verb not in PASSIVE] or prompts
        if len(pool) == 1:
            # One verb, the usual case: the same draw as below, without listing the pairs.
            only = pool[0]
            return Action(view.seat, only.verb, only.choices[below(rng, len(only.choices))])
        choices = [(p.verb, args) for p in pool for args in p.choices]
        verb, args = choices[below(rng, len(choices))]
        return Action(view.seat, verb, args)
