"""When model seats talk in a simulated game, and who hears them.

The simulator's loop calls a game's ``Discussion`` before each action
(``selfplay.play``'s ``watch``); it changes nothing in the game. Two moments open the
talk, each once:

- the day's discussion: when a step the rulebook's table talks before opens
  (``Rulebook.talk``: the village's vote, the captain's election, the maffia's
  nominations, Lupusburg's first voting), once a day each, every living model seat, in
  seat order, says a line on ``day``, read by every seat;
- the pack's night: when the pack's step opens (``Family.awake_together``: the seats
  awake together) with a model seat among them, each model seat of the pack says a
  line on ``pack``, read by the pack awake then and nobody else.

Each is ``settings.talk`` rounds (``--llm-talk``), every seat hearing what was said
before its turn, the earlier rounds included.

Seats of other kinds say nothing. Talk is paid from the game's token budget like the
decisions (past it nobody talks), and a talk request that fails, times out or gives an
empty answer says nothing: the game goes on. Every decision of a model seat hears the
lines said so far (``LlmBot``; its prompt keeps those its seat may read), and each line
keeps its place in the game (``Line.at``), so that a dataset can tell what was heard
before each decision (``lupus.ai.export``).
"""

from __future__ import annotations

from lupus.ai.llm.client import Model
from lupus.ai.llm.speech import speak
from lupus.ai.llm.talk import Line
from lupus.ai.llm.usage import Usage
from lupus.ai.tally import kinds_of
from lupus.engine.game import Game
from lupus.sim.selfplay import Table


class Discussion:
    """One game's talk: the lines said (``lines``, in order), where the game is
    (``at``: the position in ``game.history`` of the action about to be taken) and the
    positions of the actions the stand-in took for a model seat (``fallbacks``, noted
    by ``LlmBot``)."""

    def __init__(self, table: Table, model: Model, usage: Usage) -> None:
        self.table = table
        self.model = model
        self.usage = usage
        self.rounds = model.settings.talk
        self.lines: list[Line] = []
        self.fallbacks: set[int] = set()
        self.at = 0
        self.step: object = None
        self.llm: frozenset[int] | None = None
        self.talk_steps = frozenset(table.book.talk)
        self.opened: set[tuple[str, int, str]] = set()  # (phase, number, step id)

    def __call__(self, game: Game) -> None:
        """Before each action: talk if a discussion opens now."""
        self.at = len(game.history)
        step = game.step
        if step is self.step:
            return
        self.step = step
        if step is None or self.rounds == 0:
            return
        if self.llm is None:
            kinds = kinds_of(self.table, game)
            self.llm = frozenset(seat for seat, kind in enumerate(kinds) if kind == "llm")
        opened = (game.phase, game.number, step.id)
        if opened in self.opened:
            return
        if game.phase == "day":
            if step.id in self.talk_steps:
                self.opened.add(opened)
                self.rounds_of(game, [s for s in sorted(self.llm) if game.alive[s]], "day")
            return
        awake = self.table.family.awake_together(game)
        if awake & self.llm:
            self.opened.add(opened)
            self.rounds_of(game, sorted(awake & self.llm), "pack", tuple(sorted(awake)))

    def rounds_of(
        self, game: Game, seats: list[int], channel: str, readers: tuple[int, ...] | None = None
    ) -> None:
        for _ in range(self.rounds):
            for seat in seats:
                self.say(game, seat, channel, readers)

    def say(self, game: Game, seat: int, channel: str, readers: tuple[int, ...] | None) -> None:
        """``seat``'s line on ``channel``, if the budget allows one and the model gives
        it."""
        usage = self.usage
        budget = self.model.settings.budget
        if budget is not None and usage.tokens >= budget:
            return
        spoken = speak(self.model, game.seen(seat), self.lines, channel)
        usage.talks += 1
        usage.calls += 1
        usage.cached += spoken.cached
        usage.tokens += spoken.reply.tokens
        usage.seconds += spoken.reply.seconds
        if spoken.text is not None:
            usage.said += 1
            self.lines.append(Line(seat, channel, game.number, spoken.text, readers, self.at))
