"""A room's AI players: seats played by the server's language model (``minds``).

An AI seat is a bot seat of kind ``llm``: the room's bots (``bot_seats``) say when it
owes a decision, as for any bot, and hand it here. Its view is taken on the loop (what
the seat may know now), with the lines of the room's chat that the seat may read,
people's too (``heard_by``); the model is asked in a thread (``LlmBot``, which falls
back to the heuristic bot when the model fails, is slow or answers nothing legal), and
the answer comes back to the loop, where the bots apply it through the room's one way
in, as a person's client would. A game that moved on meanwhile makes the answer stale:
it is dropped, and the decision asked again if the seat still owes one. The room never
waits for the model: its timers and its night's pacing run as ever.

AI players talk too, apart from their decisions (``lupus.ai.llm.speech``): by day each
living one says a line when the day opens and answers people's lines; at night each
AI player of the pack says a line to the pack awake with it and answers its packmates'
lines; at most ``LINES`` lines of a channel a day or night.
A line is said through the chat's own rules (the channel is the seat's, as for a
person's connection) when its answer comes back, and only if the seat still speaks on
that channel then: a pack line after the pack's step is not said, so nobody else ever
reads it. Lines are stored with the game's chat like a person's.
"""

from __future__ import annotations

import logging
import random
from asyncio import Future
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Final

from lupus.ai.llm.bot import Decided, LlmBot
from lupus.ai.llm.speech import Spoken, speak
from lupus.ai.llm.talk import Line
from lupus.bots.heuristic import HeuristicBot
from lupus.engine.game import Game
from lupus.engine.views import View
from lupus.server.protocol import ProtocolError

if TYPE_CHECKING:
    from lupus.server.minds import Minds
    from lupus.server.room_parts import AiRoom

log = logging.getLogger("lupus.server")

LINES: Final = {"day": 3, "pack": 2}
"""The most lines an AI player says on a channel in one day or night (the first when
the day, or the pack's step, opens)."""

HEARD: Final = 40
"""The latest lines of the chat an AI player's request holds (of those it may read)."""

KIND: Final = "llm"
"""The bot kind of an AI seat."""


def heard_by(chat_log: Sequence[dict[str, object]], seat: int) -> tuple[Line, ...]:
    """The lines of a game's chat that ``seat`` may read, as the model is told them:
    the day's (everyone reads them) and the pack's it was among (``seats``); never the
    dead's, a spectator's or a leader's. ``number`` is a line's place in the chat."""
    lines = []
    for number, line in enumerate(chat_log):
        speaker, kind, text = line.get("seat"), line.get("channel"), line.get("text")
        if type(speaker) is not int or not isinstance(text, str):
            continue
        readers: tuple[int, ...] | None = None
        if kind == "pack":
            seats = line.get("seats")
            if not isinstance(seats, list) or seat not in seats:
                continue
            readers = tuple(s for s in seats if type(s) is int)
        elif kind != "day":
            continue
        lines.append(Line(speaker, str(kind), number, text, readers))
    return tuple(lines[-HEARD:])


class AiSeats:
    """A room's AI players: their decisions and their lines in flight."""

    def __init__(self, room: AiRoom, minds: Minds | None) -> None:
        self.room = room
        self.minds = minds
        self.of: Game | None = None  # the game the state below is for
        self.reset()

    @property
    def able(self) -> bool:
        """Whether the server has a model (without one an AI seat plays as a bot)."""
        return self.minds is not None

    def reset(self) -> None:
        self.bot: LlmBot | None = None
        self.talking: set[int] = set()  # seats whose line is being asked
        self.owed: set[int] = set()  # seats that heard a person while they were asked
        self.said: dict[tuple[int, str, int], int] = {}  # lines by seat, channel, number

    def forget(self, seat: int) -> None:
        """``seat`` is played by someone else now (its person again, or another bot):
        what was kept of its talk goes (the lines it said, whom it owes an answer), and
        so the AI player it may be given to again starts afresh. A decision or a line
        still asked comes back to a seat that is no AI player's, and is dropped; one
        that comes back after the seat is an AI player's again is taken, if the seat
        still owes it (as any answer is)."""
        self.talking.discard(seat)
        self.owed.discard(seat)
        for key in [key for key in self.said if key[0] == seat]:
            del self.said[key]

    def current(self) -> Game | None:
        """The room's game, the state kept here made fresh for a new one."""
        game = self.room.game
        if game is not self.of:
            self.of = game
            self.reset()
        return game

    # ------------------------------------------------------------------ decisions
    def think(self, seat: int, view: View, of_game: int, of_step: int) -> None:
        """Ask the model the decision ``view`` owes, in a thread; the answer goes back
        to the room's bots (``BotSeats.answer``) on the loop."""
        minds = self.minds
        game = self.current()
        assert minds is not None and game is not None
        if self.bot is None:
            self.bot = LlmBot(self.room.book, minds.model)
        heard = heard_by(self.room.chat_log, seat)
        rng = random.Random(self.room.bots.rng.getrandbits(64))
        asked = minds.run(partial(self.bot.decide, view, rng, heard))
        asked.add_done_callback(partial(self.decided, seat, view, rng, of_game, of_step))

    def decided(
        self,
        seat: int,
        view: View,
        rng: random.Random,
        of_game: int,
        of_step: int,
        asked: Future[Decided],
    ) -> None:
        if asked.cancelled():
            return  # (the server stops)
        failed = asked.exception()
        if failed is None:
            action, fell_back = asked.result()
        else:  # (a defect, never the model's doing: LlmBot stands in for those)
            log.error("ai_failed room=%s seat=%d error=%r", self.room.code, seat, failed)
            action, fell_back = HeuristicBot(self.room.book).act(view, rng), True
        answer = partial(self.room.bots.answer, seat, action, view.state_id, of_game, of_step)
        self.room.later(0, partial(answer, fell_back))

    # ------------------------------------------------------------------ talk
    def changed(self) -> None:
        """After a change: each AI player that may speak now and has not in this day
        (or this night, of the pack) says a line."""
        for seat, channel, number in self.speakers():
            if (seat, channel, number) not in self.said:
                self.talk(seat, channel, number)

    def heard(self, line: dict[str, object]) -> None:
        """A person's line was said: the AI players who read it (everyone's by day, the
        pack awake's at night) answer it, each while it has lines left on its channel."""
        said_on = line.get("channel")
        if said_on not in LINES:
            return
        readers = line.get("seats")
        self.owed.update(self.talking)  # (they answer once their line is said)
        for seat, channel, number in self.speakers():
            if channel == said_on and (
                channel == "day" or (isinstance(readers, list) and seat in readers)
            ):
                self.answer(seat, channel, number)

    def answer(self, seat: int, channel: str, number: int) -> None:
        if self.said.get((seat, channel, number), 0) < LINES.get(channel, 0):
            self.talk(seat, channel, number)

    def speakers(self) -> list[tuple[int, str, int]]:
        """The AI seats that may talk now, their channel and the day's or night's
        number (none without a model, a game, or table talk)."""
        room = self.room
        game = self.current()
        if self.minds is None or game is None or room.settings.mode == "leader":
            return []
        found = []
        for seat, held in enumerate(room.seats):
            if held is None or held.bot != KIND or seat in self.talking:
                continue
            channel = self.channel(seat)
            shown = room.pacer.view(seat)
            # (by day only: before the first night the table talks, but no day is open)
            if channel == "pack" or (channel == "day" and shown.phase == "day"):
                found.append((seat, channel, shown.number))
        return found

    def channel(self, seat: int) -> str | None:
        try:
            return self.room.channel_of(seat)[0]
        except ProtocolError:
            return None  # (a seat asleep at night)

    def talk(self, seat: int, channel: str, number: int) -> None:
        """Ask the model ``seat``'s line on ``channel`` in a thread."""
        minds = self.minds
        assert minds is not None
        key = (seat, channel, number)
        self.said[key] = self.said.get(key, 0) + 1
        self.talking.add(seat)
        view = self.room.pacer.view(seat)
        heard = heard_by(self.room.chat_log, seat)
        asked = minds.run(partial(speak, minds.model, view, heard, channel))
        asked.add_done_callback(partial(self.spoken, seat, channel, self.of))

    def spoken(self, seat: int, channel: str, of: Game | None, asked: Future[Spoken]) -> None:
        """A line came back (on the loop): said if the seat still speaks on its channel
        in the same game, else dropped."""
        if asked.cancelled() or of is not self.current():
            return
        self.talking.discard(seat)
        owed = seat in self.owed
        self.owed.discard(seat)
        failed = asked.exception()
        if failed is not None:
            log.error("ai_talk_failed room=%s seat=%d error=%r", self.room.code, seat, failed)
            return
        text = asked.result().text
        held = self.room.seats[seat]
        if text is None or held is None or held.bot != KIND or self.channel(seat) != channel:
            return
        if channel == "pack" and self.room.pacer.view(seat).phase != "night":
            return
        self.room.say(seat, text)
        if owed:  # (a person spoke meanwhile: the seat answers him)
            self.answer(seat, channel, self.room.pacer.view(seat).number)
