"""Who may be offered which verb, when and against whom, and what a verb tells its user:
read from the role plugins' declarations (``lupus.village.plugin.Verb``, ``Role.learns``)
that play in a rulebook, never written by hand, so that a newly registered role is
refereed as it declares itself."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from lupus.engine.model import Prompt
from lupus.families import ANYONE, PACK, Verb, role_plugins, rulebook
from lupus.rulebooks.schema import Rulebook


@dataclass(frozen=True)
class Declared:
    """A referee's tables, built by :func:`declared`."""

    living: Mapping[str, frozenset[str] | None]
    """Verb -> the cards whose living holders may be offered it (None: anyone living)."""
    offers: Mapping[tuple[str, str], tuple[Verb, ...]]
    """(verb, card or ``ANYONE``) -> its declarations (``PACK`` resolved to the cards)."""
    last_breath: Mapping[str, tuple[Verb, ...]]
    """Role id -> the verbs its dying holder (or office holder) may be offered."""
    learns: frozenset[tuple[str, str]]
    """(card or ``ANYONE``, verb): who uses the verb is told its target's role."""

    def last_verbs(self, role: str) -> tuple[str, ...]:
        """The verbs of ``role``'s last breath (none for an unknown role id)."""
        return tuple(verb.name for verb in self.last_breath.get(role, ()))

    def tells(self, role: str, verb: str) -> bool:
        """Whether a living ``role`` using ``verb`` is told its target's role."""
        return (role, verb) in self.learns or (ANYONE, verb) in self.learns

    def refusal(
        self,
        p: Prompt,
        role: str,
        phase: str,
        number: int,
        step: str | None,
        alive: Callable[[int], bool],
    ) -> str | None:
        """Why the declarations forbid offering ``p`` to a living ``role`` in ``phase``
        ``number`` during ``step``, or None: a verb of his card (or everyone's), at its
        time, a night verb in its own step (the night's steps announce themselves with
        ``wake``), naming only living players if its targets are "living"."""
        if p.verb not in self.living:
            return f"{p.verb!r} offered to {p.actor}, who is alive"
        needed = self.living[p.verb]
        if needed is not None and role not in needed:
            return f"{p.verb!r} offered to {p.actor}, a {role}"
        mine = (*self.offers.get((p.verb, role), ()), *self.offers.get((p.verb, ANYONE), ()))
        timely = [v for v in mine if v.phase == phase and (number == 1 or not v.first_only)]
        if not timely:
            return f"{p.verb!r} offered to {p.actor} in {phase} {number}"
        placed = [v for v in timely if v.phase != "night" or v.step == step]
        if not placed:
            return f"{p.verb!r} offered to {p.actor} in the {step} step"
        return dead_targets(p, placed, alive)

    def dying_refusal(self, p: Prompt, owed: str, alive: Callable[[int], bool]) -> str | None:
        """Why the declarations forbid offering ``p`` to a dead player who owes the last
        breath of the role ``owed`` (a role id), or None."""
        mine = [verb for verb in self.last_breath.get(owed, ()) if verb.name == p.verb]
        if not mine:
            return f"prompt {p.verb!r} offered to dead player {p.actor}"
        return dead_targets(p, mine, alive)


def dead_targets(p: Prompt, verbs: Sequence[Verb], alive: Callable[[int], bool]) -> str | None:
    """Why ``p`` may not be offered if one of its ``verbs`` targets the living, or None."""
    if any(verb.targets == "living" for verb in verbs):
        dead = sorted({int(a) for args in p.choices for a in args if not alive(int(a))})
        if dead:
            return f"{p.verb!r} offered to {p.actor} against dead {dead}"
    return None


def every_verb() -> tuple[str, ...]:
    """Every verb a registered role plugin declares, whatever the rulebook (for actions
    a prompt does not allow)."""
    return tuple(dict.fromkeys(verb.name for role in role_plugins() for verb in role.verbs))


def declared(rules: str | Rulebook) -> Declared:
    """The :class:`Declared` tables of ``rules``, from the registered role plugins that
    play in it: those whose card it deals and those whose steps its nights or days
    name."""
    book = rulebook(rules)
    named = {*book.night.first, *book.night.later, *book.night.preparation, *book.day}
    pack = tuple(sorted(book.facts.pack))
    living: dict[str, frozenset[str] | None] = {}
    offers: dict[tuple[str, str], tuple[Verb, ...]] = {}
    last_breath: dict[str, tuple[Verb, ...]] = {}
    learns: set[tuple[str, str]] = set()
    for role in role_plugins():
        if not ((role.card is not None and role.card in book.roles) or named & set(role.steps)):
            continue
        for verb in role.verbs:
            holders = tuple(c for h in verb.holders for c in (pack if h == PACK else (h,)))
            if not holders:
                last_breath[role.id] = (*last_breath.get(role.id, ()), verb)
                continue
            known = living.get(verb.name, frozenset())
            living[verb.name] = None if known is None or ANYONE in holders else known | set(holders)
            made = Verb(verb.name, verb.step, holders, verb.phase, verb.first_only, verb.targets)
            for holder in holders:
                offers[verb.name, holder] = (*offers.get((verb.name, holder), ()), made)
                if verb.name in role.learns:
                    learns.add((holder, verb.name))
    return Declared(living, offers, last_breath, frozenset(learns))
