"""The random bot: a uniformly random legal choice among the ways to act.

It takes a passive verb (pass, abstain, sleep, keep) only when no other is open, so a
random village votes uniformly among the living and a random pack always picks a victim,
which is what the theory of random play (and the speed comparisons) assume.

In a pack that must agree, a member asked again (he has chosen, and the others point
elsewhere) joins the target the others name most (``Den.lead``, read from his own
view): a pack of random bots agrees within a round, on one of its first random picks,
so its victim stays uniformly random.
"""

from __future__ import annotations

import random

from lupus.bots.base import PASSIVE
from lupus.bots.den import den
from lupus.engine.draw import below
from lupus.engine.model import Action, Prompt
from lupus.engine.views import View


class RandomBot:
    name = "random"

    def act(self, view: View, rng: random.Random) -> Action:
        prompts = view.prompts
        only = sole(prompts)
        if only is not None:
            joined = rejoin(view, only)
            if joined is not None:
                return joined
            # One verb, the usual case: the same draw as below, without listing the pairs.
            return Action(view.seat, only.verb, only.choices[below(rng, len(only.choices))])
        pool = [p for p in prompts if p.verb not in PASSIVE] or prompts
        choices = [(p.verb, args) for p in pool for args in p.choices]
        verb, args = choices[below(rng, len(choices))]
        return Action(view.seat, verb, args)


def sole(prompts: tuple[Prompt, ...]) -> Prompt | None:
    """The one prompt to draw from, if there is one: the only prompt, or the only active
    one beside passive ones (found without building a list: a bot decides at every turn)."""
    if len(prompts) == 1:
        return prompts[0]
    found = None
    for prompt in prompts:
        if prompt.verb not in PASSIVE:
            if found is not None:
                return None
            found = prompt
    return found


def rejoin(view: View, prompt: Prompt) -> Action | None:
    """A pack member asked again joins the others' lead (see the module); None for any
    other decision, told apart by the seat's newest private event (a choice in the
    den), which costs one look."""
    newest = view.newest_private()
    if newest is None or newest.kind != "pack_choice":
        return None
    found = den(view)
    target = None if found is None else found.lead(view.seat)
    if target is None or not prompt.allows((target,)):
        return None
    return Action(view.seat, prompt.verb, (target,))
