"""Random draws, exactly as the standard library's ``random.Random`` makes them.

``random.Random.randrange``, ``choice`` and ``shuffle`` are written in Python on top of
the C method ``getrandbits``. These functions are the same algorithms (CPython 3.11 to
3.13: rejection sampling on ``n.bit_length()`` bits, a Fisher-Yates shuffle from the
end), so a seed gives the same game with either; compiled with the engine (see
``setup.py``) they skip two interpreted frames per draw, which a simulated game makes
dozens of times. ``tests/test_draw.py`` checks them against the standard library.
"""

from __future__ import annotations

import _random
import random
from collections.abc import MutableSequence, Sequence
from typing import Final, TypeVar

from lupus.engine.stream import Stream

T = TypeVar("T")

_GETRANDBITS: Final = _random.Random.getrandbits
"""The C method itself: calling it skips looking ``getrandbits`` up on every draw."""
_RANDOM: Final = random.Random  # (a constant: no module attribute lookup per draw)


_SEED: Final = _random.Random.seed
"""The C seeding itself (``random.Random(n)`` reaches it through two interpreted calls)."""


def seeded(seed: int) -> random.Random:
    """``random.Random(seed)`` for an integer seed, in the very same state.

    ``random.Random.__init__`` and ``seed`` are interpreted code that, for an integer,
    only hands it to the C generator and clears ``gauss_next``; doing that directly
    saves a tenth of a game's set-up in a simulation, which seeds two generators a game.
    ``tests/test_draw.py`` checks the states are equal.
    """
    rng = _RANDOM.__new__(_RANDOM)
    _SEED(rng, seed)
    rng.gauss_next = None  # type: ignore[attr-defined]  # (set by Random.__init__)
    return rng


def bits(rng: random.Random, k: int) -> int:
    """``rng.getrandbits(k)``; for a plain ``random.Random`` (which does not override
    it) straight from the C generator, for a simulation's ``Stream`` from its words."""
    if type(rng) is _RANDOM:
        return _GETRANDBITS(rng, k)
    if type(rng) is Stream:
        return rng.words.bits(k)
    return rng.getrandbits(k)


def below(rng: random.Random, n: int) -> int:
    """A uniform integer in ``[0, n)``: ``rng.randrange(n)``."""
    if n <= 0:
        raise ValueError(f"empty range for below({n})")
    k = n.bit_length()
    if type(rng) is Stream:  # (a simulation's draws: its words, without a method call)
        words = rng.words
        r = words.bits(k)
        while r >= n:
            r = words.bits(k)
        return r
    r = bits(rng, k)
    while r >= n:
        r = bits(rng, k)
    return r


def choice(rng: random.Random, items: Sequence[T]) -> T:
    """A uniform element: ``rng.choice(items)``."""
    if not items:
        raise IndexError("cannot choose from an empty sequence")
    return items[below(rng, len(items))]


def shuffle(rng: random.Random, items: MutableSequence[T]) -> None:
    """Shuffle in place: ``rng.shuffle(items)``."""
    if isinstance(items, list):  # (a deal's cards: compiled, a list's own item access)
        _shuffle_list(rng, items)
        return
    for i in range(len(items) - 1, 0, -1):
        j = below(rng, i + 1)
        items[i], items[j] = items[j], items[i]


def _shuffle_list(rng: random.Random, items: list[T]) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = below(rng, i + 1)
        items[i], items[j] = items[j], items[i]
