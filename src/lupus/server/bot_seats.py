"""The bots that sit in a room's seats: when each moves, and when the room closes a
step nobody can move on.

A bot decides from its seat's view only and acts through the room's one way in
(``Room.submit``), as a person's client does, after the room's ``bot_delay``; a day's
ballot (a step in which several seats decide at once: the vote, the election, the
nominations) it casts at a time of its own, spread over the discussion (``SPREAD``), as
people do. A bot in a pack that disagrees is asked again when the game waits on it
again (see ``lupus.village.pack``), and then joins the others' lead
(``lupus.bots.den``): a pack of bots agrees within a round, and follows a person whose
choice is the latest.
"""

from __future__ import annotations

import logging
import random
import secrets
from functools import partial
from typing import TYPE_CHECKING, Final

from lupus.bots.base import Bot
from lupus.bots.kinds import make_bot
from lupus.engine.model import Action
from lupus.server.protocol import ProtocolError
from lupus.server.store import AI_FALLBACK

if TYPE_CHECKING:
    from lupus.server.room_parts import BotsRoom

log = logging.getLogger("lupus.server")

BOT_TRIES: Final = 3
"""How many times a bot decides in one step: a pack of bots that keeps pointing at
different players stops there (the timer, the host or the stalemate rule closes it)."""

AI: Final = "llm"
"""The bot kind of an AI player (``ai_seats``): the server's model decides for it."""

SPREAD: Final = (3.5, 12.0)
"""When bots cast a day's ballots, in ``bot_delay``s after the step is shown: from the
first number on, over the second (at the default delay of 1.5 s: from about 5 s to 23 s
after the step opens). The bots waited for take their turns in an order drawn for the
step, spread evenly from the start of that stretch to its end, each a little off its
place (``JITTER``), so that the ballots come one by one over the discussion, and a room
of bots with a short delay still plays fast."""

JITTER: Final = 0.2
"""How far a bot's ballot may stray from its place, in the gaps between two places."""

FIT: Final = 0.75
"""A step with a timer: the bots' ballots are spread over this share of the time it has
left at most (they are all cast well before it runs out)."""


class BotSeats:
    """A room's bots and what they owe in the current step."""

    def __init__(self, room: BotsRoom) -> None:
        self.room = room
        self.rng = random.Random(secrets.randbits(64))
        self.game = 0  # which of the room's games the moves scheduled are for
        self.reset()

    def reset(self) -> None:
        """A new game: new bots (a bot remembers its game), nothing owed, and the moves
        and closes scheduled for the last game come to nothing ("play again" may come
        before they are due)."""
        self.game += 1
        self.bots: dict[int, Bot] = {}
        self.pending: set[int] = set()  # seats whose bot will move
        self.step_actions = 0  # actions in the current step (a bots' stalemate)
        self.step_seen: object = None
        self.moves: dict[int, int] = {}  # decisions each bot took in the current step
        self.slots: dict[int, float] = {}  # when each bot casts its ballot (``spread``)
        self.steps = 0  # steps seen in this game (a move is for the step it was due in)

    def seed(self, seed: str) -> None:
        """A seeded room's bots decide the same way every time."""
        self.rng = random.Random(seed)

    def forget(self, seat: int) -> None:
        """The seat's person is back, or another kind of bot plays it: its bot is
        dropped (the next one is made of the seat's kind), and so is its move owed:
        the next kind is scheduled anew (``schedule``; a move or an AI player's answer
        still on its way is taken only if the seat still owes it)."""
        self.bots.pop(seat, None)
        self.pending.discard(seat)

    def schedule(self) -> None:
        """After a change: each bot the game waits for moves after the room's delay, and
        a step nobody can move on is closed (see ``may_close``)."""
        room = self.room
        game = room.game
        if game is None or room.status != "playing" or room.pacer.held is not None:
            return
        waiting = game.waiting()
        delay = room.settings.bot_delay
        if game.step is not self.step_seen:
            self.step_seen, self.step_actions = game.step, 0
            self.steps += 1  # (a move scheduled in the last step comes to nothing)
            self.moves, self.pending = {}, set()
            self.slots = self.spread(waiting, delay) if game.phase == "day" else {}
        else:
            self.step_actions += 1
        humans_waited = False
        tired = 0  # bots waited for that have decided BOT_TRIES times in this step
        step = game.step
        floor = room.pacer.night_floor(step.id) if step and game.phase == "night" else 0.0
        for seat in waiting:
            held = room.seats[seat]
            if held is None or held.bot is None:
                humans_waited = True
                continue
            moved = self.moves.get(seat, 0)
            if moved >= BOT_TRIES:
                tired += 1  # (a pack that cannot agree: people, the timer or the host)
            elif seat not in self.pending:
                self.pending.add(seat)
                wait = self.slots.pop(seat, delay)
                if floor > 0:
                    # A bot holding a night card decides well within the step's minimum,
                    # so that its step lasts exactly as long as a dead or absent card's
                    # (a fixed delay longer than that would tell everyone the card is a
                    # living bot's); asked again (its pack disagrees), in half the time
                    # left, so that a pack of bots agrees within the minimum too.
                    wait = min(wait, floor / 2 ** (moved + 1))
                room.later(wait, partial(self.move, seat, self.game, self.steps))
        stalled = self.step_actions > 4 * game.n or (bool(waiting) and tired == len(waiting))
        if not humans_waited and (not waiting or stalled) and self.may_close(stalled):
            room.later(delay, partial(self.close, game.state_id, self.game))

    def spread(self, waiting: list[int], delay: float) -> dict[int, float]:
        """When each bot waited for casts its ballot in a day's step that several seats
        decide at once (see ``SPREAD``); none for a step one seat decides (a Captain's
        choice, a Hunter's shot, a Lupusburg turn: the bot takes its delay)."""
        room = self.room
        bots = [s for s in waiting if (held := room.seats[s]) is not None and held.bot]
        if len(waiting) < 2 or not bots:
            return {}
        rng = self.rng
        rng.shuffle(bots)
        start, span = SPREAD
        scale = delay
        deadline = room.pacer.shown_deadline()
        if deadline is not None:  # (all cast in good time)
            scale = min(scale, FIT * max(0.0, deadline - room.clock()) / (start + span))
        gaps = len(bots) - 1
        slots = {}
        for place, seat in enumerate(bots):
            # (one bot among people: any time in the stretch)
            at = (place + rng.uniform(-JITTER, JITTER)) / gaps if gaps else rng.random()
            slots[seat] = scale * (start + span * min(1.0, max(0.0, at)))
        return slots

    def may_close(self, stalled: bool) -> bool:
        """Whether the room may close a step itself: nobody is waited for and no
        person could move the day on (all living seats are bots), or the bots keep
        reopening it (a mafia of bots that cannot agree)."""
        room = self.room
        game = room.game
        assert game is not None
        if stalled:
            return True
        if self.timed():
            return False  # the step's timer closes it
        return all((held := room.seats[s]) is not None and held.bot for s in game.living)

    def timed(self) -> bool:
        """Whether the current step has a timer (the room's ``timers``: its own, or the
        night's or the day's). Only such a step is left to its timer: a room whose
        timers name other steps closes this one itself, or a table of bots would never
        leave an open-ended step (a nominations round everybody has answered)."""
        room = self.room
        game = room.game
        assert game is not None
        timers = room.settings.timers
        step = game.step
        if step is not None and step.id in timers.steps:
            return True
        return (timers.night if game.phase == "night" else timers.day) is not None

    def close(self, state: int, of_game: int) -> None:
        """Close the step still open at ``state`` (nothing if the game moved on)."""
        room = self.room
        game = room.game
        if of_game != self.game or game is None or room.status != "playing":
            return
        if game.state_id != state:
            return
        try:
            room.close_step()
        except ProtocolError as exc:
            log.warning("close_failed room=%s code=%s", room.code, exc.code)

    def move(self, seat: int, of_game: int, of_step: int | None = None) -> None:
        """A bot's decision, from its seat's view, through the same path as a person's;
        nothing if it was due in another game or in an earlier step (a ballot spread
        over a day that its timer closed first: the bot moves again as the next step
        asks it)."""
        if of_game != self.game or (of_step is not None and of_step != self.steps):
            return  # (a move owed in the last game, or in a step that is over)
        self.pending.discard(seat)
        room = self.room
        game = room.game
        held = room.seats[seat]
        if game is None or room.status != "playing" or held is None or held.bot is None:
            return
        if room.pacer.held is not None:
            return  # (the step shown is over: it moves again when the next one is)
        if seat not in game.waiting():
            return
        view = game.view(seat)
        if not view.prompts:
            return
        moved = self.moves.get(seat, 0)
        self.moves[seat] = moved + 1
        if held.bot == AI and room.ai.able and moved == 0:
            # The model answers in a thread (``answer`` applies it, on the loop). Asked
            # again in the same step (its pack disagrees), an AI player follows the
            # pack's lead as a bot does (``lupus.bots.den``): the model, asked the same
            # question, would repeat itself, and a pack that never agrees starves.
            self.pending.add(seat)
            room.ai.think(seat, view, self.game, self.steps)
            return
        bot = self.bots.get(seat)
        if bot is None:  # (an AI seat on a server without a model plays as a bot)
            kind = "heuristic" if held.bot == AI else held.bot
            bot = self.bots[seat] = make_bot(kind, room.book)
        # (an AI seat's decision taken by the heuristic bot is the stand-in's)
        by = AI_FALLBACK if held.bot == AI else held.bot
        self.apply(seat, bot.act(view, self.rng), view.state_id, by)

    def answer(
        self,
        seat: int,
        action: Action,
        state_id: int,
        of_game: int,
        of_step: int,
        fell_back: bool = False,
    ) -> None:
        """An AI seat's decision, back from the model (``fell_back``: the stand-in's):
        applied as a bot's if the seat still owes it (a stale one is dropped and asked
        again); nothing if its step is over (the next step asks the seat anew)."""
        if of_game != self.game or of_step != self.steps:
            return
        self.pending.discard(seat)
        room = self.room
        game = room.game
        held = room.seats[seat]
        if game is None or room.status != "playing" or held is None or held.bot != AI:
            return
        if room.pacer.held is not None or seat not in game.waiting():
            return
        by = AI_FALLBACK if fell_back else AI
        if self.apply(seat, action, state_id, by) == "stale":
            self.moves[seat] -= 1  # (not taken: the model is asked anew)
            self.pending.add(seat)
            again = partial(self.move, seat, self.game, self.steps)
            room.later(room.settings.bot_delay, again)

    def apply(self, seat: int, action: Action, state_id: int, by: str | None) -> str | None:
        """A bot's action through the room's one way in, stored as played ``by`` (the
        bot's kind, or ``AI_FALLBACK``); the refusal's code, if any."""
        room = self.room
        try:
            room.submit(seat, action.verb, list(action.args), state_id, by)
        except ProtocolError as exc:
            log.warning("bot_refused room=%s seat=%d code=%s", room.code, seat, exc.code)
            return exc.code
        return None
