"""A stable-baselines3 VecEnv of N self-play games on the batch engine (no subprocesses).

One learning seat per game; the other seats are played inside the batch by opponents drawn per
episode from a pool: "random", "greedy" and "lookahead" run inside numba, and any batched policy callable
`f(observations (M, C, 20, 20), masks (M, A)) -> actions (M,)` gets one call per opponent step for
all games whose opponent uses it. MaskablePPO reads the masks through `env_method("action_masks")`.

With `packed=True` the learner's observations (and `terminal_observation`) are packed rows, a uint8 Box
of `games.packed_layout.nbytes` (kbenv.packed: about 2 KB a position instead of 45 KB of float planes);
agents.training.networks.KingdomBuilderExtractor recognises that space and unpacks on the network's
device. Opponent callables still get float planes.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv

from ..engine import state as S
from ..game import IllegalActionError
from ..rewards import terminal_rewards
from ..safe_json import short_repr
from ..setup import SetupError, check_num_players, is_int
from ..vector import VectorGames, best_sets
from .batch_opponents import BUILTIN_OPPONENTS, check_opponents, play_opponents

__all__ = ["BUILTIN_OPPONENTS", "SelfPlayVecEnv"]


class SelfPlayVecEnv(VecEnv):
    """N games, one learner seat each, opponents inside the batch."""

    def __init__(
        self,
        num_envs: int,
        num_players: int | list[int] = 2,
        opponents=("random",),
        learner_seat: int | None = None,
        reward: str = "win",
        seed: int = 0,
        hints: str = "none",
        packed: bool = False,
        **setup_options,
    ):
        opponents = check_opponents(opponents)
        if not is_int(num_envs) or num_envs < 1:
            raise SetupError(f"num_envs: expected a positive integer, got {short_repr(num_envs)}")
        counts = [num_players] if is_int(num_players) else list(num_players)
        if not counts:
            raise SetupError("num_players: expected at least one player count")
        for n in counts:
            check_num_players(n)
        if not is_int(seed) or seed < 0:
            raise SetupError(f"seed: expected a non-negative integer, got {short_repr(seed)}")
        players = np.array([counts[i % len(counts)] for i in range(num_envs)], dtype=np.int64)
        if learner_seat is not None and (not is_int(learner_seat) or not 0 <= learner_seat < players.min()):
            raise SetupError(f"learner_seat: expected 0..{players.min() - 1}, got {short_repr(learner_seat)}")
        self.games = VectorGames(num_envs, players, reward=reward, auto_reset=False, hints=hints, packed=packed,
                                 **setup_options)
        self.packed = self.games.packed
        self.num_players = players
        self.opponents = list(opponents)
        self.learner_seat_option = learner_seat
        self.reward_scheme = reward
        self.rng = np.random.default_rng(seed)
        self.base_seed = seed
        self.learner = np.zeros(num_envs, dtype=np.int64)
        self.seat_opponent = np.zeros((num_envs, 5), dtype=np.int64)  # index into opponents, per seat
        self._actions: np.ndarray | None = None
        self.render_mode = None
        observation_space = self.games.layout.observation_space(hints=hints)
        if self.packed:
            observation_space = spaces.Box(0, 255, (self.games.packed_layout.nbytes,), dtype=np.uint8)
        super().__init__(num_envs, observation_space, spaces.Discrete(self.games.action_size))

    # ----- episode management ------------------------------------------------------------
    def _draw_seats(self, rows: np.ndarray) -> None:
        for i in rows:
            if self.learner_seat_option is None:
                self.learner[i] = self.rng.integers(self.num_players[i])
            else:
                self.learner[i] = self.learner_seat_option
            self.seat_opponent[i] = self.rng.integers(len(self.opponents), size=5)

    def _advance(self, rows: np.ndarray) -> None:
        """Play the opponents in these games until the learner is to move or the game is over."""
        play_opponents(self.games, rows, self.learner, self.seat_opponent, self.opponents)

    def _observe(self) -> np.ndarray:
        return self.games.observations(self.games.all_rows, self.learner)

    # ----- VecEnv API ----------------------------------------------------------------------
    def reset(self) -> np.ndarray:
        seeds = self.base_seed * 1_000_003 + np.arange(self.num_envs, dtype=np.int64)
        self.games.reset(seeds)
        self._draw_seats(self.games.all_rows)
        self._advance(self.games.all_rows)
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return self._observe()

    def step_async(self, actions: np.ndarray) -> None:
        actions = np.asarray(actions)
        if actions.dtype.kind not in "iu" or actions.size != self.num_envs:
            raise IllegalActionError(f"actions: expected {self.num_envs} integer actions, got {short_repr(actions)}")
        self._actions = actions.astype(np.int64).reshape(self.num_envs)

    def step_wait(self):
        rows = self.games.all_rows
        self.games.step(self._actions, rows)
        self._advance(rows)
        states = self.games.states
        done = states[:, S.PHASE] == S.PHASE_OVER
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        infos: list[dict] = [{} for _ in range(self.num_envs)]
        ended = np.flatnonzero(done)
        if len(ended):
            final_obs = self.games.observations(ended, self.learner[ended])
            for j, i in enumerate(ended):
                totals = self.games.final_totals(int(i))
                rewards[i] = terminal_rewards(totals, self.reward_scheme)[self.learner[i]]
                infos[i] = {"terminal_observation": final_obs[j], "gold": totals.tolist(),
                            "learner_seat": int(self.learner[i]), "episode_seed": int(self.games.seeds[i])}
            self.games.reset_rows(ended)
            self._draw_seats(ended)
            self._advance(ended)
        return self._observe(), rewards, done, infos

    def action_masks(self) -> np.ndarray:
        """(N, A) boolean legal masks of the learners."""
        return self.games.legal_masks().astype(bool)

    def expert_masks(self, teacher: str = "greedy") -> np.ndarray:
        """(N, A) boolean best-action sets of a built-in teacher for the learners (training guidance)."""
        return best_sets(self.games.teacher_values(teacher, self.games.all_rows)).astype(bool)

    def close(self) -> None:
        pass

    def get_attr(self, attr_name, indices=None):
        return [getattr(self, attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name, value, indices=None) -> None:
        setattr(self, attr_name, value)

    def env_method(self, method_name, *method_args, indices=None, **method_kwargs):
        rows = self._indices(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in rows]
        raise AttributeError(f"SelfPlayVecEnv has no per-env method {short_repr(method_name)}")

    def env_is_wrapped(self, wrapper_class, indices=None):
        return [False] * len(self._indices(indices))

    def seed(self, seed: int | None = None):
        if seed is not None:
            self.base_seed = seed
            self.rng = np.random.default_rng(seed)
        return [seed] * self.num_envs

    def _indices(self, indices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)
