"""A Gymnasium `VectorEnv` of N self-play games on the batch engine: `gymnasium.make_vec("kbenv/SelfPlay-v1", ...)`.

One learner seat per game; the other seats are played inside the batch by opponents drawn per episode from a pool
(`kbenv.envs.batch_opponents`: "random", "greedy", "lookahead" or batched policy callables), as in the
stable-baselines3 `SelfPlayVecEnv`. docs/vector-env.md shows it in use.

- Observations: a batch of the learner's (C, 20, 20) float32 planes, `single_observation_space` the Box of the
  single-game env of the same id (`kbenv/SelfPlay-v1`: (50, 20, 20), `-v0`: (28, 20, 20)).
- Actions: one integer per game, `single_action_space` Discrete(478) (v1) or Discrete(409) (v0).
- Action mask: `infos["action_mask"]`, (N, A) int8, 1 for each legal decision of the learner (as the single-game
  env's `info["action_mask"]`), and `action_masks()`, the same as booleans.
- Autoreset: `metadata["autoreset_mode"]`, `AutoresetMode.NEXT_STEP` (Gymnasium's default) or `SAME_STEP`
  (`autoreset_mode=` at construction). NEXT_STEP returns the final observation (its mask all zero) with
  `terminated`; the next `step` starts the game's next episode and ignores that game's action. SAME_STEP returns
  the next episode's first observation at once, the final one in `infos["final_obs"]` and the ended episode's
  info in `infos["final_info"]`. `DISABLED` is not offered.
- Seeding: `reset(seed=s)` gives game i the seed s + i, `reset(seed=[s_0, ..., s_{N-1}])` one seed per game; game
  i then plays the seeds s_i, s_i + N, s_i + 2N, ... (kbenv.vector), and its learner seat and opponents are drawn
  from a generator of s_i alone. The same seeds and actions give the same games. `reset()` without a seed starts
  each game's next episode (random seeds on the first reset).
- Rewards: 0 until a game ends, then the learner's terminal reward under `reward` ("win", "rank", "score").
  Games end by the rules only: `truncated` is always False. An illegal action raises `IllegalActionError` naming
  the game and changes nothing (the batch engine's convention; the single-game env ends the episode instead).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..game import IllegalActionError
from ..rewards import terminal_rewards
from ..safe_json import short_repr
from ..setup import SetupError, check_num_players, is_int
from ..vector import VectorGames
from .batch_opponents import check_opponents, play_opponents

AUTORESET_MODES = (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP)
MAX_RESET_SEED = 2**62  # slot seeds grow by N per episode (kbenv.vector): room for 2**62 / N episodes


def autoreset_mode_of(value: AutoresetMode | str) -> AutoresetMode:
    """An `AutoresetMode` from the enum or its value ("NextStep", "SameStep"); SetupError naming the argument."""
    try:
        mode = AutoresetMode(value)
    except ValueError:
        mode = None
    if mode not in AUTORESET_MODES:
        raise SetupError(f"autoreset_mode: expected AutoresetMode.NEXT_STEP or AutoresetMode.SAME_STEP "
                         f"('NextStep' or 'SameStep'), got {short_repr(value)}")
    return mode


def reset_seeds(seed: int | Sequence[int | None] | None, num_envs: int, rng: np.random.Generator) -> np.ndarray:
    """(N,) int64 game seeds of a reset: s + i for an int, one per game for a list (None: drawn from `rng`)."""
    if is_int(seed):
        seeds: list[Any] = [int(seed) + i for i in range(num_envs)]
    elif isinstance(seed, (list, tuple, np.ndarray)):
        seeds = list(seed)
        if len(seeds) != num_envs:
            raise SetupError(f"seed: expected an integer or {num_envs} seeds (one per game), got {len(seeds)}")
    else:
        raise SetupError(f"seed: expected None, an integer or a list of {num_envs} integers, got {short_repr(seed)}")
    out = np.empty(num_envs, dtype=np.int64)
    for i, s in enumerate(seeds):
        if s is None:
            s = int(rng.integers(0, 2**31 - 1))
        if not is_int(s) or not 0 <= int(s) < MAX_RESET_SEED:
            raise SetupError(f"seed: expected integers from 0 to 2**62 - {num_envs}, got {short_repr(s)} for game {i}")
        out[i] = int(s)
    if int(out.max()) + num_envs >= MAX_RESET_SEED:
        raise SetupError(f"seed: expected integers from 0 to 2**62 - {num_envs}, got {int(out.max())}")
    return out


class SelfPlayVectorEnv(VectorEnv):
    """N self-play games as one Gymnasium VectorEnv (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int,
        num_players: int = 2,
        opponents: Sequence[Any] = ("random",),
        learner_seat: int | None = None,
        reward: str = "win",
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        layout: str = "v1",
        **setup_options: Any,
    ) -> None:
        """`setup_options`: those of `VectorGames` (expansions, rules, ruleset, island_side, preset, sections,
        cards, lords_count_zero). `layout`: "v1" (any ruleset, the default) or "v0" (the base game only)."""
        if not is_int(num_envs) or num_envs < 1:
            raise SetupError(f"num_envs: expected a positive integer, got {short_repr(num_envs)}")
        check_num_players(num_players)
        if learner_seat is not None and (not is_int(learner_seat) or not 0 <= learner_seat < num_players):
            raise SetupError(f"learner_seat: expected None or 0..{num_players - 1}, got {short_repr(learner_seat)}")
        if layout not in ("v0", "v1"):
            raise SetupError(f"layout: expected 'v0' or 'v1', got {short_repr(layout)}")
        for name in ("hints", "packed", "auto_reset", "record"):
            if name in setup_options:
                raise SetupError(f"{name}: not an option of the Gymnasium VectorEnv (SelfPlayVecEnv has hints and "
                                 f"packed)")
        self.metadata = {**self.metadata, "autoreset_mode": autoreset_mode_of(autoreset_mode)}
        self.autoreset_mode = self.metadata["autoreset_mode"]
        self.opponents = check_opponents(opponents)
        self.games = VectorGames(num_envs, num_players, reward=reward, auto_reset=False, layout=layout,
                                 **setup_options)
        self.num_envs = int(num_envs)
        self.num_players = int(num_players)
        self.learner_seat_option = learner_seat
        self.reward_scheme = reward
        self.single_observation_space = self.games.layout.observation_space()
        self.single_action_space = spaces.Discrete(self.games.action_size)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.learner = np.zeros(self.num_envs, dtype=np.int64)
        self.seat_opponent = np.zeros((self.num_envs, 5), dtype=np.int64)
        self._seat_rngs: list[np.random.Generator] = []
        self._autoreset = np.zeros(self.num_envs, dtype=bool)  # NEXT_STEP: games to restart on the next step
        self._started = False

    # ----- episodes ---------------------------------------------------------------------------
    def _draw_seats(self, rows: np.ndarray) -> None:
        """Each game's learner seat and opponents of its new episode, from the game's own generator."""
        for i in rows:
            rng = self._seat_rngs[i]
            learner = rng.integers(self.num_players)
            self.learner[i] = learner if self.learner_seat_option is None else self.learner_seat_option
            self.seat_opponent[i] = rng.integers(len(self.opponents), size=5)

    def _start(self, rows: np.ndarray) -> None:
        """The next episode of these games (seed + N), played up to the learner's first decision."""
        self.games.reset_rows(rows)
        self._draw_seats(rows)
        play_opponents(self.games, rows, self.learner, self.seat_opponent, self.opponents)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.games.legal_masks(), "_action_mask": np.ones(self.num_envs, dtype=bool),
                "learner_seat": self.learner.copy(), "_learner_seat": np.ones(self.num_envs, dtype=bool)}

    def _final_info(self, i: int) -> dict[str, Any]:
        return {"gold": self.games.final_totals(i).tolist(), "episode_seed": int(self.games.seeds[i])}

    # ----- VectorEnv API ---------------------------------------------------------------------
    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Start every game: from `seed` (an int s: s + i for game i; a list: one per game), or without one each
        game's next episode (random seeds on the first reset). `options` must be None or empty."""
        if options:
            raise SetupError(f"options: the VectorEnv takes no reset options, got {short_repr(options)}")
        rows = self.games.all_rows
        if seed is None and self._started:
            self._start(rows)
        else:
            seeds = reset_seeds(seed, self.num_envs, self.np_random)
            self.games.reset(seeds)
            self._seat_rngs = [np.random.default_rng(int(s)) for s in seeds]
            self._draw_seats(rows)
            play_opponents(self.games, rows, self.learner, self.seat_opponent, self.opponents)
            self._started = True
        self._autoreset[:] = False
        return self._observe(), self._info()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One learner decision per game (NEXT_STEP: games that ended on the last step restart instead)."""
        if not self._started:
            raise SetupError("step: call reset() first (no game has been started)")
        actions = np.asarray(actions)
        if actions.dtype.kind not in "iu" or actions.shape != (self.num_envs,):
            raise IllegalActionError(f"actions: expected {self.num_envs} integer actions (shape ({self.num_envs},)), "
                                     f"got {short_repr(actions)}")
        restart = np.flatnonzero(self._autoreset)
        play = np.flatnonzero(~self._autoreset)
        self.games.step(actions[play], play)  # raises on an illegal action before changing anything
        play_opponents(self.games, play, self.learner, self.seat_opponent, self.opponents)
        ended = play[self.games.done()[play]]
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        terminated = np.zeros(self.num_envs, dtype=bool)
        terminated[ended] = True
        final = {int(i): self._final_info(int(i)) for i in ended}
        for i in ended:
            rewards[i] = terminal_rewards(self.games.final_totals(int(i)), self.reward_scheme)[self.learner[i]]
        if len(restart):
            self._start(restart)
        infos: dict[str, Any] = {}
        if self.autoreset_mode == AutoresetMode.SAME_STEP and len(ended):
            final_obs = self.games.observations(ended, self.learner[ended])
            for j, i in enumerate(ended):
                ended_info = {"action_mask": np.zeros(self.games.action_size, dtype=np.int8),
                              "learner_seat": int(self.learner[i]), **final[int(i)]}
                infos = self._add_info(infos, {"final_obs": final_obs[j], "final_info": ended_info}, int(i))
            self._start(ended)
        else:
            for i, extra in final.items():
                infos = self._add_info(infos, extra, i)
        self._autoreset[:] = False
        if self.autoreset_mode == AutoresetMode.NEXT_STEP:
            self._autoreset[ended] = True
        infos.update(self._info())
        return self._observe(), rewards, terminated, np.zeros(self.num_envs, dtype=bool), infos

    def _observe(self) -> np.ndarray:
        return self.games.observations(self.games.all_rows, self.learner)

    def action_masks(self) -> np.ndarray:
        """(N, A) boolean legal masks of the learners (all False for a game over, NEXT_STEP)."""
        return self.games.legal_masks().astype(bool)
