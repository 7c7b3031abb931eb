"""What a dealer hands out, whatever the family, and the compositions it deals from.

The random deals themselves are the families' (``Family.deal``): pure, the caller
hands in the random generator, so a seed gives the same deal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar, Final, cast, final

from lupus.engine.errors import RulebookError, SetupError
from lupus.engine.limits import (
    MAX_ARGUMENT_TEXT,
    MAX_BAG,
    MAX_CARDS,
    MAX_COMPOSITION_ENTRIES,
    MAX_ID_LENGTH,
    MAX_PLAYERS,
    MAX_SHOWN,
)
from lupus.engine.model import Value
from lupus.engine.sealed import seal
from lupus.engine.untrusted import exact_int, few, items_of, kind_of, quoted, texts
from lupus.files import printable
from lupus.rulebooks.schema import Rulebook


@final
class Deal(Value):
    """What the dealer hands out: village cards (``roles``, and a Thief's two
    ``extra_cards``), or Lupusburg characters, chests, the first burgomaster and
    optionally the bag's order (None: the game shuffles it)."""

    __slots__ = ("bag", "burgomaster", "characters", "chests", "extra_cards", "roles")
    FIELDS: ClassVar[tuple[str, ...]] = (
        "roles",
        "extra_cards",
        "characters",
        "chests",
        "burgomaster",
        "bag",
    )

    def __init__(
        self,
        roles: tuple[str, ...] = (),
        extra_cards: tuple[str, ...] = (),
        characters: tuple[tuple[str, ...], ...] = (),
        chests: tuple[int, ...] = (),
        burgomaster: int = 0,
        bag: tuple[int, ...] | None = None,
    ) -> None:
        self.roles: Final = roles
        self.extra_cards: Final = extra_cards
        self.characters: Final = characters
        self.chests: Final = chests
        self.burgomaster: Final = burgomaster
        self.bag: Final = bag


seal(Deal)


def composition(book: Rulebook, players: int) -> dict[str, int]:
    """The rulebook's recommended composition for that many players."""
    if not isinstance(book, Rulebook):  # (a caller may pass the id: ``lupus.load`` it)
        raise RulebookError(f"composition takes a loaded Rulebook, not {kind_of(book)}")
    deck = book.compositions.get(str(players)) if type(players) is int else None
    if deck is None:
        sizes = ", ".join(sorted(book.compositions, key=int))
        raise SetupError(
            f"{book.id} recommends no composition for {quoted(players)} players ({sizes})"
        )
    return dict(deck)


def table_size(book: Rulebook, players: object) -> int:
    """``players`` if it is a number of players ``book`` is played by (exactly an int,
    within the rulebook's bounds and ``MAX_PLAYERS``), else SetupError saying so."""
    if type(players) is not int:
        raise SetupError(f"the number of players must be a whole number, not {kind_of(players)}")
    assert isinstance(players, int)
    low, high = book.min_players, min(book.max_players, MAX_PLAYERS)
    if not low <= players <= high:
        raise SetupError(f"{book.id} is played by {low} to {high} players, not {quoted(players)}")
    return players


def checked_counts(book: Rulebook, counts: object) -> dict[str, int]:
    """``counts`` as a plain dict if it is a composition of ``book``'s roles (a mapping
    of at most ``MAX_COMPOSITION_ENTRIES`` role ids to whole numbers from 0 to
    ``MAX_CARDS``), else SetupError naming the first thing wrong. Measured, never
    expanded: nothing is built from a composition before it passes."""
    if not isinstance(counts, Mapping):
        raise SetupError(f"a composition maps role ids to counts, not {kind_of(counts)}")
    if len(counts) > MAX_COMPOSITION_ENTRIES:
        raise SetupError(
            f"a composition names at most {MAX_COMPOSITION_ENTRIES} roles, not {len(counts)}"
        )
    checked: dict[str, int] = {}
    roles = book.roles  # (read once: a rulebook's fields are read through pydantic)
    for role, count in counts.items():
        if type(role) is not str:
            raise SetupError(f"a composition's roles are role ids, not {kind_of(role)}")
        assert isinstance(role, str)
        if role not in roles:
            raise SetupError(
                f"unknown role {quoted(role)} in {book.id} (roles: {', '.join(book.roles)})"
            )
        if type(count) is not int or not 0 <= count <= MAX_CARDS:  # (the message only then)
            exact_int(count, f"the count of {role}", 0, MAX_CARDS)
        assert isinstance(count, int)
        checked[role] = count
    return checked


def deal_request(book: Rulebook, players: object, counts: object) -> tuple[int, dict[str, int]]:
    """What a random deal is asked, checked before any card is laid (``table_size``,
    ``checked_counts``): every family's dealer starts here."""
    return table_size(book, players), checked_counts(book, counts)


def checked_deal(
    roles: object = (),
    extra_cards: object = (),
    characters: object = (),
    chests: object = (),
    burgomaster: object = 0,
    bag: object = None,
) -> Deal:
    """A ``Deal`` of these parts, if each is a list of the right kind and size: role
    and character ids are text of at most ``MAX_ID_LENGTH`` characters, at most
    ``MAX_CARDS`` of them, chests one per player, the first Burgomaster a whole number,
    the bag at most ``MAX_BAG`` coins; else SetupError naming the part. Sizes and exact
    types only, measured before anything is copied: the family's set-up checks the
    rules (known roles, a card per seat, the chests' houses, the bag's coins)."""
    pairs = items_of(characters, "characters", MAX_PLAYERS)
    first = burgomaster
    if type(first) is not int:
        raise SetupError(f"the first Burgomaster must be a player's seat, not {kind_of(first)}")
    assert isinstance(first, int)
    return Deal(
        roles=texts(roles, "roles", MAX_CARDS, MAX_ID_LENGTH),
        extra_cards=texts(extra_cards, "extra_cards", MAX_CARDS, MAX_ID_LENGTH),
        characters=tuple(
            [
                texts(pair, f"player {i + 1}'s characters", MAX_CARDS, MAX_ID_LENGTH)
                for i, pair in enumerate(pairs)
            ]
        ),
        # (their values' types are the set-up's to check, with the rule's own words)
        chests=cast("tuple[int, ...]", tuple(items_of(chests, "chests", MAX_PLAYERS))),
        burgomaster=first,
        bag=None if bag is None else cast("tuple[int, ...]", tuple(items_of(bag, "bag", MAX_BAG))),
    )


def seat_names(players: int) -> list[str]:
    return [f"P{i + 1}" for i in range(players)]


def parse_counts(text: str) -> dict[str, int]:
    """``werewolf=2,seer=1,villager=5`` -> counts (the CLI's --roles), each count a
    whole number from 0 to ``MAX_CARDS`` (the rulebook checks the roles)."""
    if len(text) > MAX_ARGUMENT_TEXT:
        raise SetupError(f"--roles: at most {MAX_ARGUMENT_TEXT} characters, not {len(text)}")
    counts: dict[str, int] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        role, _, number = part.partition("=")
        role = role.strip()
        if not role or len(role) > MAX_ID_LENGTH:
            raise SetupError(f"--roles: {quoted(part)} is not role=count")
        if len(counts) >= MAX_COMPOSITION_ENTRIES:
            raise SetupError(f"--roles: at most {MAX_COMPOSITION_ENTRIES} roles")
        digits = number.strip()
        if digits and not (digits.isascii() and digits.isdigit()):
            raise SetupError(f"--roles: {quoted(part)} is not role=count")
        count = int(digits) if digits and len(digits) <= 9 else (1 if not digits else -1)
        if not 0 <= count <= MAX_CARDS:
            raise SetupError(f"--roles: {quoted(part)}: a count is from 0 to {MAX_CARDS}")
        counts[role] = count
    return counts


def every_player(what: str, table: Mapping[str, object], players: Sequence[str], gap: str) -> None:
    """A per-player table of a recorded deal (a scenario file's ``roles``) must name
    every player and nobody else, or ValueError saying who is missing or extra."""
    playing = set(players)
    missing = [p for p in players if p not in table]
    extra = [name for name in table if name not in playing]
    if missing:
        shown = few([printable(p) for p in missing[:MAX_SHOWN]], len(missing))
        raise ValueError(f"{what}: {gap} {shown}")
    if extra:
        shown = few([printable(name) for name in extra[:MAX_SHOWN]], len(extra))
        raise ValueError(f"{what}: {shown} is not among the players")
