"""Players' names: text a person typed, checked the same way for every rulebook family.

A name ends up in every line of the log, in menus and in the scenario files players
share, so a table of names is refused (``SetupError``, with a reason a player
understands) unless each name reads as one clean line and no two names can be
confused:

- names are kept in Unicode NFC (the form the game shows and compares);
- a name is 1 to ``MAX_NAME_LENGTH`` characters (code points of its NFC form), with no
  space at either end;
- no control characters, no line or paragraph breaks, no lone surrogates, and none of
  the characters that reorder the rest of a line (bidirectional embeddings, overrides
  and isolates): one name could otherwise forge a line of the log;
- two names may not differ only by case, spacing forms or invisible characters
  (format characters, Unicode category Cf: zero-width spaces, joiners...): they are
  compared by ``name_key``, the name without its format characters, in NFKC, casefolded;
- ``leader`` (in any case) is the game leader's, not a player's;
- Lupusburg also refuses a dot (its houses read ``Ann.1`` and ``Ann.2``).

The number of players is checked first, before anything is done per name, so a table
of 60,000 names costs nothing. A table that passed is remembered per rulebook (up to
``KEPT`` tables), so a simulation setting up the same table over and over checks it once.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Final, cast

from lupus.engine.errors import SetupError
from lupus.engine.limits import MAX_PLAYERS
from lupus.rulebooks.facts import KEPT
from lupus.rulebooks.schema import Rulebook

MAX_NAME_LENGTH: Final = 24
"""The longest name, in characters (code points of its NFC form)."""

UNNORMALIZED: Final = 8 * MAX_NAME_LENGTH
"""The longest name read before it is put in NFC: composing joins at most four code
points into one, so a longer text cannot be a name of ``MAX_NAME_LENGTH``."""

RESERVED_NAME: Final = "leader"
"""The game leader's name in scenario files; no player may take it, in any case."""

# Categories refused anywhere in a name: control characters (Cc: tabs, escapes, line
# feeds), line and paragraph separators (Zl, Zp) and lone surrogates (Cs, which cannot
# even be printed).
_REFUSED_CATEGORIES: Final = frozenset({"Cc", "Zl", "Zp", "Cs"})
# Bidirectional embeddings, overrides and isolates: they reorder the text after them.
_REORDERING: Final = frozenset(
    {"\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"}
)


def check_count(book: Rulebook, n: int) -> None:
    """Refuse a table of the wrong size (before anything is done per name): the
    rulebook's bounds, and never more than ``MAX_PLAYERS``."""
    low, high = book.min_players, min(book.max_players, MAX_PLAYERS)
    if not low <= n <= high:
        raise SetupError(f"{book.id} is played by {low} to {high} players, not {n}")


def player_names(
    book: Rulebook,
    names: Sequence[str],
    known: set[tuple[bool, tuple[str, ...]]],
    no_dot: bool = False,
) -> tuple[str, ...]:
    """The players' names as the game keeps them (NFC), or SetupError saying why not.

    ``known`` holds the tables of names already found valid under ``book`` and already
    in NFC, each with its ``no_dot`` (which the checks depend on, with the book): those
    are taken as they are. Only a table of plain ``str`` is looked up or kept (a
    subclass may compare equal to a name it is not). ``no_dot`` refuses a dot
    (Lupusburg's houses read ``Ann.1``).
    """
    table = tuple(names)
    plain = True
    for name in cast("tuple[object, ...]", table):
        if type(name) is not str:
            plain = False
            break
    if plain and (no_dot, table) in known:
        return table
    fresh = checked_names(book, table, no_dot)
    if plain and fresh == table and len(known) < KEPT:
        known.add((no_dot, table))
    return fresh


def checked_names(
    book: Rulebook, table: Sequence[str], no_dot: bool = False, *, whole: bool = True
) -> tuple[str, ...]:
    """``player_names`` without the memory: every check, every time. ``whole``: the
    table is complete (its size is checked); a lobby filling up checks its names so far."""
    n = len(table)
    if whole:
        check_count(book, n)
    items = cast("Sequence[object]", table)  # read as objects: a caller may pass anything
    seen: dict[str, str] = {}  # name_key -> the name that has it
    out: list[str] = []
    for i in range(n):
        item = items[i]
        if not isinstance(item, str):
            raise SetupError(f"player {i + 1}'s name must be text, not {type(item).__name__}")
        if len(item) > UNNORMALIZED:  # (measured before it is normalized)
            raise SetupError(
                f"player {i + 1}'s name {shown(item)}: a name has at most {MAX_NAME_LENGTH} "
                f"characters, not {len(item)}"
            )
        name = unicodedata.normalize("NFC", item)
        problem = name_problem(name, no_dot)
        if problem:
            raise SetupError(f"player {i + 1}'s name {shown(name)}: {problem}")
        key = name_key(name)
        if not key:
            raise SetupError(
                f"player {i + 1}'s name {shown(name)}: player names must be unique and not empty "
                "(it is made of invisible characters only)"
            )
        if key == RESERVED_NAME:
            also = (
                ""
                if name == RESERVED_NAME
                else f" ({shown(name)} differs from it only by case or invisible characters)"
            )
            raise SetupError(f"'{RESERVED_NAME}' is reserved for the game leader{also}")
        other = seen.get(key)
        if other is not None:
            if other == name:
                raise SetupError(f"player names must be unique: {shown(name)} is given twice")
            raise SetupError(
                f"player names must be unique: {shown(other)} and {shown(name)} differ only "
                "by case, invisible characters or look-alike forms"
            )
        seen[key] = name
        out.append(name)
    return tuple(out)


def name_problem(name: str, no_dot: bool = False) -> str:
    """Why one name (already in NFC) cannot be a player's, or "" when it can."""
    if not name.strip():
        return "player names must be unique and not empty"
    for char in name[: MAX_NAME_LENGTH + 1]:  # (a longer name is refused below anyway)
        if unicodedata.category(char) in _REFUSED_CATEGORIES:
            return "a name may not hold control characters or line breaks"
        if char in _REORDERING:
            return "a name may not hold characters that reorder the text around it"
        if no_dot and char == ".":
            return "player names are without a dot (houses read like Ann.1, Ann.2)"
    if len(name) > MAX_NAME_LENGTH:
        return f"a name has at most {MAX_NAME_LENGTH} characters, not {len(name)}"
    if name.strip() != name:
        return "a name may not begin or end with a space"
    return ""


def name_key(name: str) -> str:
    """What two names are compared by: without format characters (category Cf, which
    print as nothing), in NFKC (one form for look-alike spaces and letters), casefolded."""
    visible: list[str] = []
    for char in name:
        if unicodedata.category(char) != "Cf":
            visible.append(char)
    folded = unicodedata.normalize("NFKC", "".join(visible)).casefold()
    return unicodedata.normalize("NFKC", folded)


def shown(name: str) -> str:
    """A name quoted for an error message on one line (escaped, cut when too long)."""
    if len(name) > MAX_NAME_LENGTH + 8:
        return repr(name[:MAX_NAME_LENGTH]) + "..."
    return repr(name)
