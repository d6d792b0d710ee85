"""Terminal reward schemes: win, rank and score."""

from __future__ import annotations

import numpy as np

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
    raise ValueError(f"reward: unknown scheme {scheme!r}; expected one of {', '.join(REWARD_SCHEMES)}")
