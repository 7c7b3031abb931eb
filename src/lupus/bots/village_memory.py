"""What a heuristic seat of the village family remembers: its private facts.

Everything it knows comes from its own events (see ``lupus.bots.memory``): its role,
the pack it belongs to and the pack's picks, the players it inspected and the sides it
was told, its partner (a lover's, a couple's), the victim it was shown, the cards set
aside for it, who accused whom. The family's own events are read here; a role's are
read as the role says (``Play.remembers``, in the role's module: the Seer's vision, the
Witch's victim...), with the readings below, so that no kind of a role is named here.
The public record and the public suspicion are shared by the seats
(``lupus.bots.village_suspicion``); a seat's own judgement of the players (its side,
who is surely good or bad, how suspect) weighs both.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import ClassVar

from lupus.bots.memory import Memory, as_int, int_list, maybe_int
from lupus.bots.village_suspicion import CLEARED, SURE, Round, VillagePublic
from lupus.engine.model import Event
from lupus.engine.views import View, role_facts
from lupus.families import village_plays


class VillageMemory(Memory[VillagePublic]):
    """One seat's private facts; the public record is shared (``self.pub``)."""

    def __init__(self, view: View, public: VillagePublic) -> None:
        super().__init__(view, public)
        book = view.book
        self.book = book
        self.pack_roles = book.tagged(book.mechanics.pack_tag)
        # A pack role an inspection shows as town (the Godfather): "town" is then no proof.
        self.disguised = any(
            spec.appears_as is not None and spec.appears_as != spec.faction
            for spec in book.roles.values()
        )
        self.role: str | None = None
        self.known: dict[int, str] = {}
        self.sides: dict[int, str] = {}
        self.pack: set[int] = set()
        self.partner: int | None = None
        self.partner_role: str | None = None
        self.partner_allied = False  # the rules make the partner one's own side
        self.threat: Counter[int] = Counter()  # ballots against the pack (the pack's view)
        self.grudge: Counter[int] = Counter()  # ballots cast against me, by voter
        self.failed: Counter[int] = Counter()  # the pack's victims who were saved
        self.pack_victim: int | None = None
        self.night_picks: list[tuple[int, int]] = []  # (pack member, target) in order
        self.victim: int | None = None
        self.extra_cards: list[str] = []
        self.pack_total = 0
        self.inspected: set[int] = set()
        self.readings = village_plays().remembers  # the roles' kinds (``Play.remembers``)

    def new_public(self, view: View) -> VillagePublic:
        return VillagePublic(view)

    # The public record, read at decision time (never while reading events).
    @property
    def susp(self) -> dict[int, float]:
        return self.pub.susp

    @property
    def dead(self) -> set[int]:
        return self.pub.dead

    @property
    def round(self) -> Round | None:
        return self.pub.round

    @property
    def nominations(self) -> Round | None:
        return self.pub.nominations

    @property
    def banish_leaders(self) -> frozenset[int]:
        return self.pub.banish_leaders

    # ------------------------------------------------------------------ reading
    def see(self, event: Event) -> None:
        data = event.data
        if "role" in data or "roles" in data:
            for seat, role in role_facts(event):
                self.known[seat] = role
                if seat == self.me:
                    self.role = role
        handler = self.HANDLERS.get(event.kind)
        if handler is None:
            handler = self.readings.get(event.kind)
        if handler is not None:
            handler(self, event)

    def on_start(self, event: Event) -> None:
        composition = event.data.get("composition")
        if isinstance(composition, Mapping):
            self.pack_total = sum(
                as_int(c) for r, c in composition.items() if str(r) in self.pack_roles
            )

    def on_night(self, event: Event) -> None:
        self.night_picks = []
        self.victim = None

    def on_pack(self, event: Event) -> None:
        roles = event.data.get("roles")
        if isinstance(roles, Mapping):
            self.pack = {as_int(s) for s in roles}
        self.night_picks = []

    def on_pack_choice(self, event: Event) -> None:
        target = maybe_int(event.data.get("target"))
        if target is not None:
            self.night_picks.append((as_int(event.data["player"]), target))

    def on_pack_victim(self, event: Event) -> None:
        self.pack_victim = maybe_int(event.data.get("target"))

    def on_failed(self, event: Event) -> None:
        if self.pack_victim is not None:
            self.failed[self.pack_victim] += 1

    # The readings a role's events are given (``Play.remembers``).
    def on_victim(self, event: Event) -> None:
        """The victim it was shown tonight (``target``)."""
        self.victim = maybe_int(event.data.get("target"))

    def on_cards_aside(self, event: Event) -> None:
        """The cards set aside for it (``cards``)."""
        cards = event.data.get("cards")
        if isinstance(cards, list | tuple):
            self.extra_cards = [str(c) for c in cards]

    def on_partner(self, event: Event) -> None:
        """Its partner (``partner``), and his role if it is told (``role``): the two may
        be of different sides, and then play for themselves."""
        self.partner = as_int(event.data["partner"])
        role = event.data.get("role")
        self.partner_role = None if role is None else str(role)
        self.partner_allied = False

    def on_allied_pair(self, event: Event) -> None:
        """A pair it belongs to (``players``), whose other member is of its side."""
        for seat in int_list(event.data.get("players")):
            if seat != self.me:
                self.partner = seat
                self.partner_role = None
                self.partner_allied = True

    def on_side(self, event: Event) -> None:
        """A player it inspected (``player``) and the side it was told (``side``)."""
        seat = as_int(event.data["player"])
        self.sides[seat] = str(event.data["side"])
        self.inspected.add(seat)

    def on_inspected(self, event: Event) -> None:
        """A player it inspected (``player``; his role is the event's fact)."""
        self.inspected.add(as_int(event.data["player"]))

    def on_accusation(self, event: Event) -> None:
        """Everyone remembers who votes or nominates against him (a grudge: his own
        suspicion, which nobody else shares); the pack, who does so against its members."""
        voter = as_int(event.data["player"])
        target = maybe_int(event.data.get("target"))
        if voter == self.me or target is None:
            return
        if target == self.me:
            self.grudge[voter] += 1
        if target in self.pack:
            self.threat[voter] += 1

    def living(self) -> list[int]:
        return self.pub.living()

    # ------------------------------------------------------------------ judging
    def in_pack(self) -> bool:
        return self.role in self.pack_roles

    def side(self) -> str:
        """'pack', 'village' or 'lovers' (a mixed couple plays for itself)."""
        mine = "pack" if self.in_pack() else "village"
        if self.partner is not None and not self.partner_allied:
            partner_pack = (
                self.partner in self.pack
                if self.in_pack()
                else (self.partner_role in self.pack_roles or self.bad(self.partner))
            )
            theirs = "pack" if partner_pack else "village"
            if theirs != mine:
                return "lovers"
        return mine

    def good(self, seat: int) -> bool:
        """Known (to me) not to be in the pack."""
        if seat == self.me:
            return not self.in_pack()
        role = self.known.get(seat)
        if role is not None:
            return role not in self.pack_roles
        if self.sides.get(seat) == "town" and not self.disguised:
            return True
        return seat == self.partner and self.side() != "lovers"

    def bad(self, seat: int) -> bool:
        role = self.known.get(seat)
        if role is not None:
            return role in self.pack_roles
        return self.sides.get(seat) == "mafia"

    def suspicion(self, seat: int) -> float:
        """Public suspicion plus what I know for sure (village side)."""
        if self.bad(seat):
            return SURE
        if self.good(seat):
            return -SURE
        if self.sides.get(seat) == "town":
            return self.susp.get(seat, 0.0) - CLEARED
        return self.susp.get(seat, 0.0)

    def allies(self) -> set[int]:
        side = self.side()
        if side == "pack":
            return set(self.pack) | {self.me}
        if side == "lovers":
            return {self.me} | ({self.partner} if self.partner is not None else set())
        return {s for s in range(self.n) if self.good(s)}

    # What each kind of the family's events tells (functions of the class, not bound
    # methods: a table of bound methods would make every memory a reference cycle).
    HANDLERS: ClassVar[dict[str, Callable[[VillageMemory, Event], None]]] = {
        "game_starts": on_start,
        "night": on_night,
        "pack": on_pack,
        "pack_choice": on_pack_choice,
        "pack_victim": on_pack_victim,
        "failed_attempt": on_failed,
        "ballot": on_accusation,
    }
