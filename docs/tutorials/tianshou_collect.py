"""kbenv's PettingZoo AEC env in Tianshou: a multi-agent policy of masked random players and a Collector.

    python docs/tutorials/tianshou_collect.py --episodes 4

Replace the random algorithms with learning ones (DQN, PPO) of the same interface to train; size replay
buffers with care: each observation is 45-64 KB.
"""

from __future__ import annotations

import argparse

from tianshou.algorithm import MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm
from tianshou.data import Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv

from kbenv import kingdom_builder_v0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The tutorial's options."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--envs", type=int, default=2, help="environments in the DummyVectorEnv")
    parser.add_argument("--episodes", type=int, default=4, help="whole games to collect")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> dict:
    """Collect the games; return their number and the returns per player."""
    args = parse_args(argv)

    def make() -> PettingZooEnv:
        return PettingZooEnv(kingdom_builder_v0.env(num_players=args.players))

    env = make()
    policy = MultiAgentOffPolicyAlgorithm(
        algorithms=[MARLRandomDiscreteMaskedOffPolicyAlgorithm(env.action_space) for _ in env.agents], env=env)
    venv = DummyVectorEnv([make] * args.envs)
    buffer = VectorReplayBuffer(200 * args.envs * args.players, len(venv))
    stats = Collector(policy, venv, buffer).collect(n_episode=args.episodes, reset_before_collect=True)
    print(f"{stats.n_collected_episodes} games, {stats.n_collected_steps} steps; returns (games x players):")
    print(stats.returns)
    return {"episodes": int(stats.n_collected_episodes), "returns": stats.returns.tolist()}


if __name__ == "__main__":
    main()
