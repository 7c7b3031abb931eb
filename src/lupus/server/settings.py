"""What a host chooses when he opens a room, checked before any room exists.

Everything is checked against the rulebook and the engine at creation, so that a room
never holds a table its rules refuse: the composition (the recommended one by default)
is dealt and set up once on trial, the host's name is checked as a player's, and the
engine's own message explains a refusal.
"""

from __future__ import annotations

import json
import random
from typing import Annotated, Any, Final, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    model_validator,
)

from lupus.engine.deal import composition
from lupus.engine.errors import LupusError
from lupus.engine.limits import (
    MAX_CARDS,
    MAX_COMPOSITION_ENTRIES,
    MAX_ID_LENGTH,
    MAX_OPTION_TEXT,
    MAX_OPTIONS,
    MAX_ROOM_PLAYERS,
    MAX_SEED,
)
from lupus.engine.names import checked_names
from lupus.engine.options import resolve_options
from lupus.engine.untrusted import quoted
from lupus.families import deal, family_of, load, set_up
from lupus.rulebooks import available
from lupus.rulebooks.schema import Rulebook
from lupus.server.refusals import Refusal

Bound = Literal["random", "heuristic"]

Id = Annotated[StrictStr, Field(max_length=MAX_ID_LENGTH)]
"""A role, option or step id (the engine says whether the rulebook knows it)."""
Seconds = Annotated[StrictFloat, Field(gt=0, le=7200, allow_inf_nan=False)]
OptionValue = (
    StrictBool
    | Annotated[StrictInt, Field(ge=-(2**63), le=2**63)]
    | Annotated[StrictFloat, Field(allow_inf_nan=False)]
    | Annotated[StrictStr, Field(max_length=MAX_OPTION_TEXT)]
)
"""An option's value as a host may send it; the rulebook checks its exact type and
range (``lupus.engine.options``)."""


class Timers(BaseModel):
    """Seconds each step may last: every night step ``night``, every day step ``day``,
    or the step's own under ``steps`` (by step id: ``{"vote": 60}``). A step without a
    timer waits for the host to close it. A night step lasts its full time whoever
    holds its card (fair timing, ``lupus.server.pacing``).

    A room whose host gives no timers has its rulebook's (``[timers]``, scaled by
    ``timer_scale``); a host's own replace them whole; ``"off"`` (or ``{}``) is none.
    A game leader's room has none unless its host gives some: the leader is the game
    and keeps its time."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    night: StrictFloat | None = Field(default=None, gt=0, le=3600, allow_inf_nan=False)
    day: StrictFloat | None = Field(default=None, gt=0, le=7200, allow_inf_nan=False)
    steps: dict[Id, Seconds] = Field(default_factory=dict, max_length=MAX_OPTIONS)


MIN_SCALE: Final = 0.001
MAX_SCALE: Final = 10.0
"""The bounds of ``timer_scale``."""

OFF: Final = "off"
"""``timers: "off"``: a room without timers (every step waits for the host's close)."""

DEFAULT: Final = "default"
"""``timers: "default"``: the rulebook's timers (times ``timer_scale``), as when a
host gives none; what a host's ``settings`` sends to have them back."""

RECOMMENDED: Final = "recommended"
"""``composition: "recommended"`` in ``settings``: the rulebook's deck for the room's
size again (a room opened without a composition has it)."""

Scale = Annotated[StrictFloat, Field(ge=MIN_SCALE, le=MAX_SCALE, allow_inf_nan=False)]
BotDelay = Annotated[StrictFloat, Field(ge=0, le=30, allow_inf_nan=False)]
"""Seconds a bot waits before it moves (and at least the server's ``min_bot_delay``)."""


def _timers_schema(schema: dict[str, Any]) -> None:
    """``timers`` as the document shows it: the timers, ``"off"`` or ``"default"``."""
    ref = schema.pop("$ref", None)
    inner = {"$ref": ref} if ref is not None else dict(schema.pop("allOf", [{}])[0])
    schema["anyOf"] = [inner, {"const": OFF}, {"const": DEFAULT}]


def rulebook_timers(data: dict[str, Any]) -> dict[str, object]:
    """The timers a room gets when its host gives none: its rulebook's ``[timers]``
    multiplied by ``timer_scale``; none in a game leader's room (his table keeps its
    own time). Read from the request as sent, before its fields are checked: an
    unknown rulebook makes no timers, a scale out of bounds the rulebook's own, and
    the model then refuses the room for that field."""
    rules, scale = data.get("rules"), data.get("timer_scale", 1.0)
    if data.get("mode") == "leader" or type(rules) is not str or rules not in available():
        return {}
    factor = 1.0
    if type(scale) in (int, float) and MIN_SCALE <= scale <= MAX_SCALE:
        factor = float(scale)

    def scaled(seconds: float) -> float:
        return max(round(seconds * factor, 3), 0.001)

    spec = load(rules).timers
    return {
        "night": None if spec.night is None else scaled(spec.night),
        "day": None if spec.day is None else scaled(spec.day),
        "steps": {step: scaled(seconds) for step, seconds in spec.steps.items()},
    }


class RoomSettings(BaseModel):
    """A new room, as the host asks for it (``POST /api/rooms``). Every field has its
    exact JSON type (``true`` is not a number, ``"8"`` not a count) and a bound
    (docs/protocol.md, "Limits"): a composition names at most 64 roles, each counted
    from 0 to 256, so that a host's counts are measured, never expanded."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rules: StrictStr = Field(max_length=40)
    players: StrictInt = Field(ge=2, le=MAX_ROOM_PLAYERS)
    composition: dict[Id, Annotated[StrictInt, Field(ge=0, le=MAX_CARDS)]] | None = Field(
        default=None, max_length=MAX_COMPOSITION_ENTRIES
    )
    options: dict[Id, OptionValue] = Field(default_factory=dict, max_length=MAX_OPTIONS)
    lang: StrictStr | None = Field(default=None, max_length=8)
    mode: Literal["players", "leader"] = "players"
    host_name: StrictStr | None = Field(default=None, max_length=64)
    names: list[Annotated[StrictStr, Field(max_length=64)]] | None = Field(
        default=None, max_length=MAX_ROOM_PLAYERS
    )
    # The steps' timers: the rulebook's by default (``rulebook_timers``), the host's own,
    # or none ("off"); kept as the room was opened with them (a restart reads them).
    timers: Timers = Field(default_factory=Timers, json_schema_extra=_timers_schema)
    # The rulebook's timers multiplied by this when the host gives none (a quick game).
    timer_scale: Scale = 1.0
    # A person who is gone (no connection for a while, or two public steps in a row
    # run out without his decision) has his seat played by a bot until he is back.
    absent_bots: StrictBool = True
    # Without a night timer, each night step lasts at least this long (fair timing).
    pace: StrictFloat = Field(default=8.0, ge=0, le=600, allow_inf_nan=False)
    # A seed makes the room's deals, games and bots the same every time (a designer
    # replaying a table, a test); without one they are drawn from the system's entropy.
    seed: StrictInt | None = Field(default=None, ge=0, le=MAX_SEED)
    bot_delay: BotDelay = 1.5
    # Whether anyone with the code may watch (the public view and the day's talk). Off
    # unless the host allows it: a spectator may be anyone, a player in a second tab.
    spectators: StrictBool = False
    # Everyone at one table: the host's device reads the public story aloud and every
    # phone asks for a tap at every night step (the pages' part; the game is the same).
    table: StrictBool = False
    # Whether the room's finished games may be exported as decision datasets
    # (``lupus export``): the host's choice, shown to everyone in the lobby.
    allow_export: StrictBool = False
    expire_after: StrictFloat = Field(default=6 * 3600, gt=0, le=7 * 24 * 3600, allow_inf_nan=False)

    @model_validator(mode="before")
    @classmethod
    def _default_timers(cls, data: object) -> object:
        """No ``timers`` (or ``"default"``): the rulebook's; ``"off"``: none (see
        ``Timers``)."""
        if not isinstance(data, dict):
            return data
        if "timers" not in data or (isinstance(data["timers"], str) and data["timers"] == DEFAULT):
            return {**data, "timers": rulebook_timers(data)}
        if isinstance(data["timers"], str) and data["timers"] == OFF:
            return {**data, "timers": {}}
        return data

    @property
    def timed(self) -> bool:
        """Whether the room has any timer."""
        timers = self.timers
        return timers.night is not None or timers.day is not None or bool(timers.steps)

    def counts(self) -> dict[str, int]:
        """The composition to deal: the host's, or the rulebook's recommended one."""
        if self.composition is not None:
            return dict(self.composition)
        return composition(load(self.rules), self.players)


def changed(settings: RoomSettings, changes: dict[str, object]) -> RoomSettings:
    """A room's settings with a host's ``changes`` (``settings``, in the lobby), checked
    by the model as a new room's are (pydantic's ValidationError: refused). A
    ``timer_scale`` without ``timers`` scales the rulebook's timers (as ``"default"``);
    with the host's own it is kept and, as at creation, ignored."""
    data = {**settings.model_dump(), **changes}
    if "timer_scale" in changes and "timers" not in changes:
        data["timers"] = DEFAULT
    if isinstance(changes.get("composition"), str) and changes["composition"] == RECOMMENDED:
        data["composition"] = None  # (the rulebook's deck for the room's size)
    # Read as JSON, as a new room's request is: pydantic words a few refusals of JSON
    # otherwise than of Python objects, and the host reads the same words either way.
    return RoomSettings.model_validate_json(json.dumps(data))


def check_settings(
    settings: RoomSettings, min_bot_delay: float = 0.0, *, trial: bool = True
) -> Refusal | None:
    """Why the engine (or the server: its ``min_bot_delay``) refuses this table, for the
    host in his page's words (``refusals``); or None. ``trial``: with a trial deal and
    set-up of the table (a new room's, or a lobby's new size, deck or options); a
    ``settings`` command that changes only timers, bots or spectators leaves everything
    the trial checks as it was, and a host's lobby may send a hundred of them a second,
    so it checks the rest alone."""
    if settings.bot_delay < min_bot_delay:
        return Refusal("bot_delay_min", seconds=f"{min_bot_delay:g}")
    if settings.rules not in available():
        return Refusal("no_rulebook", rules=quoted(settings.rules), known=", ".join(available()))
    book = load(settings.rules)
    if not book.min_players <= settings.players <= book.max_players:
        return Refusal(
            "players_range",
            rules=book.id,
            low=book.min_players,
            high=book.max_players,
            players=settings.players,
        )
    if settings.lang is not None and settings.lang not in book.languages:
        return Refusal(
            "rulebook_language",
            rules=book.id,
            languages=", ".join(book.languages),
            lang=quoted(settings.lang),
        )
    if settings.mode == "leader":
        if settings.names is None or len(settings.names) != settings.players:
            return Refusal("leader_names_count", players=settings.players)
    elif settings.names is not None:
        return Refusal("names_leader_only")
    if settings.table and settings.mode == "leader":
        return Refusal("leader_not_table")
    steps = family_of(book).timed_step_ids()
    unknown = sorted(set(settings.timers.steps) - set(steps))
    if unknown:
        return Refusal(
            "unknown_step", rules=book.id, step=quoted(unknown[0]), steps=", ".join(steps)
        )
    return trial_refusal(settings, book) if trial else None


def trial_refusal(settings: RoomSettings, book: Rulebook) -> Refusal | None:
    """Why a trial deal and set-up of the table refuses it (``check_settings``): the
    names, the host's name, the options, and the engine's own checks; or None."""
    try:
        names = settings.names
        no_dot = family_of(book).names_without_dot
        if names is not None:
            checked_names(book, names, no_dot)
        if settings.mode == "players" and settings.host_name is not None:
            try:
                checked_names(book, [settings.host_name], no_dot, whole=False)
            except LupusError as exc:
                return Refusal(
                    "host_name", detail=str(exc).replace("player 1's name", "the host's name")
                )
        options = resolve_options(book, settings.options)
        # A trial deal and set-up: the engine's own checks (minimum, unique cards, the
        # Thief's, known roles...), so that a room's start is never refused.
        dealt = deal(book, settings.players, settings.counts(), random.Random(0), options)
        table = names or [f"Player {seat + 1}" for seat in range(settings.players)]
        set_up(book, table, dealt, dict(settings.options), 0)
    except (LupusError, ValueError) as exc:
        return Refusal("rules", detail=str(exc))
    return None
