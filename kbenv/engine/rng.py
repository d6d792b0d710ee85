"""A tiny seeded random number generator kept inside the game state (xorshift32).

Plain shifts and xors on values below 2**32 stored in int64: identical compiled or interpreted.
"""

from __future__ import annotations

from numba import njit

MASK32 = 0xFFFFFFFF


@njit(cache=True)
def next_u32(x: int) -> int:
    """Next state (also the output) of xorshift32; x must be non-zero."""
    x ^= (x << 13) & MASK32
    x ^= x >> 17
    x ^= (x << 5) & MASK32
    return x


@njit(cache=True)
def seed_u32(seed: int) -> int:
    """A valid non-zero xorshift32 state from any integer seed."""
    x = (seed ^ 0x9E3779B9) & MASK32
    if x == 0:
        x = 0x6D2B79F5
    for _ in range(4):
        x = next_u32(x)
    return x


@njit(cache=True)
def rand_below(rng_state, index: int, n: int) -> int:
    """Uniform integer in [0, n) drawn from the generator stored at rng_state[index]."""
    x = next_u32(rng_state[index])
    rng_state[index] = x
    return x % n


@njit(cache=True, inline="always")
def draw_below(rng, n: int) -> int:
    """A draw from 0..n-1 of the set-up's own generator (a one-element array, advanced in place)."""
    rng[0] = next_u32(rng[0])
    return rng[0] % n
