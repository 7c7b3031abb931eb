"""The message tables a narration reads, and the template fields that fill them.

A template is ``str.format_map``-ed with an event's fields and the rulebook's names as
``{N[key]}``; a field or name that is missing shows as «?» or as its key, unless the
narrator is strict (then MessageError names what is missing).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Final, Protocol

from lupus.engine.errors import LupusError
from lupus.families import family_of
from lupus.rulebooks.schema import Rulebook


class Speaker(Protocol):
    """What a template's fields need of the narrator saying it
    (``lupus.narration.Narrator``; named here so that this module needs none of it)."""

    N: dict[str, str]
    lang: str
    strict: bool

    @property
    def names_table(self) -> Names: ...

    def error(self, key: str, problem: str) -> MessageError: ...


@cache
def locale(lang: str) -> dict[str, dict[str, str]]:
    """A language's file (``src/lupus/locales/<lang>.toml``), read once: its narration
    (``text``) and the web pages' words (``ui``); an empty dict for a language lupus has
    no file for."""
    path = resources.files("lupus.locales").joinpath(f"{lang}.toml")
    if not path.is_file():
        return {}
    tables = tomllib.loads(path.read_text("utf-8"))
    return {name: {str(k): str(v) for k, v in table.items()} for name, table in tables.items()}


def locales() -> list[str]:
    """Every language lupus has a file for."""
    found = resources.files("lupus.locales").iterdir()
    return sorted(entry.name[: -len(".toml")] for entry in found if entry.name.endswith(".toml"))


@cache
def messages(lang: str) -> dict[str, str]:
    return locale(lang).get("text") or locale("en")["text"]


TABLES_KEPT: Final = 64
"""Message tables kept (a rulebook in each language it has): a server makes a narrator
per reader per game, and merging the tables was most of a narrator's making."""

_tables: dict[tuple[int, str], tuple[Rulebook, int, dict[str, str], dict[str, str]]] = {}


def tables(book: Rulebook, lang: str) -> tuple[dict[str, str], dict[str, str]]:
    """A rulebook's messages in ``lang`` (the plugins' English text first: a language
    file's or the rulebook's text for a key comes before it) and its names, merged once
    and shared by every narrator, which only reads them. Kept per rulebook object and
    the family's ``revision`` (a role registered later brings its messages)."""
    family = family_of(book)
    found = _tables.get((id(book), lang))
    if found is None or found[0] is not book or found[1] != family.revision:
        if len(_tables) >= TABLES_KEPT:
            _tables.clear()
        text = {
            **family.messages(lang),
            **messages(lang),
            **book.text.get(lang, {}),
        }
        found = _tables[id(book), lang] = (book, family.revision, text, dict(book.names[lang]))
    return found[2], found[3]


def untranslated(book: Rulebook, lang: str) -> frozenset[str]:
    """The keys a narration of ``book`` in ``lang`` would say in English: a plugin's
    message with no text in ``lang`` from the plugin, the language file or the rulebook
    (a strict narrator refuses them)."""
    missing = family_of(book).untranslated(lang)
    if not missing:
        return missing
    given = messages(lang) if lang in locales() else {}
    own = book.text.get(lang, {})
    return frozenset(key for key in missing if key not in given and key not in own)


class MessageError(LupusError, ValueError):
    """A message that cannot be said (raised by a strict Narrator only): no such key, a
    placeholder the event lacks, a name the rulebook lacks, or a broken template."""


class Fields(dict[str, object]):
    """Template fields; a field an event lacks shows as «?» (strict: MessageError)."""

    def __init__(self, narrator: Speaker, key: str, fields: Mapping[str, object]) -> None:
        super().__init__(fields)
        names = narrator.names_table
        names.key = key  # (the message being said, for a strict narrator's error)
        self["N"] = names
        self.narrator = narrator
        self.key = key

    def __missing__(self, name: str) -> str:
        if self.narrator.strict:
            raise self.narrator.error(self.key, f"needs {{{name}}}, which the event lacks")
        return "«?»"


class Names(dict[str, str]):
    """The rulebook's names as ``{N[key]}``; a missing one shows its key (strict: fails).
    One per narrator (a copy per sentence cost more than the sentence)."""

    def __init__(self, narrator: Speaker, key: str = "") -> None:
        super().__init__(narrator.N)
        self.narrator = narrator
        self.key = key

    def __missing__(self, name: str) -> str:
        if self.narrator.strict:
            where = f"[names.{self.narrator.lang}]"
            raise self.narrator.error(self.key, f"uses {{N[{name}]}}, missing from {where}")
        return name
