"""The shape of a rulebook file, validated when it is loaded.

Rules are data where they can be: which roles exist and on which side, the night
order, the day's steps, the win conditions and their order, the options with their
defaults, the recommended compositions and every name a player reads. Mechanics (what
a step does) are code in ``lupus.roles``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

OptionValue = bool | int | float | str


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RoleSpec(_Strict):
    faction: str
    max: int | None = Field(default=None, ge=1, description="most copies in one game")
    tags: tuple[str, ...] = ()
    comes_in: int = Field(
        default=1, ge=1, description="cards are dealt in sets of this size (the Couple: 2)"
    )
    appears_as: str | None = Field(
        default=None, description="the side an investigator is shown, if not its faction"
    )
    immune: tuple[str, ...] = Field(
        default=(), description="death causes this role survives (the Godfather: 'shot')"
    )


class OptionSpec(_Strict):
    type: Literal["bool", "int", "float", "choice"]
    default: OptionValue
    min: float | None = None
    max: float | None = None
    choices: tuple[str, ...] = ()
    help: dict[str, str] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _default_fits(self) -> OptionSpec:
        self.check(self.default, "default")
        return self

    def check(self, value: object, what: str) -> OptionValue:
        """Return ``value`` coerced to the option's type, or raise ValueError saying why."""
        if self.type == "bool":
            if not isinstance(value, bool):
                raise ValueError(f"{what} must be true or false, not {value!r}")
            return value
        if self.type == "choice":
            if not isinstance(value, str) or value not in self.choices:
                raise ValueError(f"{what} must be one of {', '.join(self.choices)}, not {value!r}")
            return value
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"{what} must be a number, not {value!r}")
        if self.type == "int":
            if int(value) != value:
                raise ValueError(f"{what} must be a whole number, not {value!r}")
            value = int(value)
        else:
            value = float(value)
        if self.min is not None and value < self.min:
            raise ValueError(f"{what} must be at least {self.min:g}, not {value!r}")
        if self.max is not None and value > self.max:
            raise ValueError(f"{what} must be at most {self.max:g}, not {value!r}")
        return value


WinWhen = Literal[
    "mixed_lovers_last_two",  # a werewolf and a non-werewolf in love are the last two alive
    "none_alive",  # no living player of the faction named by `of`
    "others_at_most",  # living players outside the faction are at most `count`
    "at_least_half",  # the faction is at least half of the living
]


class WinSpec(_Strict):
    faction: str
    when: WinWhen
    of: str | None = None
    count: int = 0


class MechanicsSpec(_Strict):
    """Fixed rules of the game that differ between rulebooks (not user options)."""

    starvation_winner: str | None = None  # a wholly sleeping pack starves: this side wins
    lovers_know_partner_role: bool = True
    reveal_on_death: bool = True
    hunter_triggers: tuple[str, ...] = ("werewolves", "vote")
    pack_tag: str = "werewolf"
    pack_kills_own: bool = True  # may the pack name one of its own as the victim?
    pack_must_agree: bool = True  # the mafia step waits for one agreed victim (else plurality)
    kill_cause: str = "werewolves"
    announce_failed_attempt: bool = False
    # "The captain is elected after having the majority of votes from other players"
    captain_self_vote: bool = True


class MinimumSpec(_Strict):
    """A rulebook's smallest game, as its text states it, and the option that lifts it.

    ``cards`` counts the cards in the game (the Thief's extra cards included); other
    roles may stand in for the rest of the table. ``rule`` is quoted by the refusal.
    """

    players: int = Field(ge=2)
    cards: dict[str, int] = Field(default_factory=dict)
    rule: str
    lifted_by: str | None = None


class NightSpec(_Strict):
    first: tuple[str, ...]
    later: tuple[str, ...]
    preparation: tuple[str, ...] = ()


class LupusburgSpec(_Strict):
    """The numbers of Lupusburg's box: coins, draws, voting rounds and points."""

    bag: tuple[int, ...] = (8, 7, 6, 5, 4, 3, 2, 2)
    coins_drawn: int = Field(default=3, ge=1)
    token_rounds: int = Field(default=2, ge=1)
    suspects: int = Field(default=2, ge=2)
    points_per_character: int = 2
    points_per_chest: int = 1
    points_unused_seal: int = 1


class Rulebook(_Strict):
    id: str
    family: Literal["roles", "lupusburg"] = "roles"
    languages: tuple[str, ...]
    min_players: int = Field(ge=2)
    max_players: int = Field(ge=2)
    factions: tuple[str, ...]
    roles: dict[str, RoleSpec]
    night: NightSpec
    day: tuple[str, ...]
    mechanics: MechanicsSpec = MechanicsSpec()
    options: dict[str, OptionSpec] = Field(default_factory=dict)
    win: tuple[WinSpec, ...] = ()
    lupusburg: LupusburgSpec | None = None
    minimum: MinimumSpec | None = None
    compositions: dict[str, dict[str, int]] = Field(default_factory=dict)
    names: dict[str, dict[str, str]]
    text: dict[str, dict[str, str]] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _consistent(self) -> Rulebook:
        if self.min_players > self.max_players:
            raise ValueError("min_players is larger than max_players")
        for role_id, role in self.roles.items():
            if role.faction not in self.factions:
                raise ValueError(f"roles.{role_id}.faction: unknown faction {role.faction!r}")
            if role.appears_as is not None and role.appears_as not in self.factions:
                raise ValueError(f"roles.{role_id}.appears_as: unknown faction {role.appears_as!r}")
            if role.max is not None and role.max % role.comes_in:
                raise ValueError(f"roles.{role_id}.max: not a multiple of comes_in")
        for i, win in enumerate(self.win):
            if win.faction not in self.factions:
                raise ValueError(f"win[{i}].faction: unknown faction {win.faction!r}")
            if win.of is not None and win.of not in self.factions:
                raise ValueError(f"win[{i}].of: unknown faction {win.of!r}")
        minimum = self.minimum
        if minimum is not None:
            for role_id in minimum.cards:
                if role_id not in self.roles:
                    raise ValueError(f"minimum.cards.{role_id}: unknown role")
            lift = minimum.lifted_by
            if lift is not None and (lift not in self.options or self.options[lift].type != "bool"):
                raise ValueError(f"minimum.lifted_by: {lift!r} is not a bool option")
        for size, deck in self.compositions.items():
            if not size.isdigit():
                raise ValueError(f"compositions.{size}: keys are player counts")
            for role_id in deck:
                if role_id not in self.roles:
                    raise ValueError(f"compositions.{size}.{role_id}: unknown role")
        for lang in self.languages:
            names = self.names.get(lang)
            if names is None:
                raise ValueError(f"names.{lang}: missing (listed in languages)")
            needed = [*self.roles, *self.factions, "rulebook", "leader"]
            missing = [key for key in needed if key not in names]
            if missing:
                raise ValueError(f"names.{lang}: missing {', '.join(missing)}")
        return self

    @property
    def language(self) -> str:
        return self.languages[0]

    def name(self, key: str, lang: str | None = None) -> str:
        """The name a player reads for a role, faction or title, in ``lang``."""
        table = self.names.get(lang or self.language) or self.names[self.language]
        return table.get(key, key)

    def tagged(self, tag: str) -> frozenset[str]:
        return frozenset(r for r, spec in self.roles.items() if tag in spec.tags)
