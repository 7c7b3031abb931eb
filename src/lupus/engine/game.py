"""The pure core every rulebook runs on: an agenda of steps, prompts, actions, events.

A game is its setup, a seed and the actions applied to it. The random generator lives
inside the game, the clock never enters (a timer is the game leader closing a step), and
nothing here touches the disk or the network, so replaying the same actions always
gives the same game.

The flow is an *agenda*: a queue of steps (a night's wake-ups, a vote, a hunter's shot).
The current step says which prompts are open; an action answers one; once every
expected input is in (or the leader closes the step) the step resolves, which may push
new steps to the front of the agenda (a tie's run-off, a dying hunter's shot).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Final

from lupus.engine.admission import admitted, wrong_args
from lupus.engine.draw import choice, seeded
from lupus.engine.errors import IllegalAction, RulebookError
from lupus.engine.ledger import Ledger
from lupus.engine.model import (
    LEADER,
    PUBLIC,
    Action,
    Death,
    Event,
    Outcome,
    Prompt,
)
from lupus.engine.options import resolved
from lupus.engine.public_setup import PublicSetup, remembered
from lupus.engine.step import Step
from lupus.engine.untrusted import bounded, quoted
from lupus.engine.views import NO_PROMPTS, View, seat_view
from lupus.rulebooks import reference
from lupus.rulebooks.schema import OptionValue, Rulebook

CLOSE: Final = Prompt(LEADER, "close", ((),))
"""The leader's one prompt: closing the open step."""


class Game:
    """State and flow shared by every rulebook family; families add their own state."""

    # The family's event kinds whose data hold numbers and texts only
    # (``events.scalar_kinds`` of its schema): the ledger records them as they come.
    # A family whose kinds come from its plugins gives them to ``__init__`` instead.
    SCALAR_KINDS: ClassVar[frozenset[str]] = frozenset()

    def __init__(
        self,
        rulebook: Rulebook,
        names: Sequence[str],
        options: dict[str, OptionValue] | None = None,
        seed: int = 0,
        scalar_kinds: frozenset[str] | None = None,
    ) -> None:
        self.rulebook = rulebook
        self.names: tuple[str, ...] = tuple(names)
        self.n = len(self.names)
        chosen = resolved(rulebook, options or {})
        self.options: dict[str, OptionValue] = dict(chosen.values)
        self.options_key: tuple[object, ...] | None = chosen.key  # (worked out once)
        self.seed = seed
        # The game's own draws (ties, the Little Girl's luck) are seeded at the first
        # draw: seeding the generator costs as much as a tenth of a simulated game, and
        # most games never draw. The same seed gives the same draws whenever it is made.
        self._rng: random.Random | None = None
        self.ledger = Ledger(self.n, self.SCALAR_KINDS if scalar_kinds is None else scalar_kinds)
        self.events: list[Event] = self.ledger.all
        self.history: list[Action] = []
        self.acted: list[int] = [0] * self.n  # accepted actions per seat (see View.state_id)
        self.deaths: list[Death] = []
        # Who is still in the game, kept by ``leave_play`` alone: ``alive`` by seat (a
        # test), ``living`` the seats in order (a list to offer).
        self.alive: list[bool] = [True] * self.n
        self.living: tuple[int, ...] = tuple(range(self.n))
        self.state_id = 0
        self.phase = "setup"
        self.number = 0
        self.step: Step[Any] | None = None
        # The steps to come, the next one last: a stack, so that pushing steps to the
        # front and taking the next one are appends and pops at the end of a list.
        self.agenda: list[Step[Any]] = []
        self.outcome: Outcome | None = None
        digest = remembered(rulebook)
        self.public = PublicSetup(rulebook.id, digest, self.names, chosen.shared)

    # ------------------------------------------------------------------ families
    def next_phase(self) -> list[Step[Any]]:
        """The steps of the next phase, once the agenda runs dry (a fresh list: it is kept)."""
        raise NotImplementedError

    def after_resolve(self) -> None:
        """Hook run after every step: families schedule reactions and win checks here."""

    def leave_play(self, seat: int) -> None:
        """A player is out of the game: dead, or in Lupusburg left with no living
        character (the one place ``alive`` and ``living`` change)."""
        self.alive[seat] = False
        living = self.living
        for at in range(len(living)):  # (by index: compiled, no generic ``index`` call)
            if living[at] == seat:
                self.living = living[:at] + living[at + 1 :]
                return

    # ------------------------------------------------------------------ flow
    def start(self) -> None:
        self._advance()

    @property
    def finished(self) -> bool:
        return self.outcome is not None

    @property
    def rng(self) -> random.Random:
        """The game's generator, made from its seed at the first draw."""
        rng = self._rng
        if rng is None:
            rng = self._rng = seeded(self.seed)
        return rng

    def one_of(self, tied: list[int]) -> int:
        """The only one, or one drawn by the game's generator: it draws only on a real
        tie, so a replay consumes the generator exactly as the original game did (and
        a game without a tie never seeds it)."""
        return tied[0] if len(tied) == 1 else choice(self.rng, tied)

    def emit(
        self, event_kind: str, event_audience: Iterable[int] | None = None, /, **data: object
    ) -> None:
        """Record an event; ``audience`` None means everyone, [] the leader alone.

        (The positional names are unusual so that no event field can clash with them.)
        """
        self.emit_data(event_kind, event_audience, data)

    def emit_data(
        self, event_kind: str, event_audience: Iterable[int] | None, data: dict[str, object]
    ) -> None:
        """``emit`` with the event's fields already in a dict (forwarding ``**data``
        from one keyword function to another costs a compiled call its fast path)."""
        told = None if event_audience is None else self.told(event_audience)
        self.ledger.record(event_kind, told, data, self.phase, self.number)

    def emit_shared(
        self, event_kind: str, data: Mapping[str, object], audience: Iterable[int] | None = None
    ) -> None:
        """An event whose data are a read-only proxy of immutable values, one the caller
        keeps for every game (a step's ``wake``, a seat's card as dealt): none is made
        for it. Its audience is told as ``emit``'s is (``told``)."""
        told = None if audience is None else self.told(audience)
        self.ledger.file(event_kind, told, data, self.phase, self.number)

    def told(self, audience: Iterable[int]) -> frozenset[int]:
        """Who is told an event meant for ``audience`` (not everyone): those seats, as
        a frozenset. A family may tell more (the village's eliminated, where they watch
        the night): every event goes through here, shared data or not, so that its
        rules on who is told stay in one place."""
        # (a frozenset as it is: ``frozenset(x)`` would copy it)
        return audience if isinstance(audience, frozenset) else frozenset(audience)

    def push_front(self, *steps: Step[Any]) -> None:
        """Schedule steps to run next, in the order given."""
        agenda = self.agenda
        for i in range(len(steps) - 1, -1, -1):  # the next step goes last
            agenda.append(steps[i])

    def end(self, outcome: Outcome) -> None:
        self.outcome = outcome
        self.step = None
        self.agenda.clear()

    def _advance(self) -> None:
        # ``finished``, not ``self.outcome is None``: a step's resolve may end the game,
        # which a narrowed attribute would not see (and compiled code would check).
        phases = 0  # laid out without anyone to wait for
        while not self.finished:
            step = self.step
            if step is not None:
                if not step.complete(self):
                    return
                self.step = None
                step.resolve(self)
                if not self.finished:
                    self.after_resolve()
                continue
            if not self.agenda:
                phases += 1
                if phases > IDLE_PHASES:
                    raise RulebookError(
                        f"{self.rulebook.id}: {IDLE_PHASES} phases in a row wait on nobody "
                        "and end nothing (its night and day must ask someone something)"
                    )
                self.agenda = laid_out = self.next_phase()
                laid_out.reverse()  # (the next step last: in place, not a sliced copy)
                continue
            nxt = self.agenda.pop()
            if nxt.begin(self):
                self.step = nxt

    # ------------------------------------------------------------------ actors' way in
    def prompts(self, actor: object = None) -> list[Prompt]:
        """Open prompts (all, or one actor's). The leader's only prompt is ``close``.

        ``actor`` is None (everyone), a seat (0 to n - 1) or LEADER; anything else
        raises ValueError (a client's seat is checked, never trusted).

        >>> from lupus import new_game
        >>> game = new_game("werewolf", ["Ann", "Bob", "Cy", "Dee"],
        ...                 ["werewolf", "seer", "villager", "villager"],
        ...                 options={"lift_minimum": True}, seed=1)
        >>> game.prompts(1)  # the Seer wakes first: she may look at any other card
        [Prompt(actor=1, verb='inspect', choices=((0,), (2,), (3,)), unordered=False)]
        >>> game.prompts(2)  # a villager sleeps
        []
        """
        if actor is None:
            if self.step is None or self.outcome is not None:
                return []
            return [*self.step.prompts(self), CLOSE]
        return list(self.prompts_of(self.check_seat(actor)))

    def check_seat(self, seat: object) -> int:
        """``seat`` if it is a seat of this game or LEADER, else ValueError saying so
        (a bool, a float or a seat past the table is no seat)."""
        if type(seat) is int:
            assert isinstance(seat, int)
            if seat == LEADER or 0 <= seat < self.n:
                return seat
        raise ValueError(f"there is no seat {bounded(seat)} (seats 0 to {self.n - 1}, or LEADER)")

    def open_prompts(self, actor: object) -> tuple[Prompt, ...]:
        """One actor's open prompts, as the step hands them out (do not change them)."""
        return self.prompts_of(self.check_seat(actor))

    def prompts_of(self, actor: int) -> tuple[Prompt, ...]:
        """``open_prompts`` of a seat already checked (the engine's own path)."""
        step = self.step
        if step is None or self.outcome is not None:
            return ()
        if actor == LEADER:
            return (CLOSE,)
        return step.prompts_for(self, actor)

    def waiting(self) -> list[int]:
        """Seats whose input the current step still needs, in seat order."""
        if self.step is None or self.outcome is not None:
            return []
        return self.step.waiting(self)

    def first_waiting(self) -> int | None:
        """The first seat of ``waiting()``, or None: what a game master asks at every turn."""
        if self.step is None or self.outcome is not None:
            return None
        return self.step.first_waiting(self)

    def legal_actions(self, actor: object) -> list[Action]:
        """Every action ``actor`` (a seat or LEADER) may take now."""
        seat = self.check_seat(actor)
        prompts = self.prompts_of(seat)
        return [Action(seat, p.verb, args) for p in prompts for args in p.choices]

    def apply(self, action: object) -> None:
        """Apply one action, or raise IllegalAction and change nothing.

        Nothing is trusted: the action must be an ``Action`` whose actor is a seat of
        this game (an int, not a bool) or LEADER, whose verb is a string and whose
        arguments a tuple of ints and strings (exact types: 2.0 and True are not 2 and
        1), listed by one of the actor's open prompts.

        >>> from lupus import new_game
        >>> game = new_game("werewolf", ["Ann", "Bob", "Cy", "Dee"],
        ...                 ["werewolf", "seer", "villager", "villager"],
        ...                 options={"lift_minimum": True}, seed=1)
        >>> from lupus.engine.model import Action
        >>> game.apply(Action(1, "inspect", (1,)))
        Traceback (most recent call last):
        lupus.engine.errors.IllegalAction: Bob cannot inspect Bob now (choices: Ann; Cy; Dee)
        >>> game.apply(Action(1, "inspect", (0,)))
        >>> game.waiting()  # the werewolves' turn
        [0]
        """
        step = self.step
        checked = admitted(self, self.n, None if self.outcome is not None else step, action)
        if step is not None:  # (``admitted`` refused every action of a game over)
            actor = checked.actor
            if actor == LEADER:
                step.close(self)
            else:
                step.act(self, checked)
                step.forget_prompts()
                acted = self.acted
                acted[actor] = acted[actor] + 1  # (compiled, ``+=`` would be a generic call)
        assert isinstance(action, Action)  # (``admitted`` checked it; kept as given)
        self.history.append(action)
        self.state_id += 1
        self._advance()

    def bad_args(self, action: Action, prompt: Prompt) -> str:
        """Why an action's arguments are refused, in words (a family may word its own)."""
        return wrong_args(self, action, prompt)

    def actor_name(self, actor: int) -> str:
        return "the game leader" if actor == LEADER else self.names[actor]

    def arg_name(self, arg: object, verb: str = "") -> str:
        """How an argument of ``verb`` reads for a player (seats read as names)."""
        if isinstance(arg, int) and not isinstance(arg, bool) and 0 <= arg < self.n:
            return self.names[arg]
        return str(arg)

    def parse_target(self, verb: str, text: str) -> int:
        """The argument a player named in a scenario or a form means for ``verb``."""
        if text in self.names:
            return self.names.index(text)
        raise IllegalAction(f"there is no player named {quoted(text)}")

    def house_name(self, house: int) -> str:
        return str(house)

    def view(self, seat: object) -> View:
        """What ``seat`` may know now (LEADER: everything); see ``lupus.engine.views``.

        ``seat`` is a seat (0 to n - 1) or LEADER; anything else raises ValueError.

        >>> from lupus import new_game
        >>> game = new_game("werewolf", ["Ann", "Bob", "Cy", "Dee"],
        ...                 ["werewolf", "seer", "villager", "villager"],
        ...                 options={"lift_minimum": True}, seed=1)
        >>> from lupus.engine.model import Action
        >>> game.apply(Action(1, "inspect", (0,)))
        >>> [(event.kind, dict(event.data)) for event in game.view(1).events][-2:]
        [('vision', {'player': 0, 'role': 'werewolf'}), ('wake', {'step': 'werewolves'})]
        >>> [event.kind for event in game.view(2).events][-3:]  # a villager's: no vision
        ['night', 'wake', 'wake']
        """
        return self.seen(self.check_seat(seat))

    def seen(self, seat: int) -> View:
        """``view`` of a seat already checked (the simulator's path)."""
        prompts = NO_PROMPTS if seat == PUBLIC else self.prompts_of(seat)
        acted = self.acted[seat] if seat >= 0 else 0
        over = self.outcome is not None
        return seat_view(
            self.ledger, seat, self.public, self.phase, self.number, prompts, over,
            self.state_id, acted,
        )  # fmt: skip

    def public_view(self) -> View:
        """What anyone may know: a spectator's view (seat ``PUBLIC``), the public
        events alone and nothing to decide."""
        return self.seen(PUBLIC)

    def to_scenario(self) -> dict[str, object]:
        """The scenario-file object (docs/scenarios.md) that ``lupus replay`` replays to
        this game, event for event: the rulebook (a shipped one's id, any other whole:
        ``lupus.rulebooks.reference``), every option (defaults included, so
        that a later change of a default cannot change a stored game), the seed, the
        players, the deal as dealt (``deal_record``) and every action so far."""
        scenario: dict[str, object] = {
            "rules": reference(self.rulebook),
            "options": dict(self.options),
            "seed": self.seed,
            "players": list(self.names),
        }
        scenario.update(self.deal_record())
        scenario["actions"] = [self.scenario_line(action) for action in self.history]
        return scenario

    def scenario_line(self, action: Action) -> dict[str, object]:
        """One action as a scenario line: its actor by name (the leader as ``leader``),
        its verb, and its arguments as the family writes them (``record_args``)."""
        actor = action.actor
        line: dict[str, object] = {
            "actor": "leader" if actor == LEADER else self.names[actor],
            "do": action.verb,
        }
        self.record_args(action, line)
        return line

    def deal_record(self) -> dict[str, object]:
        """The scenario keys of the deal as dealt; families provide them."""
        raise NotImplementedError

    def expand(self, action: Action) -> list[Action]:
        """The actions a scenario line stands for: itself, unless the family reads a
        shorthand in it (Lupusburg: a bet with its coin is a ``bet``, then ``keep``)."""
        return [action]

    def sides_dealt(self) -> list[str]:
        """The side each seat was dealt (a simulation hands each its side's bot)."""
        raise NotImplementedError

    def record_args(self, action: Action, line: dict[str, object]) -> None:
        """Write an action's arguments into its scenario line; families provide it."""
        raise NotImplementedError

    # ------------------------------------------------------------------ helpers
    def option(self, key: str) -> OptionValue:
        return self.options[key]

    def option_on(self, key: str) -> bool:
        """A boolean option that a rulebook may not have (then it is off)."""
        return bool(self.options.get(key, False))


IDLE_PHASES: Final = 100
"""How many phases in a row may pass without waiting on anyone before the game gives up
on its rulebook: every playable rulebook asks someone something at least every night
or day, while one whose steps never wait would lay out phases forever."""


def view_of(game: Game, seat: int) -> View:
    """``game.view`` of a seat already checked (``Game.seen``)."""
    return game.seen(seat)
