"""The village family: every player holds one role card (werewolf, tit-albert, maffia).

This module holds what the roles share: the deal, deaths and what they set off,
factions and win conditions, and how nights and days are laid out from the rulebook.
What each role does lives in ``lupus.roles``, one module per role.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any, Final, final

from lupus.engine.errors import SetupError
from lupus.engine.game import KEPT, Game, Step, count_cards, per_rulebook
from lupus.engine.model import Action, Death, Outcome, alone
from lupus.engine.names import player_names
from lupus.rulebooks.schema import OptionValue, Rulebook


class NightRecord:
    """What the night's steps decided; dawn turns it into deaths.

    The night's attack (``victim``) is *settled* once, at dawn: it lands, or it is
    stopped by a heal or a protection. Until then the victim is still in the game and
    wakes for his own steps (maffia: "Nu är det morgon ... Det meddelas vem som mördats
    under natten och den spelaren åker ut"). Other night deaths (the Avenger's shot, the
    Couple's heartbreak) are real at once; whatever the village will learn (deaths, a
    failed attempt, a couple revealed) waits in ``news`` and is announced at dawn, in
    the order it happened, before the attack's outcome.
    """

    def __init__(self) -> None:
        self.victim: int | None = None
        self.healed = False
        self.poisoned: list[int] = []
        self.protected: int | None = None
        self.saved: int | None = None
        self.settled = False
        self.dawned = False
        self.news: list[tuple[str, dict[str, object]]] = []
        self.unannounced: list[int] = []
        self.spying: list[int] = []  # Little Girls who peep during the werewolves' step


DeathHook = Callable[["VillageGame", int, str], None]


@final
class RoleSteps:
    """The role modules' registry and the steps every night and day has."""

    def __init__(
        self,
        steps: dict[str, Callable[[], Step[Any]]],
        death_hooks: Sequence[DeathHook],
        phase_start: Callable[[str, int], Step[Any]],
        dawn: Callable[[], Step[Any]],
        win_check: Callable[[], Step[Any]],
        carded: dict[str, str],
    ) -> None:
        self.steps: Final = steps
        self.death_hooks: Final = tuple(death_hooks)
        self.phase_start: Final = phase_start
        self.dawn: Final = dawn
        self.win_check: Final = win_check
        # step id -> the card without which the step does nothing at all (see ``Cards``)
        self.carded: Final = carded


@cache
def role_steps() -> RoleSteps:
    """Looked up on first use, once: the role modules import this one."""
    from lupus.roles import CARDED, DEATH_HOOKS, STEPS
    from lupus.roles.common import Dawn, PhaseStart, WinCheck

    steps: dict[str, Callable[[], Step[Any]]] = dict(STEPS)  # (a dict: read fast compiled)
    return RoleSteps(steps, DEATH_HOOKS, PhaseStart, Dawn, WinCheck, dict(CARDED))


@final
class WinRule:
    """One ``[[win]]`` entry of a rulebook, as plain values (see ``RuleFacts``)."""

    def __init__(self, faction: str, when: str, of: str | None, count: int) -> None:
        self.faction: Final = faction
        self.when: Final = when
        self.of: Final = of
        self.count: Final = count


@final
class RuleFacts:
    """What games read from their rulebook over and over, derived once per rulebook.

    A rulebook is a validated pydantic model: reading its fields from compiled code is
    a Python attribute lookup, and some answers (the pack's roles) are computed. A
    simulation sets up a game every few dozen microseconds, so each rulebook's derived
    facts, and the card multisets already found playable under it, are kept here.
    """

    def __init__(self, book: Rulebook) -> None:
        mechanics = book.mechanics
        self.pack: frozenset[str] = book.tagged(mechanics.pack_tag)
        self.faction_of_role: dict[str, str] = {r: s.faction for r, s in book.roles.items()}
        self.wins: tuple[WinRule, ...] = tuple(
            WinRule(w.faction, w.when, w.of, w.count) for w in book.win
        )
        self.first_night: tuple[str, ...] = tuple(book.night.first)
        self.later_nights: tuple[str, ...] = tuple(book.night.later)
        self.preparation: tuple[str, ...] = tuple(book.night.preparation)
        self.day: tuple[str, ...] = tuple(book.day)
        self.kill_cause: str = mechanics.kill_cause
        self.reveal_on_death: bool = mechanics.reveal_on_death
        self.announce_failed_attempt: bool = mechanics.announce_failed_attempt
        self.hunter_triggers: frozenset[str] = frozenset(mechanics.hunter_triggers)
        self.starvation_winner: str | None = mechanics.starvation_winner
        self.pack_kills_own: bool = mechanics.pack_kills_own
        self.pack_must_agree: bool = mechanics.pack_must_agree
        self.captain_self_vote: bool = mechanics.captain_self_vote
        # the option that lifts the rulebook's minimum configuration ("" when none does)
        minimum = book.minimum
        self.minimum_lifted_by: str = (minimum.lifted_by or "") if minimum is not None else ""
        # (sorted cards dealt, sorted extra cards, quick game, minimum lifted) that passed
        # every check
        self.dealt: dict[tuple[tuple[str, ...], tuple[str, ...], bool, bool], Cards] = {}
        # tables of names (in NFC) that passed ``player_names`` (which depends on them alone)
        self.valid_names: set[tuple[str, ...]] = set()


@final
class Cards:
    """What a game reads from the cards dealt, worked out once per multiset of cards."""

    def __init__(
        self, facts: RuleFacts, roles: Sequence[str], extra_cards: Sequence[str], quick: bool
    ) -> None:
        self.deck: Final = count_cards(roles, extra_cards)  # card -> copies in the game
        self.composition: Final = dict(sorted(self.deck.items()))  # as announced
        # faction -> players holding one of its cards
        self.factions: Final = count_cards([facts.faction_of_role[r] for r in roles])
        # The steps of a first and of a later night, as the night lays them out: without
        # the quick game's preparation round, and without the steps that would skip
        # themselves, silently, for a card not in the game (a ``Ballot`` whose ``wake``
        # card is absent announces nothing and waits for nobody): a simulation builds
        # none of them, night after night.
        skip = facts.preparation if quick else ()
        carded = role_steps().carded
        kept: list[tuple[str, ...]] = []
        for ids in (facts.first_night, facts.later_nights):
            night: list[str] = []
            for step_id in ids:
                card = carded.get(step_id)
                if step_id not in skip and (card is None or self.deck.get(card, 0) > 0):
                    night.append(step_id)
            kept.append(tuple(night))
        self.first_night: Final = kept[0]
        self.later_nights: Final = kept[1]


_FACTS: Final[dict[int, tuple[Rulebook, RuleFacts]]] = {}


def rule_facts(book: Rulebook) -> RuleFacts:
    """The facts of ``book``, derived on first use (see ``per_rulebook``)."""
    return per_rulebook(_FACTS, book, id(book), lambda: RuleFacts(book))


class VillageGame(Game):
    """A game in which each seat holds one role; the roles' steps drive it."""

    def __init__(
        self,
        rulebook: Rulebook,
        names: Sequence[str],
        roles: Sequence[str],
        extra_cards: Sequence[str] = (),
        options: dict[str, OptionValue] | None = None,
        seed: int = 0,
    ) -> None:
        facts = rule_facts(rulebook)
        # The names first (their number before anything per name), kept in NFC.
        names = player_names(rulebook, names, facts.valid_names)
        super().__init__(rulebook, names, options, seed)
        cards = (
            tuple(sorted(roles)),
            tuple(sorted(extra_cards)),
            self.option_on("quick"),
            self.option_on(facts.minimum_lifted_by),
        )
        known = facts.dealt.get(cards)  # the cards' checks depend on the cards alone
        new_cards = known is None
        if known is None:
            check_deal(rulebook, self.names, roles, extra_cards, self.options)
            known = Cards(facts, roles, extra_cards, cards[2])
        self.roles: list[str] = list(roles)
        self.dealt: tuple[str, ...] = tuple(roles)
        self.extra_cards: list[str] = list(extra_cards)
        # The extra cards as dealt (the Thief's swap changes ``extra_cards``).
        self.dealt_extra: tuple[str, ...] = tuple(extra_cards)
        self.alive: list[bool] = [True] * self.n
        # The living seats in order, kept by ``kill`` (the only place anyone dies).
        self.living_seats: tuple[int, ...] = tuple(range(self.n))
        self.facts = facts
        self.registry = role_steps()
        self.faction_of_role = facts.faction_of_role
        # Living players per faction of their card, kept by ``kill`` and ``give_role``
        # (the win check reads it after every death).
        self.alive_in: dict[str, int] = dict(known.factions)
        self.deck: dict[str, int] = known.deck  # (shared by the games of these cards: read only)
        self.cards = known
        self.lovers: tuple[int, int] | None = None
        self.captain: int | None = None
        self.night = NightRecord()
        self.potions: dict[str, int] = {"heal": 1, "poison": 1}
        self.protected_last: int | None = None
        self.saved_last: bool = False
        self.nominees: list[int] = []
        self.shots: list[Step[Any]] = []
        self.successions: list[Step[Any]] = []
        self.dirty = False
        self.pack_roles = facts.pack
        if new_cards:  # (a card multiset is kept once it has passed every check)
            if self.already_won():
                raise SetupError(
                    "this composition is decided before anyone plays (a side already won)"
                )
            if len(facts.dealt) < KEPT:
                facts.dealt[cards] = known
        self.emit(
            "game_starts",
            None,
            players=list(self.names),
            composition=dict(known.composition),
            options=dict(self.options),
        )
        for seat, role in enumerate(self.roles):
            self.emit("role_dealt", alone(seat), player=seat, role=role)
        self.start()

    # ------------------------------------------------------------------ layout
    def next_phase(self) -> list[Step[Any]]:
        """Night n then day n; with the option ``first_phase = "day"``, day n then night n."""
        day_first = self.options.get("first_phase") == "day"
        if self.phase == "setup":
            return self.day(1) if day_first else self.night_steps(1)
        if self.phase == "day":
            return self.night_steps(self.number if day_first else self.number + 1)
        return self.day(self.number + 1 if day_first else self.number)

    def night_steps(self, number: int) -> list[Step[Any]]:
        registry = self.registry
        ids = self.cards.first_night if number == 1 else self.cards.later_nights
        steps = [registry.phase_start("night", number)]
        for step_id in ids:
            steps.append(registry.steps[step_id]())
        steps.append(registry.dawn())
        return steps

    def day(self, number: int) -> list[Step[Any]]:
        registry = self.registry
        steps = [registry.phase_start("day", number)]
        for step_id in self.facts.day:
            steps.append(registry.steps[step_id]())
        return steps

    # ------------------------------------------------------------------ who is who
    def living(self) -> list[int]:
        return list(self.living_seats)

    def holders(self, role: str, living: bool = True) -> list[int]:
        return [s for s in range(self.n) if self.roles[s] == role and (self.alive[s] or not living)]

    def in_deck(self, role: str) -> bool:
        """Whether the card is in the game at all (public: the composition is announced)."""
        return self.deck.get(role, 0) > 0

    def is_pack(self, seat: int) -> bool:
        return self.roles[seat] in self.pack_roles

    def standing(self) -> list[int]:
        """Players the village still sees in the game: the living, and those who died
        tonight but are not announced yet (a night's prompts list these, so that no
        choice tells a player who died before dawn)."""
        return [s for s in range(self.n) if self.alive[s] or s in self.night.unannounced]

    def give_role(self, seat: int, role: str) -> None:
        """The player's card changes (the Thief takes one): his faction may too."""
        if self.alive[seat]:
            alive_in, faction = self.alive_in, self.faction_of_role[role]
            alive_in[self.role_faction(seat)] -= 1
            alive_in[faction] = alive_in.get(faction, 0) + 1
        self.roles[seat] = role

    def role_faction(self, seat: int) -> str:
        return self.faction_of_role[self.roles[seat]]

    def side(self, seat: int) -> str:
        """The side an investigation shows: the faction, unless the role looks otherwise."""
        spec = self.rulebook.roles[self.roles[seat]]
        return spec.appears_as or spec.faction

    def survives(self, seat: int, cause: str) -> bool:
        """Whether the player's role is immune to this death cause (the Godfather: shot)."""
        return cause in self.rulebook.roles[self.roles[seat]].immune

    def murdered(self, phase: str, number: int) -> bool:
        """Whether the night's attack killed someone in that phase (public: announced)."""
        cause = self.facts.kill_cause
        return any(
            d.cause == cause and d.phase == phase and d.number == number for d in self.deaths
        )

    def mixed_lovers(self) -> bool:
        lovers = self.lovers
        return lovers is not None and self.role_faction(lovers[0]) != self.role_faction(lovers[1])

    def faction(self, seat: int) -> str:
        """The side a player wins with: a mixed couple forms its own faction."""
        if self.lovers is not None and seat in self.lovers and self.mixed_lovers():
            return "lovers"
        return self.role_faction(seat)

    def partner(self, seat: int) -> int | None:
        lovers = self.lovers
        if lovers is None or seat not in lovers:
            return None
        return lovers[1] if lovers[0] == seat else lovers[0]

    # ------------------------------------------------------------------ deaths
    def holding(self) -> bool:
        """Whether public news waits for dawn (it is night and the village sleeps)."""
        return self.phase == "night" and not self.night.dawned

    def announce(self, event_kind: str, /, **data: object) -> None:
        """A public event now, or at dawn if the village sleeps."""
        if self.holding():
            self.night.news.append((event_kind, data))
        else:
            self.emit_data(event_kind, None, data)

    def release_news(self) -> None:
        """Dawn: the village hears, in order, what happened while it slept."""
        night = self.night
        night.dawned = True
        news, night.news = night.news, []
        night.unannounced.clear()
        for kind, data in news:
            self.emit_data(kind, None, data)

    def kill(self, seat: int, cause: str) -> None:
        """A player dies now: public announcement, then what his death sets off.

        At night the death is real at once but announced at dawn (see ``NightRecord``).
        """
        if not self.alive[seat]:
            return
        self.alive[seat] = False
        self.living_seats = tuple([s for s in self.living_seats if s != seat])
        self.alive_in[self.role_faction(seat)] -= 1
        self.dirty = True
        self.deaths.append(Death(seat, cause, self.phase, self.number))
        if self.holding():
            self.night.unannounced.append(seat)
        if self.facts.reveal_on_death:
            self.announce("death", player=seat, cause=cause, role=self.roles[seat])
        else:
            self.announce("death", player=seat, cause=cause)
        for hook in self.registry.death_hooks:
            hook(self, seat, cause)

    def settle_attack(self) -> None:
        """The night's attack lands or fails, once: a heal or a protection stops it."""
        night = self.night
        if night.settled:
            return
        night.settled = True
        victim = night.victim
        self.saved_last = False
        if victim is None:
            return
        if night.healed or night.protected == victim:
            night.saved = victim
            self.saved_last = night.protected == victim
            if self.facts.announce_failed_attempt:
                self.announce("failed_attempt")
        elif self.alive[victim]:
            self.kill(victim, self.facts.kill_cause)

    def after_resolve(self) -> None:
        """Once deaths are in, shots come first, then the win check, then successions.

        Deaths of a sleeping village wait for dawn, and so do their consequences.
        """
        if not self.dirty or self.holding():
            return
        self.dirty = False
        if self.shots:  # the win check waits for the shots, as a step of its own
            steps = [*self.shots, self.registry.win_check(), *self.successions]
            self.shots = []
            self.successions = []
            self.push_front(*steps)
            return
        self.check_win()  # nothing comes before it: now
        if not self.finished and self.successions:
            successions, self.successions = self.successions, []
            self.push_front(*successions)

    # ------------------------------------------------------------------ winning
    def check_win(self) -> None:
        """End the game if a faction has won."""
        won = self.winner()
        if won is not None:
            self.finish(won[0], won[1])

    def winner(self) -> tuple[str, str] | None:
        """The faction that has won now and the condition, checked in rulebook order."""
        living = self.living_seats
        alive_in = self.alive_in
        for spec in self.facts.wins:
            if self._holds(spec, living, alive_in):
                return spec.faction, spec.when
        return None

    def _holds(self, spec: WinRule, living: Sequence[int], alive_in: dict[str, int]) -> bool:
        if spec.when == "mixed_lovers_last_two":
            lovers = self.lovers
            return (
                lovers is not None
                and self.mixed_lovers()
                and len(living) == 2
                and set(living) == set(lovers)
            )
        if spec.when == "none_alive":
            return spec.of is None or alive_in.get(spec.of, 0) == 0
        members = alive_in.get(spec.faction, 0)
        if members == 0:
            return False
        if spec.when == "others_at_most":
            return len(living) - members <= spec.count
        return 2 * members >= len(living)  # at_least_half

    def already_won(self) -> bool:
        return self.winner() is not None

    def finish(self, faction: str, reason: str) -> None:
        winners = tuple(s for s in range(self.n) if self.faction(s) == faction)
        self.emit(
            "game_over",
            None,
            winner=faction,
            winners=list(winners),
            reason=reason,
            roles={s: self.roles[s] for s in range(self.n)},
            lovers=list(self.lovers) if self.lovers else None,
        )
        self.end(Outcome(faction, winners, reason))

    # ------------------------------------------------------------------ the record
    def deal_record(self) -> dict[str, object]:
        """The deal as dealt, before the Thief's swap (see ``Game.to_scenario``)."""
        names = self.names
        record: dict[str, object] = {
            "roles": {names[seat]: self.dealt[seat] for seat in range(self.n)}
        }
        if self.dealt_extra:
            record["extra_cards"] = list(self.dealt_extra)
        return record

    def record_args(self, action: Action, line: dict[str, object]) -> None:
        """Players by name (one ``target``, or Cupid's two ``targets``), a card by its
        role id (see ``Game.scenario_line``)."""
        seats: list[str] = []
        for arg in action.args:
            if isinstance(arg, str):
                line["card"] = arg
            else:
                seats.append(self.names[arg])
        if len(seats) == 1:
            line["target"] = seats[0]
        elif seats:
            line["targets"] = seats


def check_deal(
    book: Rulebook,
    names: Sequence[str],
    roles: Sequence[str],
    extra_cards: Sequence[str],
    options: dict[str, OptionValue],
) -> None:
    """Refuse, with the reason, a deal that cannot be played under ``book`` (its names
    already passed ``player_names``)."""
    n = len(names)
    if len(roles) != n:
        raise SetupError(f"{n} players need {n} role cards, got {len(roles)}")
    for role in [*roles, *extra_cards]:
        if role not in book.roles:
            raise SetupError(f"unknown role {role!r} in {book.id} (roles: {', '.join(book.roles)})")
    counts = count_cards(roles, extra_cards)
    for role, count in counts.items():
        most = book.roles[role].max
        if most is not None and count > most:
            raise SetupError(f"at most {most} {role} card(s) in a game, got {count}")
        size = book.roles[role].comes_in
        if count % size:
            raise SetupError(f"{role} cards come in sets of {size}, got {count}")
    thief_dealt = "thief" in roles
    if thief_dealt and len(extra_cards) != 2:
        raise SetupError(f"a thief needs exactly two extra cards, got {len(extra_cards)}")
    if not thief_dealt and extra_cards:
        raise SetupError("extra cards are only dealt for a thief, and no player holds the thief")
    pack = book.tagged(book.mechanics.pack_tag)
    forced = thief_dealt and all(card in pack for card in extra_cards)
    if not any(r in pack for r in roles) and not forced:
        raise SetupError(f"no {book.mechanics.pack_tag} is dealt to a player")
    if all(r in pack for r in roles):
        raise SetupError(f"every player is a {book.mechanics.pack_tag}: nobody to play against")
    check_minimum(book, n, counts, options)
    if options.get("quick"):
        prepared = [r for r in book.night.preparation if counts.get(r)]
        if prepared:
            raise SetupError(
                f"the quick game has no preparation round, so {', '.join(prepared)} cannot play"
            )


def check_minimum(
    book: Rulebook, players: int, counts: dict[str, int], options: Mapping[str, OptionValue]
) -> None:
    """Refuse a game below the rulebook's minimum configuration, quoting its rule.

    (The werewolf seed: "The minimum configuration is: 2 Werewolves, 1 Seer, 5 Simple
    Villagers"; a house-rules option lifts it.)
    """
    minimum = book.minimum
    short = below_minimum(book, players, counts, options)
    if minimum is not None and short:
        lift = minimum.lifted_by
        how = f" (house rules: the option {lift} lifts the minimum)" if lift else ""
        raise SetupError(f'"{minimum.rule}" This game has {" and ".join(short)}{how}.')


def below_minimum(
    book: Rulebook, players: int, counts: dict[str, int], options: Mapping[str, OptionValue]
) -> list[str]:
    """What the game lacks to meet the rulebook's minimum configuration, or [] when it
    meets it (or the option that lifts it is on, or the rulebook has none)."""
    minimum = book.minimum
    if minimum is None or (minimum.lifted_by is not None and options.get(minimum.lifted_by)):
        return []
    short: list[str] = []
    if players < minimum.players:
        short.append(f"{players} players, not {minimum.players}")
    for role, needed in minimum.cards.items():
        held = counts.get(role, 0)
        if held < needed:
            short.append(f"{held} {book.name(role)} card{'s' if held != 1 else ''}, not {needed}")
    return short
