"""`lupus rules`: a rulebook explained in its own language, straight from its data file."""

from __future__ import annotations

from lupus.families import load
from lupus.narration import Narrator
from lupus.rulebooks import available
from lupus.rulebooks.schema import Rulebook


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

    def sentence(line: str) -> str:
        return line[:1].upper() + line[1:]

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
        out.append(t("rules_minimum", rule=minimum.rule, players=minimum.players, lift=lift))
    out += ["", t("rules_roles")]
    for rid, spec in book.roles.items():
        most = t("rules_most", count=spec.max) if spec.max else ""
        faction = text.side(spec.faction)
        line = t("rules_role_line", name=text.role(rid), id=rid, faction=faction, most=most)
        about = text.text.get(f"about.{rid}")
        out.append("  " + (t("rules_role_about", line=line, about=about) if about else line))

    def steps(ids: tuple[str, ...]) -> str:
        return " → ".join(t(f"step.{i}") for i in ids)

    out += ["", f"{t('rules_night_first')}: {steps(book.night.first)}"]
    out.append(f"{t('rules_night_later')}: {steps(book.night.later)}")
    if book.night.preparation:
        out.append(f"{t('rules_preparation')}: {steps(book.night.preparation)}")
    out.append(f"{t('rules_day')}: {steps(book.day)}")
    out += ["", t("rules_win")]
    # Win conditions that are mechanics (Lupusburg's scoring) are told by the rulebook.
    wins = sorted(k for k in text.text if k.startswith("win_text."))
    out += ["  " + sentence(t(key)) for key in wins]
    for win in book.win:
        out.append(
            "  "
            + sentence(
                t(
                    f"win.{win.when}",
                    faction=text.side(win.faction),
                    of=text.side(win.of or ""),
                    count=win.count,
                )
            )
        )
    notes = [key for key in text.text if key.startswith("note.")]
    if notes:
        out += ["", t("rules_notes")]
        out += ["  " + t(key) for key in notes]
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
        for size, deck in sorted(book.compositions.items(), key=lambda kv: int(kv[0])):
            cards = text.cards(deck, sep=", ")
            out.append(f"  {size:>2}: {cards}")
    return out
