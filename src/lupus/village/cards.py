"""What a village game reads from the cards dealt, worked out once per multiset."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, final

from lupus.engine.counting import count_cards
from lupus.engine.step import Step
from lupus.rulebooks.facts import RuleFacts
from lupus.village.registry import Registry

StepFactory = Callable[[], Step[Any]]


@final
class Cards:
    """The deck, the factions' sizes and the steps of a night, for one set of cards.

    The steps of a first and of a later night, and of a day, are the plugins' step
    factories, looked up once here rather than by id every night. A night leaves out
    the quick game's preparation round, and the steps that would skip themselves,
    silently, for a card not in the game (a ``Ballot`` whose ``wake`` card is absent
    announces nothing and waits for nobody): a simulation builds none of them, night
    after night.
    """

    def __init__(
        self,
        facts: RuleFacts,
        registry: Registry,
        roles: Sequence[str],
        extra_cards: Sequence[str],
        quick: bool,
    ) -> None:
        self.deck: Final = count_cards(roles, extra_cards)  # card -> copies in the game
        self.composition: Final = dict(sorted(self.deck.items()))  # as announced
        # faction -> players holding one of its cards
        self.factions: Final = count_cards([facts.faction_of_role[r] for r in roles])
        skip = facts.preparation if quick else ()
        carded = registry.carded
        steps = registry.steps
        kept: list[tuple[StepFactory, ...]] = []
        for ids in (facts.first_night, facts.later_nights):
            night: list[StepFactory] = []
            for step_id in ids:
                card = carded.get(step_id)
                if step_id not in skip and (card is None or self.deck.get(card, 0) > 0):
                    night.append(steps[step_id])
            kept.append(tuple(night))
        self.first_night: Final = kept[0]
        self.later_nights: Final = kept[1]
        self.day: Final = tuple([steps[step_id] for step_id in facts.day])
        # The memories a game of these cards keeps: its roles' (a card not dealt keeps
        # nothing), and those of the procedures no card calls.
        self.memories: Final = tuple(
            [
                (role, make)
                for role, (card, make) in registry.memories.items()
                if card is None or self.deck.get(card, 0) > 0
            ]
        )
