#!/usr/bin/env python
"""Self-play PPO on kbenv's PettingZoo AEC env through RLlib's multi-agent API (new API stack).

Every seat maps to one shared RLModule (`agents.rllib_models.KBMaskedConvModule`, a small conv net that
masks illegal actions with the observation's `action_mask`). Runs on a local Ray instance by default, or
on a Ray cluster with `--address auto` (on a cluster node), `--address ray://head:10001` (Ray Client) or
`RAY_ADDRESS`. Writes `metrics.csv`, `metrics.json` (per iteration), `summary.json` and an RLlib
checkpoint under `checkpoint_dir`; the checkpoint holds `kbenv_run.json`, the ruleset (players, reward,
expansions, rule flags) and network it was trained with, which `--evaluate` reads. See docs/rllib.md.

    python scripts/rllib_selfplay.py --config configs/rllib_selfplay.yaml
    python scripts/rllib_selfplay.py --expansions nomads,caves --iterations 5
    python scripts/rllib_selfplay.py --config configs/rllib_selfplay.yaml --address auto --num-env-runners 16
    python scripts/rllib_selfplay.py --evaluate runs/rllib_selfplay/checkpoint --eval-games 100
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import sys
import time
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

# Files the cluster nodes do not need when the code is shipped with --ship-code (gitignore-style patterns).
SHIP_EXCLUDES = [".git", ".venv", "runs", "results", "bench_results", "**/__pycache__", "*.nbi", "*.nbc", "*.pt"]

CSV_COLUMNS = [
    "iteration", "env_steps", "env_steps_total", "episodes", "episodes_total", "episode_return_mean",
    "episode_len_mean", "seat0_return_mean", "entropy", "policy_loss", "vf_loss", "iter_time_s",
    "env_steps_per_s", "sample_time_s", "sample_env_steps_per_s",
]


@dataclass
class RLlibSelfPlayConfig:
    """Settings of one run (configs/rllib_selfplay.yaml documents every key)."""

    name: str = "rllib_selfplay"
    players: int = 2
    reward: str = "win"
    expansions: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    iterations: int = 20
    num_env_runners: int = 0
    num_envs_per_env_runner: int = 8
    num_cpus_per_env_runner: int = 1
    rollout_fragment_length: int | str = "auto"
    train_batch_size: int = 2048
    minibatch_size: int = 256
    num_epochs: int = 2
    lr: float = 3e-4
    gamma: float = 0.995
    gae_lambda: float = 0.95
    clip_param: float = 0.2
    entropy_coeff: float = 0.01
    vf_loss_coeff: float = 0.5
    model: dict = field(default_factory=lambda: {"channels": 16, "conv_layers": 2, "hidden": 64})
    num_learners: int = 0
    torch_threads: int = 1
    num_cpus: int | None = None
    seed: int = 0
    checkpoint_dir: str = "runs/rllib_selfplay"
    checkpoint_every: int = 0
    eval_games: int = 20
    eval_greedy: bool = True
    baseline_steps: int = 5000

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RLlibSelfPlayConfig:
        """A config from a mapping; unknown keys are refused by name."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown config key(s): {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        cfg = cls(**data)
        if cfg.iterations < 1 or cfg.train_batch_size < 1 or cfg.minibatch_size < 1:
            raise ValueError("iterations, train_batch_size and minibatch_size must be positive")
        if not 2 <= cfg.players <= 5:
            raise ValueError(f"players: expected 2..5, got {cfg.players}")
        check_ruleset(cfg.expansions, cfg.rules)
        return cfg

    @classmethod
    def from_yaml(cls, path: str | Path) -> RLlibSelfPlayConfig:
        """Read a YAML config file."""
        import yaml

        with open(path) as fh:
            return cls.from_dict(yaml.safe_load(fh) or {})

    def env_config(self) -> dict[str, Any]:
        """The `env_config` handed to `KBPettingZooEnv`."""
        return {"num_players": self.players, "reward": self.reward, "expansions": list(self.expansions),
                "rules": list(self.rules)}


def check_ruleset(expansions: Any, rules: Any) -> None:
    """ValueError naming the field for expansions or rule flags kbenv does not play (or given twice)."""
    from kbenv import catalogue as CAT

    for name, values in (("expansions", expansions), ("rules", rules)):
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            raise ValueError(f"{name}: expected a list of names, got {values!r}")
        if len(set(values)) != len(values):
            raise ValueError(f"{name}: each name may appear once, got {values!r}")
    CAT.parse_rules(rules, CAT.parse_expansions(expansions))  # names the expansion or flag at fault


# ----- what a checkpoint was trained with --------------------------------------------------------------
RUN_FILE = "kbenv_run.json"  # in the checkpoint folder, next to RLlib's rllib_checkpoint.json
RUN_FORMAT = "kbenv-rllib-run"


def run_info(cfg: RLlibSelfPlayConfig) -> dict[str, Any]:
    """What evaluating a checkpoint needs: the ruleset (players, reward, expansions, rules) and the network."""
    return {"format": RUN_FORMAT, "version": 1, "players": cfg.players, "reward": cfg.reward,
            "expansions": list(cfg.expansions), "rules": list(cfg.rules), "model": dict(cfg.model)}


def write_run_info(checkpoint: str | Path, cfg: RLlibSelfPlayConfig) -> None:
    """Store `run_info` in the checkpoint folder."""
    (Path(checkpoint) / RUN_FILE).write_text(json.dumps(run_info(cfg), indent=1) + "\n")


def read_run_info(checkpoint: str | Path) -> dict[str, Any]:
    """The ruleset and network a checkpoint of this script was trained with; ValueError naming the problem."""
    path = Path(checkpoint) / RUN_FILE
    if not Path(checkpoint).is_dir():
        raise ValueError(f"--evaluate: {checkpoint} is not a checkpoint folder")
    if not path.is_file():
        raise ValueError(f"--evaluate: {checkpoint} has no {RUN_FILE} (a checkpoint written before checkpoints "
                         "stored their ruleset and network): train it again, or add the file by hand with the "
                         'run\'s players, reward, expansions, rules and model, e.g. {"format": "kbenv-rllib-run", '
                         '"version": 1, "players": 2, "reward": "win", "expansions": [], "rules": [], '
                         '"model": {"channels": 16, "conv_layers": 2, "hidden": 64}}')
    try:
        info = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise ValueError(f"--evaluate: {path} is unreadable ({err})") from None
    if not isinstance(info, dict) or info.get("format") != RUN_FORMAT or info.get("version") != 1:
        raise ValueError(f"--evaluate: {path}: format: expected {RUN_FORMAT!r} version 1")
    for key in ("players", "reward", "expansions", "rules", "model"):
        if key not in info:
            raise ValueError(f"--evaluate: {path}: {key}: missing")
    check_ruleset(info["expansions"], info["rules"])
    return info


def evaluation_config(cfg: RLlibSelfPlayConfig, info: dict[str, Any], expansions: list[str] | None,
                      rules: list[str] | None) -> RLlibSelfPlayConfig:
    """The config to evaluate a checkpoint with: its own ruleset and network. `--expansions`/`--rules`, when
    given, must name the checkpoint's ruleset (as sets: the order does not matter)."""
    for name, given in (("expansions", expansions), ("rules", rules)):
        if given is not None and set(given) != set(info[name]):
            raise ValueError(f"--{name}: the checkpoint was trained with {name} "
                             f"{','.join(info[name]) or 'none'}, not {','.join(given) or 'none'}")
    return RLlibSelfPlayConfig.from_dict({**asdict(cfg), "reward": info["reward"], "expansions": info["expansions"],
                                          "rules": info["rules"], "model": info["model"]})


def init_ray(cfg: RLlibSelfPlayConfig, address: str | None = None, ship_code: bool = False) -> bool:
    """Connect to Ray: `address` or RAY_ADDRESS (a cluster), else a new local instance.

    Returns True when this call started Ray (and the caller should shut it down).
    """
    import ray

    if ray.is_initialized():
        return False
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": True}
    if ship_code:
        kwargs["runtime_env"] = {"working_dir": str(ROOT), "excludes": SHIP_EXCLUDES}
    address = address or os.environ.get("RAY_ADDRESS") or "local"
    if address == "local":  # always a new instance, even when `ray start` runs on this machine
        ray.init(address="local", num_cpus=cfg.num_cpus, **kwargs)
    else:
        kwargs.pop("include_dashboard")  # a setting of the cluster, not of a driver joining it
        ray.init(address=address, **kwargs)
    return True


def build_algo_config(cfg: RLlibSelfPlayConfig):
    """The `PPOConfig`: kbenv AEC env, one shared masked module for every seat."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from agents.rllib_models import SHARED_MODULE, KBMaskedConvModule, KBPettingZooEnv, shared_policy

    return (
        PPOConfig()
        # RLlib's env checker steps the env with an unmasked random action, which the strict raw env
        # refuses; the checks it would make are covered by kbenv's own PettingZoo API tests.
        .environment(KBPettingZooEnv, env_config=cfg.env_config(), disable_env_checking=True)
        .env_runners(
            num_env_runners=cfg.num_env_runners,
            num_envs_per_env_runner=cfg.num_envs_per_env_runner,
            num_cpus_per_env_runner=cfg.num_cpus_per_env_runner,
            rollout_fragment_length=cfg.rollout_fragment_length,
        )
        .learners(num_learners=cfg.num_learners)
        .multi_agent(policies={SHARED_MODULE}, policy_mapping_fn=shared_policy)
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={SHARED_MODULE: RLModuleSpec(module_class=KBMaskedConvModule, model_config=cfg.model)}
            )
        )
        .training(
            train_batch_size_per_learner=cfg.train_batch_size,
            minibatch_size=cfg.minibatch_size,
            num_epochs=cfg.num_epochs,
            lr=cfg.lr,
            gamma=cfg.gamma,
            lambda_=cfg.gae_lambda,
            clip_param=cfg.clip_param,
            entropy_coeff=cfg.entropy_coeff,
            vf_loss_coeff=cfg.vf_loss_coeff,
        )
        .debugging(seed=cfg.seed)
    )


def _get(result: dict, path: str, default: Any = None) -> Any:
    """A nested result value by 'a/b/c', as a plain float or int; `default` when absent."""
    node: Any = result
    for key in path.split("/"):
        if not isinstance(node, dict) or key not in node:
            return default
        node = node[key]
    if isinstance(node, dict):
        return default
    try:
        value = float(node)
    except (TypeError, ValueError):
        return default
    return int(value) if value.is_integer() and "num_" in path else value


def metrics_row(result: dict, iteration: int, wall_s: float) -> dict[str, Any]:
    """The per-iteration metrics written to metrics.csv/json."""
    from agents.rllib_models import SHARED_MODULE

    steps = _get(result, "env_runners/num_env_steps_sampled", 0) or 0
    sample_s = _get(result, "timers/env_runner_sampling_timer")
    return {
        "iteration": iteration,
        "env_steps": steps,
        "env_steps_total": _get(result, "env_runners/num_env_steps_sampled_lifetime", 0),
        "episodes": _get(result, "env_runners/num_episodes", 0),
        "episodes_total": _get(result, "env_runners/num_episodes_lifetime", 0),
        "episode_return_mean": _get(result, "env_runners/episode_return_mean"),
        "episode_len_mean": _get(result, "env_runners/episode_len_mean"),
        "seat0_return_mean": _get(result, "env_runners/agent_episode_returns_mean/player_0"),
        "entropy": _get(result, f"learners/{SHARED_MODULE}/entropy"),
        "policy_loss": _get(result, f"learners/{SHARED_MODULE}/policy_loss"),
        "vf_loss": _get(result, f"learners/{SHARED_MODULE}/vf_loss"),
        "iter_time_s": round(wall_s, 4),
        "env_steps_per_s": round(steps / wall_s, 1) if wall_s > 0 else None,
        "sample_time_s": sample_s,
        "sample_env_steps_per_s": round(steps / sample_s, 1) if sample_s else None,
    }


def _fmt(value: Any, spec: str) -> str:
    """A number for the progress line, '-' when missing."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return format(value, spec)


def _random_game(env, agent, seed: int) -> int:
    """Play one game of uniformly random legal decisions on a raw AEC env; returns its decisions."""
    env.reset(seed=seed)
    steps = 0
    for _name in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(agent.act(obs["observation"], obs["action_mask"]))
        steps += 1
    return steps


def random_play_throughput(env_config: dict, steps: int, seed: int = 0) -> dict[str, Any]:
    """Env steps/s of kbenv's raw AEC env under uniformly random legal play (the baseline for RLlib).

    One untimed game first: numba's compiled kernels load on first use.
    """
    from agents.random_agent import RandomAgent
    from agents.rllib_models import make_raw_env

    env = make_raw_env(env_config)
    agent = RandomAgent(seed=seed)
    _random_game(env, agent, seed)
    done_steps, games = 0, 0
    start = time.perf_counter()
    while done_steps < steps:
        games += 1
        done_steps += _random_game(env, agent, seed + games)
    wall = time.perf_counter() - start
    return {"steps": done_steps, "games": games, "wall_s": round(wall, 3),
            "env_steps_per_s": round(done_steps / wall, 1)}


def evaluate_vs_random(module, env_config: dict, games: int, seed: int = 0, greedy: bool = True) -> dict[str, Any]:
    """Win share of `module` in one seat (rotating) against kbenv's random policy in the others.

    A win is any first place, ties included (reward > 0 under the "win" scheme); with n players a random
    policy wins about 1/n of the games.
    """
    from agents.random_agent import RandomAgent
    from agents.rllib_models import make_raw_env, masked_action

    env = make_raw_env({**env_config, "reward": "win"})
    players = len(env.possible_agents)
    opponent = RandomAgent(seed=seed + 1)
    rng = np.random.default_rng(seed)
    wins, decisions, margins = 0, 0, []
    for game in range(games):
        env.reset(seed=seed + game)
        learner = env.possible_agents[game % players]
        for name in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            if name == learner:
                action = masked_action(module, obs, greedy=greedy, rng=rng)
                decisions += 1
            else:
                action = opponent.act(obs["observation"], obs["action_mask"])
            env.step(action)  # the raw env raises IllegalActionError on an illegal action
        gold = env.game.score_table()[:, -1]
        seat = env.agent_name_mapping[learner]
        wins += int(gold[seat] == gold.max())
        margins.append(float(gold[seat] - np.delete(gold, seat).mean()))
    return {
        "games": games, "players": players, "wins": wins, "win_share": round(wins / max(games, 1), 4),
        "random_expectation": round(1 / players, 4), "mean_gold_margin": round(float(np.mean(margins)), 2),
        "learner_decisions": decisions, "greedy": greedy,
    }


def load_module(checkpoint: str | Path):
    """The shared RLModule from an algorithm checkpoint written by this script."""
    from ray.rllib.core.rl_module.rl_module import RLModule

    from agents.rllib_models import SHARED_MODULE

    path = Path(checkpoint).resolve() / "learner_group" / "learner" / "rl_module" / SHARED_MODULE
    if not path.is_dir():
        raise FileNotFoundError(f"no RLModule '{SHARED_MODULE}' under {checkpoint} (expected {path})")
    return RLModule.from_checkpoint(path)


def _write_metrics(out: Path, rows: list[dict[str, Any]]) -> None:
    """metrics.csv and metrics.json (rewritten after every iteration, so a killed run keeps its curve)."""
    with open(out / "metrics.csv", "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=CSV_COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
    (out / "metrics.json").write_text(json.dumps(rows, indent=1))


def train(cfg: RLlibSelfPlayConfig, address: str | None = None, ship_code: bool = False,
          log=print) -> dict[str, Any]:
    """Train by self-play; returns (and writes) the summary: metrics, throughput, checkpoint, evaluation."""
    import ray
    import torch

    threads_before = torch.get_num_threads()
    if cfg.torch_threads:
        torch.set_num_threads(cfg.torch_threads)
    out = Path(cfg.checkpoint_dir).resolve()
    out.mkdir(parents=True, exist_ok=True)
    started = init_ray(cfg, address, ship_code)
    try:
        resources = ray.cluster_resources()
        log(f"[rllib] Ray: {len(ray.nodes())} node(s), {resources.get('CPU', 0):g} CPUs, "
            f"{resources.get('GPU', 0):g} GPUs; {cfg.num_env_runners} EnvRunner actor(s) x "
            f"{cfg.num_envs_per_env_runner} envs, {cfg.players} players, shared policy")
        algo = build_algo_config(cfg).build_algo()
        rows: list[dict[str, Any]] = []
        checkpoint = out / "checkpoint"
        train_start = time.perf_counter()
        try:
            for it in range(1, cfg.iterations + 1):
                t0 = time.perf_counter()
                result = algo.train()
                row = metrics_row(result, it, time.perf_counter() - t0)
                rows.append(row)
                _write_metrics(out, rows)
                log(f"[rllib] iter {it}/{cfg.iterations}  steps {row['env_steps_total']}  "
                    f"episodes {row['episodes_total']}  len {_fmt(row['episode_len_mean'], '.1f')}  "
                    f"return(seat 0) {_fmt(row['seat0_return_mean'], '+.2f')}  "
                    f"entropy {_fmt(row['entropy'], '.3f')}  {_fmt(row['env_steps_per_s'], '.0f')} steps/s  "
                    f"{row['iter_time_s']:.1f} s")
                if cfg.checkpoint_every and it % cfg.checkpoint_every == 0 and it < cfg.iterations:
                    algo.save_to_path(str(checkpoint))
                    write_run_info(checkpoint, cfg)
            train_wall = time.perf_counter() - train_start
            algo.save_to_path(str(checkpoint))
            write_run_info(checkpoint, cfg)
            log(f"[rllib] checkpoint: {checkpoint}")
            total_steps = sum(r["env_steps"] for r in rows)
            summary: dict[str, Any] = {
                "name": cfg.name, "config": asdict(cfg), "ray_address": address or os.environ.get("RAY_ADDRESS"),
                "ray_nodes": len(ray.nodes()), "iterations": len(rows), "env_steps": total_steps,
                "episodes": rows[-1]["episodes_total"], "train_wall_s": round(train_wall, 3),
                "rllib_env_steps_per_s": round(total_steps / train_wall, 1),
                "rllib_sample_env_steps_per_s": rows[-1]["sample_env_steps_per_s"],
                "checkpoint": str(checkpoint), "strict_env": True, "illegal_actions": 0,
            }
            if cfg.baseline_steps:
                summary["raw_env_random"] = random_play_throughput(cfg.env_config(), cfg.baseline_steps, cfg.seed)
                log(f"[rllib] throughput: RLlib {summary['rllib_env_steps_per_s']:.0f} env steps/s over training "
                    f"(sampling only ~{_fmt(summary['rllib_sample_env_steps_per_s'], '.0f')}); kbenv raw_env random "
                    f"play {summary['raw_env_random']['env_steps_per_s']:.0f} steps/s")
            if cfg.eval_games:
                from agents.rllib_models import SHARED_MODULE

                module = algo.get_module(SHARED_MODULE)
                summary["eval_vs_random"] = evaluate_vs_random(module, cfg.env_config(), cfg.eval_games,
                                                               seed=cfg.seed + 10_000, greedy=cfg.eval_greedy)
                ev = summary["eval_vs_random"]
                log(f"[rllib] vs random: win share {ev['win_share']:.3f} over {ev['games']} games "
                    f"(random expectation {ev['random_expectation']:.3f})")
            (out / "summary.json").write_text(json.dumps(summary, indent=1))
            return summary
        finally:
            algo.stop()
    finally:
        torch.set_num_threads(threads_before)
        if started:
            ray.shutdown()


def _comma_list(kind: str):
    """An argparse type: comma-separated names, checked like kbenv's own --expansions / --rules."""
    from kbenv.cli import expansion_list, rule_list

    return expansion_list if kind == "expansions" else rule_list


def build_parser() -> argparse.ArgumentParser:
    """The command line: a YAML config, overrides of its keys, the Ray address, and --evaluate."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                epilog="examples:\n" + "\n".join(
                                    line[2:] for line in __doc__.splitlines() if line.startswith("    python ")),
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--config", default=str(ROOT / "configs" / "rllib_selfplay.yaml"),
                   help="YAML config of the run (default configs/rllib_selfplay.yaml; it documents every key)")
    p.add_argument("--address", default=None,
                   help="Ray address: 'auto' (join the cluster this node is in), 'ray://HOST:10001' (Ray Client), "
                        "'local' (always a new local instance); default: RAY_ADDRESS, else a new local instance")
    p.add_argument("--ship-code", action="store_true",
                   help="upload this repository to the cluster as the Ray runtime_env working_dir")
    p.add_argument("--iterations", type=int, metavar="N", help="override the config's iterations (algo.train calls)")
    p.add_argument("--num-env-runners", type=int, metavar="N",
                   help="override num_env_runners: 0 samples in the driver, N uses N EnvRunner actors")
    p.add_argument("--players", type=int, metavar="N", help="override players (2 to 5; every seat plays the shared "
                   "module); with --evaluate, the player count of the evaluation games")
    p.add_argument("--expansions", type=_comma_list("expansions"), metavar="LIST",
                   help="override expansions: comma-separated, e.g. nomads,caves (kingdom_builder_v1); with "
                        "--evaluate it must name the checkpoint's expansions, in any order")
    p.add_argument("--rules", type=_comma_list("rules"), metavar="LIST",
                   help="override rules: comma-separated rule flags to switch on, as in kbenv play --rules; with "
                        "--evaluate it must name the checkpoint's flags")
    p.add_argument("--checkpoint-dir", metavar="DIR",
                   help="override checkpoint_dir: where metrics, summary.json and checkpoint/ go")
    p.add_argument("--eval-games", type=int, metavar="N",
                   help="override eval_games: games against kbenv's random policy at the end, or with --evaluate")
    p.add_argument("--evaluate", metavar="CHECKPOINT",
                   help="only evaluate a checkpoint of this script against random play, with the ruleset and "
                        "network stored in it (its kbenv_run.json)")
    return p


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The parsed command line (see build_parser)."""
    return build_parser().parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Entry point: train, or evaluate a checkpoint; a bad setting ends with one line on stderr and exit 2."""
    args = parse_args(argv)
    try:
        return _run(args)
    except (ValueError, FileNotFoundError) as err:
        print(f"rllib_selfplay.py: error: {err}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    cfg = RLlibSelfPlayConfig.from_yaml(args.config)
    overrides = {"iterations": args.iterations, "num_env_runners": args.num_env_runners, "players": args.players,
                 "checkpoint_dir": args.checkpoint_dir, "eval_games": args.eval_games}
    if not args.evaluate:
        overrides.update(expansions=args.expansions, rules=args.rules)
    cfg = RLlibSelfPlayConfig.from_dict({**asdict(cfg), **{k: v for k, v in overrides.items() if v is not None}})
    if args.evaluate:
        import torch

        info = read_run_info(args.evaluate)
        if args.players is None:
            cfg = RLlibSelfPlayConfig.from_dict({**asdict(cfg), "players": info["players"]})
        cfg = evaluation_config(cfg, info, args.expansions, args.rules)
        torch.set_num_threads(max(cfg.torch_threads, 1))
        result = evaluate_vs_random(load_module(args.evaluate), cfg.env_config(), cfg.eval_games or 20,
                                    seed=cfg.seed + 10_000, greedy=cfg.eval_greedy)
        print(json.dumps({**result, "expansions": cfg.expansions, "rules": cfg.rules}, indent=1))
        return 0
    train(cfg, address=args.address, ship_code=args.ship_code)
    return 0


if __name__ == "__main__":
    sys.exit(main())
