"""Every room of a server, and the dispatch of what clients send to them.

``Hub.handle`` is the one way in for a client's message: its rate (its connection's,
its seat's and its client's: ``lupus.server.gate``), the message's size (in bytes),
its JSON, its shape (``lupus.server.protocol``) and its sender's rights are checked in
that order, and any refusal is an ``error`` to that client alone (with the message's
``id`` when it has one), with nothing changed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from lupus.engine.model import LEADER
from lupus.engine.untrusted import bounded
from lupus.server.chat import post
from lupus.server.clients import Client
from lupus.server.gate import Gate
from lupus.server.limits import ServerLimits
from lupus.server.links import screen_link, seat_link, svg_text
from lupus.server.metrics import Metrics
from lupus.server.minds import Minds
from lupus.server.placement import Elsewhere
from lupus.server.protocol import (
    HOST_ONLY,
    VERSION,
    Act,
    AddBot,
    Again,
    Chat,
    Close,
    HandOver,
    Join,
    Kick,
    Narrate,
    NewLink,
    PassHost,
    Ping,
    ProtocolError,
    Rejoin,
    Settings,
    Start,
    Swap,
    Watch,
)
from lupus.server.reading import WEIGHED, checked, parsed, quick, ref_of, refuse_flood, size_of
from lupus.server.room_parts import Schedule, Work
from lupus.server.rooms import Room
from lupus.server.seats import digest, new_code
from lupus.server.settings import RoomSettings, check_settings
from lupus.server.store import RoomRecord, Store

if TYPE_CHECKING:
    from lupus.server.cluster import Cluster  # (psycopg: only with PostgreSQL)

log = logging.getLogger("lupus.server")

GUESSED: Final = ("unknown_room", "bad_token")
"""The refusals that are wrong guesses (``ServerLimits.guess_rate``)."""


class Hub:
    """The rooms of one server process, kept in memory and in the store."""

    def __init__(
        self,
        store: Store,
        schedule: Schedule,
        clock: Callable[[], float] = time.time,
        ticks: Callable[[], float] = time.monotonic,
        *,
        limits: ServerLimits | None = None,
        work: Work | None = None,
        metrics: Metrics | None = None,
        minds: Minds | None = None,
    ) -> None:
        """``clock``: epoch seconds; ``ticks``: a monotonic clock (how long a step
        lasted); ``schedule`` runs a call after a delay on that monotonic clock;
        ``minds``: the model of the rooms' AI players (None: the server has none)."""
        self.minds = minds
        self.metrics = metrics or Metrics()  # (its app's /metrics: lupus.server.metrics)
        self.store = store
        self.schedule = schedule
        self.clock = clock
        self.limits = limits or ServerLimits()
        self.gate = Gate(self.limits)
        self.work = work
        self.ticks = ticks
        self.rooms: dict[str, Room] = {}
        # The other processes on the same database, if any (set by ``create_app``).
        self.cluster: Cluster | None = None

    # ------------------------------------------------------------------ rooms
    def create(self, settings: RoomSettings) -> tuple[Room, str, int | None]:
        """A new room; its host's token (given once) and seat. ProtocolError: refused."""
        problem = check_settings(settings, self.limits.min_bot_delay)
        if problem is not None:
            raise ProtocolError("not_allowed", problem)
        code = new_code()
        while code in self.rooms or self.store.known(code):  # (an expired room's too)
            code = new_code()
        if self.cluster is not None:
            self.cluster.made(code)
        room = Room(
            code,
            settings,
            self.store,
            self.schedule,
            self.clock,
            self.ticks,
            self.work,
            self.limits,
            self.minds,
        )
        token, seat = room.create_host()
        self.rooms[code] = room
        log.info(
            "room_opened room=%s rules=%s players=%d mode=%s",
            code,
            settings.rules,
            settings.players,
            settings.mode,
        )
        return room, token, seat

    def restore(self) -> int:
        """Reload every open room from the store (at start); how many. Several
        processes on one database take the rooms by their leases instead
        (``cluster``)."""
        if self.cluster is None:
            for record in self.store.open_rooms():
                self.load(record)
        else:
            self.cluster.take_back()
        log.info("rooms_restored count=%d", len(self.rooms))
        return len(self.rooms)

    def load(self, record: RoomRecord) -> Room | None:
        """A stored room, its game replayed, run here from now on (None: it no longer
        loads, which is logged)."""
        try:
            room = Room.restore(
                record.code,
                record.state,
                record.game,
                self.store,
                self.schedule,
                self.clock,
                self.ticks,
                self.work,
                self.limits,
                self.minds,
            )
        except Exception:
            log.exception("room_not_restored room=%s", record.code)
            return None
        self.rooms[record.code] = room
        room.bots.schedule()
        return room

    def sweep(self) -> None:
        """Drop the rooms nobody used for their ``expire_after`` (finished, or left)."""
        now = self.clock()
        for code, room in list(self.rooms.items()):
            idle = now - room.updated
            if not room.clients and idle > room.settings.expire_after:
                self.store.drop_room(code)
                del self.rooms[code]
                if self.cluster is not None:
                    self.cluster.forget(code)
                log.info("room_expired room=%s", code)
        self.gate.sweep(self.rooms)

    def room(self, code: str) -> Room:
        """The room ``code``, run here (``cluster.Elsewhere``: by another process)."""
        code = code.strip().upper()
        room = self.rooms.get(code)
        if room is None and self.cluster is not None:
            room = self.cluster.locate(code)
        if room is None:
            raise ProtocolError("unknown_room", "unknown_room")
        return room

    # ------------------------------------------------------------------ messages
    def handle(self, client: Client, raw: str | bytes) -> None:
        """One message from a client (see the module docstring). Every frame counts
        against the rate limit, junk too, by its length (``reading.WEIGHED``); its id
        (when it has one, even in a frame too long) is echoed in the answer, but a
        long one's refused for its rate (unread)."""
        if client.relay is not None:  # (its room runs in another process: ``cluster``)
            client.relay(raw)
            return
        ref: int | None = None
        try:
            size = size_of(raw)
            weight = 1 + size // WEIGHED
            allowed = client.messages.take(weight) and self.gate.message(client, weight)
            if not allowed:
                refuse_flood(client, raw, size, weight)
                return
            message = quick(raw, size)
            if message is not None:
                ref = message.id
                client.refused = 0  # (a message: the flood, if any, is over)
                self.dispatch(client, message)
                return
            data = parsed(raw, size)
            ref = ref_of(data, raw, size, client, self.gate)
            self.dispatch(client, checked(data, size))
        except ProtocolError as exc:
            client.send_error(exc.code, exc.refusal, ref)
        except Exception:
            log.exception("message_failed")
            client.send_error("internal", "internal_failed", ref)

    def dispatch(self, client: Client, message: Any) -> None:
        if isinstance(message, Ping):
            client.send({"type": "pong", "id": message.id})
            return
        if isinstance(message, Join | Rejoin | Watch):
            self.enter(client, message)
            return
        room = client.room
        if not isinstance(room, Room):
            raise ProtocolError("not_joined", "join_first")
        if isinstance(message, HOST_ONLY) and not client.host:
            raise ProtocolError("not_host", "host_only")
        if isinstance(message, Act):
            with self.metrics.acting:  # (counted, and its latency: lupus.server.metrics)
                self.act(client, room, message)
        elif isinstance(message, Close):
            self.close(client, room, message)
        elif isinstance(message, Chat):
            self.chat(client, room, message)
        elif isinstance(message, Start):
            room.start(message.fill, message.deal)
        elif isinstance(message, AddBot):
            room.add_bot(message.kind, message.seat)
        elif isinstance(message, Kick):
            room.kick(message.seat)
        elif isinstance(message, Swap):
            room.swap(message.seat, message.other)
        elif isinstance(message, HandOver):
            room.hand_over(message.seat, message.kind)
        elif isinstance(message, Again):
            room.again()
        elif isinstance(message, Settings):
            room.change_settings(message.changes(), self.limits.min_bot_delay)
        elif isinstance(message, PassHost):
            room.pass_host(message.seat)
        elif isinstance(message, NewLink):
            self.new_link(client, room, message)
            return
        elif isinstance(message, Narrate):
            self.narrator(client, room, message)
            return
        client.send({"type": "ack", "id": message.id})

    def act(self, client: Client, room: Room, message: Act) -> None:
        """A seat's action (or the game leader's for a seat), into the room's one path."""
        actor, state_id = client.seat, message.state_id
        if message.seat is not None:
            if actor != LEADER:
                raise ProtocolError("not_allowed", "leader_acts_for_seat")
            actor, state_id = message.seat, leaders_answer(room, message.seat, state_id)
        if actor is None:
            raise ProtocolError("not_allowed", "spectators_watch")
        if actor >= 0 and message.seat is None:
            room.presence.acted(actor)  # (a person's own decision: he is here)
        room.submit(actor, message.verb, list(message.args), state_id)

    def close(self, client: Client, room: Room, message: Close) -> None:
        """The host closes the open step."""
        if not client.host:
            raise ProtocolError("not_host", "host_closes")
        # Checked against the view the host was shown. While the pacing holds the
        # night's next step back, the step shown is over already: the close is
        # acknowledged and changes nothing, as if it had closed it (the held step,
        # which nobody has seen, is not closed; its answer tells nothing).
        shown = None if room.game is None else room.pacer.view(client.seat)
        if shown is not None and message.state_id != shown.state_id:
            raise ProtocolError("stale", "moved_on")
        if room.pacer.held is None:
            room.close_step()

    def chat(self, client: Client, room: Room, message: Chat) -> None:
        """A chat line, paid for from the client's and its address's allowances."""
        if not (client.chat.take() and self.gate.chat(client)):
            raise ProtocolError("slow_down", "chat_rate")
        line = post(room, client, message.text)
        if client.seat is not None and client.seat >= 0:
            room.presence.acted(client.seat)
            room.ai.heard(line)  # (the AI players at the table may answer it)

    def new_link(self, client: Client, room: Room, message: NewLink) -> None:
        """A seat's new token and join link (and its QR code), to the host alone; then
        the connections that held the old token are told and closed."""
        if not self.gate.peer_of(client).renders.take():
            raise ProtocolError("slow_down", "too_many_links")
        token, doomed = room.new_link(message.seat)
        url = seat_link(client.origin, room.code, token)
        client.send(
            {"type": "ack", "id": message.id, "token": token, "url": url, "qr": svg_text(url)}
        )
        for other in doomed:
            other.send_error("bad_token", "link_replaced")
            other.seat, other.host, other.room = None, False, None  # (nothing more of it)
            other.close()

    def narrator(self, client: Client, room: Room, message: Narrate) -> None:
        """The host chooses who narrates (``narrating``); a screen's link and its QR
        code come in the ``ack``, to the host alone, as a seat's new link does."""
        if message.by == "screen" and not self.gate.peer_of(client).renders.take():
            raise ProtocolError("slow_down", "too_many_links")
        token = room.narration.choose(message.by, message.seat)
        if token is None:
            client.send({"type": "ack", "id": message.id})
            return
        url = screen_link(client.origin, room.code, token)
        client.send(
            {"type": "ack", "id": message.id, "token": token, "url": url, "qr": svg_text(url)}
        )

    def enter(self, client: Client, message: Join | Rejoin | Watch) -> None:
        """A connection enters a room: a look-up by code (and token), refused unread
        while its client has no guess left (``ServerLimits.guess_rate``); a wrong code
        or token takes one."""
        peer = self.gate.peer_of(client)
        if not peer.entries.take():  # (every try counts)
            raise ProtocolError("slow_down", "too_many_entries")
        if isinstance(client.room, Room):
            raise ProtocolError("not_allowed", "in_room")
        guesses = peer.guesses
        if not guesses.ready():
            raise ProtocolError("slow_down", "too_many_guesses")
        try:
            self.admit(client, message)
        except Elsewhere as there:
            assert self.cluster is not None
            self.cluster.relay(client, there.owner, message)
        except ProtocolError as exc:
            if exc.code in GUESSED or (isinstance(message, Watch) and message.token):
                guesses.take()
            raise

    def admit(self, client: Client, message: Join | Rejoin | Watch) -> None:
        room = self.room(message.room)
        client.lang = message.lang if message.lang in room.book.languages else room.lang
        token: str | None = None
        if isinstance(message, Join):
            token, seat = room.join(message.name)
            client.seat = seat
        elif isinstance(message, Rejoin):
            token = message.token
            client.seat = room.seat_of(token)
            client.host = room.is_host(digest(token))
            client.creator = client.seat is None and room.is_creator(digest(token))
        else:
            client.seat = None
            narrating = self.narrating(room, message.token)
            if not (room.settings.spectators or self.hosting(room, message.token) or narrating):
                raise ProtocolError("not_allowed", "no_spectators")
            if narrating and message.token is not None:
                client.narrator_key = digest(message.token)
        client.room = room
        room.connect(client)
        client.send(
            {
                "type": "welcome",
                "version": VERSION,
                "room": room.code,
                "seat": client.seat,
                "host": client.host,
                "token": token if isinstance(message, Join) else None,
                "id": message.id,
            }
        )
        room.broadcast_lobby(client)  # (the lobby shows who is connected)
        room.send_chat_history(client)

    @staticmethod
    def narrating(room: Room, token: str | None) -> bool:
        """Whether ``token`` may watch as the room's narrator (its chosen seat's, or its
        screen's: ``narrating``)."""
        return token is not None and room.narration.admits(digest(token))

    @staticmethod
    def hosting(room: Room, token: str | None) -> bool:
        """Whether ``token`` is the room's host's (a watch may bring it)."""
        return token is not None and room.is_host(digest(token))

    def leave(self, client: Client) -> None:
        if client.relay is not None and self.cluster is not None:
            self.cluster.gone(client)
        room = client.room
        if isinstance(room, Room):
            room.disconnect(client)
        client.room = None
        self.gate.disconnect(client)


def leaders_answer(room: Room, seat: int, state_id: int) -> int:
    """A game leader acts for ``seat`` answering his own view (``state_id``): checked
    against the leader's view here, it stands for the seat's current view."""
    game = room.game
    if game is None or room.status != "playing":
        raise ProtocolError("not_allowed", "no_game")
    if not 0 <= seat < game.n:
        raise ProtocolError("not_allowed", "no_seat", n=bounded(seat + 1))
    if state_id != game.state_id:
        raise ProtocolError("stale", "choose_again")
    return game.view(seat).state_id
