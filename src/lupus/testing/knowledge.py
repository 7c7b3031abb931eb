"""The referee's model of what each seat may know: which seat's role, from which event on.

It is built from the rulebook and the actions, never from the events' audiences, and
then every role an event tells is checked against it. A seat may know:

* its own role, always, and every role once the game is over;
* a dead player's role, in a rulebook that reveals it on death (``reveal_on_death``);
* anything, once dead, in a rulebook whose eliminated watch the night (``eliminated_watch``);
* its pack's roles, while both hold pack cards (the rulebook's ``pack_tag``);
* the other holders of its card when the card comes in pairs (``comes_in``: the Couple),
  and, for everyone, a pair's roles once both of its holders are dead;
* the target's role, after using a verb its role plugin ``learns`` from (the Seer);
* the partner's role, for the two players linked as lovers, in a rulebook where lovers
  know it (``lovers_know_partner_role``), and for a spy and the pack she spied on, each
  other's roles: the two grants that still name verbs here (:data:`PAIR_VERB`,
  :data:`SPY_VERB`; issue 26 item 1 would have the role plugins declare them).
"""

from __future__ import annotations

from lupus.engine.game import Game
from lupus.engine.model import LEADER, Action
from lupus.engine.views import role_facts
from lupus.testing.declared import Declared
from lupus.testing.errors import Broken

NEVER = 1 << 60
PAIR_VERB = "link"
"""The verb that makes two players lovers (its two arguments)."""
SPY_VERB = "spy"
"""The verb whose user watches the pack's step (and may be caught by it)."""
OWN_KINDS = ("role_dealt", "role_taken")
"""The event kinds that tell a seat its own role (``View.role`` reads the same)."""


class Knowledge:
    """Follows one game, event by event and action by action (see the module)."""

    def __init__(self, game: Game, declared: Declared) -> None:
        book = game.rulebook
        self.declared = declared
        self.n = game.n
        self.pack = frozenset(book.facts.pack)
        self.pairs = frozenset(r for r, spec in book.roles.items() if spec.comes_in > 1)
        self.reveal = book.facts.reveal_on_death
        self.watch = book.facts.eliminated_watch
        self.lovers_see = book.facts.lovers_know_partner_role
        self.grants: list[dict[int, int]] = [{} for _ in range(self.n)]
        self.roles: list[dict[int, str]] = [{} for _ in range(self.n)]
        self.died_at: dict[int, int] = {}
        self.over_at = NEVER
        self.spies: set[int] = set()
        self.cursor = 0

    def role_at(self, seat: int, index: int) -> str | None:
        """The role ``seat`` was last told it holds, before event ``index``."""
        told = [i for i in self.roles[seat] if i <= index]
        return self.roles[seat][max(told)] if told else None

    def may_know(self, viewer: int, seat: int, index: int) -> bool:
        """Whether ``viewer`` may know ``seat``'s role at event ``index``."""
        if viewer in (seat, LEADER) or self.over_at <= index:
            return True
        if self.reveal and self.died_at.get(seat, NEVER) <= index:
            return True
        if self.watch and self.died_at.get(viewer, NEVER) <= index:
            return True
        if self.grants[viewer].get(seat, NEVER) <= index:
            return True
        mine, theirs = self.role_at(viewer, index), self.role_at(seat, index)
        if mine in self.pack and theirs in self.pack:
            return True
        if theirs in self.pairs and self.pair_gone(theirs, index):
            return True
        return mine == theirs and mine in self.pairs

    def pair_gone(self, card: str, index: int) -> bool:
        """Whether every holder of ``card`` (a card that comes in pairs) died before
        ``index``: the pair is then told to everyone (maffia's Couple)."""
        holders = [s for s in range(self.n) if self.role_at(s, index) == card]
        return all(self.died_at.get(s, NEVER) <= index for s in holders)

    def grant(self, viewer: int, seat: int, index: int) -> None:
        known = self.grants[viewer]
        known[seat] = min(known.get(seat, NEVER), index)

    def on_action(self, action: Action, index: int) -> None:
        """What ``action`` (its events start at ``index``) entitles anyone to know."""
        actor, verb, args = action.actor, action.verb, action.args
        if actor == LEADER:
            return
        role = self.role_at(actor, index)
        if role is not None and self.declared.tells(role, verb) and args:
            self.grant(actor, int(str(args[0])), index)
        elif verb == PAIR_VERB and self.lovers_see and len(args) == 2:
            a, b = int(str(args[0])), int(str(args[1]))
            self.grant(a, b, index)
            self.grant(b, a, index)
        elif verb == SPY_VERB:
            self.spies.add(actor)
        for spy in self.spies:
            for seat in range(self.n):
                if self.role_at(seat, index) in self.pack:
                    self.grant(spy, seat, index)
                    self.grant(seat, spy, index)

    def on_events(self, game: Game) -> None:
        """Read the new events (deaths, the end, own roles), then check every role fact
        they tell: true, and told only to seats that may know it."""
        events = game.events
        truth = getattr(game, "roles", None)
        for i in range(self.cursor, len(events)):
            ev = events[i]
            if ev.kind in OWN_KINDS and ev.audience is not None:
                self.roles[ev.seat("player")][i] = ev.text("role")
            elif ev.kind == "death" and "player" in ev.data:
                self.died_at.setdefault(ev.seat("player"), i)
            elif ev.kind == "game_over":
                self.over_at = min(self.over_at, i)
            for seat, role in role_facts(ev):
                if isinstance(truth, list) and truth[seat] != role:
                    raise Broken("secrets", f"event {i} ({ev.kind}) says seat {seat} is {role}")
                viewers = range(self.n) if ev.audience is None else ev.audience
                for viewer in viewers:
                    if not self.may_know(viewer, seat, i):
                        raise Broken(
                            "secrets",
                            f"event {i} ({ev.kind}) tells seat {viewer} the role of seat {seat}",
                        )
        self.cursor = len(events)
