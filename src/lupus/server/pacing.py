"""The room's clock: night steps that last as long whoever holds their card, and timers.

Fair timing. A night step runs whenever its card is in the game, held by a living
player, a dead one or nobody (a card aside); but a step nobody can act in resolves at
once, and a table that saw the Witch's step end in no time would know the Witch is
dead. So every night step lasts at least its *minimum* from the moment it is shown:
the step's timer when it has one (then it lasts exactly that, however fast its holder
decides), otherwise ``pace`` and a share drawn for it (``minimum``), as long as a
person might take. Until then whatever came after it is held back: nobody is sent
anything past the step (``views.view_before``), nor may act in a later one. A living
holder slower than the minimum makes his step last longer, as he would at a table.

The hold is measured on the server's monotonic clock from the moment each step was
really shown (a step shown late, on a busy machine, still lasts its full minimum) and
a step is never released early. The draws come from a generator seeded by the game's
own seed, so they are the same whenever the same game is played again, and whoever
sees the public events cannot foresee them.

What a client is shown is decided here too: the events up to the held place, the
deadline of the step shown, when its latest public event was shown (``public_time``),
and who was awake together in the step shown (the pack's channel).

Timers. A step's timer starts when the step is shown; when it runs out, the room
closes the step as the game leader would (missing choices pass or abstain). The
deadline is sent with the view and stored with the room, so that it survives a
restart; so is the held place (a restart holds back what was held, for a full
minimum again).
"""

from __future__ import annotations

import random
from functools import partial
from typing import TYPE_CHECKING, Any, Final

from lupus.engine.model import PUBLIC
from lupus.engine.views import View, view_before
from lupus.families import family_of

if TYPE_CHECKING:
    from lupus.server.room_parts import PacedRoom

OPENS: Final = "wake"
"""The public event that opens a night step (the narrator calls its card)."""

LONGEST: Final = 2.0
"""The drawn share of a step's minimum is at most this many ``pace`` (so a step
without a timer lasts at most three paces when its holder is quick)."""

SHARE: Final = 0.5
"""The drawn share's mean, in ``pace`` (an exponential draw, cut at ``LONGEST``)."""


def minimum(pace: float, draw: random.Random) -> float:
    """A night step's minimum without a timer: ``pace`` and a drawn share of it.

    People take a few seconds more or less to wake, look and point; a step nobody
    acts in must look like one of theirs, so its length is drawn, never taken from how
    long its holder (or anyone) took.
    """
    share = min(draw.expovariate(1.0 / SHARE), LONGEST)
    return pace * (1.0 + share)


class Mark:
    """A public night event: a step's wake, or anything after it the night tells."""

    __slots__ = ("at", "least", "place", "seq", "step")

    def __init__(self, place: int, seq: int, step: str | None, least: float) -> None:
        self.place = place  # in the ledger
        self.seq = seq  # among the public events
        self.step = step  # the step a wake opens (None: not a wake)
        self.least = least  # how long the step it opens lasts at least (0: not a step)
        self.at = 0.0  # when it was shown (monotonic)


class Pacer:
    """One room's clock (see the module docstring)."""

    def __init__(self, room: PacedRoom) -> None:
        self.room = room
        self.release_handle: Any = None
        self.timer_step: object = None
        self.timer_handle: Any = None
        self.deadline: float | None = None
        self.start(None)

    def start(self, game_seed: int | None) -> None:
        self.scanned = 0  # ledger places already looked at
        self.marks: list[Mark] = []
        self.shown = 0  # marks shown (the next one, if any, is held)
        self.draws = random.Random(f"{game_seed}-pace")
        self.step_deadline: float | None = None  # the shown wake's step's, with a timer
        self.public_count = 0  # public events shown
        self.public_time = 0.0  # when the latest of them was shown (epoch seconds)
        # Epoch seconds from the monotonic clock, by one offset taken per game: a step's
        # length is the same on both, to the digit (a time read apart from the other
        # could be late by a preempted moment, and a step would look short).
        self.offset = self.room.clock() - self.room.ticks()
        self.awake: dict[int, frozenset[int]] = {}  # by wake (its mark's index)
        self.saved_held: int | None = None
        self.dead: tuple[int, frozenset[int]] = (-1, frozenset())  # by public events shown

    def reset(self) -> None:
        """A new game (or a game about to be replayed after a restart): nothing of the
        last game is pending. The game's first change (``changed``) shows its first
        step and holds back the rest, as every change does."""
        if self.release_handle is not None:
            self.release_handle.cancel()
            self.release_handle = None
        self.stop_timer()
        game = self.room.game
        self.start(None if game is None else game.seed)

    @property
    def pace(self) -> float:
        settings = self.room.settings
        if settings.mode == "leader":
            return 0.0  # a game leader with cards keeps his own time
        night = settings.timers.night
        return night if night is not None else settings.pace

    @property
    def held(self) -> int | None:
        """The ledger place from which nothing is shown yet, or None."""
        marks = self.marks
        return marks[self.shown].place if self.shown < len(marks) else None

    def view(self, seat: int | None) -> View:
        """What a client of ``seat`` (None: a spectator) is shown now."""
        game = self.room.game
        assert game is not None
        who = PUBLIC if seat is None else seat
        held = self.held
        if held is not None:
            return view_before(game, who, held)
        if seat is None:
            return game.public_view()
        return game.view(seat)

    def shown_deadline(self) -> float | None:
        """The deadline of the step shown: while a step is held back, that of the
        step before it, if it has a timer (its holder's decision ended it early, or
        nobody held it: it is shown as running to its end all the same)."""
        if self.held is not None:
            return self.step_deadline
        return self.deadline

    def shown_dead(self) -> frozenset[int]:
        """The players the public events shown say are out of the game (a death told
        at dawn is not one before the dawn is shown)."""
        if self.dead[0] != self.public_count:
            self.dead = (self.public_count, frozenset(self.view(None).dead()))
        return self.dead[1]

    def shown_phase(self) -> str:
        """The phase of the game as shown."""
        if self.held is not None:
            return self.view(None).phase
        game = self.room.game
        assert game is not None
        return game.phase

    def shown_awake(self) -> frozenset[int]:
        """The seats awake together in the night step shown (the pack at its step)."""
        index = self.shown - 1
        if index < 0 or self.marks[index].step is None:
            return frozenset()  # (no night step shown: the dawn, or what follows it)
        return self.awake.get(index, frozenset())

    # ------------------------------------------------------------------ after a change
    def scan(self) -> None:
        """File the public night events the game recorded since the last look."""
        game = self.room.game
        assert game is not None
        events = game.events
        settings = self.room.settings
        pace = self.pace
        for place in range(self.scanned, len(events)):
            event = events[place]
            if event.audience is not None or event.phase != "night" or event.kind == "night":
                continue
            step: str | None = None
            least = 0.0
            if event.kind == OPENS:
                step = event.text("step")
                share = minimum(pace, self.draws)  # (drawn for every step: replayable)
                timer = settings.timers.steps.get(step, settings.timers.night)
                if settings.mode == "leader":
                    least = 0.0
                elif timer is not None:
                    least = timer
                else:
                    least = share
            self.marks.append(Mark(place, event.seq, step, least))
        self.scanned = len(events)

    def changed(self) -> None:
        """Look at what the last change recorded: hold the night's steps that come too
        soon, show those whose time has come, and start the shown step's timer."""
        room, game = self.room, self.room.game
        if game is None:
            return
        self.scan()
        self.note_awake()
        now = room.ticks()
        self.advance(now)
        self.schedule_release(now)
        if self.held is None:
            self.start_timer()
        self.save_held()

    def note_awake(self) -> None:
        """Who is awake together in the step the game waits in, if a night step opened
        it (kept for when it is shown: the pack's channel is open while it is)."""
        game = self.room.game
        assert game is not None
        step = game.step
        if step is None or game.phase != "night":
            return
        for index in range(len(self.marks) - 1, -1, -1):
            mark = self.marks[index]
            if mark.step is None:
                return
            if mark.step == step.id and index not in self.awake:
                self.awake[index] = family_of(game.rulebook).awake_together(game)
            return

    def advance(self, now: float) -> None:
        """Show every mark whose time has come, in order: a mark comes once the step
        opened by the mark before it has lasted its minimum, from when it was shown."""
        marks = self.marks
        while self.shown < len(marks):
            if self.shown and now < self.due():
                break
            self.show(marks[self.shown], now)
        self.note_public(now)

    def due(self) -> float:
        """When the first mark held may be shown (monotonic)."""
        before = self.marks[self.shown - 1]
        return before.at + before.least

    def show(self, mark: Mark, now: float) -> None:
        mark.at = now
        self.shown += 1
        if mark.step is not None and mark.least > 0 and self.has_timer(mark.step):
            self.step_deadline = now + self.offset + mark.least
        else:
            self.step_deadline = None

    def night_floor(self, step: str) -> float:
        """The least a night step of ``step`` may last: its timer, or ``pace`` (the
        drawn share comes on top); 0 in a room without pacing."""
        if self.room.settings.mode == "leader":
            return 0.0
        timers = self.room.settings.timers
        timer = timers.steps.get(step, timers.night)
        return timer if timer is not None else self.room.settings.pace

    def has_timer(self, step: str) -> bool:
        timers = self.room.settings.timers
        return step in timers.steps or timers.night is not None

    def note_public(self, now: float) -> None:
        """When the public events shown last grew (a view's ``time``)."""
        game = self.room.game
        assert game is not None
        held = self.held
        count = self.marks[self.shown].seq if held is not None else game.ledger.npublic
        if count != self.public_count:
            self.public_count = count
            self.public_time = now + self.offset

    def schedule_release(self, now: float) -> None:
        if self.release_handle is not None:
            self.release_handle.cancel()
            self.release_handle = None
        if self.held is not None:
            self.release_handle = self.room.schedule(max(0.0, self.due() - now), self.release)

    def release(self) -> None:
        """The held step's time may have come: show it (and whatever follows it, up to
        the next step still to wait for). Never early: a call that comes too soon (a
        clock's grain) waits again for what is left."""
        self.release_handle = None
        room = self.room
        if self.held is None or room.game is None:
            return
        now = room.ticks()
        before = self.shown
        self.advance(now)
        self.schedule_release(now)
        if self.shown == before:
            return
        if self.held is None:
            self.start_timer()
        self.save_held()
        room.broadcast()
        if self.held is None:
            room.bots.schedule()

    def save_held(self) -> None:
        """Store the held place when it moves (a restart holds back the same)."""
        if self.held != self.saved_held:
            self.saved_held = self.held
            self.room.save()

    # ------------------------------------------------------------------ timers
    def duration(self) -> float | None:
        game = self.room.game
        assert game is not None and game.step is not None
        timers = self.room.settings.timers
        by_step = timers.steps.get(game.step.id)
        if by_step is not None:
            return by_step
        return timers.night if game.phase == "night" else timers.day

    def start_timer(self, deadline: float | None = None) -> None:
        """The shown step's timer, if it has none yet (``deadline``: a stored one)."""
        room, game = self.room, self.room.game
        if game is None or game.step is None or game.finished or room.status != "playing":
            self.stop_timer()
            return
        if game.step is self.timer_step:
            return
        self.stop_timer()
        self.timer_step = game.step
        duration = self.duration()
        if duration is None and deadline is None:
            return
        now = room.clock()
        if deadline is None and self.step_deadline is not None and self.opened_by_wake():
            deadline = self.step_deadline  # (the deadline shown since its wake)
        self.deadline = deadline if deadline is not None else now + (duration or 0.0)
        self.timer_handle = room.schedule(
            max(0.0, self.deadline - now), partial(self.run_out, game.step)
        )
        room.save()  # the deadline survives a restart

    def opened_by_wake(self) -> bool:
        """Whether the step the game waits in is the one the last wake shown opened."""
        game = self.room.game
        assert game is not None and game.step is not None
        if not self.shown:
            return False
        return self.marks[self.shown - 1].step == game.step.id

    def stop_timer(self) -> None:
        if self.timer_handle is not None:
            self.timer_handle.cancel()
        self.timer_handle, self.timer_step, self.deadline = None, None, None

    def run_out(self, step: object) -> None:
        """The timer of ``step`` ran out: the leader closes it, if it is still open."""
        self.timer_handle = None
        room, game = self.room, self.room.game
        if game is None or game.step is not step or room.status != "playing":
            return
        if self.held is not None:
            return
        self.timer_step = None
        room.timed_out()

    def to_state(self) -> dict[str, object] | None:
        game = self.room.game
        if game is None:
            return None
        return {
            "deadline": self.deadline,
            "actions": len(game.history),
            "held": self.held,
        }

    def resume(self, stored: object) -> None:
        """After a restart: what was shown is shown, what was held is held back again
        (a full minimum from now: never shorter than it would have been), and the stored
        deadline is the current step's if it still is."""
        room, game = self.room, self.room.game
        if game is None:
            return
        state = stored if isinstance(stored, dict) else {}
        held = state.get("held")
        self.scan()
        now = room.ticks()
        for mark in self.marks:
            if type(held) is int and mark.place >= held:
                break
            self.show(mark, now)
        self.note_public(now)
        self.note_awake()
        self.saved_held = self.held
        self.schedule_release(now)
        if self.held is not None:
            return
        deadline = state.get("deadline")
        stored_deadline = isinstance(deadline, int | float) and not isinstance(deadline, bool)
        if stored_deadline and state.get("actions") == len(game.history):
            assert isinstance(deadline, int | float)
            self.start_timer(float(deadline))
        else:
            self.start_timer()
