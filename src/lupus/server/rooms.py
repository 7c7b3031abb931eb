"""A room: its seats, its game, its chat, and everyone connected to it.

The room is the game master. It owns one ``Game`` at a time and is the only thing that
applies actions to it, people's and bots' alike, through one path (``submit``): the
client's state id is checked, the engine checks the action, the store commits it, and
only then does anyone hear of it. Everything here runs on the server's event loop and
never awaits, so each change is atomic; what goes out to a client is put on its queue.

What a client receives is computed from the engine's view of its seat (the leader's
for a game leader, the public view for a spectator), never from the game itself.
"""

from __future__ import annotations

import logging
import random
import secrets
import time
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import Any

from pydantic import ValidationError

from lupus.engine.deal import Deal
from lupus.engine.errors import IllegalAction, LupusError
from lupus.engine.game import Game
from lupus.engine.model import LEADER, Action, Prompt
from lupus.engine.names import checked_names, name_key
from lupus.engine.untrusted import bounded
from lupus.families import deal as random_deal
from lupus.families import family_of, load, set_up
from lupus.server import chat
from lupus.server.bot_seats import BotSeats
from lupus.server.clients import Client, Said, json_text
from lupus.server.limits import ServerLimits
from lupus.server.lobby import lobby_of
from lupus.server.narrating import Narration
from lupus.server.pacing import Pacer
from lupus.server.presence import Presence
from lupus.server.protocol import Dealt, ProtocolError, explain
from lupus.server.records import replayed, result, stored
from lupus.server.seats import Seat, digest, new_token
from lupus.server.settings import RoomSettings, changed, check_settings
from lupus.server.store import GameRecord, Store

log = logging.getLogger("lupus.server")

Schedule = Callable[[float, Callable[[], None]], Any]
"""``loop.call_later``: run a function after a delay (bots' moves, timers)."""

Work = Callable[[str, Callable[[], None]], None]
"""``work.Worker.put``: run a room's bots' work in that room's turn."""


class Room:
    """One room (see the module docstring)."""

    def __init__(
        self,
        code: str,
        settings: RoomSettings,
        store: Store,
        schedule: Schedule,
        clock: Callable[[], float] = time.time,
        ticks: Callable[[], float] = time.monotonic,
        work: Work | None = None,
        limits: ServerLimits | None = None,
    ) -> None:
        """``clock``: epoch seconds (deadlines, what is stored); ``ticks``: a monotonic
        clock, which measures how long a night step lasted; ``limits``: the server's
        (how long a host or a player may be gone: ``presence``)."""
        self.code = code
        self.work = work
        self.limits = limits or ServerLimits()
        self.settings = settings
        self.book = load(settings.rules)
        self.lang = settings.lang or self.book.language
        self.store = store
        self.schedule = schedule
        self.clock = clock
        self.ticks = ticks
        self.seats: list[Seat | None] = [None] * settings.players
        # Who holds the host's powers now (``presence``): the digest of his token, and
        # his seat (None for a creator without one, or a game leader).
        self.host_token: str | None = None
        self.host_seat: int | None = None
        # A creator without a seat: his token, which watches the room once his powers
        # have passed on (a seat's token is its seat's).
        self.first_token: str | None = None
        self.status = "lobby"  # then "playing", "finished"
        self.number = 0  # games played in this room
        self.game: Game | None = None
        self.game_id: str | None = None
        self.games: list[str] = []  # ids of the room's games, oldest first
        # How each finished game of the room ended (public once it is over): a match's
        # scores add up over them (Lupusburg), a page arriving late reads them here.
        self.results: list[dict[str, object]] = []
        self._lobby_key: tuple[object, ...] = ()
        self._lobby_text = ""
        self.chat_log: list[dict[str, object]] = []  # the current game's (or the lobby's)
        self.clients: set[Client] = set()
        self.bots = BotSeats(self)
        self.pacer = Pacer(self)
        self.presence = Presence(self)
        # Who reads the public story aloud at one table (``narrating``).
        self.narration = Narration(self)
        self.said = Said()
        # Each seat's prompts as last shown, and the state id from which they were.
        self.offered: dict[int, tuple[tuple[Prompt, ...], int]] = {}
        self.updated = clock()
        if settings.mode == "leader":
            assert settings.names is not None
            no_dot = family_of(self.book).names_without_dot
            for seat, name in enumerate(checked_names(self.book, settings.names, no_dot)):
                self.seats[seat] = Seat(name, None)

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
        self.in_lobby()
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
        """A bot plays a person's seat (he left), or the person again."""
        self.check_seat_number(seat)
        held = self.seats[seat]
        if held is None or held.token is None:
            raise ProtocolError("not_allowed", "hand_over_person")
        held.bot = kind
        self.presence.handed(seat)
        if kind is None:
            self.bots.forget(seat)
        self.save()
        self.broadcast()
        self.bots.schedule()  # (the bot may owe a decision now)

    def change_settings(self, changes: dict[str, object], min_bot_delay: float) -> None:
        """The host's ``settings``: checked as a new room's are (``malformed`` for what
        the model refuses, ``not_allowed`` for what the rulebook or the server does),
        kept, and shown; the next game (``start``, ``again``) plays with them. Never
        during a game: its steps were timed, and its bots paced, as it started. A
        spectator already watching stays when spectators are switched off (``watch``
        is refused from then on)."""
        if self.shown_status == "playing":
            raise ProtocolError("started", "change_between_games")
        leader = self.settings.mode == "leader"
        if leader and ("timers" in changes or "timer_scale" in changes):
            raise ProtocolError("not_allowed", "leader_no_timers")
        resized = changes.get("players", self.settings.players) != self.settings.players
        if leader and resized:
            raise ProtocolError("not_allowed", "leader_no_players")
        if resized and self.status != "lobby":
            # (the finished game's seats are still shown: the table changes in the lobby)
            raise ProtocolError("not_allowed", "lobby_first")
        try:
            settings = changed(self.settings, changes)
        except ValidationError as exc:
            raise ProtocolError("malformed", "malformed", detail=explain(exc)) from exc
        # (a trial deal and set-up only when the table itself changes: see check_settings)
        trial = "players" in changes or "composition" in changes or "options" in changes
        problem = check_settings(settings, min_bot_delay, trial=trial)
        if problem is not None:
            raise ProtocolError("not_allowed", problem)
        if settings == self.settings:
            return
        self.settings = settings
        self.resize(settings.players)
        if not settings.absent_bots:
            for held in self.seats:  # (an absence of the last game: his seat waits now)
                if held is not None and held.away:
                    held.bot, held.away = None, False
        log.info("room_settings room=%s timed=%s", self.code, settings.timed)
        self.changed_lobby()

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

    def in_lobby(self) -> None:
        if self.status != "lobby":
            raise ProtocolError("started", "started")

    def check_seat_number(self, seat: int) -> None:
        if not 0 <= seat < len(self.seats):
            raise ProtocolError("not_allowed", "no_seat", n=bounded(seat + 1))

    def changed_lobby(self) -> None:
        self.save()
        self.broadcast()

    def later(self, delay: float, call: Callable[[], None]) -> Any:
        """Bots' work after ``delay``: in the room's turn of the server's worker (so that
        no room's bots hold the loop for long), or at once without one."""
        work = self.work
        if work is None:
            return self.schedule(delay, call)
        return self.schedule(delay, partial(work, self.code, call))

    # ------------------------------------------------------------------ games
    @property
    def shown_status(self) -> str:
        """The room's status as its clients have been shown it: a game that ended in a
        step still held back by the night's pacing is being played until it is shown
        (everything a client is told, or may do, follows what he was shown)."""
        if self.status == "finished" and self.pacer.held is not None:
            return "playing"
        return self.status

    def shown_results(self) -> list[dict[str, object]]:
        """The finished games' results as shown (the last one once its end is)."""
        if self.status == "finished" and self.pacer.held is not None:
            return self.results[:-1]
        return self.results

    def start(self, fill: str | None = None, by_hand: Dealt | None = None) -> None:
        if self.shown_status == "playing":
            raise ProtocolError("started", "started")
        if by_hand is not None and self.settings.mode != "leader":
            raise ProtocolError("not_allowed", "leader_deals")
        if fill is not None:
            for seat, held in enumerate(self.seats):
                if held is None:
                    self.seats[seat] = Seat(self.bot_name(seat), None, fill)
        if any(seat is None for seat in self.seats):
            raise ProtocolError("not_allowed", "seat_empty")
        names = [seat.name for seat in self.seats if seat is not None]
        book = self.book
        seed = self.settings.seed
        number = self.number + 1
        rng = random.Random(secrets.randbits(64) if seed is None else f"{seed}-{number}")
        try:
            options = dict(self.settings.options)
            if by_hand is None:
                dealt = random_deal(book, len(names), self.settings.counts(), rng, options)
            else:
                dealt = self.hand_deal(by_hand)
            game = set_up(book, names, dealt, options, rng.getrandbits(63))
        except LupusError as exc:
            raise ProtocolError("not_allowed", "rules", detail=str(exc)) from exc
        self.number = number
        game_id = f"{self.code}-{number}-{secrets.token_hex(4)}"
        header = game.to_scenario()
        header.pop("actions", None)
        # The game and the room as it starts (its seats, bots too), in one commit.
        self.store.start_game(
            self.code,
            game_id,
            number,
            header,
            self.clock(),
            {**self.to_state(), "status": "playing"},
        )
        self.begin(game, game_id)
        if seed is not None:
            self.bots.seed(f"{seed}-{number}-bots")
        self.save()
        log.info(
            "game_started room=%s game=%s rules=%s seats=%d",
            self.code,
            game_id,
            book.id,
            len(names),
        )
        self.after_change()

    def hand_deal(self, by_hand: Dealt) -> Deal:
        """A game leader's deal, of the room's deck and no other card (the engine's
        set-up checks the rest: a card per seat, the Thief's, the chests...)."""
        cards = [*by_hand.roles, *by_hand.extra_cards]
        cards += [card for pair in by_hand.characters for card in pair]
        deck = self.settings.counts()
        if Counter(cards) != Counter({card: n for card, n in deck.items() if n}):
            shown = ", ".join(f"{n} {card}" for card, n in sorted(deck.items()) if n)
            raise ProtocolError("not_allowed", "not_the_deck", deck=shown)
        return Deal(
            roles=tuple(by_hand.roles),
            extra_cards=tuple(by_hand.extra_cards),
            characters=tuple(tuple(pair) for pair in by_hand.characters),
            chests=tuple(by_hand.chests),
            burgomaster=by_hand.burgomaster,
        )

    def begin(self, game: Game, game_id: str) -> None:
        self.game, self.game_id = game, game_id
        self.games.append(game_id)
        self.status = "finished" if game.finished else "playing"
        self.chat_log = []
        self.bots.reset()
        self.pacer.reset()
        self.said = Said()  # the new game's words
        self.offered = {}
        for client in self.clients:
            client.new_game()
        self.presence.game_began()

    # ------------------------------------------------------------------ play again
    def again(self) -> None:
        """ "Play again": after the end, back to the lobby with the same seats (bots
        too), settings and results. There the host may move, remove or add seats and
        change the settings (``settings``), and ``start`` plays the next game. The
        finished game stays the room's last one (its id, its end for a page that
        asks, the chat kept with it) until then; the lobby is kept by the store, so a
        restart between games comes back to it."""
        if self.shown_status != "finished":
            raise ProtocolError("not_allowed", "not_over")
        # The lobby as before a first game: no game shown to anyone (a newcomer in a
        # seat freed between games is sent nothing of the last one's seat), the talk
        # the lobby's again (its earlier lines kept, its new ones after them).
        self.status = "lobby"
        self.game, self.game_id = None, None
        self.offered = {}
        self.bots.reset()
        self.pacer.reset()
        self.chat_log = self.store.chat(f"{self.code}-lobby")
        for client in self.clients:
            client.new_game()
        log.info("room_again room=%s games=%d", self.code, self.number)
        self.changed_lobby()

    def submit(self, actor: int, verb: str, args: list[int | str], state_id: int) -> None:
        """Apply an action for ``actor`` (a seat, or LEADER) answering the view whose
        state id is ``state_id``; committed before anyone hears of it.

        The answer follows what the seat was shown, never the game beyond it: while the
        night's pacing holds a step back, the step shown is over and nobody has anything
        to do in it, as a seat that acts in nobody's step is told (``illegal``), and an
        answer to an older view is ``stale`` as ever."""
        game = self.game
        if game is None or self.shown_status != "playing":
            raise ProtocolError("not_allowed", "no_game")
        held = self.pacer.held
        if actor == LEADER:
            current = since = game.state_id
        else:
            # Any view since the seat's prompts were last shown as they are now: another
            # player's vote does not make a ballot the seat was looking at stale.
            view = self.pacer.view(actor)
            current = since = view.state_id
            offered = self.offered.get(actor)
            if offered is not None and offered[0] == view.prompts:
                since = offered[1]
        if not since <= state_id <= current:
            raise ProtocolError("stale", "choose_again")
        try:
            action = Action.of(actor, verb, tuple(args))
            if held is not None:  # (as the engine says it of a seat with no prompt)
                raise IllegalAction(f"{game.actor_name(actor)} has nothing to do now")
            game.apply(action)
        except IllegalAction as exc:
            raise ProtocolError("illegal", "illegal", detail=str(exc)) from exc
        self.record(game)
        self.after_change()

    def timed_out(self) -> None:
        """The open step's timer ran out: the leader closes it, and the persons it
        still waited for have missed it, if it is a public one (``presence``)."""
        game = self.game
        waited = list(game.waiting()) if game is not None and self.presence.public_step() else []
        self.close_step()
        self.presence.ran_out(waited)

    def close_step(self) -> None:
        """The leader closes the open step (a timer, the host, a bots' stalemate)."""
        game = self.game
        if game is None or self.status != "playing":
            raise ProtocolError("not_allowed", "no_game")
        game.apply(Action(LEADER, "close"))
        self.record(game)
        self.after_change()

    def record(self, game: Game) -> None:
        """Commit the action just applied; if the store fails, the game is replayed
        without it (as the store holds it), so that the game and its log never differ."""
        assert self.game_id is not None
        try:
            self.store.append_action(self.game_id, len(game.history) - 1, stored(game.history[-1]))
            if game.finished:
                self.store.finish_game(self.game_id, self.clock())
        except Exception as exc:
            log.exception("store_refused room=%s game=%s", self.code, self.game_id)
            kept = [stored(done) for done in game.history[:-1]]
            self.game = replayed(game.to_scenario(), kept)
            raise ProtocolError("internal", "not_saved") from exc
        if game.finished:
            self.status = "finished"
            self.results.append(result(self.game_id, game))
            self.save()
            log.info(
                "game_over room=%s game=%s actions=%d", self.code, self.game_id, len(game.history)
            )

    # ------------------------------------------------------------------ after a change
    def after_change(self) -> None:
        self.updated = self.clock()
        self.pacer.changed()
        self.broadcast()
        if self.pacer.held is None:
            self.bots.schedule()

    def broadcast(self) -> None:
        """Send every client what changed for it (the lobby and the seats waited for
        worked out once for all)."""
        lobby = self.lobby_text()
        waiting = self.waited()
        for client in list(self.clients):
            self.update(client, lobby, waiting)

    def broadcast_lobby(self, entered: Client | None = None) -> None:
        """Send every client the lobby, and a client who just ``entered`` his whole
        view too: a connection that comes or goes changes the lobby (who is connected,
        who holds the host's powers) and no one's view, and looking at every client's
        view again for each of a room's hundred spectators made each new one cost a
        hundred views."""
        lobby = self.lobby_text()
        for client in list(self.clients):
            if client is entered:
                self.update(client, lobby)
            else:
                client.send_lobby(lobby)

    def waited(self) -> frozenset[int]:
        game = self.game
        if game is None or self.pacer.held is not None:
            return frozenset()
        return frozenset(game.waiting())

    def update(
        self,
        client: Client,
        lobby: str | None = None,
        waiting: frozenset[int] | None = None,
    ) -> None:
        """Send a client what changed for it: the lobby (its JSON text), or its view."""
        if lobby is None:
            lobby = self.lobby_text()
        client.send_lobby(lobby)
        game = self.game
        if game is None:
            return
        if waiting is None:
            waiting = self.waited()
        seat, pacer = client.seat, self.pacer
        shown = pacer.held is None
        deadline = pacer.shown_deadline()
        table: tuple[tuple[int, tuple[Prompt, ...]], ...] = ()
        if seat == LEADER and shown:
            # The game leader answers for the table: each seat's open prompts.
            opened = ((s, game.open_prompts(s)) for s in range(game.n))
            table = tuple((s, prompts) for s, prompts in opened if prompts)
        view = pacer.view(seat)
        if seat is not None and seat >= 0:
            offered = self.offered.get(seat)
            if offered is None or offered[0] != view.prompts:
                self.offered[seat] = (view.prompts, view.state_id)
        waited = seat in waiting
        game_id = self.game_id or ""
        client.send_view(game, view, game_id, waited, deadline, table, self.said, pacer.public_time)

    def lobby_text(self) -> str:
        """The lobby as JSON text, written again only when something in it changed: it
        goes out after every action, and changes a few times a game (seats, who is
        connected, a game starting or ending)."""
        seats = tuple(
            None if s is None else (s.name, s.bot, s.token is None, s.away) for s in self.seats
        )
        connected = frozenset([client.seat for client in self.clients])
        status, results = self.shown_status, len(self.shown_results())
        key: tuple[object, ...] = (
            status,
            self.number,
            self.game_id,
            results,
            connected,
            seats,
            self.host_seat,
            self.settings,  # (the host's ``settings``: a new object each change)
        )
        key += (self.narration.key(),)  # (who narrates at one table)
        if key != self._lobby_key:
            self._lobby_key = key
            self._lobby_text = json_text(lobby_of(self))
        return self._lobby_text

    # ------------------------------------------------------------------ chat
    def store_chat(self, line: dict[str, object]) -> None:
        """Keep a chat line with the game (before the first one, with the lobby)."""
        kept_with = self.game_id or f"{self.code}-lobby"
        self.store.append_chat(kept_with, len(self.chat_log), line)
        self.chat_log.append(line)

    def send_chat_history(self, client: Client) -> None:
        chat.history(self, client)

    # ------------------------------------------------------------------ storage
    def to_state(self) -> dict[str, object]:
        return {
            "settings": self.settings.model_dump(),
            "seats": [None if seat is None else seat.to_state() for seat in self.seats],
            "host_token": self.host_token,
            "host_seat": self.host_seat,
            "first_token": self.first_token,
            "status": self.status,
            "number": self.number,
            "games": list(self.games),
            "results": list(self.results),
            "timer": self.pacer.to_state(),
            "narrator": self.narration.to_state(),
        }

    def save(self) -> None:
        self.updated = self.clock()
        self.store.save_room(self.code, self.to_state(), self.updated)

    @staticmethod
    def restore(
        code: str,
        state: dict[str, Any],
        game: GameRecord | None,
        store: Store,
        schedule: Schedule,
        clock: Callable[[], float] = time.time,
        ticks: Callable[[], float] = time.monotonic,
        work: Work | None = None,
        limits: ServerLimits | None = None,
    ) -> Room:
        """A room as the store kept it, its game replayed action by action."""
        settings = RoomSettings.model_validate(state["settings"])
        room = Room(code, settings, store, schedule, clock, ticks, work, limits)
        room.seats = [None if s is None else Seat.from_state(s) for s in state["seats"]]
        room.host_token = state["host_token"]
        room.host_seat = state["host_seat"]
        room.first_token = state.get("first_token")
        room.number = int(state["number"])
        room.games = list(state.get("games", []))
        room.results = list(state.get("results", []))
        room.narration.restore(state.get("narrator"))
        room.status = "lobby" if game is None else state["status"]
        if game is None or room.status == "lobby":  # the lobby's chat (between games too)
            room.chat_log = store.chat(f"{code}-lobby")
        else:
            played = replayed(game.header, game.actions)
            room.games = [g for g in room.games if g != game.id]
            room.begin(played, game.id)
            room.chat_log = list(game.chat)
            room.pacer.resume(state.get("timer"))
        room.presence.restored()
        return room
