"""Turning the events of a view into sentences, in the rulebook's language.

Every name a player reads comes from the rulebook's [names] table and the language's
messages (src/lupus/locales/<lang>.toml, overridable per rulebook), never from code.
The narration is computed from a View, so it can only ever tell what the view holds.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from typing import Any

from lupus.engine.model import LEADER, Event
from lupus.engine.views import View
from lupus.rulebooks import load
from lupus.rulebooks.schema import Rulebook


@cache
def messages(lang: str) -> dict[str, str]:
    base = resources.files("lupus.locales")
    path = base.joinpath(f"{lang}.toml")
    if not path.is_file():
        path = base.joinpath("en.toml")
    table = tomllib.loads(path.read_text("utf-8"))["text"]
    return {str(k): str(v) for k, v in table.items()}


class _Fields(dict[str, object]):
    """Template fields; a field an event lacks shows as «?» rather than failing."""

    def __missing__(self, key: str) -> str:
        return "«?»"


class Narrator:
    """Renders events for one reader, in one language."""

    def __init__(self, book: Rulebook, names: Iterable[str], lang: str | None = None) -> None:
        self.book = book
        self.names = tuple(names)
        self.lang = lang if lang in book.languages else book.language
        self.text = {**messages(self.lang), **book.text.get(self.lang, {})}
        self.N = {k: v for k, v in book.names[self.lang].items()}

    def t(self, key: str, /, **fields: object) -> str:
        return self.text.get(key, key).format_map(_Fields(N=self.N, **fields))

    def who(self, seat: object) -> str:
        if seat is None:
            return self.t("nobody")
        if isinstance(seat, str):
            return seat
        return self.names[int(str(seat))]

    def house(self, house: object) -> str:
        """Lupusburg's houses read <player>.1 and <player>.2."""
        h = int(str(house))
        return f"{self.names[h // 2]}.{h % 2 + 1}"

    def house_fields(self, d: Mapping[str, object], fields: dict[str, object]) -> None:
        for key in ("house", "chest"):
            if isinstance(d.get(key), int) and not isinstance(d.get(key), bool):
                fields[key] = self.house(d[key])
        if isinstance(d.get("chest"), bool):
            fields["chest"] = self.t("yes" if d["chest"] else "no")
        for key in ("houses", "chests"):
            items = d.get(key)
            if isinstance(items, list):
                fields[key] = self.join(self.house(h) for h in items)
        for key in ("characters", "tokens"):
            table = d.get(key)
            if isinstance(table, Mapping):
                fields[key] = self.join(
                    f"{self.house(h)} ({self.role(c) if key == 'characters' else c})"
                    for h, c in table.items()
                )
        if "character" in d:
            fields["character"] = self.role(d["character"])
        if "to" in d:
            fields["to"] = self.who(d["to"])
        coins = d.get("coins")
        if isinstance(coins, list):
            fields["coins"] = ", ".join(str(c) for c in coins)
        scores = d.get("scores")
        if isinstance(scores, Mapping):
            fields["scores"] = self.join(f"{self.who(s)} {n}" for s, n in scores.items())
        bets = d.get("bets")
        if isinstance(bets, Mapping):
            fields["bets"] = (
                self.join(f"{self.who(s)} → {self.who(b[0])} ({b[1]})" for s, b in bets.items())
                if bets
                else self.t("nobody")
            )

    def role(self, role: object) -> str:
        return self.N.get(str(role), str(role))

    def side(self, faction: object) -> str:
        """A faction's name: ``faction.<id>`` when a role shares the id (maffia's mafia)."""
        key = str(faction)
        return self.N.get(f"faction.{key}") or self.N.get(key, key)

    def join(self, items: Iterable[str]) -> str:
        items = list(items)
        if len(items) <= 1:
            return "".join(items) or self.t("nobody")
        return f"{', '.join(items[:-1])} {self.t('and')} {items[-1]}"

    def roles(self, roles: Mapping[Any, object]) -> str:
        return self.join(f"{self.who(s)} ({self.role(r)})" for s, r in roles.items())

    def event(self, ev: Event, viewer: int = LEADER) -> str:
        d = ev.data
        fields: dict[str, object] = dict(d)
        for key in ("player", "target", "partner", "burgomaster"):
            if key in d:
                fields[key] = self.who(d[key])
        fields["viewer"] = self.join(self.who(s) for s in sorted(ev.audience or ()))
        if "role" in d:
            fields["role"] = self.role(d["role"])
        roles = d.get("roles")
        if isinstance(roles, Mapping):
            fields["roles"] = self.roles(roles)
        for key in ("players", "candidates"):
            seats = d.get(key)
            if isinstance(seats, list):
                fields["players"] = self.join(self.who(s) for s in seats)
        cards = d.get("cards")
        if isinstance(cards, list):
            fields["cards"] = self.join(self.role(c) for c in cards)
        comp = d.get("composition")
        if isinstance(comp, Mapping):
            fields["cards"] = self.join(f"{n} × {self.role(r)}" for r, n in comp.items())
        if "cause" in d:
            fields["cause"] = self.t(f"cause_{d['cause']}")
        if "side" in d:
            fields["side"] = self.side(d["side"])
        if "winner" in d:
            fields["winner"] = self.side(d["winner"])
            winners = d.get("winners")
            if isinstance(winners, list):
                fields["winners"] = self.join(self.who(s) for s in winners)
        self.house_fields(d, fields)
        votes = d.get("votes")
        if isinstance(votes, Mapping):
            name = self.house if ev.kind == "ballots" else self.who
            fields["votes"] = self.join(f"{name(s)} {n}" for s, n in votes.items())
        line = self.t(self.key(ev), **fields)
        line = line[:1].upper() + line[1:]
        if viewer == LEADER and ev.audience is not None:
            if ev.audience:
                line = self.t("private", players=fields["viewer"] or "-", text=line)
            else:
                line = self.t("private_leader", text=line)
        return line

    def key(self, ev: Event) -> str:
        d = ev.data
        kind = ev.kind
        variant: str | None = None
        if kind == "wake":
            variant = str(d["step"])
        elif kind == "potion":
            variant = str(d["kind"])
        elif kind == "captain":
            variant = str(d["how"])
        elif kind == "ballot":
            variant = str(d["vote"]) + ("" if d.get("target") is not None else ".none")
        elif kind == "pack_choice" and d.get("target") is None:
            variant = "sleep"
        elif kind == "pack_victim" and d.get("target") is None:
            variant = "none"
        elif kind == "in_love" and "role" in d:
            variant = "role"
        elif kind == "death" and "role" not in d:
            variant = "hidden"
        if variant is not None and f"{kind}.{variant}" in self.text:
            return f"{kind}.{variant}"
        return kind

    def lines(self, view: View) -> list[str]:
        """The whole story a view tells, with night and day headings."""
        out: list[str] = []
        for ev in view.events:
            if ev.kind in ("night", "day"):
                out.append("")
                out.append(f"== {self.t('heading_' + ev.kind, number=ev.data['number'])} ==")
            out.append(self.event(ev, view.seat))
        return out


def narrate(view: View, lang: str | None = None) -> list[str]:
    book = load(view.rulebook)
    return Narrator(book, view.names, lang).lines(view)
