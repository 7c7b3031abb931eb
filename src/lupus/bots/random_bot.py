"""The random bot: a uniformly random legal choice among the ways to act.

It takes a passive verb (pass, abstain, sleep, keep) only when no other is open, so a
random village votes uniformly among the living and a random pack always picks a victim,
which is what the theory of random play (and the speed comparisons) assume.

In a pack that must agree, a member who chooses after another has named a victim, or
is asked again (the others point elsewhere), joins the target the others name most
(``lupus.bots.den.lead``, read from his own view): a pack of random bots agrees at once
on its first member's uniformly random pick, so its victim stays uniformly random and
its step costs no more choices than it did before packs had to agree.
"""

from __future__ import annotations

import random

from lupus.bots.base import PASSIVE
from lupus.bots.den import lead
from lupus.engine.draw import below
from lupus.engine.model import Action, Prompt
from lupus.engine.views import View


class RandomBot:
    name = "random"

    def __init__(self) -> None:
        self.agree: dict[str, bool] = {}  # rulebook digest -> its pack must agree

    def act(self, view: View, rng: random.Random) -> Action:
        prompts = view.prompts
        only = sole(prompts)
        if only is not None:
            joined = self.rejoin(view, only)
            if joined is not None:
                return joined
            # One verb, the usual case: the same draw as below, without listing the pairs.
            return Action(view.seat, only.verb, only.choices[below(rng, len(only.choices))])
        pool = [p for p in prompts if p.verb not in PASSIVE] or prompts
        choices = [(p.verb, args) for p in pool for args in p.choices]
        verb, args = choices[below(rng, len(choices))]
        return Action(view.seat, verb, args)

    def rejoin(self, view: View, prompt: Prompt) -> Action | None:
        """A pack member joins the others' lead (see the module); None for any other
        decision, told apart by the seat's newest private event (a choice in the den),
        which costs one look."""
        newest = view.newest_private()
        if newest is None or newest.kind != "pack_choice":
            return None
        digest = view.setup.digest
        agree = self.agree.get(digest)
        if agree is None:
            agree = self.agree[digest] = view.book.mechanics.pack_must_agree
        target = lead(view, agree)
        if target is None or not prompt.allows((target,)):
            return None
        return Action(view.seat, prompt.verb, (target,))


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
