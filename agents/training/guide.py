"""Teacher guidance during PPO: an auxiliary imitation loss on the learner's own states (DAgger-style).

The warm start (agents.training.imitation) copies a built-in teacher (greedy or lookahead) on states the
teacher reaches. Once PPO takes over, the learner visits other states, and a policy-gradient signal
from a few thousand games is noisy enough to undo much of the warm start. The guide keeps an anchor:
for every state in each rollout it asks the teacher's numba kernel for its best-action set (cheap,
no extra games), and after each PPO update it takes one pass of the set-valued cross-entropy over
the rollout, weighted by a coefficient that decays linearly from `coef` to `coef_final` over
training. With `coef_final = 0` RL alone has the last word, so the learner may end stronger than
its teacher; labels on the learner's own states are the DAgger remedy for the distribution shift of
plain imitation (Ross et al., 2011).
"""

from __future__ import annotations

import numpy as np
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from .imitation import action_logits, set_cross_entropy


class TeacherLabels(BaseCallback):
    """Records the teacher's best-action sets for the states that enter the rollout buffer.

    SB3 adds `_last_obs` to the buffer and then steps; so the labels are taken at rollout start and
    after every step, and the one taken after the last step is dropped by `labels()`.
    """

    def __init__(self, env, teacher: str = "greedy"):
        super().__init__()
        self.env = env
        self.teacher = teacher
        self.rows: list[np.ndarray] = []

    def _record(self) -> None:
        self.rows.append(self.env.expert_masks(self.teacher))

    def _on_rollout_start(self) -> None:
        self.rows = []
        self._record()

    def _on_step(self) -> bool:
        self._record()
        return True

    def labels(self, n_steps: int) -> np.ndarray:
        """(n_steps, n_envs, A) boolean labels aligned with the rollout buffer."""
        return np.stack(self.rows[:n_steps])


class GuidedMaskablePPO(MaskablePPO):
    """MaskablePPO plus one guide pass (set cross-entropy to the teacher) after every PPO update.

    Saved checkpoints load with plain `MaskablePPO.load`; the guide itself is not saved.
    """

    guide: TeacherLabels | None = None
    guide_coef: float = 0.0
    guide_coef_final: float = 0.0
    guide_total_steps: int = 1

    def _excluded_save_params(self) -> list[str]:
        # The last rollout observations are not needed to play or to resume (learn() resets the env),
        # and with 128 envs they would be most of a checkpoint's size.
        return super()._excluded_save_params() + ["guide", "_last_obs", "_last_original_obs"]

    def current_guide_coef(self) -> float:
        done = min(1.0, self.num_timesteps / max(1, self.guide_total_steps))
        return self.guide_coef + (self.guide_coef_final - self.guide_coef) * done

    def train(self) -> None:
        super().train()
        coef = self.current_guide_coef()
        if self.guide is None or coef <= 0.0:
            return
        import torch

        # After PPO's update the buffer holds its arrays flattened env-major: (n_envs * n_steps, ...).
        buffer = self.rollout_buffer
        n_steps, n_envs = buffer.buffer_size, buffer.n_envs
        obs = buffer.observations.reshape(n_envs * n_steps, *buffer.obs_shape)
        legal = buffer.action_masks.reshape(n_envs * n_steps, -1).astype(bool)
        best = self.guide.labels(n_steps).swapaxes(0, 1).reshape(n_envs * n_steps, -1)
        if (best & ~legal).any():
            raise RuntimeError("guide: teacher labels do not line up with the rollout buffer's legal masks")
        policy = self.policy
        policy.set_training_mode(True)
        order = np.random.default_rng(self.num_timesteps).permutation(len(obs))
        losses, hits = [], []
        for start in range(0, len(order), self.batch_size):
            idx = order[start : start + self.batch_size]
            logits = action_logits(policy, torch.as_tensor(obs[idx], device=self.device))
            loss, hit = set_cross_entropy(logits, torch.as_tensor(legal[idx], device=self.device),
                                          torch.as_tensor(best[idx], device=self.device))
            policy.optimizer.zero_grad()
            (coef * loss).backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), self.max_grad_norm)
            policy.optimizer.step()
            losses.append(float(loss.detach()))
            hits.append(float(hit))
        policy.set_training_mode(False)
        self.logger.record("guide/coef", coef)
        self.logger.record("guide/cross_entropy", float(np.mean(losses)))
        self.logger.record("guide/teacher_agreement", float(np.mean(hits)))
