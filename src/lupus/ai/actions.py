"""Stable action ids: every decision a seat of one rulebook and table size could be
offered, numbered once, so that a learning agent's output layer means the same move in
every game (docs/ai.md, "Actions").

The table is ``verbs x arguments``: ``id = verb_index * len(arguments) + argument_index``.
The verbs are those the rulebook can offer (the village's from its role plugins'
declarations, the same ones the property tests' referee reads; Lupusburg's from its
family), sorted; the arguments are the same list for every verb: none ``()``, one
number ``(i,)`` (a seat, a Lupusburg house or coin), one card id ``(card,)`` (the
Thief's take), or a pair of seats ``(a, b)`` with ``a < b`` (Cupid's link). Most ids
are never legal; the action mask says which are now.
"""

from __future__ import annotations

from itertools import combinations
from typing import Final

from lupus.engine.model import Args, Prompt
from lupus.families import family_of, role_plugins
from lupus.rulebooks.schema import Rulebook

LUPUSBURG_VERBS: Final = ("pass", "bet", "keep")
"""Lupusburg's verbs that name no house (its family lists those that do,
``house_verbs``): declining a privilege or a bet, a bet on a player, the coin kept."""


class ActionTable:
    """The numbering of one rulebook's decisions at one table size (see the module)."""

    def __init__(self, book: Rulebook, players: int) -> None:
        family = family_of(book)
        if family.house_verbs:
            verbs = set(family.house_verbs) | set(LUPUSBURG_VERBS)
            spec = book.lupusburg
            coins = max(spec.bag) + 1 if spec is not None else 0
            numbers = max(2 * players, coins)
            pairs: list[Args] = []
        else:
            verbs = village_verbs(book)
            numbers = players
            pairs = [pair for pair in combinations(range(players), 2)]
        self.verbs: Final[tuple[str, ...]] = tuple(sorted(verbs))
        args: list[Args] = [(), *[(i,) for i in range(numbers)]]
        args.extend((card,) for card in sorted(book.roles))
        args.extend(pairs)
        self.args: Final[tuple[Args, ...]] = tuple(args)
        self._verb_index: Final = {verb: i for i, verb in enumerate(self.verbs)}
        self._arg_index: Final = {a: i for i, a in enumerate(self.args)}
        self.size: Final = len(self.verbs) * len(self.args)

    def action_of(self, action_id: int) -> tuple[str, Args]:
        """The (verb, arguments) of an id; ValueError for an id outside the table."""
        if not isinstance(action_id, int) or isinstance(action_id, bool):
            raise ValueError(f"an action id is an int, not {action_id!r}")
        if not 0 <= action_id < self.size:
            raise ValueError(f"action id {action_id} is outside 0 to {self.size - 1}")
        verb, arg = divmod(action_id, len(self.args))
        return self.verbs[verb], self.args[arg]

    def id_of(self, verb: str, args: Args = ()) -> int:
        """The id of (verb, arguments); ValueError for a move this table cannot hold.
        A pair of seats is taken in either order (a link names a set)."""
        args = tuple(args)
        v = self._verb_index.get(verb)
        if v is None:
            raise ValueError(f"{verb!r} is no verb of this rulebook ({', '.join(self.verbs)})")
        a = self._arg_index.get(args)
        if a is None and len(args) == 2:
            a = self._arg_index.get(tuple(reversed(args)))
        if a is None:
            raise ValueError(f"{verb} {args!r}: no action of this table has these arguments")
        return v * len(self.args) + a

    def legal_ids(self, prompts: tuple[Prompt, ...]) -> list[int]:
        """The ids a seat's open prompts allow, in increasing order."""
        found = {self.id_of(p.verb, args) for p in prompts for args in p.choices}
        return sorted(found)


def village_verbs(book: Rulebook) -> set[str]:
    """The verbs of the role plugins that play in ``book``: those whose card it deals
    and those whose steps its nights or days name (the referee's rule,
    ``lupus.testing.declared``), last breaths included."""
    named = {*book.night.first, *book.night.later, *book.night.preparation, *book.day}
    verbs: set[str] = set()
    for role in role_plugins():
        if (role.card is not None and role.card in book.roles) or named & set(role.steps):
            verbs.update(verb.name for verb in role.verbs)
    return verbs
