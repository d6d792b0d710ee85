"""Masked PPO in the style of CleanRL's ppo.py, pure torch, on kbenv's Gymnasium VectorEnv (one file, no framework).

Run: `python scripts/masked_ppo.py --total-timesteps 20000 --num-envs 16`. The env is
`gymnasium.make_vec("kbenv/SelfPlay-v1", vectorization_mode="vector_entry_point", autoreset_mode=SAME_STEP)`:
one learner seat per game against opponents inside the batch. SAME_STEP autoreset makes every observation a
decision of the learner (its mask in `infos["action_mask"]` has a legal action), and `done` marks the last step
of an episode, which is what CleanRL's GAE loop expects. Illegal actions get probability 0 (masked logits).

The network is small on purpose: two 3x3 convolutions over the planes, a 1x1 convolution for the 400 hex
actions, and a linear head over pooled features for the other actions and for the value. It shows the loop;
training a strong agent is `kbenv train` (docs/training.md).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import gymnasium
import numpy as np
import torch
from gymnasium.vector import AutoresetMode
from torch import nn

HEX_ACTIONS = 400  # actions 0..399 are the hexes (row * 20 + col) in both layouts (kbenv.layout)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env-id", default="kbenv/SelfPlay-v1", help="a kbenv Gymnasium id with a vector entry point")
    parser.add_argument("--total-timesteps", type=int, default=20_000, help="learner steps over all envs")
    parser.add_argument("--num-envs", type=int, default=16, help="games stepped together")
    parser.add_argument("--num-steps", type=int, default=64, help="steps per env per rollout")
    parser.add_argument("--num-minibatches", type=int, default=4)
    parser.add_argument("--update-epochs", type=int, default=4)
    parser.add_argument("--learning-rate", type=float, default=2.5e-4)
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--gae-lambda", type=float, default=0.95)
    parser.add_argument("--clip-coef", type=float, default=0.2)
    parser.add_argument("--ent-coef", type=float, default=0.01)
    parser.add_argument("--vf-coef", type=float, default=0.5)
    parser.add_argument("--max-grad-norm", type=float, default=0.5)
    parser.add_argument("--num-players", type=int, default=2)
    parser.add_argument("--opponents", default="random", help="comma-separated: random, greedy, lookahead")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    parser.add_argument("--json", default=None, help="write the run's summary (steps/s, episodes, wins) here")
    args = parser.parse_args(argv)
    for name in ("total_timesteps", "num_envs", "num_steps", "num_minibatches", "update_epochs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')}: expected a positive integer, got {getattr(args, name)}")
    if (args.num_envs * args.num_steps) % args.num_minibatches:
        parser.error("--num-minibatches: must divide --num-envs * --num-steps")
    return args


class Agent(nn.Module):
    """Policy logits over every action and a value, from the (C, 20, 20) planes."""

    def __init__(self, channels: int, num_actions: int, width: int = 32):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(channels, width, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(width, width, 3, padding=1), nn.ReLU())
        self.hex_head = nn.Conv2d(width, 1, 1)
        self.other_head = nn.Linear(2 * width, num_actions - HEX_ACTIONS)
        self.value_head = nn.Sequential(nn.Linear(2 * width, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(logits (B, A), value (B,))."""
        h = self.body(obs)
        pooled = torch.cat([h.mean(dim=(2, 3)), h.amax(dim=(2, 3))], dim=1)
        logits = torch.cat([self.hex_head(h).flatten(1), self.other_head(pooled)], dim=1)
        return logits, self.value_head(pooled).squeeze(1)

    def act(self, obs: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None):
        """(action, log-probability, entropy, value) with illegal actions masked out."""
        logits, value = self(obs)
        logits = logits.masked_fill(~mask, -1e9)
        dist = torch.distributions.Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), value


def make_env(args: argparse.Namespace) -> gymnasium.vector.VectorEnv:
    import kbenv  # noqa: F401  (registers the ids)

    return gymnasium.make_vec(args.env_id, num_envs=args.num_envs, vectorization_mode="vector_entry_point",
                              autoreset_mode=AutoresetMode.SAME_STEP, num_players=args.num_players,
                              opponents=args.opponents.split(","))


def main(argv: list[str] | None = None) -> dict:
    """Train for --total-timesteps learner steps; the summary (also printed, and written to --json)."""
    args = parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    envs = make_env(args)
    obs_shape = envs.single_observation_space.shape
    num_actions = int(envs.single_action_space.n)
    agent = Agent(obs_shape[0], num_actions)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    T, N = args.num_steps, args.num_envs
    obs = torch.zeros((T, N, *obs_shape))
    masks = torch.zeros((T, N, num_actions), dtype=torch.bool)
    actions = torch.zeros((T, N), dtype=torch.long)
    logprobs, rewards, dones, values = (torch.zeros((T, N)) for _ in range(4))
    batch_size = T * N
    minibatch_size = batch_size // args.num_minibatches
    iterations = max(1, args.total_timesteps // batch_size)

    next_obs, info = envs.reset(seed=args.seed)
    next_obs = torch.as_tensor(next_obs)
    next_mask = torch.as_tensor(info["action_mask"], dtype=torch.bool)
    next_done = torch.zeros(N)
    episodes, wins, steps = 0, 0, 0
    start = time.perf_counter()
    for iteration in range(1, iterations + 1):
        optimizer.param_groups[0]["lr"] = (1.0 - (iteration - 1.0) / iterations) * args.learning_rate
        for t in range(T):
            obs[t], masks[t], dones[t] = next_obs, next_mask, next_done
            with torch.no_grad():
                action, logprob, _, value = agent.act(next_obs, next_mask)
            actions[t], logprobs[t], values[t] = action, logprob, value
            next_obs, reward, terminated, truncated, info = envs.step(action.numpy())
            done = np.logical_or(terminated, truncated)
            rewards[t] = torch.as_tensor(reward, dtype=torch.float32)
            next_obs = torch.as_tensor(next_obs)
            next_mask = torch.as_tensor(info["action_mask"], dtype=torch.bool)
            next_done = torch.as_tensor(done, dtype=torch.float32)
            episodes += int(done.sum())
            wins += int((reward[done] > 0).sum())
            steps += N

        with torch.no_grad():  # generalised advantage estimation, as CleanRL
            next_value = agent(next_obs)[1]
            advantages = torch.zeros_like(rewards)
            last = torch.zeros(N)
            for t in reversed(range(T)):
                not_done = 1.0 - (next_done if t == T - 1 else dones[t + 1])
                following = next_value if t == T - 1 else values[t + 1]
                delta = rewards[t] + args.gamma * following * not_done - values[t]
                last = delta + args.gamma * args.gae_lambda * not_done * last
                advantages[t] = last
            returns = advantages + values

        b_obs, b_masks = obs.reshape(-1, *obs_shape), masks.reshape(-1, num_actions)
        b_actions, b_logprobs = actions.reshape(-1), logprobs.reshape(-1)
        b_adv, b_returns = advantages.reshape(-1), returns.reshape(-1)
        order = np.arange(batch_size)
        for _ in range(args.update_epochs):
            np.random.shuffle(order)
            for lo in range(0, batch_size, minibatch_size):
                idx = torch.as_tensor(order[lo: lo + minibatch_size])
                _, new_logprob, entropy, new_value = agent.act(b_obs[idx], b_masks[idx], b_actions[idx])
                ratio = (new_logprob - b_logprobs[idx]).exp()
                adv = b_adv[idx]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8) if len(adv) > 1 else adv
                pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)).mean()
                v_loss = 0.5 * ((new_value - b_returns[idx]) ** 2).mean()
                loss = pg_loss - args.ent_coef * entropy.mean() + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
        sps = steps / (time.perf_counter() - start)
        print(f"iteration {iteration}/{iterations}: {steps} steps, {sps:,.0f} steps/s, {episodes} episodes, "
              f"win rate {wins / max(episodes, 1):.3f}, value loss {v_loss.item():.4f}", flush=True)
    envs.close()
    summary = {"env_id": args.env_id, "num_envs": N, "num_steps": T, "steps": steps,
               "steps_per_s": steps / (time.perf_counter() - start), "episodes": episodes,
               "win_rate": wins / max(episodes, 1), "seed": args.seed, "opponents": args.opponents}
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(summary, indent=2) + "\n")
    return summary


if __name__ == "__main__":
    main()
