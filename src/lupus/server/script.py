"""A game leader's script (``view.script``, docs/protocol.md "Game-leader rooms"): the
game's steps so far, each with what the leader reads out, shows, notes and whom he puts
back to sleep, made here once per change from his events and the sentences his frames
pair with them, so that his page draws it and derives nothing from the event log.

A step begins at an event its kind's ``EventSpec.script`` says ``opens`` one (a night
step's ``wake``, a vote, the nominations); the events before the first are the game's
opening, a step without an opener. In a step, each event is, by its kind's mark:
``skipped`` (the deal: the page shows it apart), an entry ``echoes`` (``noted``), the
leader's record (``noted``), else public news to read out (``read``) or what to show
its living audience (``show``; ``private``: the leader's alone). A night step (its
``wake`` names it) keeps awake the living seats its private events reach, or else the
holders of the card it calls (``Family.called_cards``), until its first public news or
the next step: then they go back to sleep (``sleep``). The dead (``Family.death_kind``)
are shown nothing and woken no more: maffia's dead watch the night with open eyes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, final

from lupus.engine.model import Event
from lupus.engine.table import NIGHT

OPENS: Final = "opens"
ECHOES: Final = "echoes"
NOTED: Final = "noted"
SKIPPED: Final = "skipped"
HELD: Final = "held"  # (``EventSpec.shows``: the card a seat holds from now on)

READ: Final = "read"
SHOW: Final = "show"
SLEEP: Final = "sleep"
PRIVATE: Final = "private"

MARK: Final = re.compile(r"^\([^)]*\)\s*")
"""The leader's mark before a private sentence, "(to Ann) ": what the player is told
goes without it."""


def night_step(event: Event) -> str | None:
    """The night step an opening event wakes (its ``wake``'s ``step``), or None."""
    step = event.data.get("step")
    return step if isinstance(step, str) else None


def unmarked(line: str) -> str:
    """A leader's line without its "(to Ann) " mark."""
    return MARK.sub("", line, count=1)


@final
@dataclass(frozen=True, slots=True)
class ScriptItem:
    """One thing the leader does: ``kind`` read, show, sleep, noted or private; the
    ``event`` it comes from (a sleep: the step's opening event); the ``seats`` to show
    or to put back to sleep; its ``text``; a sleep's night ``step`` and the ``card`` it
    calls."""

    kind: str
    event: int
    seats: tuple[int, ...] = ()
    text: str = ""
    step: str | None = None
    card: str | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "event": self.event,
            "seats": list(self.seats),
            "text": self.text,
            "step": self.step,
            "card": self.card,
        }


@final
@dataclass(frozen=True, slots=True)
class ScriptStep:
    """One step of the game: the ``event`` that opened it (0 for the game's opening)
    and its ``kind`` (None: the opening), the night ``step`` its ``wake`` names and the
    ``card`` it calls, whether it is still ``open``, the seats it ``woke`` and its
    ``items`` in order."""

    event: int
    kind: str | None
    step: str | None
    card: str | None
    open: bool
    woke: tuple[int, ...]
    items: tuple[ScriptItem, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "event": self.event,
            "kind": self.kind,
            "step": self.step,
            "card": self.card,
            "open": self.open,
            "woke": list(self.woke),
            "items": [item.to_json() for item in self.items],
        }


@final
@dataclass(frozen=True, slots=True)
class Script:
    """What a leader's frame carries of his script: the steps after the ``kept`` first,
    which his page has from earlier frames and keeps (a closed step never changes; the
    step under way is sent again until it closes), and ``before``, where the recap of a
    page that has shown no step of the game yet begins."""

    kept: int
    steps: tuple[ScriptStep, ...]
    before: int

    def to_json(self) -> dict[str, object]:
        return {
            "kept": self.kept,
            "steps": [step.to_json() for step in self.steps],
            "before": self.before,
        }


class Making:
    """The step the reader is in: its items so far and who is awake (``awake``: the
    seats its night step keeps awake, None once they sleep or for a step that wakes
    nobody); ``woke``, whom it put back to sleep."""

    __slots__ = ("awake", "card", "event", "items", "kind", "step", "woke")

    def __init__(self, event: int, kind: str | None, step: str | None, card: str | None) -> None:
        self.event = event
        self.kind = kind
        self.step = step
        self.card = card
        self.items: list[ScriptItem] = []
        self.awake: set[int] | None = None if step is None else set()
        self.woke: tuple[int, ...] = ()

    def value(self, open: bool, woke: tuple[int, ...], sleep: ScriptItem | None) -> ScriptStep:
        items = tuple(self.items) if sleep is None else (*self.items, sleep)
        return ScriptStep(self.event, self.kind, self.step, self.card, open, woke, items)


class ScriptReader:
    """Reads a game leader's events, oldest first, each once with the sentence his
    frame pairs with it (None: none, a pack told again unchanged), into his script
    (see the module). ``marks``: each kind's ``EventSpec.script``; ``held``: the kinds
    that tell the card a seat holds (``EventSpec.shows`` ``"held"``); ``called`` and
    ``death``: the family's (``Family.called_cards``, ``Family.death_kind``)."""

    def __init__(
        self,
        marks: Mapping[str, str],
        held: frozenset[str],
        called: Mapping[str, str],
        death: str | None,
    ) -> None:
        self.marks = marks
        self.held = held
        self.called = called
        self.death = death
        self.count = 0  # the events read so far
        self.closed: list[ScriptStep] = []
        self.under: Making | None = None
        self.died: set[int] = set()
        self.cards: dict[int, str] = {}  # the card each seat holds (the latest told)
        # The opening events, but a night step's followed at once by another opener
        # (it told nobody anything), and the first event of the first night.
        self.openers: list[int] = []
        self.waking: int | None = None  # the last event, if it opened a night step
        self.night: int | None = None
        self.made: tuple[int, bool, Script] | None = None
        self.given = 0  # the closed steps its client was sent

    def feed(self, event: Event, text: str | None) -> None:
        """Read the leader's next event and its sentence."""
        at = self.count
        self.count += 1
        kind = event.kind
        mark = self.marks.get(kind)
        self.follow(at, event, mark)
        if kind == self.death:
            self.died.add(event.seat("player"))
        elif kind in self.held and event.audience is not None:
            self.cards[event.seat("player")] = event.text("role")
        if mark == OPENS:
            self.opens(at, event, text)
            return
        under = self.under
        if under is None:
            under = self.under = Making(0, None, None, None)  # (the game's opening)
        if mark == SKIPPED:
            return
        if text is None:  # (the narration left it out: so does the script)
            if under.awake is not None and event.audience:
                under.awake.update(self.living(event.audience))
            return
        if event.audience is None:
            self.public(under, at, mark, text)
        else:
            self.private(under, at, event, mark, text)

    def follow(self, at: int, event: Event, mark: str | None) -> None:
        """Where a recap may begin (``before``): the opening events, but a night step's
        that the next event closes at once, and the first night's first event."""
        if self.waking is not None and mark == OPENS:
            self.openers.remove(self.waking)
        self.waking = None
        if mark == OPENS:
            self.openers.append(at)
            if night_step(event) is not None:
                self.waking = at
        if self.night is None and event.phase == NIGHT:
            self.night = at

    def living(self, seats: frozenset[int]) -> list[int]:
        """``seats`` but the dead, in seat order."""
        died = self.died
        return sorted([seat for seat in seats if seat not in died])

    def opens(self, at: int, event: Event, text: str | None) -> None:
        """A step opens: the one before ends (its woken go back to sleep)."""
        under = self.under
        if under is not None:
            self.closed.append(under.value(False, *self.sleep(under)))
        name = night_step(event)
        card = None if name is None else self.called.get(name)
        under = self.under = Making(at, event.kind, name, card)
        if text:
            under.items.append(ScriptItem(READ, at, text=text))

    def sleep(self, under: Making) -> tuple[tuple[int, ...], ScriptItem | None]:
        """Whom the step's night puts back to sleep now, and the item that says so
        (None: nobody is awake in it): the living seats its events reached, or else
        the holders of the card it calls."""
        awake = under.awake
        if awake is None:
            return under.woke, None
        seats = self.woken(under)
        item = ScriptItem(SLEEP, under.event, seats, step=under.step, card=under.card)
        return seats, item

    def woken(self, under: Making) -> tuple[int, ...]:
        """The seats awake in the step now (see ``sleep``)."""
        if under.awake:
            return tuple(sorted(under.awake))
        card = under.card
        return tuple(sorted([seat for seat, held in self.cards.items() if held == card]))

    def public(self, under: Making, at: int, mark: str | None, text: str) -> None:
        """A public event: an entry in the step (noted), or news to read out, which
        ends its night (its woken go back to sleep first)."""
        if mark == ECHOES:
            if text:
                under.items.append(ScriptItem(NOTED, at, text=text))
            return
        woke, sleep = self.sleep(under)
        if sleep is not None:
            under.items.append(sleep)
            under.woke, under.awake = woke, None
        if text:
            under.items.append(ScriptItem(READ, at, text=text))

    def private(self, under: Making, at: int, event: Event, mark: str | None, text: str) -> None:
        """A private event: the leader's own, his record, or what to show its living
        audience (who are awake in the step's night, if it is still under way)."""
        audience = event.audience
        assert audience is not None
        reached = self.living(audience)
        if under.awake is not None:
            under.awake.update(reached)
        said = unmarked(text) if text else None
        if not audience:
            under.items.append(ScriptItem(PRIVATE, at, text=event.kind if said is None else said))
        elif mark == NOTED:
            under.items.append(ScriptItem(NOTED, at, text=event.kind if said is None else said))
        elif reached:
            under.items.append(ScriptItem(SHOW, at, tuple(reached), said or ""))

    def value(self, finished: bool) -> Script:
        """The whole script now (``kept`` 0); once the game is over, its last step is
        closed too. The same object while nothing changed."""
        made = self.made
        if made is not None and made[0] == self.count and made[1] == finished:
            return made[2]
        steps = list(self.closed)
        under = self.under
        if under is not None:
            if finished:
                steps.append(under.value(False, *self.sleep(under)))
            else:
                woke = under.woke if under.awake is None else self.woken(under)
                steps.append(under.value(True, woke, None))
        start = self.count if finished else (under.event if under is not None else 0)
        script = Script(0, tuple(steps), self.before(start))
        self.made = (self.count, finished, script)
        return script

    def news(self, finished: bool) -> Script:
        """What the client is sent now: the steps it was not sent closed (the step under
        way, sent again each frame until it closes), as events are sent, its news only:
        a leader's frame stays small however long the game."""
        script = self.value(finished)
        kept = self.given
        self.given = len(self.closed)
        return Script(kept, script.steps[kept:], script.before)

    def before(self, start: int) -> int:
        """Where the recap of a page that has shown no step yet begins, when the step
        under way began at ``start``: the step before (one that woke somebody), else the
        first night's first event, else ``start`` (nothing to recap)."""
        for at in reversed(self.openers):
            if at < start:
                return at
        night = self.night
        return night if night is not None and night < start else start
