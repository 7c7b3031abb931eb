"""A simulation's stream is xoshiro128** to the reference, and a ``random.Random``."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lupus.engine import draw
from lupus.engine.stream import MASK, Stream, Words, key_of, stream

# The reference C (prng.di.unimi.it/xoshiro128starstar.c) from the state {1, 2, 3, 4}.
REFERENCE = [
    11520,
    0,
    5927040,
    70819200,
    2031721883,
    1637235492,
    1287239034,
    3734860849,
    3729100597,
    4258142804,
]


def test_the_reference_outputs() -> None:
    words = Words(1, 2, 3, 4)
    assert [words.next32() for _ in REFERENCE] == REFERENCE


def test_bits_are_put_together_as_getrandbits_does() -> None:
    """Words lowest first, the last cut to its top bits: 40 bits are the first word,
    then the second's top 8 above it."""
    first, second = Words(1, 2, 3, 4), Words(1, 2, 3, 4)
    a, b = second.next32(), second.next32()
    assert first.bits(40) == a | (b >> 24) << 32
    assert Words(1, 2, 3, 4).bits(5) == REFERENCE[0] >> 27
    assert Words(1, 2, 3, 4).bits(0) == 0
    with pytest.raises(ValueError):
        Words(1, 2, 3, 4).bits(-1)


def test_the_all_zero_state_is_never_made() -> None:
    words = Words(0, 0, 0, 0)
    assert any(words.next32() for _ in range(4))


@given(st.one_of(st.integers(-(2**80), 2**80), st.text(max_size=20), st.binary(max_size=20)))
def test_a_seed_gives_one_stream(seed: object) -> None:
    a, b = Stream(seed), Stream(seed)
    assert a.getstate() == b.getstate()
    assert [a.random() for _ in range(3)] == [b.random() for _ in range(3)]
    assert all(0.0 <= a.random() < 1.0 for _ in range(50))


def test_nearby_seeds_differ() -> None:
    assert len({Stream(i).getrandbits(64) for i in range(1000)}) == 1000
    assert len({key_of(i) for i in (-1, 0, 1, 255, 256)}) == 5


def test_no_seed_is_the_system_s_entropy() -> None:
    """As for ``random.Random``: without a seed, two streams differ."""
    assert Stream().getstate() != Stream().getstate()
    rng = Stream(1)
    rng.seed()
    assert rng.getstate() != Stream(1).getstate()


@pytest.mark.parametrize("seed", [True, 1.5, [1], (1,)])
def test_a_seed_of_another_type_is_refused(seed: object) -> None:
    with pytest.raises(TypeError):
        Stream(seed)


@given(st.integers(0, 2**64), st.lists(st.integers(1, 10**12), min_size=1, max_size=30))
def test_the_engine_s_draws_are_the_stream_s_own(seed: int, bounds: list[int]) -> None:
    """``draw.below`` reads a stream's words directly: the same numbers as the
    standard library's ``randrange`` drawing from the stream's ``getrandbits``."""
    ours, theirs = Stream(seed), Stream(seed)
    assert [draw.below(ours, n) for n in bounds] == [theirs.randrange(n) for n in bounds]
    assert ours.getstate() == theirs.getstate()
    items = list(range(20))
    mine, yours = list(items), list(items)
    draw.shuffle(ours, mine)
    theirs.shuffle(yours)
    assert mine == yours and sorted(mine) == items
    assert draw.bits(ours, 63) == theirs.getrandbits(63)


def test_random_random_s_methods_work_on_it() -> None:
    rng = Stream("methods")
    assert isinstance(rng, random.Random)
    assert rng.choice("abc") in "abc"
    assert sorted(rng.sample(range(10), 10)) == list(range(10))
    assert 1 <= rng.randint(1, 6) <= 6
    assert -1.0 <= rng.uniform(-1, 1) <= 1.0
    assert isinstance(rng.gauss(0, 1), float)


def test_state_round_trips_and_pickles() -> None:
    rng = Stream(7)
    rng.random()
    state = rng.getstate()
    ahead = [rng.getrandbits(32) for _ in range(5)]
    rng.setstate(state)
    assert [rng.getrandbits(32) for _ in range(5)] == ahead
    copy = pickle.loads(pickle.dumps(rng))
    assert copy.getstate() == rng.getstate() and copy.random() == rng.random()
    with pytest.raises(ValueError):
        rng.setstate(random.Random(1).getstate())
    with pytest.raises(ValueError):
        rng.setstate(("xoshiro128**", (1, 2, 3, MASK + 1), None))


def test_an_all_zero_key_makes_a_stream_that_moves() -> None:
    zero = stream(bytes(16))  # (all zero is made a state the generator moves from)
    assert any(zero.getrandbits(32) for _ in range(4))
