"""A simulation's own random stream: xoshiro128** behind ``random.Random``'s interface.

A simulated game draws a few dozen numbers (its deal, its bots' choices) from a
generator of its own, made from the run's seed and the game's index, so that game
``i`` never depends on the worker that plays it. The standard library's Mersenne
Twister is a fine generator but a slow one to make: seeding it is a fixed 1,900 steps
(3.5 µs, a sixteenth of a whole simulated game). xoshiro128** (Blackman and Vigna,
"Scrambled linear pseudorandom number generators", 2018; the reference C at
https://prng.di.unimi.it/xoshiro128starstar.c) has 128 bits of state, a period of
2^128 - 1, passes BigCrush, and is seeded by writing its four words: here from a
BLAKE2b digest of the seed, which a run hashes anyway.

``Stream`` is a ``random.Random`` as the standard library says to write one ("a
different basic generator of your own devising": ``random``, ``getrandbits``, ``seed``,
``getstate`` and ``setstate`` overridden), so every bot, and anything else written for
``random.Random``, draws from it unchanged; the engine's own draws
(``lupus.engine.draw``) read its words directly. A game's own generator (its ties,
which a stored game replays) stays the standard one: only simulations use a stream.
``tests/test_stream.py`` checks the reference outputs and the interface.
"""

from __future__ import annotations

import hashlib
import os
import random
import struct
from typing import Final, final

from mypy_extensions import i64, mypyc_attr

MASK: Final = 0xFFFFFFFF
WORDS: Final = struct.Struct("<4I")
VERSION: Final = "xoshiro128**"
"""The first item of ``Stream.getstate()`` (a state of another generator is refused)."""


def _rotl(x: i64, k: i64) -> i64:
    return ((x << k) & MASK) | (x >> (32 - k))


@final
class Words:
    """The generator's four 32-bit words and its step. Compiled, they are machine
    integers (``i64``): no value below passes 2^43, so their arithmetic is Python's
    exactly, without an object or an overflow check (mypyc's ints take a slow path for
    any product past 2^30)."""

    __slots__ = ("a", "b", "c", "d")

    def __init__(self, a: int, b: int, c: int, d: int) -> None:
        if not (a or b or c or d):
            d = 1  # (all zero is the one state xoshiro never leaves)
        self.a: i64 = a & MASK
        self.b: i64 = b & MASK
        self.c: i64 = c & MASK
        self.d: i64 = d & MASK

    def next32(self) -> i64:
        """The next 32-bit output, and the state moved on one step."""
        a, b, c, d = self.a, self.b, self.c, self.d
        result = (_rotl((b * 5) & MASK, 7) * 9) & MASK
        t = (b << 9) & MASK
        c ^= a
        d ^= b
        b ^= c
        a ^= d
        c ^= t
        self.a, self.b, self.c, self.d = a, b, c, _rotl(d, 11)
        return result

    def bits(self, k: int) -> int:
        """``k`` random bits as ``random.Random.getrandbits`` puts them together: 32-bit
        words, the first the lowest, the last cut to its top bits."""
        if k <= 32:
            if k <= 0:
                if k < 0:
                    raise ValueError("number of bits must be non-negative")
                return 0
            return self.next32() >> (32 - k)
        out = 0
        shift = 0
        while k > 0:
            word = int(self.next32())
            if k < 32:
                word >>= 32 - k
            out |= word << shift
            shift += 32
            k -= 32
        return out


def words_of(key: bytes) -> Words:
    """The state a 16-byte key writes (four little-endian words)."""
    a, b, c, d = WORDS.unpack(key)
    return Words(a, b, c, d)


def key_of(seed: object) -> bytes:
    """The 16 bytes a seed (an int, a str or bytes; None: the system's entropy, as for
    ``random.Random``) makes the state of."""
    if seed is None:
        return os.urandom(16)
    if isinstance(seed, bool) or not isinstance(seed, int | str | bytes | bytearray):
        raise TypeError(f"a stream's seed is an int, a str or bytes, not {type(seed).__name__}")
    if isinstance(seed, int):
        raw = seed.to_bytes((seed.bit_length() + 8) // 8, "little", signed=True)
    elif isinstance(seed, str):
        raw = seed.encode()
    else:
        raw = bytes(seed)
    return hashlib.blake2b(raw, digest_size=16, person=b"lupus.stream").digest()


@mypyc_attr(native_class=False)  # (a subclass of random.Random, a C type of its own layout)
class Stream(random.Random):
    """A ``random.Random`` drawing from xoshiro128** (see the module).

    >>> a, b = Stream("run 1, game 7"), Stream("run 1, game 7")
    >>> [a.randrange(10) for _ in range(5)] == [b.randrange(10) for _ in range(5)]
    True
    >>> Stream(1).getstate() == Stream(2).getstate()
    False
    """

    words: Words
    gauss_next: float | None

    def seed(self, a: object = None, version: int = 2) -> None:
        self.words = words_of(key_of(a))
        self.gauss_next = None

    def random(self) -> float:
        words = self.words
        high = float(words.next32() >> 5)
        low = float(words.next32() >> 6)
        return (high * 67108864.0 + low) * (1.0 / 9007199254740992.0)

    def getrandbits(self, k: int) -> int:
        return self.words.bits(k)

    def getstate(self) -> tuple[object, ...]:  # type: ignore[override]
        words = self.words
        return (VERSION, (words.a, words.b, words.c, words.d), self.gauss_next)

    def setstate(self, state: tuple[object, ...]) -> None:
        if len(state) != 3 or state[0] != VERSION:
            raise ValueError(f"not a state of {VERSION}: {str(state)[:60]}")
        four = state[1]
        if not isinstance(four, tuple) or len(four) != 4:
            raise ValueError("a stream's state is four words")
        a, b, c, d = four
        if not all(type(w) is int and 0 <= w <= MASK for w in four):
            raise ValueError("a stream's words are ints of 32 bits")
        assert isinstance(a, int) and isinstance(b, int)
        assert isinstance(c, int) and isinstance(d, int)
        self.words = Words(a, b, c, d)
        gauss = state[2]
        self.gauss_next = gauss if isinstance(gauss, float) else None

    def __reduce__(self) -> tuple[object, ...]:
        return (_restored, (self.getstate(),))


def _restored(state: tuple[object, ...]) -> Stream:
    stream: Stream = _NEW(Stream)
    stream.setstate(state)
    return stream


_NEW: Final = random.Random.__new__


def stream(key: bytes) -> Stream:
    """A stream whose state is a 16-byte key (the simulator's, from its run's seed and a
    game's index): made without ``random.Random.__init__``'s interpreted calls."""
    made: Stream = _NEW(Stream)
    made.words = words_of(key)
    made.gauss_next = None
    return made
