"""Kingdom Builder as a PettingZoo AEC environment.

| Import             | `from kbenv import kingdom_builder_v0` (or `kbenv.env`, `kbenv.raw_env`) |
|--------------------|---------------------------------------------------------------------------|
| Actions            | Discrete                                                                  |
| Parallel API       | No                                                                        |
| Manual control     | No                                                                        |
| Agents             | `agents = ['player_0', ..., 'player_{n-1}']` (2 to 5 players)            |
| Action shape       | Discrete(409)                                                             |
| Action values      | 0..399 hex (row * 20 + col), 400..407 activate a tile power, 408 END_TURN |
| Observation shape  | Dict(observation=Box(0, 1, (28, 20, 20), float32),                       |
|                    |      action_mask=Box(0, 1, (409,), int8))                                 |

## Decision model
One step is one decision of the player to move (`agent_selection`); a player keeps the selection for
every decision of their turn: up to 3 hexes for the mandatory action, tile powers (activate, then
choose a source settlement for moves, then a target hex) before or after it, and END_TURN. When
END_TURN is the only legal decision the engine takes it by itself. See docs/api.md.

## Observation
`observation` is a float32 (28, 20, 20) stack of planes from the observing agent's point of view
("self" = the observer, "opponent k" = the k-th next player in seat order after self).  Hex planes:

| channels | meaning |
|---|---|
| 0-4 | terrain: grass, canyon, desert, flower field, forest |
| 5, 6, 7 | water, mountain, castle |
| 8 | other unbuildable hexes (nomad spaces) |
| 9-16 | location hexes by power: oracle, farm, oasis, tower, tavern, barn, harbor, paddock |
| 17 | location hexes without a power (Nomads sections) |
| 18 | tiles left on each location hex / 2 |
| 19 | own settlements |
| 20-23 | settlements of opponents 1..4 (zero planes for absent seats) |
| 24 | hexes that are legal decisions now (only when the observer is to move) |
| 25 | the settlement being moved (choose_target of Barn, Harbor, Paddock) |
| 26 | board edge |

Channel 27 packs the scalar facts: feature k sits at row k // 20, column k % 20 (the other cells
are 0); `kbenv.observation.features(obs)` unpacks them. Packing instead of 75 constant planes keeps
an observation at 45 KB, which is what lets the batch engine build hundreds of thousands per second.

| features | meaning |
|---|---|
| 0-4 | own terrain card (one-hot G C D F T; own hand is always visible to its owner) |
| 5-9 | played card of the player to move (public) |
| 10-14 | phase: idle, mandatory, choose_source, choose_target, game_over |
| 15 | settlements built in the current mandatory action / 3 (at most 1) |
| 16 | mandatory action done |
| 17-24 | power being resolved (oracle .. paddock) |
| 25-32 | own tiles held per power / 2 |
| 33-40 | own tiles usable now per power / 2 |
| 41-48 | tiles held by all opponents per power / 8 |
| 49-53 | supply / 40 of self, opponent 1, ..., opponent 4 |
| 54-63 | Kingdom Builder cards in play, in the order of `kbenv.CARD_NAMES` (fishermen .. farmers) |
| 64 | observer is to move |
| 65 | last round (a player has built their last settlement) |
| 66 | draw pile size / 25 (Marshlands: / 30) |
| 67-71 | discard pile per terrain / 5 (public: played cards are seen by all) |
| 72 | observer's place in the turn order from the start player / 4 |
| 73 | number of players / 5 |
| 74 | completed rounds / 20 (at most 1) |

### Hints (optional, `hints="greedy"` or `hints="lookahead"`)
Two more planes and 18 more features: the value a built-in policy gives each legal decision, as a
hint a learner may use or ignore (like the liberty and ladder planes of AlphaGo's policy network).
The value is greedy's (own gold + 2 per tile right after the decision) or lookahead's (the same
after greedily finishing the own turn; `kbenv.policies.lookahead`). The observation is then
(30, 20, 20), and its Box is [-1, 1] on the signed cells. All hint cells are 0 when the observer is
not to move. Hints cost time: in the batch VecEnv (16 envs, 2 cores, `python -m
benchmarks.vecenv_speed`) greedy hints give 0.83x and lookahead hints 0.20x the learner steps/s.

| where | meaning |
|---|---|
| channel 28 | each legal hex: (its value - own value now) / 10, clipped to [-1, 1] |
| channel 29 | 1 on the legal hexes of highest value (ties included) |
| features 75-83 | the same signed values for the 8 powers (oracle .. paddock), then END_TURN |
| features 84-92 | 1 where those decisions have the highest value |

Hidden information never enters an observation: other players' hands (except the card the player to
move has played) and the order of the draw pile. `state()` returns the full-information view
(every hand, the draw pile counts per terrain) for centralised critics.

## Action mask
`action_mask` is int8 (409,), 1 for each legal decision of the observer; all zero for agents not to
move and after the end of the game.

## Rewards
Only at the end of the game, all agents terminate in the same step:
- `reward="win"` (default): +1 to every player with the most gold (ties included), -1 to the others.
- `reward="rank"`: linear from +1 (first) to -1 (last); tied players share the mean of their places.
- `reward="score"`: own gold minus the mean of the others' gold, divided by 100.

## Arguments
`num_players` (2-5), `preset` ("first-game"), `sections` ([(name, turned)] x4), `cards` (3 names),
`lords_count_zero` (the rule flag of that name: `env.unwrapped.ruleset` is a `kbenv.ruleset.Ruleset`), `reward`,
`render_mode` ("ansi", "rgb_array", "human": prints the ansi board),
`hints` ("none", "greedy", "lookahead").
Sections, cards and start player that are not given are drawn from the reset seed.

## Version history
- v0: first release.
"""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector, wrappers

from ..engine.legal import ACTION_SIZE
from ..engine.state import DECK, DECK_COUNT, HAND, NO_CARD
from ..game import Game, IllegalActionError
from ..observation import OBSERVATION_SHAPE, action_mask, observation_planes, observation_space
from ..present.text import board_text, score_text
from ..rewards import terminal_rewards
from ..safe_json import short_repr
from ..setup import SetupError, check_num_players, check_reward, is_int, ruleset_of, standard_setup

ENV_NAME = "kingdom_builder_v0"


class EnvStateError(RuntimeError):
    """A method called when the environment is not in a state to answer it (before reset, after the end)."""


def env(**kwargs) -> AECEnv:
    """The environment with PettingZoo's standard wrappers for classic games."""
    return wrap(raw_env(**kwargs))


def wrap(wrapped: AECEnv) -> AECEnv:
    """PettingZoo's standard wrappers for classic games around a raw env (v0 or v1)."""
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    wrapped = wrappers.OrderEnforcingWrapper(wrapped)
    return wrapped


class raw_env(AECEnv):  # noqa: N801 - PettingZoo naming convention
    """Kingdom Builder, one agent decision per step (see the module docstring)."""

    metadata = {
        "render_modes": ["human", "ansi", "rgb_array"],
        "name": ENV_NAME,
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        num_players: int = 2,
        preset: str | None = None,
        sections=None,
        cards=None,
        lords_count_zero: bool = False,
        reward: str = "win",
        render_mode: str | None = None,
        hints: str = "none",
    ):
        super().__init__()
        check_num_players(num_players)
        check_reward(reward)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise SetupError(f"render_mode: expected one of {self.metadata['render_modes']}, "
                             f"got {short_repr(render_mode)}")
        self.num_players = num_players
        self.ruleset = ruleset_of(lords_count_zero=lords_count_zero, **self._ruleset_options())  # kbenv.ruleset
        self.setup_options = {"preset": preset, "sections": sections, "cards": cards, "ruleset": self.ruleset}
        standard_setup(num_players, 0, **self.setup_options)  # validate the options now
        self.reward_scheme = reward
        self.render_mode = render_mode
        self.hints = hints
        try:
            observation_box = self._observation_box()
        except ValueError as err:
            raise SetupError(str(err)) from None
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self.agent_name_mapping = {name: i for i, name in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": observation_box,
                "action_mask": spaces.Box(0, 1, (self.ACTION_SIZE,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.ACTION_SIZE) for a in self.possible_agents}
        self.game: Game | None = None
        self._np_random: np.random.Generator | None = None

    # ----- version hooks (kingdom_builder_v1 overrides them) -------------------------------------
    ACTION_SIZE = ACTION_SIZE

    def _ruleset_options(self) -> dict:
        """The ruleset keywords (`ruleset_of`): none in v0, the base game (rule flags: `lords_count_zero`)."""
        return {}

    def _observation_box(self):
        return observation_space(self.hints)

    def _planes(self, player: int) -> np.ndarray:
        return observation_planes(self.game.state, player, self.hints)

    STATE_CHANNELS = OBSERVATION_SHAPE[0]

    def _state_planes(self, player: int) -> np.ndarray:
        """The planes at the head of `state()`: the standard observation of `player` (no hints)."""
        return observation_planes(self.game.state, player)

    # ----- spaces -------------------------------------------------------------------------
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ----- core API -----------------------------------------------------------------------
    def _require_game(self, method: str) -> Game:
        """The running game; a clear error before the first reset()."""
        if self.game is None:
            raise EnvStateError(f"{method}: call reset() first (no game has been started)")
        return self.game

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None and (not is_int(seed) or seed < 0):
            raise SetupError(f"seed: expected None or a non-negative integer, got {short_repr(seed)}")
        if seed is not None or self._np_random is None:
            self._np_random = np.random.default_rng(seed)
        game_seed = int(self._np_random.integers(0, 2**31 - 1))
        self.game = Game.from_setup(standard_setup(self.num_players, game_seed, **self.setup_options))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._agent_selector = AgentSelector(self.agents)
        self.agent_selection = self.possible_agents[self.game.decider]

    def observe(self, agent: str) -> dict:
        self._require_game("observe")
        if agent not in self.agent_name_mapping:
            raise ValueError(f"observe: unknown agent {short_repr(agent)}; "
                             f"agents are {', '.join(self.possible_agents)}")
        player = self.agent_name_mapping[agent]
        return {
            "observation": self._planes(player),
            "action_mask": action_mask(self.game.state, player, self.ACTION_SIZE),
        }

    def last(self, observe: bool = True):
        self._require_game("last")
        return super().last(observe)

    def step(self, action) -> None:
        self._require_game("step")
        if not self.agents:
            raise EnvStateError("step: the game is over and every agent has left; call reset() for a new game")
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        agent = self.agent_selection
        self._cumulative_rewards[agent] = 0.0
        if action is None:
            raise IllegalActionError(f"action None is illegal: {agent} is to move")
        self.game.step(action)  # raises IllegalActionError, game unchanged, on an illegal action
        if self.game.done:
            totals = self.game.score_table()[:, -1]
            rewards = terminal_rewards(totals, self.reward_scheme)
            for a in self.agents:
                self.rewards[a] = float(rewards[self.agent_name_mapping[a]])
                self.terminations[a] = True
                self.infos[a] = {"gold": int(totals[self.agent_name_mapping[a]])}
        else:
            self.agent_selection = self.possible_agents[self.game.decider]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def state(self) -> np.ndarray:
        """Full-information view for centralised critics, float32 (58, 20, 20).

        Planes 0-27: the observation of the player to move; 28-52: every seat's hand (5 one-hot
        planes per seat, seats in order from the player to move); 53-57: draw pile cards per
        terrain / 5.
        """
        st = self._require_game("state").state
        n = self.num_players
        mover = self.game.decider
        planes = self._state_planes(mover)
        extra = np.zeros((5 * 5 + 5, 20, 20), dtype=np.float32)
        for k in range(n):
            card = int(st[HAND + (mover + k) % n])
            if card != NO_CARD:
                extra[5 * k + card] = 1.0
        for card in st[DECK : DECK + int(st[DECK_COUNT])]:
            extra[25 + int(card)] += 0.2
        return np.concatenate([planes, extra])

    @property
    def state_space(self) -> spaces.Box:
        return spaces.Box(0.0, 1.0, (self.STATE_CHANNELS + 30, 20, 20), dtype=np.float32)

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        self._require_game("render")
        if self.render_mode == "rgb_array":
            from ..present.image import board_image

            return board_image(self.game, viewer=self.game.current_player)
        text = self._ansi()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _ansi(self) -> str:
        g = self.game
        if g.done:
            status = "game over; winner(s): " + ", ".join(self.possible_agents[p] for p in g.winners())
        else:
            card = g.hand(g.current_player)
            status = f"{self.possible_agents[g.current_player]} to move ({g.phase}), played card {card}"
        return "\n".join([board_text(g, colour=True), status, score_text(g.scores(), g.cards)])

    def close(self) -> None:
        pass
