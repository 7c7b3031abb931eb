"""The engine's draws are the standard library's, so seeds give the same games."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from lupus.engine import draw


@given(st.integers(0, 2**64), st.lists(st.integers(1, 10**12), min_size=1, max_size=30))
def test_below_is_randrange(seed: int, bounds: list[int]) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    assert [draw.below(ours, n) for n in bounds] == [theirs.randrange(n) for n in bounds]
    assert ours.getstate() == theirs.getstate()


@given(st.integers(0, 2**64), st.lists(st.integers(), min_size=1, max_size=40))
def test_choice_and_shuffle_are_the_standard_library_s(seed: int, items: list[int]) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    assert draw.choice(ours, items) == theirs.choice(items)
    mine, yours = list(items), list(items)
    draw.shuffle(ours, mine)
    theirs.shuffle(yours)
    assert mine == yours
    assert ours.getstate() == theirs.getstate()


@given(st.integers(-(2**70), 2**70))
def test_seeded_is_random_random(seed: int) -> None:
    ours, theirs = draw.seeded(seed), random.Random(seed)
    assert type(ours) is random.Random
    assert ours.getstate() == theirs.getstate()
    assert [ours.random() for _ in range(5)] == [theirs.random() for _ in range(5)]
    assert ours.gauss(0, 1) == theirs.gauss(0, 1)


def test_empty_draws_are_refused() -> None:
    rng = random.Random(0)
    try:
        draw.below(rng, 0)
    except ValueError:
        pass
    else:
        raise AssertionError("below(0) must fail")
    try:
        draw.choice(rng, [])
    except IndexError:
        pass
    else:
        raise AssertionError("choice([]) must fail")
