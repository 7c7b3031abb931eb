"""What a page needs before it is in a room: the rulebooks with their names, options and
role explanations in every language, and the interface's own words.

The pages hold no name of their own: a role, a side or a rulebook is named by its
rulebook, in the reader's language when the rulebook has it (``Rulebook.name``), and
every other word of the interface comes from the ``[ui]`` table of
``src/lupus/locales/<lang>.toml``, so that a language is added with one file.
"""

from __future__ import annotations

from functools import cache

from lupus.engine.events import SCRIPT
from lupus.families import event_specs, load
from lupus.messages import locale, locales
from lupus.narration import Narrator
from lupus.rulebooks import available
from lupus.rulebooks.schema import Rulebook


@cache
def interface_languages() -> dict[str, str]:
    """Every language the interface speaks -> its own name for itself ("Svenska")."""
    return {lang: words["language"] for lang in locales() if (words := locale(lang).get("ui"))}


@cache
def interface_words(lang: str) -> dict[str, str]:
    """The ``[ui]`` table of ``lang``, English filling any word it lacks (a new language
    may be added a little at a time; a test lists what each one still lacks)."""
    words = dict(locale("en")["ui"])
    if lang != "en" and lang in interface_languages():
        words.update(locale(lang)["ui"])
    return words


def rulebook_entry(book: Rulebook, lang: str) -> dict[str, object]:
    """A rulebook as the pages show it in ``lang`` (the rulebook's first language when
    it has not that one): ``GET /api/rulebooks``."""
    said = lang if lang in book.languages else book.language
    text = book.text.get(said, {})
    return {
        "id": book.id,
        "family": book.family,
        "name": book.name("rulebook", said),
        "min_players": book.min_players,
        "max_players": book.max_players,
        "languages": list(book.languages),
        "lang": said,
        "compositions": book.compositions,
        "minimum": minimum_entry(book, said),
        "roles": {
            rid: {
                "name": book.name(rid, said),
                "faction": spec.faction,
                "side": book.name(spec.faction, said),
                "max": spec.max,
                "about": text.get(f"about.{rid}"),
            }
            for rid, spec in book.roles.items()
        },
        "names": dict(book.names.get(said, {})),
        # How each cause of death is told, in the rulebook's own words where it has
        # them ("banished by the village"), as the narration tells it.
        "causes": causes(book, said),
        "options": {key: spec.default for key, spec in book.options.items()},
        # The timers a room of this rulebook gets unless its host chooses others or none.
        "timers": book.timers.model_dump(),
        # The night's steps (the others are the day's): a host's new night or day
        # time scales the rulebook's own timers of that kind.
        "night_steps": sorted({*book.night.first, *book.night.later, *book.night.preparation}),
        # At one table, how many taps every living phone gives each night step.
        "table_taps": dict(book.table.taps),
        "option_specs": option_specs(book, said),
        # What each event kind is in a game leader's script (``EventSpec.script``):
        # the kinds that open a step, echo an entry, are noted, or are skipped.
        "script": script(book),
        # What each private kind that shows its audience something shows them
        # (``EventSpec.shows``): a game leader's page shows it so, naming no kind.
        "shows": shows(book),
    }


def minimum_entry(book: Rulebook, said: str) -> dict[str, object] | None:
    """The rulebook's smallest table in ``said`` (``rulebook_entry``'s ``minimum``)."""
    return (
        None
        if book.minimum is None
        else {
            "players": book.minimum.players,
            # (the cards a deck needs: the home page applies the house rule that lifts
            # the minimum, and says so, for a smaller table or deck)
            "cards": dict(book.minimum.cards),
            "rule": book.minimum_rule(said),
            "lifted_by": book.minimum.lifted_by,
        }
    )


def option_specs(book: Rulebook, said: str) -> dict[str, object]:
    """Each option as a room form shows it, in ``said`` (``rulebook_entry``)."""
    return {
        key: {
            "type": spec.type,
            "default": spec.default,
            "min": spec.min,
            "max": spec.max,
            "choices": list(spec.choices),
            "help": spec.help.get(said)
            or spec.help.get("en")
            or next(iter(spec.help.values()), ""),
            # (each choice in the reader's words, where the rulebook gives them)
            "labels": {
                choice: spec.labels.get(said, {}).get(choice)
                or spec.labels.get("en", {}).get(choice)
                or choice
                for choice in spec.choices
            },
        }
        for key, spec in book.options.items()
    }


def script(book: Rulebook) -> dict[str, list[str]]:
    """``rulebook_entry``'s ``script``: the kinds of ``book``'s family by their mark in a
    game leader's script, so that the leader's page names no event kind of a role."""
    marks: dict[str, list[str]] = {mark: [] for mark in sorted(SCRIPT)}
    for kind, spec in event_specs(book).items():
        if spec.script is not None:
            marks[spec.script].append(kind)
    return marks


def shows(book: Rulebook) -> dict[str, str]:
    """``rulebook_entry``'s ``shows``: kind -> what an event of it shows its audience
    (``card``, ``side``, ``victim``, ``pointed``, ``held``), for the kinds that do."""
    return {kind: spec.shows for kind, spec in event_specs(book).items() if spec.shows}


def causes(book: Rulebook, lang: str) -> dict[str, str]:
    told = Narrator(book, (), lang)
    prefix = "cause_"
    return {key[len(prefix) :]: told.t(key) for key in told.text if key.startswith(prefix)}


@cache
def languages() -> frozenset[str]:
    """Every language some rulebook is written in."""
    return frozenset(lang for rid in available() for lang in load(rid).languages)


def rulebooks(lang: str) -> list[dict[str, object]]:
    return [rulebook_entry(load(rid), lang) for rid in available()]
