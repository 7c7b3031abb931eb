"""Turning the events of a view into sentences, in the rulebook's language.

Every name a player reads comes from the rulebook's [names] table and the messages (a
role's own in its module's ``ROLE``, the others in src/lupus/locales/<lang>.toml; all
overridable per rulebook), never from code. Computed from a View, it can only ever
tell what the view holds.

A Narrator is lenient by default (a missing message shows its key, a field an event
lacks shows as «?»), so that a game is never stopped by its story; ``strict=True``
raises MessageError instead, naming the rulebook, the language and the message, which
is how tests/test_narration.py proves that every message of every game can be said.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from lupus.engine.model import LEADER, Event
from lupus.engine.views import View
from lupus.families import family_of
from lupus.messages import Fields, MessageError, Names, tables, untranslated
from lupus.rulebooks.schema import Rulebook
from lupus.spoken import SAY as SAY  # (re-exported)
from lupus.spoken import STEP as STEP
from lupus.spoken import spoken


class Narrator:
    """Renders events for one reader, in one language.

    ``story`` carries what this reader has been told (the pack's members), so one
    Narrator serves one reader from the start of his game (``lines`` starts afresh).
    """

    def __init__(
        self,
        book: Rulebook,
        names: Iterable[str],
        lang: str | None = None,
        *,
        strict: bool = False,
    ) -> None:
        self.book = book
        self.names = tuple(names)
        self.lang = lang if lang in book.languages else book.language
        self.text, self.N = tables(book, self.lang)
        self.names_table = Names(self)
        self.strict = strict  # (and refuses a role's message it has in English only)
        self.untranslated = untranslated(book, self.lang) if strict else frozenset()
        # Lupusburg's houses, chests and tokens: the other families' events have none.
        family = family_of(book)
        self.houses = bool(family.house_verbs)
        self.pack_told: frozenset[int] | None = None  # the members last told (see story)
        self.told = family.told_kinds()  # how each kind is said aloud, if it is
        self.specs = family.event_specs()  # (each kind's message variant)

    def error(self, key: str, problem: str) -> MessageError:
        return MessageError(f"{self.book.id} [{self.lang}]: message {key!r} {problem}")

    def t(self, key: str, /, **fields: object) -> str:
        template = self.text.get(key)
        if template is None:
            if self.strict:
                raise self.error(key, "is missing")
            return key
        if key in self.untranslated:
            raise self.error(key, f"has no text in {self.lang!r}, only its role's English")
        try:
            return template.format_map(Fields(self, key, fields))
        except MessageError:
            raise
        except (AttributeError, IndexError, KeyError, TypeError, ValueError) as exc:
            if self.strict:
                raise self.error(key, f"is broken ({template!r}): {exc!r}") from exc
            return template

    def who(self, seat: object) -> str:
        """A player's name: ``seat`` is a seat (an int), a name already, or None."""
        if seat is None:
            return self.t("nobody")
        if isinstance(seat, str):
            return seat
        if type(seat) is not int:
            raise TypeError(f"{seat!r} is not a seat")
        assert isinstance(seat, int)
        return self.names[seat]

    def house(self, house: object) -> str:
        """A Lupusburg house in words: its player's first or second ("Ben's second
        house"), as the language says it (``house.1``, ``house.2``)."""
        if type(house) is not int:
            raise TypeError(f"{house!r} is not a house")
        assert isinstance(house, int)
        return self.t(f"house.{house % 2 + 1}", player=self.names[house // 2])

    def house_fields(self, ev: Event, fields: dict[str, object]) -> None:
        d = ev.data
        if "house" in d:
            fields["house"] = self.house(ev.seat("house"))
        chest = d.get("chest")
        if isinstance(chest, bool):
            fields["chest"] = self.t("yes" if chest else "no")
        elif chest is not None:
            fields["chest"] = self.house(ev.seat("chest"))
        for key in ("houses", "chests"):
            if key in d:
                fields[key] = self.join(self.house(h) for h in ev.seats(key))
        if "characters" in d:
            fields["characters"] = self.join(
                f"{self.house(h)} ({self.role(c)})" for h, c in ev.seat_texts("characters").items()
            )
        if "tokens" in d:
            fields["tokens"] = self.join(
                f"{self.house(h)} ({n})" for h, n in ev.seat_ints("tokens").items()
            )
        if "character" in d:
            fields["character"] = self.role(ev.text("character"))
        if "to" in d:
            fields["to"] = self.who(ev.seat("to"))
        coins = d.get("coins")
        if isinstance(coins, list | tuple):
            fields["coins"] = ", ".join(str(c) for c in coins)
        if "scores" in d:
            parts = d.get("parts")
            fields["scores"] = self.join(
                self.score(s, n, parts if isinstance(parts, Mapping) else None)
                for s, n in ev.seat_ints("scores").items()
            )
        bets = d.get("bets")
        if isinstance(bets, Mapping):
            fields["bets"] = (
                self.join(f"{self.who(s)} → {self.who(b[0])} ({b[1]})" for s, b in bets.items())
                if bets
                else self.t("nobody")
            )
        if "houses" in d and "tokens" in d:
            # Lupusburg's suspects, by tokens (the event lists them most first).
            houses = ev.seats("houses")
            count = ev.seat_ints("tokens")
            fields["suspects"] = self.join(f"{self.house(h)} ({count.get(h, 0)})" for h in houses)
            suspects = set(houses)
            others = [f"{self.house(h)} ({n})" for h, n in count.items() if h not in suspects]
            fields["other_tokens"] = (
                self.t("other_tokens", tokens=self.join(others)) if others else ""
            )
        tie = d.get("tie_break")
        fields["tie_break"] = self.tie_break(tie) if isinstance(tie, Mapping) else ""

    def score(self, seat: int, points: int, parts: Mapping[Any, object] | None) -> str:
        """A Lupusburg player's score, with its parts when the Werewolf lost."""
        line = f"{self.who(seat)} {points}"
        if parts is None:
            return line
        mine = parts.get(seat)
        if mine is None:
            mine = parts.get(str(seat))
        if isinstance(mine, Mapping):
            return f"{line} ({self.t('score_parts', **{str(k): v for k, v in mine.items()})})"
        return f"{line} ({self.role('werewolf')})"

    def tie_break(self, tie: Mapping[str, object]) -> str:
        """Why a Lupusburg tie went the way it did: "; tie 3-3: Dan.2 is closer to..."."""
        of_houses = tie.get("of") == "house"
        chosen = tie.get("chosen")
        over = tie.get("over")
        if not isinstance(chosen, list | tuple) or not isinstance(over, list | tuple):
            return ""
        name = self.house if of_houses else self.who
        tied = len(chosen) + len(over)
        score = tie.get("score")
        if tied <= 3:
            shown = "-".join([str(score)] * tied)
        else:
            shown = self.t("tie_score_many", score=score, count=tied)
        why = str(tie.get("why"))
        if why == "clockwise" and len(chosen) > 1:
            why = "clockwise_many"
        elif why == "burgomaster" and of_houses:
            why = "burgomaster_house"
        text = self.t(
            f"tie_break.{why}",
            score=shown,
            chosen=self.join(name(x) for x in chosen),
            over=self.join(name(x) for x in over)
            if len(over) <= 3
            else self.t("tie_others", count=len(over)),
        )
        return self.t("tie_note", text=text)

    def role(self, role: str) -> str:
        return self.N.get(role, role)

    def side(self, faction: str) -> str:
        """A faction's name: ``faction.<id>`` when a role shares the id (maffia's mafia)."""
        return self.N.get(f"faction.{faction}") or self.N.get(faction, faction)

    def join(self, items: Iterable[str], word: str = "and") -> str:
        """``a, b and c``; ``word="or"`` for a choice (``a, b or c``)."""
        items = list(items)
        if len(items) <= 1:
            return "".join(items) or self.t("nobody")
        return f"{', '.join(items[:-1])} {self.t(word)} {items[-1]}"

    def roles(self, roles: Mapping[int, str]) -> str:
        return self.join(f"{self.who(s)} ({self.role(r)})" for s, r in roles.items())

    # ------------------------------------------------------------------ decks
    def card_order(self) -> dict[str, int]:
        """The order a deck is told in: the cards in the order the night calls their
        steps (the pack's cards at the pack's step), then the cards without a step of
        their own, special ones before the unlimited ones (the plain villagers last)."""
        book = self.book
        night = list(dict.fromkeys([*book.night.preparation, *book.night.first, *book.night.later]))
        pack = book.tagged(book.mechanics.pack_tag)
        packs = family_of(book).pack_steps()
        pack_steps = [i for i, step in enumerate(night) if step in packs]
        pack_step = pack_steps[0] if pack_steps else None
        table = list(book.roles)

        def rank(role: str) -> tuple[int, int, int]:
            if role in night:
                return (0, night.index(role), table.index(role))
            if role in pack and pack_step is not None:
                return (0, pack_step, table.index(role))
            return (1, book.roles[role].max is None, table.index(role))

        return {role: n for n, role in enumerate(sorted(table, key=rank))}

    def count(self, role: str, cards: int) -> str:
        """``2 Werewolves``, ``1 läkare``: a number of cards with the rulebook's count
        forms (``one.<role>``, ``many.<role>`` in [names.<lang>]); cards that come in
        sets (the Couple) are counted in sets (``1 par``)."""
        spec = self.book.roles.get(role)
        size = spec.comes_in if spec is not None and cards % spec.comes_in == 0 else 1
        n = cards // size
        key = f"{'one' if n == 1 else 'many'}.{role}"
        form = self.N.get(key)
        if form is None:
            if self.strict:
                raise self.error(key, f"(a count form) is missing from [names.{self.lang}]")
            form = self.role(role)
        return f"{n} {form}"

    def cards(self, counts: Mapping[str, int], sep: str | None = None) -> str:
        """A deck as a player writes it: ``2 Werewolves, 1 Seer and 5 Simple Villagers``
        (joined by ``sep`` instead of the language's list, if given)."""
        order = self.card_order()
        roles = sorted(counts, key=lambda r: order.get(str(r), len(order)))
        parts = [self.count(str(r), counts[r]) for r in roles if counts[r]]
        return self.join(parts) if sep is None else sep.join(parts)

    # ------------------------------------------------------------------ menus
    def choice(self, verb: str, args: Sequence[object]) -> str:
        """A menu line: what answering a prompt with ``verb`` and ``args`` does, in
        words: message ``menu.<verb>`` with {target}, {target2} and {targets} for
        players, {house} for a Lupusburg house, {card} for a card; an answer naming a
        Lupusburg coin reads ``menu.<verb>.coin`` with {coin}."""
        house_verbs = family_of(self.book).house_verbs
        fields: dict[str, object] = {}
        players: list[str] = []
        for arg in args:
            if isinstance(arg, str):
                fields["card"] = self.role(arg)
            elif isinstance(arg, int) and verb in house_verbs:
                fields["house"] = self.house(arg)
            elif isinstance(arg, int) and (verb == "keep" or (verb == "bet" and players)):
                fields["coin"] = arg  # Lupusburg: the coin kept (or bet, with a player)
            else:
                players.append(self.who(arg))
        for name, value in zip(("target", "target2"), players, strict=False):
            fields[name] = value
        if players:
            fields["targets"] = self.join(players)
        key = f"menu.{verb}"
        if "coin" in fields and (self.strict or f"{key}.coin" in self.text):
            key += ".coin"
        return self.t(key, **fields)

    # ------------------------------------------------------------------ events
    def event(self, ev: Event, viewer: int = LEADER, *, again: bool = False) -> str:
        """One event as a sentence; ``again``: the pack is told again, changed."""
        d = ev.data
        fields: dict[str, object] = dict(d)
        for key in ("player", "target", "partner", "burgomaster", "by"):
            if key in d:
                fields[key] = self.who(ev.maybe_seat(key))
        if ev.audience:
            fields["viewer"] = self.join(self.who(s) for s in sorted(ev.audience))
        if "role" in d:
            fields["role"] = self.role(ev.text("role"))
        if "roles" in d:
            fields["roles"] = self.roles(ev.seat_texts("roles"))
        for key in ("players", "candidates"):
            if key in d:
                # (``game_starts`` lists the players' names, other events their seats)
                named = ev.texts(key) if ev.kind == "game_starts" else ev.seats(key)
                fields["players"] = self.join(self.who(s) for s in named)
                fields["one_of"] = self.join((self.who(s) for s in named), "or")
        if "cards" in d:
            fields["cards"] = self.join(self.role(c) for c in ev.texts("cards"))
        comp = d.get("composition")
        if isinstance(comp, Mapping):
            fields["cards"] = self.cards(comp)
        if "cause" in d:
            fields["cause"] = self.t(f"cause_{ev.text('cause')}")
        if "side" in d:
            fields["side"] = self.side(ev.text("side"))
        if "winner" in d:
            fields["winner"] = self.side(ev.text("winner"))
            if "winners" in d:
                fields["winners"] = self.join(self.who(s) for s in ev.seats("winners"))
        if self.houses:
            self.house_fields(ev, fields)
        if "votes" in d:
            name = self.house if ev.kind == "ballots" else self.who
            fields["votes"] = self.join(f"{name(s)} {n}" for s, n in ev.seat_ints("votes").items())
        line = self.t(self.key(ev, again=again), **fields)
        line = line[:1].upper() + line[1:]
        if viewer == LEADER and ev.audience is not None:
            if ev.audience:
                line = self.t("private", players=fields["viewer"], text=line)
            else:
                line = self.t("private_leader", text=line)
        return line

    def keys(self, ev: Event, again: bool = False) -> list[str]:
        """The messages that may tell ``ev``, the most specific first."""
        kind = ev.kind
        spec = self.specs.get(kind)
        variant = spec.variant(ev) if spec is not None and spec.variant is not None else None
        if kind == "pack":  # (what the reader was told before decides: see ``story``)
            members = ev.data.get("roles")
            alone = isinstance(members, Mapping) and len(members) == 1
            if again and alone:
                return ["pack.again.alone", "pack.alone", "pack"]
            if again:
                return ["pack.again", "pack"]
            if alone:
                return ["pack.alone", "pack"]
        return [kind] if variant is None else [f"{kind}.{variant}", kind]

    def key(self, ev: Event, again: bool = False) -> str:
        """The message that tells ``ev``: the most specific one the language has (a
        strict Narrator insists on the most specific one)."""
        keys = self.keys(ev, again)
        if self.strict:
            return keys[0]
        text = self.text
        for key in keys:
            if key in text:
                return key
        return keys[-1]

    def story(
        self,
        events: Iterable[Event],
        viewer: int = LEADER,
        said: dict[int, str] | None = None,
        marks: list[str | None] | None = None,
    ) -> list[str]:
        """The lines a reader reads for these events, going on from what this Narrator
        told him before: night and day headings, and the pack's recognition on its
        first night and again only when its members differ from the last ones told.

        ``said``: the sentences of public events already said to other readers in this
        language, by ledger place (a public event reads the same for everyone), which
        a server narrating one change to a whole table shares. ``marks``: given, each
        line's mark is added to it (``spoken``; None for headings and lines not said)."""
        out: list[str] = []
        for ev in events:
            if ev.kind in ("night", "day"):
                out.append("")
                out.append(f"== {self.t('heading_' + ev.kind, number=ev.count('number'))} ==")
                if marks is not None:
                    marks += (None, None)
            again = False
            if ev.kind == "pack":
                told = frozenset(ev.seat_texts("roles"))
                if told == self.pack_told:
                    continue
                again = self.pack_told is not None
                self.pack_told = told
            if said is not None and ev.audience is None:
                line = said.get(ev.seq)
                if line is None:
                    line = said[ev.seq] = self.event(ev, viewer)
                out.append(line)
            else:
                out.append(self.event(ev, viewer, again=again))
            if marks is not None:
                marks.append(spoken(ev, self.told))
        return out

    def lines(self, view: View) -> list[str]:
        """The whole story a view tells, with night and day headings."""
        self.pack_told = None
        return self.story(view.events, view.seat)


def narrate(view: View, lang: str | None = None) -> list[str]:
    """A view's story in the rules of its game (the rulebook it carries: a house
    rulebook narrates as itself, whatever its id)."""
    return Narrator(view.book, view.names, lang).lines(view)
