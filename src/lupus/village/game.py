"""The village family's game: every player holds one role card (werewolf, tit-albert,
maffia, mafia-classic).

This module holds what the roles share: who holds what, deaths and what they set off,
factions and win conditions, and how nights and days are laid out from the rulebook.
What each role does lives in its plugin (``lupus.roles``, one module per role); the
family reaches them through its ``Registry``, never by importing them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from lupus.engine.game import Game
from lupus.engine.interned import alone
from lupus.engine.model import Action, Death, Outcome
from lupus.engine.names import player_names
from lupus.engine.step import Step
from lupus.rulebooks.facts import WinRule, memos, remember
from lupus.rulebooks.schema import OptionValue, Rulebook
from lupus.village.cards import Cards
from lupus.village.checks import check_deal, holds
from lupus.village.night import NightRecord
from lupus.village.registry import Registry


def deal_key(
    players: int,
    roles: Sequence[str],
    extra_cards: Sequence[str],
    chosen: tuple[object, ...] | None,
    registry: Registry,
) -> tuple[object, ...] | None:
    """Everything a deal's checks and its ``Cards`` depend on, exactly: the number of
    players (a deck of 8 cards is refused for 7), the cards as multisets, every option
    with its type and a float's sign (``chosen``: the game's options as
    ``options_key`` gives them, worked out once with them, ``Game.options_key``), and the
    registry of role plugins (its identity: a role registered later makes another one).
    None for cards that are not all plain strings (they are checked every time, and
    refused)."""
    for card in roles:
        if type(card) is not str:
            return None
    for card in extra_cards:
        if type(card) is not str:
            return None
    if chosen is None:
        return None
    return (players, tuple(sorted(roles)), tuple(sorted(extra_cards)), chosen, registry)


NOBODY: Final[frozenset[int]] = frozenset()
"""No players (``VillageGame.doomed`` between deaths): one empty set for every game."""


class VillageGame(Game):
    """A game in which each seat holds one role; the roles' steps drive it."""

    def __init__(
        self,
        rulebook: Rulebook,
        names: Sequence[str],
        roles: Sequence[str],
        extra_cards: Sequence[str],
        options: dict[str, OptionValue] | None,
        seed: int,
        registry: Registry,
    ) -> None:
        facts = rulebook.facts
        # The names first (their number before anything per name), kept in NFC.
        memo = memos(facts.digest)
        names = player_names(rulebook, names, memo.valid_names)
        super().__init__(rulebook, names, options, seed, registry.scalar_kinds)
        # The cards' checks and what they decide depend on the number of players, the
        # cards, the options and the role plugins alone (``deal_key``).
        key = deal_key(len(self.names), roles, extra_cards, self.options_key, registry)
        known = None if key is None else memo.deals_seen.get(key)
        new_cards = known is None
        if not isinstance(known, Cards):
            check_deal(rulebook, self.names, roles, extra_cards, self.options, registry.aside)
            known = Cards(facts, registry, roles, extra_cards, self.option_on("quick"))
        self.roles: list[str] = list(roles)
        self.dealt: tuple[str, ...] = tuple(roles)
        self.extra_cards: list[str] = list(extra_cards)
        # The extra cards as dealt (the Thief's swap changes ``extra_cards``).
        self.dealt_extra: tuple[str, ...] = tuple(extra_cards)
        self.facts = facts
        self.registry = registry
        self.faction_of_role = facts.faction_of_role
        # Living players per faction of their card, kept by ``kill`` and ``give_role``
        # (the win check reads it after every death).
        self.alive_in: dict[str, int] = dict(known.factions)
        self.deck: dict[str, int] = known.deck  # (shared by the games of these cards: read only)
        self.cards = known
        self.lovers: tuple[int, int] | None = None
        self.captain: int | None = None
        self.night = NightRecord()
        # What the roles keep across nights (role id -> its memory; see ``memory``).
        self.memories: dict[str, object] = {role: make() for role, make in known.memories}
        self.nominees: list[int] = []
        # Players dying together, each of his own cause (``kill_together``): no
        # heartbreak for them.
        self.doomed: frozenset[int] = NOBODY
        self.shots: list[Step[Any]] = []
        self.successions: list[Step[Any]] = []
        self.dirty = False
        self.pack_roles = facts.pack
        if new_cards and key is not None:  # (kept once it has passed every check)
            remember(memo.deals_seen, key, known)
        self.deal_out(known)

    def deal_out(self, known: Cards) -> None:
        """Tell the table the game starts, and each seat its card; then the first night.

        The data of both are the same in every game of these cards, names and options,
        made read-only once and shared (``Cards.starting``, ``Cards.dealt``)."""
        starts = known.starting(self.names, self.options, self.options_key)
        self.emit_shared("game_starts", starts)
        dealt = known.dealt
        for seat, role in enumerate(self.roles):
            self.emit_shared("role_dealt", dealt[role][seat], alone(seat))
        self.start()

    def memory(self, role: str) -> object:
        """What the plugin ``role`` keeps across nights (its ``Role.memory``)."""
        return self.memories[role]

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
        made = self.cards.first_night if number == 1 else self.cards.later_nights
        steps = [registry.phase_start("night", number)]
        for make in made:
            steps.append(make())
        steps.append(registry.dawn())
        return steps

    def day(self, number: int) -> list[Step[Any]]:
        steps = [self.registry.phase_start("day", number)]
        for make in self.cards.day:
            steps.append(make())
        return steps

    # ------------------------------------------------------------------ who is who
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

    # ------------------------------------------------------------------ who is told
    def told(self, audience: Iterable[int]) -> frozenset[int]:
        """Who is told an event meant for ``audience``; where the rulebook says so
        (maffia: "De som är ute ur spelet får stanna kvar om de vill och ha ögonen öppna
        under nattfasen"), an event told to some players during the night is told to
        the eliminated too: they watch each step as it happens (who acts, on whom, the
        Detective's answer), and cannot speak or act. What only the leader sees
        (audience ``[]``) stays his."""
        told = Game.told(self, audience)
        if self.facts.eliminated_watch and told and self.holding():
            return told | self.eliminated()
        return told

    def eliminated(self) -> frozenset[int]:
        """The players the table knows are out: dead, and announced (one who died
        tonight learns it at dawn, with everyone)."""
        unannounced = self.night.unannounced
        return frozenset([s for s in range(self.n) if not self.alive[s] and s not in unannounced])

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
        self.leave_play(seat)
        alive_in, faction = self.alive_in, self.role_faction(seat)
        alive_in[faction] = alive_in[faction] - 1  # (``-=`` on an item: a generic call)
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

    def kill_together(self, deaths: Sequence[tuple[int, str]]) -> None:
        """Players who die at the same moment (dawn's victim and poisoned, a starving
        pack), in this order: each dies of his own cause, and heartbreak is the cause
        only for a lover who would otherwise have lived (README)."""
        if not deaths:  # (a quiet night: nobody to doom, no set to build)
            self.doomed = NOBODY
            return
        self.doomed = frozenset([seat for seat, _ in deaths if self.alive[seat]])
        for seat, cause in deaths:
            self.kill(seat, cause)
        self.doomed = NOBODY

    def settle_attack(self) -> int | None:
        """The night's attack lands or fails, once: a heal or a protection stops it.
        Returns the player it kills (the caller kills him, with the night's other
        deaths), or None.

        A target who died earlier that night of another cause (maffia: the Avenger's
        shot, the couple's heartbreak) is neither murdered nor saved: a failed attempt
        is announced only for a protected target alive at dawn (README).
        """
        night = self.night
        if night.settled:
            return None
        night.settled = True
        victim = night.victim
        if victim is None or not self.alive[victim]:
            return None
        if night.healed or night.protected == victim:
            night.saved = victim
            if self.facts.announce_failed_attempt:
                self.announce("failed_attempt")
            return None
        return victim

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
        living = self.living
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
        return holds(spec, len(living), alive_in)

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

    def sides_dealt(self) -> list[str]:
        return [self.faction_of_role[role] for role in self.dealt]

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
