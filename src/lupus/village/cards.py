"""What a village game reads from the cards dealt, worked out once per multiset."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, final

from lupus.engine.counting import count_cards
from lupus.engine.model import READ_ONLY, freeze_values
from lupus.engine.step import Step
from lupus.rulebooks.facts import RuleFacts
from lupus.rulebooks.schema import OptionValue
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
        # Each seat's ``role_dealt`` data, by card then seat: the same in every game of
        # these cards (``{"player": seat, "role": card}``), read-only and shared, so that a
        # deal tells each player his card with no dict nor proxy of its own
        # (``Game.emit_shared``). A deck's cards are as many as its players.
        self.dealt: Final[dict[str, tuple[Mapping[str, object], ...]]] = {
            card: tuple([READ_ONLY({"player": seat, "role": card}) for seat in range(len(roles))])
            for card in sorted(set(roles))
        }
        self._starts: tuple[tuple[str, ...], tuple[object, ...], Mapping[str, object]] | None = None
        # The memories a game of these cards keeps: its roles' (a card not dealt keeps
        # nothing), and those of the procedures no card calls.
        self.memories: Final = tuple(
            [
                (role, make)
                for role, (card, make) in registry.memories.items()
                if card is None or self.deck.get(card, 0) > 0
            ]
        )

    def starting(
        self,
        names: tuple[str, ...],
        options: dict[str, OptionValue],
        key: tuple[object, ...] | None,
    ) -> Mapping[str, object]:
        """The data of a game's ``game_starts`` (its players, these cards' composition,
        its options), read-only (``Game.emit_shared``). The last one made is kept and
        given again to a game of the same names and options (``key``: the game's
        ``options_key``, every option with its type; None: made anew), as a simulation's
        games all are: one proxy and two copies fewer a game."""
        kept = self._starts
        if kept is not None and key is not None and kept[1] == key and kept[0] == names:
            return kept[2]
        data: dict[str, object] = {
            "players": names,
            "composition": self.composition,
            "options": options,
        }
        freeze_values(data)  # (copies, read-only: as the ledger records any event)
        shown = READ_ONLY(data)
        if key is not None:
            self._starts = (names, key, shown)
        return shown
