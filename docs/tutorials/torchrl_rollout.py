"""kbenv's PettingZoo AEC env in TorchRL: wrap it, check its specs, and roll out masked random actions.

    python docs/tutorials/torchrl_rollout.py --players 3 --steps 1000

`PettingZooWrapper(..., use_mask=True)` makes one group per player; each group's `action_mask` is the legal
mask of that player and `mask` says whether it is to move. `--expansions` plays kingdom_builder_v1.
"""

from __future__ import annotations

import argparse

from torchrl.envs.libs.pettingzoo import PettingZooWrapper
from torchrl.envs.utils import check_env_specs

from kbenv import kingdom_builder_v0, kingdom_builder_v1


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The tutorial's options."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--steps", type=int, default=1000, help="rollout length (a game ends it earlier)")
    parser.add_argument("--expansions", nargs="*", default=[], help="e.g. nomads crossroads (v1 env)")
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> dict:
    """Check the specs, roll out, and return the steps taken and the groups."""
    args = parse_args(argv)
    if args.expansions:
        aec = kingdom_builder_v1.env(num_players=args.players, expansions=args.expansions)
    else:
        aec = kingdom_builder_v0.env(num_players=args.players)
    env = PettingZooWrapper(env=aec, use_mask=True, seed=args.seed)
    check_env_specs(env)
    rollout = env.rollout(args.steps)  # random legal actions: the action spec carries the mask
    steps = rollout.batch_size[0]
    print(f"{steps} steps; groups: {', '.join(env.group_map)}")
    return {"steps": int(steps), "groups": list(env.group_map)}


if __name__ == "__main__":
    main()
