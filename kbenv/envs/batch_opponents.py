"""The opponents of the batch self-play envs (`SelfPlayVecEnv` for stable-baselines3, `SelfPlayVectorEnv` for
Gymnasium): one learner seat per game, the other seats played inside the batch until the learner is to move.

An opponent is a built-in policy name ("random", "greedy", "lookahead": run inside numba) or a batched policy
callable `f(observations (M, C, 20, 20), masks (M, A)) -> actions (M,)`, called once per opponent step for all
games whose seat uses it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..engine import state as S
from ..policies import BUILTIN_POLICIES
from ..safe_json import short_repr
from ..setup import SetupError
from ..vector import VectorGames

BUILTIN_OPPONENTS = BUILTIN_POLICIES  # played inside the batch


def check_opponents(opponents: Sequence[Any]) -> list[Any]:
    """The opponent pool as a list; SetupError naming `opponents` for an empty pool or an unknown entry."""
    if isinstance(opponents, str):
        opponents = [opponents]
    pool = list(opponents)
    if not pool:
        raise SetupError("opponents: expected at least one opponent")
    for opponent in pool:
        if not (opponent in BUILTIN_OPPONENTS or callable(opponent)):
            raise SetupError(
                f"opponents: expected one of {', '.join(BUILTIN_OPPONENTS)} or a batched policy callable, "
                f"got {short_repr(opponent)}"
            )
    return pool


def play_opponents(games: VectorGames, rows: np.ndarray, learner: np.ndarray, seat_opponent: np.ndarray,
                   opponents: Sequence[Any]) -> None:
    """Play the opponents in these games until the learner is to move or the game is over.

    `learner`: (N,) the learner's seat per game; `seat_opponent`: (N, 5) the index into `opponents` per seat.
    """
    states = games.states
    while True:
        waiting = rows[(states[rows, S.DECIDER] != learner[rows]) & (states[rows, S.PHASE] != S.PHASE_OVER)]
        if len(waiting) == 0:
            return
        kinds = seat_opponent[waiting, states[waiting, S.DECIDER]]
        for k in np.unique(kinds):
            group = waiting[kinds == k]
            opponent = opponents[k]
            if opponent == "random":
                actions = games.random_actions(group)
            elif opponent == "greedy":
                actions = games.greedy_actions(group)
            elif opponent == "lookahead":
                actions = games.lookahead_actions(group)
            else:
                obs = games.observations(group, packed=False)
                actions = np.asarray(opponent(obs, games.legal_masks(group)))
                games.step(actions, group)  # a callable's actions are checked (IllegalActionError)
                continue
            games._apply(actions, group)  # the built-in policies pick legal actions
