"""A PettingZoo AEC environment for every rulebook (docs/ai.md, "Environment").

The game is the one ``lupus simulate`` plays: the same seeded deal and game
(``lupus.sim.selfplay.set_up``), the seat the game asks first at every turn
(``Game.first_waiting``), and the leader's timer taken by the environment itself when
a step waits on nobody, stalls or outlasts its patience, exactly as
``lupus.sim.selfplay.play`` does, so a random agent drawing from ``env.rng`` plays the
very games the simulator's random bots play on the same seeds.

What an agent observes is computed from its seat's view alone (``Game.seen``), never
from the game: the fixed-size vector of ``lupus.ai.observation`` and, in ``info``,
the view itself. A step that asks several seats at once (a vote, an election, the
nominations, Lupusburg's second voting) is taken as turns in seat order; while it
lasts every seat's view holds the public events as they stood when it opened, so no
voter sees another's ballot before all are cast (what the rules tell a few seats
together, such as the pack's picks, is shown as the engine tells it: a pack decides
together, and could not agree otherwise). ``sealed_ballots=False`` shows each view
as the engine gives it, as the simulator's bots see it.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from typing import Any, Final

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv

from lupus.ai.actions import ActionTable
from lupus.ai.observation import MOST, Encoder
from lupus.engine.errors import IllegalAction
from lupus.engine.game import Game
from lupus.engine.model import Action, Args
from lupus.engine.views import View
from lupus.families import family_of
from lupus.rulebooks.schema import OptionValue, Rulebook
from lupus.sim.config import SimConfig
from lupus.sim.selfplay import MAX_ACTIONS, STALL_AFTER, TIMER, Table, set_up

ObsType = dict[str, npt.NDArray[Any]]


def agent_name(seat: int) -> str:
    """The agent of seat ``seat`` (0 is the first player): ``seat_0``, ``seat_1``..."""
    return f"seat_{seat}"


class LupusEnv(AECEnv[str, ObsType, int]):  # type: ignore[misc]
    """One rulebook at one table size, played seat by seat (see the module)."""

    metadata: Final[dict[str, Any]] = {
        "name": "lupus_v0",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str | Rulebook = "werewolf",
        players: int = 8,
        options: Mapping[str, OptionValue] | None = None,
        render_mode: str | None = None,
        *,
        counts: Mapping[str, int] | None = None,
        sealed_ballots: bool = True,
        max_actions: int = MAX_ACTIONS,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in ("human", "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: one of human, ansi or None")
        self.render_mode = render_mode
        self.config: Final = SimConfig(rules, players, dict(counts or {}), dict(options or {}))
        self.config.check()  # (a table the rules refuse is refused here, not at reset)
        self.book: Final = self.config.book
        self.sealed_ballots: Final = sealed_ballots
        self.max_actions: Final = max_actions
        family = family_of(self.book)
        self.actions: Final = ActionTable(self.book, players)
        self.encoder: Final = Encoder(self.book, players, bool(family.house_verbs))
        self.possible_agents = [agent_name(s) for s in range(players)]
        self._seat = {agent: s for s, agent in enumerate(self.possible_agents)}
        self._obs_space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(0, MOST, (self.encoder.size,), dtype=np.int32),
                "action_mask": gymnasium.spaces.Box(0, 1, (self.actions.size,), dtype=np.int8),
            }
        )
        self._act_space = gymnasium.spaces.Discrete(self.actions.size)
        self.observation_spaces = {a: self._obs_space for a in self.possible_agents}
        self.action_spaces = {a: self._act_space for a in self.possible_agents}
        self._table: Table | None = None
        self._seed: int | None = None
        self._index = -1
        self.game: Game | None = None
        self.rng: random.Random = random.Random(0)
        """The generator the seats' players draw from in ``lupus simulate`` (the deal's,
        after the deal): an agent that should play the simulator's games draws from it;
        one that should play blind keeps its own (it follows from the seed, as the
        deal does)."""

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._act_space

    def action_of(self, action_id: int) -> tuple[str, Args]:
        """The (verb, arguments) of an action id (``lupus.ai.actions``)."""
        return self.actions.action_of(int(action_id))

    def id_of(self, verb: str, args: Args = ()) -> int:
        """The action id of (verb, arguments) (``lupus.ai.actions``)."""
        return self.actions.id_of(verb, args)

    # ------------------------------------------------------------------ the game
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Game ``options["game"]`` (default 0) of the run ``lupus simulate --seed
        seed`` plays; without a seed, the run's next game (the first reset without one:
        seed 0). Other keys of ``options`` are ignored (PettingZoo's tests pass some)."""
        index = None if not options else options.get("game")
        if seed is not None or self._table is None:
            self._seed = 0 if seed is None else int(seed)
            self._table = Table(dataclasses.replace(self.config, seed=self._seed))
            self._index = 0 if index is None else int(index)
        else:
            self._index = self._index + 1 if index is None else int(index)
        game, self.rng = set_up(self._table, self._index)
        self.game = game
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.played = 0  # actions applied, the leader's closes included
        self._step: object = None
        self._budget = 0
        self._patience = 4 * game.n
        self._opened = 0  # public events when the step under way opened
        self._ballot = False  # whether it asks several seats at once
        self._advance()

    def _advance(self) -> None:
        """Take the leader's closes the game waits on, as ``selfplay.play`` does, until
        a seat is asked or the game ends; then select that seat, or end the episode."""
        game = self.game
        assert game is not None
        while not game.finished and self.played < self.max_actions:
            if game.step is not self._step:
                self._step, self._budget = game.step, 0
                self._opened = game.public_view().counts()[0]
                self._ballot = len(game.waiting()) > 1
            self._budget += 1
            seat = game.first_waiting()
            step = game.step
            stalled = self._budget > STALL_AFTER and step is not None and step.stalled(game)
            if seat is not None and self._budget <= self._patience and not stalled:
                self.agent_selection = agent_name(seat)
                self._refresh()
                return
            game.apply(TIMER)
            self.played += 1
        self._finish()

    def _finish(self) -> None:
        """The episode's end: every seat (dead or alive) rewarded and done."""
        game = self.game
        assert game is not None
        outcome = game.outcome
        scored = bool(family_of(self.book).house_verbs)
        for agent, seat in self._seat.items():
            if outcome is None:  # stopped after ``max_actions``: a stalemate, no winner
                self.truncations[agent] = True
                self.rewards[agent] = 0.0
            else:
                self.terminations[agent] = True
                if scored:
                    self.rewards[agent] = float(outcome.scores.get(seat, 0))
                else:
                    self.rewards[agent] = 1.0 if seat in outcome.winners else -1.0
        self._accumulate_rewards()
        self._refresh()
        self.agent_selection = self.agents[0]

    def step(self, action: int | None) -> None:
        """Apply the selected seat's action id, or IllegalAction (a ValueError) naming
        what is wrong and changing nothing: an id the mask does not allow now, an id
        outside the table, None while the game goes on. Once the game is over, each
        agent is stepped with None to leave, as PettingZoo has it."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None
        if action is None:
            raise IllegalAction(f"{agent} must choose: None is for an agent that is done")
        try:
            verb, args = self.actions.action_of(int(action))
        except (TypeError, ValueError) as error:
            raise IllegalAction(f"{agent}: {error}") from None
        seat = self._seat[agent]
        prompts = game.open_prompts(seat)
        if not any(p.verb == verb and p.allows(args) for p in prompts):
            legal = ", ".join(
                f"{p.verb} {list(a)}" if a else p.verb for p in prompts for a in p.choices
            )
            raise IllegalAction(
                f"{agent} may not {verb} {list(args)} now (action {int(action)} is masked "
                f"out; legal: {legal or 'nothing'})"
            )
        self._cumulative_rewards[agent] = 0.0
        game.apply(Action(seat, verb, args))
        self.played += 1
        self._advance()

    # ------------------------------------------------------------------ what a seat sees
    def view(self, agent: str) -> View:
        """What ``agent``'s seat may know now, a ballot's other entries sealed while it
        lasts (see the module): the one source of its observation and ``info``."""
        game = self.game
        assert game is not None
        view = game.seen(self._seat[agent])
        if not (self.sealed_ballots and self._ballot and not game.finished):
            return view
        return sealed(view, self._opened)

    def observe(self, agent: str) -> ObsType:
        view = self.view(agent)
        return {"observation": self.encoder.encode(view), "action_mask": self.mask(view)}

    def mask(self, view: View) -> npt.NDArray[np.int8]:
        """1 for each action id the view's prompts allow (nothing once it is over)."""
        mask = np.zeros(self.actions.size, dtype=np.int8)
        if not view.finished:
            mask[self.actions.legal_ids(view.prompts)] = 1
        return mask

    def _refresh(self) -> None:
        """Every agent's ``info``: its view, its action mask and, at the end, the
        winning faction and the agents who won (Lupusburg: the one winning player),
        read from the view's public ``game_over``."""
        for agent in self.agents:
            view = self.view(agent)
            info: dict[str, Any] = {"view": view, "action_mask": self.mask(view)}
            if view.finished:
                info["winner"], winners = winner_of(view)
                info["winners"] = [agent_name(seat) for seat in winners]
            self.infos[agent] = info

    def render(self) -> str | None:
        """The public view's newest events, one a line (a spectator's: no secret)."""
        if self.render_mode is None or self.game is None:
            return None
        view = self.game.public_view()
        lines = [f"{view.phase} {view.number}" + (" (over)" if view.finished else "")]
        lines += [f"  {event.kind} {dict(event.data)}" for event in view.events[-5:]]
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.game = None


def sealed(view: View, opened: int) -> View:
    """``view`` without the public events recorded since the step under way opened
    (``opened`` public events then): a ballot's entries stay hidden until all are cast.
    What was told to the seat alone or to a few (the pack) stays."""
    kept = tuple([e for e in view.events if e.audience is not None or e.seq < opened])
    public, private = view.counts()
    hidden = public - min(opened, public)
    return View(
        view.seat,
        view.setup,
        view.phase,
        view.number,
        kept,
        view.prompts,
        view.finished,
        view.state_id - hidden,
        None,
        public - hidden,
        None,
        private,
    )


def winner_of(view: View) -> tuple[str | None, list[int]]:
    """The winning faction and the winning seats the view's ``game_over`` names
    (None and none: nobody, or not over)."""
    for event in reversed(view.events):
        if event.kind == "game_over":
            return event.maybe_text("winner"), event.seats("winners")
    return None, []
