"""A trained MaskablePPO policy (sb3-contrib checkpoint) as an agent."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from kbenv.view import PlayerView


class PPOAgent:
    name = "ppo"

    def __init__(self, path: str, deterministic: bool = True, device: str = "cpu", seed: int | None = None):
        from sb3_contrib import MaskablePPO

        from .networks import flush_denormals

        flush_denormals()
        if not Path(path).exists():
            raise FileNotFoundError(f"ppo: no checkpoint at {path}")
        self.model = MaskablePPO.load(path, device=device)
        self.hints = self.model.policy_kwargs.get("features_extractor_kwargs", {}).get("hints", "none")
        self.deterministic = deterministic
        self.name = f"ppo:path={path}"

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.model.set_random_seed(seed % 2**32)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: PlayerView | None = None) -> int:
        if self.hints != "none":  # the network reads hint planes: build its observation from the view
            if view is None:
                raise ValueError(f"ppo: this network reads {self.hints!r} hints, which need the player's view")
            observation = view.observation(self.hints)
        action, _ = self.model.predict(observation, action_masks=action_mask.astype(bool),
                                       deterministic=self.deterministic)
        return int(action)

    def batch_policy(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """One batched call for many games (the batch engine's neural-opponent hook)."""
        actions, _ = self.model.predict(observations, action_masks=masks.astype(bool),
                                        deterministic=self.deterministic)
        return np.asarray(actions, dtype=np.int64)
