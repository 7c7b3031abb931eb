"""The village family, registered once: its games, deals, steps and balance target.

Its roles are plugins (``lupus.village.plugin.Role``), found here: every module of the
``lupus.roles`` package that declares a ``ROLE``, and any role registered from outside
with ``register`` (a game designer's own role, a test's throwaway one). Nothing in the
family imports a role by name.
"""

from __future__ import annotations

import importlib
import pkgutil
import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

import lupus.roles as role_modules
from lupus.engine.deal import Deal, every_player, seat_names
from lupus.engine.draw import seeded
from lupus.engine.errors import SetupError
from lupus.engine.events import EventSpec, scalar_kinds
from lupus.engine.events import table as event_table
from lupus.engine.family import Dealing, Family, SeatReader
from lupus.engine.game import Game
from lupus.engine.table import TableReader
from lupus.rulebooks.schema import OptionValue, Rulebook
from lupus.village.checks import below_minimum, check_minimum
from lupus.village.deal import Dealer, beside, deal
from lupus.village.events import EVENTS
from lupus.village.game import VillageGame
from lupus.village.own import DEATH, village_own
from lupus.village.phases import dawn, phase_start, win_check
from lupus.village.playable import deals_a_killer, problem
from lupus.village.plugin import OptionNeed, Role
from lupus.village.registry import Aside, Plays, Registry
from lupus.village.steps import Ballot, VillageStep
from lupus.village.table import VillageTable

OPTIONS: Final = {
    "quick": OptionNeed("bool"),
    "first_phase": OptionNeed("choice", choices=("day", "night")),
}
"""The options the family's own code reads (``VillageGame``; its roles declare theirs)."""


def shipped_roles() -> list[Role]:
    """The ``ROLE`` of every module of ``lupus.roles``, in module order."""
    found: list[Role] = []
    for info in sorted(pkgutil.iter_modules(role_modules.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{role_modules.__name__}.{info.name}")
        role = getattr(module, "ROLE", None)
        if isinstance(role, Role):
            found.append(role)
    return found


def carded(steps: Mapping[str, Any]) -> dict[str, str]:
    """Step id -> its ``wake`` card, for the steps that do nothing at all without that
    card in the game (a ``Ballot`` with ``wake``: it announces nothing and waits for
    nobody), so that a night leaves them out for a deck without it."""
    found: dict[str, str] = {}
    for step_id, make in steps.items():
        step = make()  # (read from a step, not its class: compiled, ``wake`` is a field)
        if isinstance(step, Ballot) and step.wake is not None:
            found[step_id] = step.wake
    return found


def called(steps: Mapping[str, Any]) -> dict[str, str]:
    """Step id -> the card it calls (``VillageStep.wake``), for every step that calls
    one, a ballot or not (the couple's): whose holders a game leader puts back to sleep."""
    found: dict[str, str] = {}
    for step_id, make in steps.items():
        step = make()  # (read from a step, as ``carded`` does)
        if isinstance(step, VillageStep) and step.wake is not None:
            found[step_id] = step.wake
    return found


def build(roles: Sequence[Role]) -> Registry:
    """The registry of these plugins (a step, role or event kind declared twice is
    refused)."""
    steps: dict[str, Any] = {}
    memories: dict[str, Any] = {}
    seen: set[str] = set()
    for role in roles:
        if role.id in seen:
            raise ValueError(f"two roles declare the id {role.id!r}")
        seen.add(role.id)
        for step_id, make in role.steps.items():
            if step_id in steps:
                raise ValueError(f"two roles declare the step {step_id!r}")
            steps[step_id] = make
        if role.memory is not None:
            memories[role.id] = (role.card, role.memory)
    # (a kind declared twice, by two roles or by a role and the family, is refused)
    events = event_table(*EVENTS.values(), *[spec for role in roles for spec in role.events])
    hooks = sorted(
        [(role.death_order, i, role.on_death) for i, role in enumerate(roles) if role.on_death]
    )
    return Registry(
        steps,
        [hook for _, _, hook in hooks],
        memories,
        phase_start,
        dawn,
        win_check,
        carded(steps),
        called(steps),
        events,
        scalar_kinds(events),
        plays(roles),
        Aside(
            {role.card: role.extra_cards for role in roles if role.card and role.extra_cards},
            {role.card: frozenset(role.steps) for role in roles if role.card and role.extra_cards},
        ),
    )


def plays(roles: Sequence[Role]) -> Plays:
    """The roles' ``Play`` declarations joined (a verb given two plays, or a kind two
    readings, is refused)."""
    decisions: dict[str, Any] = {}
    taste: dict[str, int] = {}
    prey: dict[str, int] = {}
    remembers: dict[str, Any] = {}
    records: dict[str, Any] = {}
    for role in roles:
        for verb, decision in role.bot.decisions.items():
            if decisions.setdefault(verb, decision) is not decision:
                raise ValueError(f"{role.id} gives the verb {verb!r} a play of its own")
        for joined, given in ((remembers, role.bot.remembers), (records, role.bot.records)):
            for kind, reading in given.items():
                if joined.setdefault(kind, reading) is not reading:
                    raise ValueError(f"{role.id} gives the kind {kind!r} a reading of its own")
        if role.card is not None:
            taste[role.card] = role.bot.taste
            prey[role.card] = role.bot.prey
    return Plays(decisions, taste, prey, remembers, records)


class VillageFamily(Family):
    """One role card per player: werewolf, tit-albert, maffia and mafia-classic."""

    name = "village"
    death_kind: str | None = DEATH

    def __init__(self) -> None:
        self.outside: list[Role] = []  # roles registered from outside lupus.roles
        self._roles: list[Role] | None = None
        self._registry: Registry | None = None

    def roles(self) -> list[Role]:
        """Every role plugin: the shipped ones, then those registered from outside."""
        if self._roles is None:
            self._roles = [*shipped_roles(), *self.outside]
        return self._roles

    def registry(self) -> Registry:
        registry = self._registry
        if registry is None:
            registry = self._registry = build(self.roles())
        return registry

    def register(self, role: Role) -> None:
        """Add a role from outside ``lupus.roles`` (its steps, hooks and memory)."""
        build([*self.roles(), role])  # (refuses a clash before anything changes)
        self.outside.append(role)
        self._roles = None
        self._registry = None
        self.revision += 1

    def unregister(self, role: Role) -> None:
        """Take back a role ``register`` added (a test's throwaway role)."""
        self.outside.remove(role)
        self._roles = None
        self._registry = None
        self.revision += 1

    def new_game(
        self,
        book: Rulebook,
        names: Sequence[str],
        deal: Deal,
        options: dict[str, OptionValue] | None,
        seed: int,
    ) -> Game:
        if deal.characters or deal.chests:
            raise SetupError(f"{book.id} deals one role card per player, not characters")
        return VillageGame(
            book, names, deal.roles, deal.extra_cards, options, seed, self.registry()
        )

    def deal(
        self,
        book: Rulebook,
        players: int,
        counts: Mapping[str, int],
        rng: random.Random,
        options: Mapping[str, OptionValue],
    ) -> Deal:
        return deal(book, players, counts, rng, options, self.registry().aside)

    def dealer(
        self,
        book: Rulebook,
        players: int,
        counts: Mapping[str, int],
        options: Mapping[str, OptionValue],
    ) -> Dealing:
        return Dealer(book, players, counts, options, self.registry().aside)

    def messages(self, lang: str = "en") -> dict[str, str]:
        found = {key: text for role in self.roles() for key, text in role.messages.items()}
        if lang != "en":
            for role in self.roles():
                found.update(role.texts.get(lang, {}))
        return found

    def event_specs(self) -> Mapping[str, EventSpec]:
        return self.registry().events

    def told_kinds(self) -> Mapping[str, str]:
        return self.registry().told

    def cards_aside(self, counts: Mapping[str, int]) -> int:
        return self.registry().aside.count(counts)

    def aside_cards(self) -> frozenset[str]:
        return self.registry().aside.cards

    def card_weights(self, book: Rulebook) -> dict[str, int]:
        """A card weighs as its role declares (``Role.weight``); a pack card without a
        role of its own weighs as its pack's role; any other as a plain card of its
        side (1 for the village, -1 for another)."""
        roles = self.roles()
        pack = book.tagged(book.mechanics.pack_tag)
        village = book.factions[0]
        carded = {r.card: r.weight for r in roles if r.card and r.weight is not None}
        pack_weight = next(
            (r.weight for r in roles if r.pack and r.weight is not None and not r.card), None
        )
        weights: dict[str, int] = {}
        for card, spec in book.roles.items():
            weight = carded.get(card)
            if weight is None and card in pack and pack_weight is not None:
                weight = pack_weight
            if weight is None:
                weight = 1 if spec.faction == village else -1
            weights[card] = weight
        return weights

    def untranslated(self, lang: str) -> frozenset[str]:
        if lang == "en":
            return frozenset()
        return frozenset(
            key
            for role in self.roles()
            for key in role.messages
            if key not in role.texts.get(lang, {})
        )

    def pack_steps(self) -> frozenset[str]:
        return frozenset([s for role in self.roles() if role.pack for s in role.steps])

    def awake_together(self, game: Game) -> frozenset[int]:
        step = game.step
        if isinstance(step, Ballot) and step.id in self.pack_steps():
            return frozenset(step.voters)
        return frozenset()

    def table_reader(self, names: tuple[str, ...]) -> TableReader:
        registry = self.registry()
        return VillageTable(names, registry.table_marks, registry.script_marks, registry.told)

    def seat_reader(self, seat: int) -> SeatReader | None:
        """A player's own part (his card, his night powers' answers) or a game
        leader's (every seat's card), read from the view's events
        (``lupus.village.own``); none for a spectator."""
        return village_own(seat, self.registry().shows)

    def called_cards(self) -> Mapping[str, str]:
        return self.registry().called

    def refuse_table(
        self, book: Rulebook, players: int, options: Mapping[str, OptionValue]
    ) -> None:
        if book.minimum is not None:
            check_minimum(book, players, dict(book.minimum.cards), options)

    def step_ids(self) -> list[str]:
        return list(self.registry().steps)

    def timed_step_ids(self) -> list[str]:
        steps = self.step_ids()
        pushed = [v.step for role in self.roles() for v in role.verbs if v.step not in steps]
        return [*steps, *dict.fromkeys(pushed)]

    def unplayable(self, book: Rulebook) -> str | None:
        roles = self.roles()
        found = problem(book, roles, OPTIONS)
        if found:
            return found
        for size, counts in book.compositions.items():
            why = self.composition_problem(book, int(size), counts)
            if why:
                return f"compositions.{size}: {why}"
        return None

    def composition_problem(
        self, book: Rulebook, players: int, counts: Mapping[str, int]
    ) -> str | None:
        """Why a composition cannot be played by ``players`` (dealt and set up under
        the default options, or under the one house rule that lifts the rulebook's
        minimum configuration when the table is below it: werewolf recommends decks for
        3 to 7 players, which the pages play under that rule and say so), or None."""
        cards = sum(counts.values())  # (counted before a card is laid out)
        aside = self.cards_aside(counts)
        if cards != players + aside:
            return f"{cards} cards for {players} players{beside(players, aside)}"
        if not deals_a_killer(book, self.roles(), counts):
            return "no card of it can eliminate a player, and the days have no vote"
        options = house_rules(book, players, counts)
        try:  # (as a table with the default options, or that house rule, deals it)
            dealt = self.deal(book, players, counts, seeded(0), options)
            self.new_game(book, seat_names(players), dealt, options, 0)
        except SetupError as exc:
            return str(exc)
        return None

    def deal_of(self, record: Mapping[str, object], players: Sequence[str]) -> Deal:
        roles = record.get("roles")
        if record.get("characters") is not None or record.get("chests") is not None:
            raise ValueError("characters and chests are for Lupusburg; deal role cards (roles)")
        if not isinstance(roles, Mapping):
            raise ValueError("roles: missing (name -> role id for every player)")
        every_player("roles", roles, players, "no role for")
        extra = record.get("extra_cards") or []
        assert isinstance(extra, list)
        return Deal(
            roles=tuple(str(roles[p]) for p in players), extra_cards=tuple(str(c) for c in extra)
        )

    def main_faction(self, book: Rulebook) -> str:
        """The village: the first faction without a card of the pack."""
        pack = book.facts.pack
        pack_factions = {book.roles[r].faction for r in pack}
        return next(f for f in book.factions if f not in pack_factions)

    def fair_share(self, players: int) -> float:
        return 0.5

    def fair_label(self) -> str:
        return "0.5"


def house_rules(book: Rulebook, players: int, counts: Mapping[str, int]) -> dict[str, OptionValue]:
    """The options a table of ``players`` with ``counts`` needs beyond the defaults: the
    one that lifts the rulebook's minimum configuration when the table is below it (and
    the rulebook has one), else none."""
    minimum = book.minimum
    if minimum is None or minimum.lifted_by is None:
        return {}
    if not below_minimum(book, players, counts, {}):
        return {}
    return {minimum.lifted_by: True}


FAMILY: Final = VillageFamily()
