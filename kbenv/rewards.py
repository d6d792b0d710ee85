"""Terminal reward schemes: win, rank and score."""

from __future__ import annotations

import numpy as np
from numba import njit

from .safe_json import short_repr

REWARD_SCHEMES = ("win", "rank", "score")
SCORE_SCALE = 100.0  # gold differences are divided by this in the "score" scheme


def terminal_rewards(totals, scheme: str = "win") -> np.ndarray:
    """Rewards for final gold totals (one per seat).

    - ``win``: +1 to every player with the most gold (ties included), -1 to the others.
    - ``rank``: linear from +1 (first) to -1 (last); tied players share the mean of their places.
    - ``score``: own gold minus the mean of the others' gold, divided by 100.
    """
    totals = np.asarray(totals, dtype=np.float64)
    n = len(totals)
    if scheme == "win":
        return np.where(totals == totals.max(), 1.0, -1.0)
    if scheme == "rank":
        place_value = 1.0 - 2.0 * np.arange(n) / (n - 1)  # value of places 0 (first) .. n-1 (last)
        out = np.empty(n)
        for p in range(n):
            better = int(np.sum(totals > totals[p]))
            tied = int(np.sum(totals == totals[p]))
            out[p] = place_value[better : better + tied].mean()
        return out
    if scheme == "score":
        others = (totals.sum() - totals) / (n - 1)
        return (totals - others) / SCORE_SCALE
    raise ValueError(f"reward: unknown scheme {short_repr(scheme)}; expected one of {', '.join(REWARD_SCHEMES)}")


@njit(cache=True)
def terminal_rewards_into(totals, n: int, scheme: int, out) -> None:
    """`terminal_rewards` inside numba: scheme 0 win, 1 rank, 2 score (index into REWARD_SCHEMES)."""
    best = totals[0]
    total = 0.0
    for p in range(n):
        best = max(best, totals[p])
        total += totals[p]
    for p in range(n):
        if scheme == 0:
            out[p] = 1.0 if totals[p] == best else -1.0
        elif scheme == 1:
            better = 0
            tied = 0
            for q in range(n):
                if totals[q] > totals[p]:
                    better += 1
                elif totals[q] == totals[p]:
                    tied += 1
            value = 0.0
            for place in range(better, better + tied):
                value += 1.0 - 2.0 * place / (n - 1)
            out[p] = value / tied
        else:
            out[p] = (totals[p] - (total - totals[p]) / (n - 1)) / SCORE_SCALE
