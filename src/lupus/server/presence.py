"""Who is here: host powers that pass on when their holder is gone, and the seats of
people who are gone, played by bots until they are back.

Host powers (start, close, kick, play again...) belong to one holder: the room's
creator at first (his token: ``Room.host_token``; his seat, if he plays:
``Room.host_seat``). When the holder has had no connection for ``host_grace`` seconds
(a server limit, 60 s), they pass to the next connected person in seat order after his
seat (not a bot's own seat); whoever holds them may pass them on (``pass_host``). They
stay with the new holder when the first one comes back. A game leader keeps them: he
is the game. Who holds them is public (``lobby.host_seat``), and so is why they moved:
a connection that ended.

Absent players (``RoomSettings.absent_bots``, on by default). A person is *away* when
his seat has had no connection for ``absent_grace`` seconds during a game, or when two
of his public steps in a row ran out (closed by their timer) without his decision: a
bot then plays his seat, from that seat's view (``BotSeats``, as a host's
``hand_over`` does), until he is back: a connection of his seat, or a decision or a
chat line of his in a public step.

Only what everyone may know moves a seat's absence, so that it never tells a role: a
connection, and a *public* step, one whose waiting everyone knows (any step of the
day, and the last breaths of a night's dawn: a Hunter's shot, a successor). A night
step of the rulebook's night order is never counted, nor does a decision in it give a
seat back: who acts at night is secret, and an absence that ended, or did not begin,
because of a night step would tell everyone its seat had one. Nor does absence change
how long a night step lasts: with timers every night step lasts exactly its timer;
without, a bot decides within the step's minimum, as a dead card's step lasts.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Final

from lupus.server.protocol import ProtocolError

if TYPE_CHECKING:
    from lupus.server.clients import Client
    from lupus.server.room_parts import PresentRoom
    from lupus.server.seats import Seat

log = logging.getLogger("lupus.server")

MISSED: Final = 2
"""Public steps in a row run out without a person's decision before a bot plays his
seat."""

STAND_IN: Final = "heuristic"
"""The kind of bot that plays an absent person's seat."""


class Presence:
    """One room's presence (see the module docstring)."""

    def __init__(self, room: PresentRoom) -> None:
        self.room = room
        self.host_gone: float | None = None  # when the holder's last connection ended
        self.host_check: Any = None
        self.seat_checks: dict[int, Any] = {}
        self.missed: dict[int, int] = {}  # public steps run out in a row, by seat

    # ------------------------------------------------------------------ connections
    def connected(self, seat: int) -> bool:
        """Whether a connection holds ``seat`` (a spectator's holds none)."""
        return any(client.seat == seat for client in self.room.clients)

    def host_here(self) -> bool:
        room = self.room
        if room.settings.mode == "leader":
            return True  # (the leader keeps his powers, gone or not)
        return any(client.host for client in room.clients)

    def entered(self, client: Client) -> None:
        """A connection entered the room (``Room.clients`` holds it). Nothing is sent
        here: the room's lobby goes out right after the welcome."""
        if client.host:
            self.host_gone = None
            self.cancel_host_check()
        elif self.host_gone is not None:
            self.check_host(quiet=True)  # (powers waiting for someone to hold them)
        seat = client.seat
        if seat is not None and seat >= 0:
            check = self.seat_checks.pop(seat, None)
            if check is not None:
                check.cancel()
            self.back(seat, quiet=True)

    def left(self, client: Client) -> None:
        """A connection ended (``Room.clients`` no longer holds it)."""
        if self.host_gone is None and not self.host_here():
            self.host_gone = self.room.ticks()
            self.schedule_host_check(self.room.limits.host_grace)
        seat = client.seat
        if seat is not None and seat >= 0 and not self.connected(seat):
            self.schedule_seat_check(seat)

    def restored(self) -> None:
        """After a restart nobody is connected: the holder and every person are gone
        from now on, and the same graces run."""
        room = self.room
        if not self.host_here():
            self.host_gone = room.ticks()
            self.schedule_host_check(room.limits.host_grace)
        self.game_began()

    # ------------------------------------------------------------------ host powers
    def schedule_host_check(self, delay: float) -> None:
        self.cancel_host_check()
        self.host_check = self.room.schedule(delay, self.check_host)

    def cancel_host_check(self) -> None:
        if self.host_check is not None:
            self.host_check.cancel()
            self.host_check = None

    def check_host(self, quiet: bool = False) -> None:
        """Pass the host's powers on if their holder has been gone long enough; if
        nobody may take them yet, they pass to the first person who comes."""
        self.host_check = None
        room = self.room
        gone = self.host_gone
        if gone is None or self.host_here():
            self.host_gone = None
            return
        left = gone + room.limits.host_grace - room.ticks()
        if left > 0:
            if not quiet:
                self.schedule_host_check(left)
            return
        heir = self.heir()
        if heir is not None:
            log.info("host_passed room=%s seat=%d why=gone", room.code, heir)
            self.pass_to(heir, quiet)

    def heir(self) -> int | None:
        """The next connected person in seat order after the holder's seat (from the
        first seat for a holder without one); one whose seat a bot plays for his
        absence comes after the others."""
        room = self.room
        n = len(room.seats)
        start = 0 if room.host_seat is None else room.host_seat + 1
        order = [(start + i) % n for i in range(n)]
        people = [s for s in order if self.may_hold(s) and self.connected(s)]
        here = [s for s in people if not self.seat(s).away]
        found = here or people
        return found[0] if found else None

    def may_hold(self, seat: int) -> bool:
        """Whether a person holds ``seat`` (a bot's own seat holds no powers)."""
        held = self.room.seats[seat]
        return held is not None and held.token is not None

    def seat(self, seat: int) -> Seat:
        held = self.room.seats[seat]
        assert held is not None
        return held

    def pass_host(self, seat: int | None) -> None:
        """The holder's ``pass_host``: his powers go to a person's ``seat``, or back to
        the room's creator who holds no seat (``seat`` None)."""
        room = self.room
        if room.settings.mode == "leader":
            raise ProtocolError("not_allowed", "leader_keeps_host")
        if seat is None:
            if room.first_token is None:
                raise ProtocolError("not_allowed", "creator_has_seat")
        else:
            room.check_seat_number(seat)
            if not self.may_hold(seat):
                raise ProtocolError("not_allowed", "host_person_only")
        if seat == room.host_seat and room.host_token is not None:
            held = room.first_token if seat is None else self.seat(seat).token
            if held == room.host_token:
                return
        log.info("host_passed room=%s seat=%d why=given", room.code, seat)
        self.pass_to(seat)
        if not self.host_here():  # (given to someone who is not connected now)
            self.host_gone = room.ticks()
            self.schedule_host_check(room.limits.host_grace)

    def pass_to(self, seat: int | None, quiet: bool = False) -> None:
        """The powers go to ``seat`` (None: the creator without a seat): its token is
        the host's, its connections hold them (and no other connection does)."""
        room = self.room
        if seat is None:
            room.host_token = room.first_token
            for client in room.clients:
                client.host = client.creator
        else:
            room.host_token = self.seat(seat).token
            for client in room.clients:
                client.host = client.seat == seat
        room.host_seat = seat
        self.host_gone = None
        self.cancel_host_check()
        room.save()
        if not quiet:
            room.broadcast()

    # ------------------------------------------------------------------ absent players
    @property
    def on(self) -> bool:
        room = self.room
        return room.settings.absent_bots and room.settings.mode == "players"

    def game_began(self) -> None:
        """A game starts (or is restored): no step is missed yet, and a person with no
        connection is away once the grace has run."""
        self.missed = {}
        for seat, held in enumerate(self.room.seats):
            if held is not None and held.token is not None and not self.connected(seat):
                self.schedule_seat_check(seat)

    def schedule_seat_check(self, seat: int) -> None:
        if not self.on:
            return
        old = self.seat_checks.pop(seat, None)
        if old is not None:
            old.cancel()
        delay = self.room.limits.absent_grace
        self.seat_checks[seat] = self.room.schedule(delay, lambda: self.check_seat(seat))

    def check_seat(self, seat: int) -> None:
        """``seat`` has had no connection for the grace: away, if a game is on."""
        self.seat_checks.pop(seat, None)
        if not self.connected(seat):
            self.stand_in(seat, "gone")

    def playing(self) -> bool:
        room = self.room
        return room.game is not None and room.status == "playing"

    def public_step(self) -> bool:
        """Whether everyone may know who the step the game waits in waits for: any
        step but one of the rulebook's night order (see the module docstring)."""
        game = self.room.game
        if game is None or game.step is None:
            return True
        if self.room.pacer.held is not None:
            return False  # (what is shown is a night step still running)
        book = game.rulebook
        night = {*book.night.first, *book.night.later, *book.night.preparation}
        return game.phase != "night" or game.step.id not in night

    def ran_out(self, waited: list[int]) -> None:
        """A public step's timer closed it without the decisions of ``waited``."""
        room = self.room
        for seat in waited:
            held = room.seats[seat]
            if held is None or held.token is None or held.bot is not None:
                continue
            self.missed[seat] = self.missed.get(seat, 0) + 1
            if self.missed[seat] >= MISSED:
                self.stand_in(seat, "idle")

    def acted(self, seat: int) -> None:
        """A decision or a chat line from a connection of ``seat``: back, if it came in
        a public step (a night step's tells nothing: see the module docstring)."""
        if self.public_step():
            self.back(seat)

    def stand_in(self, seat: int, why: str) -> None:
        room = self.room
        held = room.seats[seat]
        if not self.on or not self.playing() or held is None or held.token is None:
            return
        if held.bot is not None:
            return  # (a bot plays it already: the host's, or for this absence)
        held.bot, held.away = STAND_IN, True
        log.info("seat_away room=%s seat=%d why=%s", room.code, seat, why)
        room.save()
        room.broadcast()
        room.bots.schedule()  # (the bot may owe a decision now)

    def back(self, seat: int, quiet: bool = False) -> None:
        """The person of ``seat`` is here: nothing missed, and his seat is his again."""
        room = self.room
        self.missed.pop(seat, None)
        held = room.seats[seat]
        if held is None or not held.away:
            return
        held.bot, held.away = None, False
        room.bots.forget(seat)
        log.info("seat_back room=%s seat=%d", room.code, seat)
        room.save()
        if not quiet:
            room.broadcast()

    def handed(self, seat: int) -> None:
        """The host's ``hand_over`` decides the seat's bot from now on."""
        held = self.room.seats[seat]
        if held is not None:
            held.away = False
        self.missed.pop(seat, None)
