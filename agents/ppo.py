"""A trained MaskablePPO policy (sb3-contrib checkpoint) as an agent.

A network trained with expansions (TrainConfig `expansions`) reads observation v1 (50 channels; one made before
Crossroads reads its first 35, one made before Marshlands its first 40, one made before Harvest its first 43, one
made before the Island its first 48, which keep their meaning) and
has the v1 action layout (478 actions; 458 for networks saved before the Island); its policy kwargs record the
ruleset (`agent.expansions`,
`agent.rules`). At play time the agent takes the observation and mask it is given when they have its
network's shapes, and otherwise builds them from the player's view: v1 planes with `view.observation_v1()`,
the game's own legal mask with `view.legal_mask()`, padded to the network's actions (v0 ids are a prefix of
v1, so a v1 network can also be given base games). A v0 network cannot play an expansion game and says so.

The ruleset in the policy kwargs is what the agent was trained for (`trained_for`, agents.rulesets; a
checkpoint that records none is read from its network: v0 is the base game, v1 unknown). Any other
ruleset is refused at the first decision with `ModelRulesetError` unless `outside_training=True`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from kbenv.catalogue import ACTION_SIZE_V0
from kbenv.engine.observe_v1 import V1_BASE_CHANNELS
from kbenv.game.view import PlayerView
from kbenv.layout import layout_by_flag

from . import rulesets


class PPOAgent:
    name = "ppo"

    def __init__(self, path: str, deterministic: bool = True, device: str = "cpu", seed: int | None = None,
                 outside_training: bool = False):
        from sb3_contrib import MaskablePPO

        from .training.networks import flush_denormals

        flush_denormals()
        if not Path(path).exists():
            raise FileNotFoundError(f"ppo: no checkpoint at {path}")
        self.model = MaskablePPO.load(path, device=device)
        extractor = (self.model.policy_kwargs or {}).get("features_extractor_kwargs", {})
        self.hints = extractor.get("hints", "none")
        self.expansions = tuple(extractor.get("expansions", ()))
        self.rules = tuple(extractor.get("rules", ()))
        self.observation_shape = tuple(self.model.observation_space.shape)
        self.action_size = int(self.model.action_space.n)
        self.v1 = self.observation_shape[0] >= V1_BASE_CHANNELS  # v1 networks made before Crossroads read 35
        self.layout = layout_by_flag(self.v1)  # kbenv.layout of the network's observation and actions
        self.deterministic = deterministic
        self.name = f"ppo:path={path}"
        if "expansions" in extractor:
            self.trained_for = rulesets.TrainedFor(
                (rulesets.Ruleset.of(self.expansions, self.rules),), f"recorded in the checkpoint {path}",
                self.v1, rulesets.sees_of(self.v1, self.observation_shape[0]))
        else:
            self.trained_for = rulesets.inferred(self.v1, self.observation_shape[0], f"the checkpoint {path}")
        self.outside_training = bool(outside_training)
        self._first_use = rulesets.FirstUseCheck()

    @property
    def ruleset(self) -> dict:
        """The ruleset the network was trained on (empty lists: the base game)."""
        return {"expansions": list(self.expansions), "rules": list(self.rules)}

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.model.set_random_seed(seed % 2**32)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: PlayerView | None = None) -> int:
        if view is not None:
            self._first_use(self, view.public_game())  # ModelRulesetError outside its training
        mask = self.network_mask(action_mask, view)
        if self.hints != "none":  # the network reads hint planes: build its observation from the view
            if view is None:
                raise ValueError(f"ppo: this network reads {self.hints!r} hints, which need the player's view")
            observation = view.observation(self.hints)
        elif np.shape(observation) != self.observation_shape:
            if view is None:
                raise ValueError(f"ppo: this network reads observations of shape {self.observation_shape}, got "
                                 f"{np.shape(observation)} and no view to build them from")
            observation = view.planes(self.layout)[: self.observation_shape[0]]
        action, _ = self.model.predict(observation, action_masks=mask, deterministic=self.deterministic)
        return int(action)

    def network_mask(self, action_mask: np.ndarray, view: PlayerView | None = None) -> np.ndarray:
        """The legal mask as the network's actions (boolean): the given one if it has their number, else the
        view's, zero-padded from the v0 prefix to the v1 layout."""
        mask = np.asarray(action_mask)
        if mask.shape == (self.action_size,):
            return mask.astype(bool)
        if view is not None:
            mask = view.legal_mask()
        if len(mask) > self.action_size > ACTION_SIZE_V0 and not np.any(mask[self.action_size:]):
            return np.asarray(mask[: self.action_size]).astype(bool)  # a v1 network saved before the Island's ids
        if len(mask) > self.action_size:
            raise ValueError(f"ppo: this network was trained on the base game ({self.action_size} actions); this "
                             f"game has {len(mask)} (expansions): train one with the ruleset's `expansions`")
        padded = np.zeros(self.action_size, dtype=bool)
        padded[: len(mask)] = mask
        return padded

    def batch_policy(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """One batched call for many games (the batch engine's neural-opponent hook)."""
        actions, _ = self.model.predict(observations, action_masks=masks.astype(bool),
                                        deterministic=self.deterministic)
        return np.asarray(actions, dtype=np.int64)
