"""A room's seats and tokens: who sits where, who holds which token, and the host's
moves of the seats in the lobby.

A token is given once (its digest is all the room keeps: ``seats.digest``) and holds
one seat, the host's powers, or (for a creator without a seat) the right to watch. The
lobby's seats are taken by people (``join``), given to bots (``add_bot``), freed
(``kick``), swapped, and follow a new number of players (``resize``); a seat freed or
given a new token has its connections told and closed, so that an old token never
holds a seat again.
"""

from __future__ import annotations

import logging
import secrets

from lupus.engine.errors import LupusError
from lupus.engine.model import LEADER
from lupus.engine.names import checked_names, name_key
from lupus.engine.untrusted import bounded
from lupus.families import family_of
from lupus.server.clients import Client
from lupus.server.protocol import ProtocolError
from lupus.server.room_core import RoomCore
from lupus.server.seats import Seat, digest, new_token

log = logging.getLogger("lupus.server")


class Seating(RoomCore):
    """A room's seats and tokens (see the module docstring)."""

    # ------------------------------------------------------------------ identity
    def create_host(self) -> tuple[str, int | None]:
        """The host's token (and seat, when he plays): given once, at creation."""
        token, kept = new_token()
        self.host_token = kept
        if self.settings.mode == "players" and self.settings.host_name is not None:
            self.host_seat = self.take_seat(self.settings.host_name, kept)
        elif self.settings.mode == "players":
            self.first_token = kept
        self.save()
        self.presence.restored()  # (gone until his first connection)
        return token, self.host_seat

    def seat_of(self, token: str) -> int | None:
        """The seat a token holds (LEADER for a game leader's), or ProtocolError."""
        kept = digest(token)
        if self.host_token is not None and secrets.compare_digest(kept, self.host_token):
            return LEADER if self.settings.mode == "leader" else self.host_seat
        for number, seat in enumerate(self.seats):
            if (
                seat is not None
                and seat.token is not None
                and secrets.compare_digest(seat.token, kept)
            ):
                return number
        if self.first_token is not None and secrets.compare_digest(kept, self.first_token):
            return None  # (the creator without a seat, whose powers passed on: he watches)
        raise ProtocolError("bad_token", "bad_token")

    def is_host(self, token_digest: str) -> bool:
        return self.host_token is not None and secrets.compare_digest(token_digest, self.host_token)

    def is_creator(self, token_digest: str) -> bool:
        """Whether a token is the room's creator's who holds no seat (his powers may
        come back to him: ``pass_host`` with no seat)."""
        first = self.first_token
        return first is not None and secrets.compare_digest(token_digest, first)

    # ------------------------------------------------------------------ the lobby
    def take_seat(self, name: str, kept: str) -> int:
        if self.status != "lobby":
            raise ProtocolError("started", "started_watch")
        free = [n for n, seat in enumerate(self.seats) if seat is None]
        if not free:
            raise ProtocolError("room_full", "room_full")
        self.seats[free[0]] = Seat(self.check_name(name), kept)
        return free[0]

    def check_name(self, name: str) -> str:
        """The name as the room keeps it (NFC), or ProtocolError ``bad_name``."""
        taken = [seat.name for seat in self.seats if seat is not None]
        if any(name_key(other) == name_key(name) for other in taken):
            raise ProtocolError("bad_name", "name_taken")
        no_dot = family_of(self.book).names_without_dot
        try:
            return checked_names(self.book, [*taken, name], no_dot, whole=False)[-1]
        except LupusError as exc:
            raise ProtocolError(
                "bad_name", "bad_name", detail=str(exc).replace(f"player {len(taken) + 1}'s ", "")
            ) from exc

    def join(self, name: str) -> tuple[str, int]:
        if self.settings.mode == "leader":
            # A game leader's seats are his table's, named at creation: never a
            # stranger's, not even one the leader freed (kick).
            raise ProtocolError("room_full", "leader_no_join")
        token, kept = new_token()
        seat = self.take_seat(name, kept)
        log.info("seat_joined room=%s seat=%d", self.code, seat)
        self.changed_lobby()
        return token, seat

    def bot_name(self, seat: int) -> str:
        template = self.book.text.get(self.lang, {}).get("bot_name") or "Bot {number}"
        name = template.format(number=seat + 1)
        taken = {name_key(s.name) for s in self.seats if s is not None}
        while name_key(name) in taken:
            name += "'"
        return name

    def add_bot(self, kind: str, seat: int | None) -> None:
        """A bot (or an AI player, ``llm``, if the server has a model) in a seat."""
        self.in_lobby()
        self.check_kind(kind)
        if seat is None:
            free = [n for n, s in enumerate(self.seats) if s is None]
            if not free:
                raise ProtocolError("room_full", "room_full")
            seat = free[0]
        self.check_seat_number(seat)
        if self.seats[seat] is not None:
            raise ProtocolError("not_allowed", "seat_taken", n=seat + 1)
        self.seats[seat] = Seat(self.bot_name(seat), None, kind)
        self.changed_lobby()

    def kick(self, seat: int) -> None:
        self.in_lobby()
        self.check_seat_number(seat)
        if seat == self.host_seat:
            raise ProtocolError("not_allowed", "host_keeps_seat")
        # (a narrating seat given away: the host narrates again)
        self.free_seat(seat, "seat_given_away")
        self.changed_lobby()

    def swap(self, seat: int, other: int) -> None:
        self.in_lobby()
        self.check_seat_number(seat)
        self.check_seat_number(other)
        self.exchange(seat, other)  # (the narrating person's seat moves too)
        self.changed_lobby()

    def hand_over(self, seat: int, kind: str | None) -> None:
        """A bot (or an AI player, ``llm``, if the server has a model) plays a person's
        seat (he left), or the person again. The bot that played it before, and an AI
        player's talk of that seat, are forgotten: the next kind starts afresh, and an
        AI player's line that comes back for a seat it no longer plays is dropped."""
        self.check_seat_number(seat)
        self.check_kind(kind)
        held = self.seats[seat]
        if held is None or held.token is None:
            raise ProtocolError("not_allowed", "hand_over_person")
        if held.bot != kind:
            self.bots.forget(seat)
            self.ai.forget(seat)
        held.bot = kind
        self.presence.handed(seat)
        self.save()
        self.broadcast()
        self.bots.schedule()  # (the bot, an AI player's too, may owe a decision now)

    # ------------------------------------------------------------------ the seats move
    def resize(self, players: int) -> None:
        """The seats follow a new number of players (``settings``, in the lobby). More:
        empty seats at the end. Fewer: whoever sits beyond the last seat moves into a
        free seat below it (the host first, then the other persons, then the bots, each
        in his order); a person with no free seat left takes a bot's (the bot goes);
        a bot with none goes, and so does a person only when every kept seat holds a
        person already: his token stops working and his connections are told
        (``bad_token``, reason ``seat_removed``) and closed, as when the host frees a
        seat (``kick``). The host never loses his seat: when every kept seat holds a
        person, he takes the last one's, and that person is beyond it instead."""
        seats = self.seats
        if players >= len(seats):
            seats.extend([None] * (players - len(seats)))
            return
        host = self.host_seat
        if host is not None and host >= players:
            # The host first: a free seat, else a bot's, else the last kept seat (whose
            # person is then beyond it, as the others are).
            kept = [n for n in range(players) if seats[n] is None]
            kept = kept or [n for n in range(players) if not self.person_at(n)]
            self.exchange(host, kept[0] if kept else players - 1)
        beyond = [n for n in range(players, len(seats)) if seats[n] is not None]
        beyond.sort(key=lambda n: (not self.person_at(n), n))  # (persons first)
        for seat in beyond:
            free = [n for n in range(players) if seats[n] is None]
            if not free and self.person_at(seat):
                free = [n for n in range(players) if not self.person_at(n)]
            if free:
                self.exchange(seat, free[0])
                seats[seat] = None  # (a bot that sat there goes)
            else:
                self.free_seat(seat, "seat_removed")
        for seat in range(players, len(seats)):
            check = self.presence.seat_checks.pop(seat, None)
            if check is not None:
                check.cancel()
        del seats[players:]

    def person_at(self, seat: int) -> bool:
        held = self.seats[seat]
        return held is not None and held.token is not None

    def exchange(self, seat: int, other: int) -> None:
        """Two seats change places, with their connections, the host's place and the
        narrating phone (``swap``, ``resize``)."""
        seats = self.seats
        seats[seat], seats[other] = seats[other], seats[seat]
        if self.host_seat in (seat, other):
            self.host_seat = other if self.host_seat == seat else seat
        for client in self.clients:
            if client.seat in (seat, other):
                client.seat = other if client.seat == seat else seat
        self.narration.swapped(seat, other)

    def free_seat(self, seat: int, reason: str) -> None:
        """Nobody sits at ``seat`` any more: its connections are told why and closed,
        and a narrating phone there narrates no more (the host does)."""
        self.seats[seat] = None
        for client in list(self.clients):
            if client.seat == seat:
                client.send_error("bad_token", reason)
                client.seat = None
                client.close()
        self.narration.freed(seat)
        self.narration.revoke()

    # ------------------------------------------------------------------ tokens and connections
    def pass_host(self, seat: int | None) -> None:
        """The host's powers go to a person's ``seat``, or back to the creator without
        a seat (``presence``)."""
        self.presence.pass_host(seat)

    def new_link(self, seat: int) -> tuple[str, list[Client]]:
        """A new token for a person's ``seat`` (his seat taken back on another device):
        the old one is refused from now on. Returns the token (given this once) and the
        connections that held the old one, to be closed once the host is answered."""
        self.check_seat_number(seat)
        held = self.seats[seat]
        if held is None or held.token is None:
            raise ProtocolError("not_allowed", "link_person")
        token, kept = new_token()
        if self.host_token is not None and secrets.compare_digest(held.token, self.host_token):
            self.host_token = kept  # (the holder's seat: his powers go with its token)
        held.token = kept
        doomed = [client for client in self.clients if client.seat == seat]
        for client in doomed:
            self.clients.discard(client)
        log.info("seat_new_link room=%s seat=%d", self.code, seat)
        self.save()
        for client in doomed:
            self.presence.left(client)
        self.narration.revoke()  # (the seat's narrating phone held the old token)
        self.broadcast()
        return token, doomed

    def connect(self, client: Client) -> None:
        """A connection entered the room (the lobby goes out to all right after)."""
        self.clients.add(client)
        self.presence.entered(client)

    def disconnect(self, client: Client) -> None:
        if client in self.clients:
            self.clients.discard(client)
            self.presence.left(client)
            self.broadcast_lobby()

    # ------------------------------------------------------------------ checks
    def in_lobby(self) -> None:
        if self.status != "lobby":
            raise ProtocolError("started", "started")

    def check_kind(self, kind: str | None) -> None:
        """A bot kind the server can play: an AI player (``llm``) only with a model."""
        if kind == "llm" and not self.ai.able:
            raise ProtocolError("not_allowed", "no_ai_model")

    def check_seat_number(self, seat: int) -> None:
        if not 0 <= seat < len(self.seats):
            raise ProtocolError("not_allowed", "no_seat", n=bounded(seat + 1))
