"""A room's game, from its start to its end and back to the lobby: the one path by which
actions reach it.

The room is the game master. It owns one ``Game`` at a time and is the only thing that
applies actions to it, people's and bots' alike, through one path (``submit``): the
client's state id is checked, the engine checks the action, the store commits it
(``record``), and only then does anyone hear of it (``after_change``). Everything here
runs on the server's event loop and never awaits, so each change is atomic.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import Any

from lupus.engine.deal import Deal
from lupus.engine.errors import IllegalAction, LupusError
from lupus.engine.game import Game
from lupus.engine.model import LEADER, Action
from lupus.families import deal as random_deal
from lupus.families import set_up
from lupus.server.clients import Said
from lupus.server.protocol import Dealt, ProtocolError
from lupus.server.records import replayed, result, stored
from lupus.server.room_core import RoomCore
from lupus.server.seats import Seat

log = logging.getLogger("lupus.server")


class Playing(RoomCore):
    """A room's game's life (see the module docstring)."""

    # ------------------------------------------------------------------ as shown
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

    # ------------------------------------------------------------------ a game starts
    def start(self, fill: str | None = None, by_hand: Dealt | None = None) -> None:
        """The host's ``start``: the empty seats given bots of ``fill`` (if he said so),
        the cards dealt (at random, seeded by the room's seed if it has one, or by a
        game leader's hand), and the game and the room committed as they start, in one
        commit, before anyone is shown it."""
        if self.shown_status == "playing":
            raise ProtocolError("started", "started")
        if by_hand is not None and self.settings.mode != "leader":
            raise ProtocolError("not_allowed", "leader_deals")
        self.check_kind(fill)
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

    # ------------------------------------------------------------------ actions
    def submit(
        self, actor: int, verb: str, args: list[int | str], state_id: int, by: str | None = None
    ) -> None:
        """Apply an action for ``actor`` (a seat, or LEADER) answering the view whose
        state id is ``state_id``; committed before anyone hears of it, with who played
        it (``by``: None for a person, else the bot's kind: ``Store.append_action``).

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
        self.record(game, by)
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

    def record(self, game: Game, by: str | None = None) -> None:
        """Commit the action just applied (played ``by``: see ``submit``); if the store
        fails, the game is replayed without it (as the store holds it), so that the game
        and its log never differ."""
        assert self.game_id is not None
        index, action = len(game.history) - 1, stored(game.history[-1])
        try:
            self.store.append_action(self.game_id, index, action, by)
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
        """A change committed: the night's pacing looks at it first (it may hold a
        step back), then every client is sent what changed, then the bots owed a
        decision in what was shown are scheduled, and the AI players who may talk now
        are asked their lines."""
        self.updated = self.clock()
        self.pacer.changed()
        self.broadcast()
        if self.pacer.held is None:
            self.bots.schedule()
        self.ai.changed()  # (an AI player's line when the day opens, or the pack wakes)

    def later(self, delay: float, call: Callable[[], None]) -> Any:
        """Bots' work after ``delay``: in the room's turn of the server's worker (so that
        no room's bots hold the loop for long), or at once without one."""
        work = self.work
        if work is None:
            return self.schedule(delay, call)
        return self.schedule(delay, partial(work, self.code, call))
