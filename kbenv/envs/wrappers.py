"""Gymnasium single-seat self-play environments for stable-baselines3 / sb3-contrib MaskablePPO: `SelfPlayEnv`
(base game, v0 layout) and `SelfPlayEnvV1` (any ruleset, v1 layout); gymnasium ids in kbenv.envs.registration."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..game import Game
from ..game.view import PlayerView
from ..layout import V0, V1
from ..policies import RandomPolicy, as_policy
from ..rewards import terminal_rewards
from ..safe_json import short_repr
from ..setup import SetupError, check_num_players, check_reward, is_int, ruleset_of, standard_setup

ILLEGAL_REWARD = -1.0


class SelfPlayEnv(gymnasium.Env):
    """One learning seat; the other seats are played by opponents drawn from a pool each episode.

    Observations are the (C, 20, 20) planes of the learner; `action_masks()` gives the legal mask
    (sb3-contrib's MaskablePPO calls it). The reward is 0 until the end of the game, then the
    learner's terminal reward under `reward` ("win", "rank" or "score"). An illegal action ends the
    episode with reward -1 and `info["illegal_action"]` (PettingZoo's classic-game convention), or
    raises `IllegalActionError` with `illegal_action="raise"`.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}

    def __init__(
        self,
        num_players: int = 2,
        opponents=None,
        learner_seat: int | None = None,
        reward: str = "win",
        illegal_action: str = "terminate",
        render_mode: str | None = None,
        preset: str | None = None,
        sections=None,
        cards=None,
        lords_count_zero: bool = False,
    ):
        super().__init__()
        check_num_players(num_players)
        if learner_seat is not None and (not is_int(learner_seat) or not 0 <= learner_seat < num_players):
            raise SetupError(f"learner_seat: expected 0..{num_players - 1}, got {short_repr(learner_seat)}")
        check_reward(reward)
        if illegal_action not in ("terminate", "raise"):
            raise SetupError(f"illegal_action: expected 'terminate' or 'raise', got {short_repr(illegal_action)}")
        self.num_players = num_players
        self.opponents = list(opponents) if opponents else [RandomPolicy()]
        for opponent in self.opponents:
            as_policy(opponent)
        self.learner_seat_option = learner_seat
        self.reward_scheme = reward
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.ruleset = ruleset_of(lords_count_zero=lords_count_zero)  # kbenv.ruleset (SelfPlayEnvV1: any)
        self.setup_options = {"preset": preset, "sections": sections, "cards": cards, "ruleset": self.ruleset}
        standard_setup(num_players, 0, **self.setup_options)
        self.observation_space = self.LAYOUT.observation_space()
        self.action_space = spaces.Discrete(self.LAYOUT.action_size)
        self.game: Game | None = None
        self.learner = 0
        self.seat_policies: dict[int, object] = {}

    # ----- helpers ------------------------------------------------------------------------
    LAYOUT = V0  # kbenv.layout: the observation and actions (SelfPlayEnvV1: V1)

    def _observe(self) -> np.ndarray:
        return self.LAYOUT.planes(self.game.state, self.learner)

    def action_masks(self) -> np.ndarray:
        """Boolean legal mask of the learner over the layout's actions (MaskablePPO's hook)."""
        return self.LAYOUT.mask(self.game.state, self.learner).astype(bool)

    def _info(self) -> dict:
        return {"action_mask": self.LAYOUT.mask(self.game.state, self.learner), "learner_seat": self.learner}

    def _seat_to_play(self) -> int:
        return self.game.current_player

    def _play_opponents(self) -> None:
        game = self.game
        while not game.done and self._seat_to_play() != self.learner:
            seat = self._seat_to_play()
            policy = self.seat_policies[seat]
            action = policy(self.LAYOUT.planes(game.state, seat), self.LAYOUT.mask(game.state, seat),
                            PlayerView(game, seat))
            game.step(action)

    def _final_reward(self) -> float:
        totals = self.game.score_table()[:, -1]
        return float(terminal_rewards(totals, self.reward_scheme)[self.learner])

    # ----- gymnasium API ------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        rng = self.np_random
        game_seed = int(rng.integers(0, 2**31 - 1))
        self.game = Game.from_setup(standard_setup(self.num_players, game_seed, **self.setup_options))
        if self.learner_seat_option is None:
            self.learner = int(rng.integers(self.num_players))
        else:
            self.learner = self.learner_seat_option
        self.seat_policies = {}
        for seat in range(self.num_players):
            if seat == self.learner:
                continue
            opponent = self.opponents[int(rng.integers(len(self.opponents)))]
            if hasattr(opponent, "reset"):
                opponent.reset(int(rng.integers(0, 2**31 - 1)))
            self.seat_policies[seat] = as_policy(opponent)
        self._play_opponents()
        return self._observe(), self._info()

    def step(self, action):
        from ..game import IllegalActionError
        from .kingdom_builder_v0 import EnvStateError

        if self.game is None:
            raise EnvStateError("step: call reset() first (no game has been started)")
        if self.game.done:
            raise EnvStateError("step: the game has ended (terminated=True was returned); call reset()")
        try:
            self.game.step(action)
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            info = self._info()
            info["illegal_action"] = True
            return self._observe(), ILLEGAL_REWARD, True, False, info
        self._play_opponents()
        terminated = self.game.done
        reward = self._final_reward() if terminated else 0.0
        info = self._info()
        if terminated:
            info["gold"] = [int(x) for x in self.game.score_table()[:, -1]]
        return self._observe(), reward, terminated, False, info

    def render(self):
        if self.render_mode == "rgb_array":
            from ..present.image import board_image

            return board_image(self.game, viewer=self.learner)
        if self.render_mode == "ansi":
            from ..present.text import board_text

            return board_text(self.game, colour=False)
        return None


class SelfPlayEnvV1(SelfPlayEnv):
    """`SelfPlayEnv` on the v1 layout of `kingdom_builder_v1`: observation (50, 20, 20), 478 actions, any ruleset.

    `expansions` is any subset of nomads, crossroads, capitol, caves, marshlands, harvest (and the island, under
    construction) and `rules` a mapping of reading flags, as for `kingdom_builder_v1.env` (or `ruleset`, a
    kbenv.ruleset.Ruleset); without them it plays the base game in the v1 layout. `island_side`: with the island,
    the side of every game (default: each game's seed chooses, kbenv.expansions.island.setup).
    """

    def __init__(
        self,
        num_players: int = 2,
        opponents: Iterable[Any] | None = None,
        expansions: Iterable[str] | None = None,
        rules: Any = None,
        ruleset: Any = None,
        island_side: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(num_players, opponents, **kwargs)
        self.ruleset = ruleset_of(expansions, rules, ruleset=ruleset) | self.ruleset  # | the flag of lords_count_zero
        self.setup_options["ruleset"] = self.ruleset
        if island_side is not None:
            self.setup_options["island_side"] = island_side
        standard_setup(num_players, 0, **self.setup_options)  # validate the ruleset now (SetupError)

    LAYOUT = V1

    def _seat_to_play(self) -> int:
        return self.game.decider  # with expansions a player may decide in another's turn
