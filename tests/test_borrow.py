"""kbenv.engine.borrow: a view of the caller's array without numba's reference counting, same data."""

import sys

import numpy as np
from numba import njit

from kbenv.engine.borrow import borrowed


@njit(cache=False)
def _fill_through_views(st, start: int, value: int) -> int:
    st = borrowed(st)
    view = st[start : start + 3]  # a slice of the borrowed view is a view of the same memory
    for i in range(view.shape[0]):
        view[i] = value + i
    return int(st.sum())


@njit(cache=False)
def _shape_of_borrowed(a, i: int, j: int):
    b = borrowed(a)
    return b.shape[0], b.shape[1], b[i, j]


def test_writes_through_a_borrowed_view_reach_the_callers_array():
    st = np.zeros(8, dtype=np.int64)
    total = _fill_through_views(st, 2, 10)
    assert st.tolist() == [0, 0, 10, 11, 12, 0, 0, 0]
    assert total == 33


def test_a_borrowed_view_keeps_shape_and_strides():
    a = np.arange(12, dtype=np.int64).reshape(3, 4)
    assert _shape_of_borrowed(a, 1, 2) == (3, 4, 6)
    b = np.arange(12, dtype=np.int64).reshape(3, 4)[:, ::2]  # non-contiguous (layout A)
    assert _shape_of_borrowed(b, 1, 1) == (3, 2, 6)


def test_borrowing_leaves_the_callers_reference_count_alone():
    st = np.zeros(8, dtype=np.int64)
    before = sys.getrefcount(st)
    for _ in range(1000):
        _fill_through_views(st, 0, 1)
    assert sys.getrefcount(st) == before


def test_the_engine_plays_the_same_game_with_borrowed_views():
    """A whole random game inside numba (random_playout borrows its state) ends where the step-by-step
    Python loop over the same kernels ends."""
    from kbenv.engine.actions import apply_unchecked
    from kbenv.engine.rng import seed_u32
    from kbenv.game import Game
    from kbenv.policies.playout import random_legal_action, random_playout

    start = Game.new(2, seed=5, expansions=["crossroads"]).state
    whole = start.copy()
    rng = np.array([seed_u32(3)], dtype=np.int64)
    n = random_playout(whole, rng, 0, 100000)
    stepped = start.copy()
    rng = np.array([seed_u32(3)], dtype=np.int64)
    for _ in range(n):
        apply_unchecked(stepped, random_legal_action(stepped, rng, 0))
    assert n > 50
    assert np.array_equal(whole, stepped)
