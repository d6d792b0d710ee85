"""Bitmask helpers: popcount, lowest bit, nth hex and dilation against plain Python sets."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kbenv.board.bitset import (
    dilate_into,
    hexes_of,
    mask_of,
    nth_hex,
    popcount,
    word_lowest_bit,
    word_popcount,
)
from kbenv.board.geometry import neighbours

hex_sets = st.sets(st.integers(0, 399), max_size=60)


@settings(deadline=None)
@given(st.integers(1, 2**60 - 1))
def test_word_popcount_and_lowest_bit(w):
    assert word_popcount(w) == bin(w).count("1")
    assert word_lowest_bit(w) == (w & -w).bit_length() - 1


@settings(max_examples=200)
@given(hex_sets)
def test_mask_round_trip_count_and_nth(hexes):
    m = mask_of(hexes)
    assert hexes_of(m) == sorted(hexes)
    assert popcount(m) == len(hexes)
    for k, h in enumerate(sorted(hexes)):
        assert nth_hex(m, k) == h
    assert nth_hex(m, len(hexes)) == -1


@settings(max_examples=100)
@given(hex_sets)
def test_dilation_is_the_union_of_neighbourhoods(hexes):
    out = np.zeros(7, dtype=np.int64)
    dilate_into(out, mask_of(hexes))
    assert set(hexes_of(out)) == {n for h in hexes for n in neighbours(h)}


def test_neighbours_follow_odd_r():
    def h(r, c):
        return r * 20 + c

    assert sorted(neighbours(h(2, 5))) == sorted([h(2, 4), h(2, 6), h(1, 4), h(1, 5), h(3, 4), h(3, 5)])
    assert sorted(neighbours(h(3, 5))) == sorted([h(3, 4), h(3, 6), h(2, 5), h(2, 6), h(4, 5), h(4, 6)])
    assert sorted(neighbours(0)) == [1, 20]
