"""`lupus rules`: a rulebook explained in its own language, straight from its data file."""

from __future__ import annotations

from typing import TypedDict

from lupus.families import load
from lupus.narration import Narrator
from lupus.rulebooks import available
from lupus.rulebooks.schema import Rulebook


class RoleText(TypedDict):
    id: str
    name: str
    side: str
    max: int | None
    about: str | None


class Phase(TypedDict):
    title: str
    steps: list[str]


def listing(lang: str | None = None) -> list[str]:
    out = []
    for rid in available():
        book = load(rid)
        text = Narrator(book, (), lang)
        out.append(
            f"{rid:12} {book.name('rulebook', text.lang)} "
            f"({book.min_players}-{book.max_players}, {', '.join(book.languages)})"
        )
    return out


def describe(book: Rulebook, lang: str | None = None, *, strict: bool = False) -> list[str]:
    """``lupus rules <id>``; ``strict``: fail on a message that cannot be said."""
    text = Narrator(book, (), lang, strict=strict)
    t = text.t
    out = [
        t(
            "rules_title",
            id=book.id,
            min=book.min_players,
            max=book.max_players,
            languages=", ".join(book.languages),
        ),
    ]
    minimum = book.minimum
    if minimum is not None:  # a rule of the seed, and the house rules that lift it
        lift = t("rules_minimum_lift", option=minimum.lifted_by) if minimum.lifted_by else ""
        rule = book.minimum_rule(text.lang)
        out.append(t("rules_minimum", rule=rule, players=minimum.players, lift=lift))
    out += ["", t("rules_roles")]
    for role in roles(book, text):
        most = t("rules_most", count=role["max"]) if role["max"] else ""
        line = t(
            "rules_role_line", name=role["name"], id=role["id"], faction=role["side"], most=most
        )
        about = role["about"]
        out.append("  " + (t("rules_role_about", line=line, about=about) if about else line))
    out.append("")
    out += [f"{part['title']}: {' → '.join(part['steps'])}" for part in order(book, text)]
    out += ["", t("rules_win")]
    out += ["  " + line for line in wins(book, text)]
    said = notes(text)
    if said:
        out += ["", t("rules_notes")]
        out += ["  " + line for line in said]
    if book.options:
        out += ["", t("rules_options")]
        for key, opt in book.options.items():
            default = str(opt.default).lower() if isinstance(opt.default, bool) else opt.default
            helptext = opt.help.get(text.lang) or next(iter(opt.help.values()), "")
            out.append(
                "  "
                + t(
                    "rules_option_line",
                    key=key,
                    default=default,
                    type=opt.type,
                    help=f": {helptext}" if helptext else "",
                )
            )
    if book.compositions:
        out += ["", t("rules_compositions")]
        for size, cards in compositions(book, text):
            out.append(f"  {size:>2}: {cards}")
    return out


def explained(book: Rulebook, lang: str | None = None) -> dict[str, object]:
    """The same explanation as ``describe``, in parts a page lays out itself (``GET
    /api/rulebooks/{id}/rules``, the pages' help): no option id, no role id shown as
    text, every word from the rulebook or the locale."""
    text = Narrator(book, (), lang)
    t = text.t
    minimum = book.minimum
    return {
        "id": book.id,
        "lang": text.lang,
        "name": book.name("rulebook", text.lang),
        "players": t("rules_players", min=book.min_players, max=book.max_players),
        # (the house rule that lifts it is explained among the options, in words)
        "minimum": None
        if minimum is None
        else t(
            "rules_minimum", rule=book.minimum_rule(text.lang), players=minimum.players, lift=""
        ),
        "headings": {
            "roles": t("rules_roles"),
            "order": t("rules_order"),
            "win": t("rules_win"),
            "notes": t("rules_notes"),
            "options": t("rules_options"),
            "compositions": t("rules_compositions"),
        },
        "roles": [
            {
                "id": role["id"],
                "name": role["name"],
                "side": role["side"],
                "line": t(
                    "rules_role_side",
                    faction=role["side"],
                    most=t("rules_most", count=role["max"]) if role["max"] else "",
                ),
                "about": role["about"],
            }
            for role in roles(book, text)
        ],
        "order": order(book, text),
        "win": wins(book, text),
        "notes": notes(text),
        "options": [
            {
                "key": key,
                "help": opt.help.get(text.lang) or next(iter(opt.help.values()), ""),
                "default": opt.default,
            }
            for key, opt in book.options.items()
        ],
        "compositions": [
            {"size": size, "title": t("rules_deck_size", count=size), "cards": cards}
            for size, cards in compositions(book, text)
        ],
    }


def roles(book: Rulebook, text: Narrator) -> list[RoleText]:
    return [
        {
            "id": rid,
            "name": text.role(rid),
            "side": text.side(spec.faction),
            "max": spec.max,
            "about": text.text.get(f"about.{rid}"),
        }
        for rid, spec in book.roles.items()
    ]


def order(book: Rulebook, text: Narrator) -> list[Phase]:
    """The nights' and the day's steps, in the order they are played."""
    parts = [("rules_night_first", book.night.first), ("rules_night_later", book.night.later)]
    if book.night.preparation:
        parts.append(("rules_preparation", book.night.preparation))
    parts.append(("rules_day", book.day))
    return [
        {"title": text.t(title), "steps": [text.t(f"step.{i}") for i in ids]}
        for title, ids in parts
    ]


def wins(book: Rulebook, text: Narrator) -> list[str]:
    def sentence(line: str) -> str:
        return line[:1].upper() + line[1:]

    t = text.t
    # Win conditions that are mechanics (Lupusburg's scoring) are told by the rulebook.
    out = [sentence(t(key)) for key in sorted(k for k in text.text if k.startswith("win_text."))]
    for win in book.win:
        out.append(
            sentence(
                t(
                    f"win.{win.when}",
                    faction=text.side(win.faction),
                    of=text.side(win.of or ""),
                    count=win.count,
                )
            )
        )
    return out


def notes(text: Narrator) -> list[str]:
    return [text.t(key) for key in text.text if key.startswith("note.")]


def compositions(book: Rulebook, text: Narrator) -> list[tuple[int, str]]:
    return [
        (int(size), text.cards(deck, sep=", "))
        for size, deck in sorted(book.compositions.items(), key=lambda kv: int(kv[0]))
    ]
