"""Ratings and statistics over tournament results: openskill Plackett-Luce, win shares, head-to-head."""

from __future__ import annotations

import math
from collections import defaultdict
from statistics import NormalDist

from openskill.models import PlackettLuce

Z95 = NormalDist().inv_cdf(0.975)  # 1.95996...


def agent_places(seats: list[str], places: list[float]) -> dict[str, float]:
    """Each distinct agent's place in a game (mean over its seats when it holds several)."""
    by_agent: dict[str, list[float]] = defaultdict(list)
    for spec, place in zip(seats, places, strict=True):
        by_agent[spec].append(place)
    return {spec: sum(p) / len(p) for spec, p in by_agent.items()}


def rate(games: list[dict], agents: list[str]) -> dict[str, dict]:
    """Plackett-Luce ratings from final placements (ties shared), processing games in id order."""
    model = PlackettLuce()
    ratings = {a: model.rating(name=a) for a in agents}
    for g in sorted(games, key=lambda g: g["game_id"]):
        places = agent_places(g["seats"], g["places"])
        if len(places) < 2:
            continue
        names = list(places)
        updated = model.rate([[ratings[a]] for a in names], ranks=[places[a] for a in names])
        for a, team in zip(names, updated, strict=True):
            ratings[a] = team[0]
    return {a: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for a, r in ratings.items()}


def wilson_interval(share: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a success share over n trials (95% by default); (0, 1) when n is 0.

    Unlike the Wald interval it stays inside [0, 1] and is not empty at 0 or n successes. Shared wins
    (ties) count as fractional successes, which makes the interval slightly conservative.
    """
    if n <= 0:
        return 0.0, 1.0
    share = min(1.0, max(0.0, share))
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (share + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(share * (1.0 - share) / n + z2 / (4 * n * n))
    return max(0.0, min(share, centre - half)), min(1.0, max(share, centre + half))  # exact at 0 and n wins


def seat_stats(games: list[dict], agents: list[str]) -> dict[str, dict]:
    """Per agent: seats played, win share (ties shared) with a 95% interval, fair share, mean gold."""
    wins: dict[str, list[float]] = defaultdict(list)
    gold: dict[str, list[int]] = defaultdict(list)
    fair: dict[str, list[float]] = defaultdict(list)
    for g in games:
        n_winners = len(g["winners"])
        for seat, spec in enumerate(g["seats"]):
            wins[spec].append(1.0 / n_winners if seat in g["winners"] else 0.0)
            gold[spec].append(g["gold"][seat])
            fair[spec].append(1.0 / g["num_players"])
    out = {}
    for a in agents:
        n = len(wins[a])
        if n == 0:
            out[a] = {"seats": 0}
            continue
        share = sum(wins[a]) / n
        out[a] = {
            "seats": n,
            "win_share": share,
            "win_share_ci95": list(wilson_interval(share, n)),
            "fair_share": sum(fair[a]) / n,
            "mean_gold": sum(gold[a]) / n,
        }
    return out


def head_to_head(games: list[dict], agents: list[str]) -> dict[str, dict[str, float | None]]:
    """table[a][b] = share of meetings in which a finished above b (a tie counts one half)."""
    score: dict[tuple[str, str], float] = defaultdict(float)
    meetings: dict[tuple[str, str], int] = defaultdict(int)
    for g in games:
        seats = g["seats"]
        for i, a in enumerate(seats):
            for j, b in enumerate(seats):
                if i == j or a == b:
                    continue
                meetings[a, b] += 1
                score[a, b] += 1.0 if g["gold"][i] > g["gold"][j] else 0.5 if g["gold"][i] == g["gold"][j] else 0.0
    return {a: {b: (score[a, b] / meetings[a, b] if meetings[a, b] else None) for b in agents if b != a}
            for a in agents}
