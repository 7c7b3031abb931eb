"""What every player of a game knows from the start, shared by all its views."""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from typing import ClassVar, Final, final

from lupus.engine.errors import RulebookError
from lupus.engine.model import Value
from lupus.engine.sealed import seal
from lupus.engine.untrusted import bounded
from lupus.rulebooks.schema import OptionValue, Rulebook, lookup_book, remember_book


@final
class PublicSetup(Value):
    """What every player knows from the start: the rulebook, the names, the options.

    A game makes it once; every view shares it. The rulebook is carried by its id and
    its content's digest (a house rulebook that keeps a shipped id has another digest),
    never as the object: its tables are mutable and shared by every game of the book,
    and nothing a view reaches may change another game (``book`` finds it by digest).
    ``options`` is a read-only copy taken when the game was set up (a view hands out a
    fresh dict of it).
    """

    __slots__ = ("digest", "names", "options", "rulebook")
    FIELDS: ClassVar[tuple[str, ...]] = ("rulebook", "digest", "names", "options")

    def __init__(
        self,
        rulebook: str,
        digest: str,
        names: tuple[str, ...],
        options: Mapping[str, OptionValue],
    ) -> None:
        self.rulebook: Final = rulebook
        self.digest: Final = digest
        self.names: Final = names
        self.options: Final = options

    @property
    def book(self) -> Rulebook:
        """The game's rulebook (public: every player knows the rules); RulebookError
        once no game holds it any more (``lupus.rulebooks.schema.remember_book``)."""
        found = lookup_book(self.digest)
        if found is None:
            raise RulebookError(f"{bounded(self.rulebook)}: the rules of this game are gone")
        return found


seal(PublicSetup)


_LAST_BOOK: Final[list[tuple[weakref.ref[Rulebook], str]]] = []
"""The rulebook the last game was set up with, and its digest: a run sets up thousands
of games with one rulebook object, whose digest (read through pydantic) and keeping
(``remember_book``, a weak table) need not be asked again. Held weakly: a rulebook
no game holds any more is let go as ``remember_book`` says."""


def remembered(rulebook: Rulebook) -> str:
    """``remember_book(rulebook)``, asked once for the same rulebook object in a row."""
    last = _LAST_BOOK
    if last and last[0][0]() is rulebook:
        return last[0][1]
    digest = remember_book(rulebook)
    last.clear()
    last.append((weakref.ref(rulebook), digest))
    return digest
