"""RLlib pieces for kbenv (new API stack): the multi-agent env factory and a small masked-action RLModule.

- `KBPettingZooEnv(env_config)`: kbenv's PettingZoo AEC env (`kingdom_builder_v0.raw_env`, or v1 with
  expansions or rule flags) in RLlib's `PettingZooEnv` wrapper (`make_rllib_env` for `register_env`). The raw env
  raises `IllegalActionError` on an illegal action, and RLlib's EnvRunner re-raises it
  (`restart_failed_sub_environments` is off by default), so a run that completes played legal moves only.
- `KBMaskedConvModule`: a tiny convolutional policy/value network for PPO. It reads the Dict
  observation `{"observation": (C, 20, 20), "action_mask": (A,)}` as the env gives it (no renaming
  wrapper needed) and sets the logits of illegal actions to the float minimum in every forward pass.
  Hex actions 0..399 get one logit per board cell (a 1x1 conv over the feature map); the remaining
  actions (tile powers, END_TURN) and the value come from pooled features and the packed feature plane.

`shared_policy` maps every seat to one module; `masked_action` plays one decision with a module outside
RLlib (evaluation). Ray and torch are imported here, so import this module only where RLlib is installed.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import torch
from pettingzoo import AECEnv
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.torch import TorchRLModule
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.utils.torch_utils import FLOAT_MIN
from torch import nn

from kbenv.layout import BOARD_SIDE, FEATURE_PLANE  # FEATURE_PLANE: the packed scalar features (v0 and v1)
from kbenv.layout import NUM_HEX_ACTIONS as HEX_ACTIONS

BOARD = BOARD_SIDE  # the assembled board is 20 x 20 hexes; hex action = row * 20 + col (HEX_ACTIONS of them)
SHARED_MODULE = "shared"  # the module id every seat maps to
FEATURES = BOARD * BOARD


def make_raw_env(env_config: dict | None = None) -> AECEnv:
    """kbenv's raw AEC env: v0, or v1 when `expansions` or `rules` are given (illegal actions raise).

    Keys of `env_config`: `num_players` (2), `reward` ("win"), `expansions` (none), `rules` (none: rule flags
    switched on, a ruleset of kingdom_builder_v1 as in `kbenv play --rules`), `preset`, `hints`.
    """
    cfg = dict(env_config or {})
    kwargs: dict[str, Any] = {"num_players": int(cfg.get("num_players", 2)), "reward": cfg.get("reward", "win")}
    for key in ("preset", "hints"):
        if cfg.get(key) is not None:
            kwargs[key] = cfg[key]
    if cfg.get("expansions") or cfg.get("rules"):
        from kbenv import kingdom_builder_v1

        return kingdom_builder_v1.raw_env(expansions=list(cfg.get("expansions") or []),
                                          rules=list(cfg.get("rules") or []) or None, **kwargs)
    from kbenv import kingdom_builder_v0

    return kingdom_builder_v0.raw_env(**kwargs)


class KBPettingZooEnv(PettingZooEnv):
    """RLlib `MultiAgentEnv` over kbenv's raw AEC env, constructible from an RLlib `env_config`."""

    def __init__(self, config: dict | None = None):
        super().__init__(make_raw_env(config))


def make_rllib_env(env_config: dict | None = None) -> KBPettingZooEnv:
    """The env RLlib samples from (for `register_env` users; the script passes the class itself)."""
    return KBPettingZooEnv(env_config)


def shared_policy(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """Policy mapping: every seat plays the one shared module (self-play)."""
    return SHARED_MODULE


def masked_action(module: TorchRLModule, observation: dict, greedy: bool = True,
                  rng: np.random.Generator | None = None) -> int:
    """One action of `module` for one kbenv observation dict (argmax or a sample of the masked softmax)."""
    batch = {Columns.OBS: {key: torch.from_numpy(np.asarray(value)[None]) for key, value in observation.items()}}
    with torch.no_grad():
        logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0]
    if greedy:
        return int(torch.argmax(logits))
    probs = torch.softmax(logits.double(), dim=0).numpy()
    return int((rng or np.random.default_rng()).choice(len(probs), p=probs / probs.sum()))


class KBMaskedConvModule(TorchRLModule, ValueFunctionAPI):
    """Small conv net with a per-hex policy head, masked by the observation's `action_mask` (PPO-ready).

    `model_config` keys: `channels` (conv width, 16), `conv_layers` (3x3 convs, 2), `hidden` (MLP width
    for the non-hex logits and the value, 64).
    """

    def setup(self) -> None:
        """Build the layers from the Dict observation space and the Discrete action space."""
        space = self.observation_space
        if not isinstance(space, gym.spaces.Dict) or "action_mask" not in space.spaces:
            raise ValueError(f"KBMaskedConvModule needs a Dict observation with 'action_mask', got {space}")
        in_channels, height, width = space["observation"].shape
        if (height, width) != (BOARD, BOARD):
            raise ValueError(f"expected (C, {BOARD}, {BOARD}) board planes, got {space['observation'].shape}")
        num_actions = int(self.action_space.n)
        if num_actions <= HEX_ACTIONS:
            raise ValueError(f"expected more than {HEX_ACTIONS} actions, got {num_actions}")
        cfg = self.model_config or {}
        channels = int(cfg.get("channels", 16))
        layers = int(cfg.get("conv_layers", 2))
        hidden = int(cfg.get("hidden", 64))

        convs: list[nn.Module] = []
        depth = in_channels
        for _ in range(layers):
            convs += [nn.Conv2d(depth, channels, 3, padding=1), nn.ReLU()]
            depth = channels
        self.trunk = nn.Sequential(*convs)
        self.hex_head = nn.Conv2d(depth, 1, 1)
        self.mlp = nn.Sequential(nn.Linear(2 * depth + FEATURES, hidden), nn.ReLU())
        self.extra_head = nn.Linear(hidden, num_actions - HEX_ACTIONS)
        self.value_head = nn.Linear(hidden, 1)
        for head in (self.extra_head, self.value_head):
            nn.init.normal_(head.weight, std=0.01)
            nn.init.zeros_(head.bias)
        nn.init.normal_(self.hex_head.weight, std=0.01)
        nn.init.zeros_(self.hex_head.bias)

    def _embed(self, obs: dict) -> tuple[torch.Tensor, torch.Tensor]:
        """Feature map (B, C, 20, 20) and pooled embedding (B, hidden)."""
        planes = obs["observation"].float()
        fmap = self.trunk(planes)
        pooled = torch.cat([fmap.mean(dim=(2, 3)), fmap.amax(dim=(2, 3))], dim=1)
        features = planes[:, FEATURE_PLANE].flatten(1)
        return fmap, self.mlp(torch.cat([pooled, features], dim=1))

    def _logits(self, batch: dict) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked action logits and the embedding they were computed from."""
        obs = batch[Columns.OBS]
        fmap, emb = self._embed(obs)
        logits = torch.cat([self.hex_head(fmap).flatten(1), self.extra_head(emb)], dim=1)
        legal = obs["action_mask"] > 0
        return logits.masked_fill(~legal, FLOAT_MIN), emb

    def _forward(self, batch: dict, **kwargs) -> dict:
        """Inference and exploration: masked logits only."""
        logits, _ = self._logits(batch)
        return {Columns.ACTION_DIST_INPUTS: logits}

    def _forward_train(self, batch: dict, **kwargs) -> dict:
        """Training: masked logits plus the embedding, which PPO hands back to `compute_values`."""
        logits, emb = self._logits(batch)
        return {Columns.ACTION_DIST_INPUTS: logits, Columns.EMBEDDINGS: emb}

    def compute_values(self, batch: dict, embeddings: Any = None) -> torch.Tensor:
        """State values (B,), from the given embedding or a fresh forward pass."""
        if embeddings is None:
            _, embeddings = self._embed(batch[Columns.OBS])
        return self.value_head(embeddings).squeeze(-1)
