"""The room's clock: night steps that last a full step's time, and step timers.

Fair timing. A night step runs whenever its card is in the game, alive or not (the
engine announces it: skipping it would tell everyone the role is gone); but a step
nobody can act in resolves at once, and a table that saw the Witch's step end in no
time would know the Witch is dead. So every night step lasts at least ``pace`` seconds
from its start, whether someone acted in it or not: the wake of the step after it is
held back until then, and nobody is sent anything past it (``views.view_before``)
nor may act. With a night timer, ``pace`` is the timer itself and every night step
lasts exactly its full time; without one, a slow person still shows (the host decides
when the day goes on).

Timers. A step's timer starts when the step is shown; when it runs out, the room
closes the step as the game leader would (missing choices pass or abstain). The
deadline is sent with the view and stored with the room, so that it survives a
restart.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from lupus.engine.model import PUBLIC
from lupus.engine.views import View, view_before

if TYPE_CHECKING:
    from lupus.server.rooms import Room


MARKS = ("wake", "dawn")
"""The public events that start a night step (its wake) or end the night's last one."""


class Pacer:
    """One room's clock (see the module docstring)."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.scanned = 0  # ledger places already looked at for night wakes
        self.pending: list[tuple[float, int]] = []  # (release time, place of the wake)
        self.last_start = 0.0  # when the latest night step was shown
        self.last_night = -1  # the night it belongs to
        self.release_handle: Any = None
        self.timer_step: object = None
        self.timer_handle: Any = None
        self.deadline: float | None = None

    def reset(self) -> None:
        """A new game (or a game replayed after a restart): nothing is held."""
        if self.release_handle is not None:
            self.release_handle.cancel()
        self.stop_timer()
        game = self.room.game
        self.scanned = 0 if game is None else len(game.events)
        self.pending, self.release_handle = [], None
        self.last_start, self.last_night = 0.0, -1

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
        return self.pending[0][1] if self.pending else None

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

    # ------------------------------------------------------------------ after a change
    def changed(self) -> None:
        """Look at what the last change recorded: hold the night steps that came too
        soon, and start the shown step's timer."""
        room, game = self.room, self.room.game
        if game is None:
            return
        now = room.clock()
        events = game.events
        pace = self.pace
        for place in range(self.scanned, len(events)):
            event = events[place]
            if event.kind not in MARKS or event.audience is not None or event.phase != "night":
                continue
            # (the night's first step starts at nightfall; each next one a pace later)
            first = event.number != self.last_night
            start = now if first else max(now, self.last_start + pace)
            self.last_night, self.last_start = event.number, start
            if start > now or self.pending:
                self.pending.append((start, place))
        self.scanned = len(events)
        if self.pending and self.release_handle is None:
            delay = max(0.0, self.pending[0][0] - now)
            self.release_handle = room.schedule(delay, self.release)
        if self.held is None:
            self.start_timer()

    def release(self) -> None:
        """The held step's time has come: show it (and everything up to the next one
        still held)."""
        self.release_handle = None
        room = self.room
        if not self.pending or room.game is None:
            return
        now = room.clock()
        while self.pending and self.pending[0][0] <= now + 0.001:
            self.pending.pop(0)
        if self.pending:
            self.release_handle = room.schedule(self.pending[0][0] - now, self.release)
        else:
            self.start_timer()
        room.broadcast()
        if self.held is None:
            room.bots.schedule()

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
        self.deadline = deadline if deadline is not None else now + (duration or 0.0)
        self.timer_handle = room.schedule(
            max(0.0, self.deadline - now), partial(self.run_out, game.step)
        )
        room.save()  # the deadline survives a restart

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
        room.close_step()

    def to_state(self) -> dict[str, object] | None:
        game = self.room.game
        if self.deadline is None or game is None:
            return None
        return {"deadline": self.deadline, "actions": len(game.history)}

    def resume(self, stored: object) -> None:
        """After a restart: the stored deadline, if it is the current step's."""
        game = self.room.game
        if game is None:
            return
        if isinstance(stored, dict) and stored.get("actions") == len(game.history):
            deadline = stored.get("deadline")
            if isinstance(deadline, int | float):
                self.start_timer(float(deadline))
                return
        self.start_timer()
