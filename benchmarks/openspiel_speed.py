"""OpenSpiel throughput: random playouts through `python_kingdom_builder` next to kbenv's own layers.

Run: `python -m benchmarks.openspiel_speed [--seconds S] [--players N] [--expansions nomads,...]`.
Decisions per second, all measured in one run (compare the ratios, not absolute numbers across machines):

- `openspiel`: `state.legal_actions()` + `state.apply_action()` per decision (the deal by two chance
  actions, not counted as decisions).
- `openspiel + observation_tensor`: the same plus the mover's `state.observation_tensor(player)` every
  decision (a Python list of floats: what rl_environment reads); comparable with raw_env, which builds
  the observation every step.
- `openspiel + observer`: the same with the game's Python observer instead
  (`open_spiel.python.observation.make_observation(game).set_from(state, player)`: a numpy array, no list).
- `kbenv raw_env`: the PettingZoo AEC environment (`env.last()` observation + mask, then `env.step`).
- `kbenv Game`: the Python `Game` object (`legal_actions()` + `step()`), the layer OpenSpiel wraps.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable

import numpy as np

from .suite import aec_random, timed


def openspiel_random(game, seconds: float, observe: str = "none") -> dict:
    """Random legal play through an OpenSpiel game; chance actions drawn uniformly (not counted).

    `observe`: "none", "tensor" (state.observation_tensor) or "observer" (the Python observer's numpy tensor).
    """
    from open_spiel.python.observation import make_observation

    rng = np.random.default_rng(0)
    outcomes = game.max_chance_outcomes()
    observer = make_observation(game)

    def run() -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(rng.integers(outcomes)))
                continue
            if observe == "tensor":
                state.observation_tensor(state.current_player())
            elif observe == "observer":
                observer.set_from(state, state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            steps += 1
        return steps

    decisions, elapsed = timed(run, seconds)
    return {"decisions_per_s": decisions / elapsed}


def kbenv_game_random(players: int, expansions: list[str], seconds: float) -> dict:
    from kbenv import Game

    rng = np.random.default_rng(0)
    seeds = [0]

    def run() -> int:
        game = Game.new(players, seed=seeds[0], expansions=expansions or None)
        seeds[0] += 1
        steps = 0
        while not game.done:
            legal = game.legal_actions()
            game.step(legal[rng.integers(len(legal))])
            steps += 1
        return steps

    decisions, elapsed = timed(run, seconds)
    return {"decisions_per_s": decisions / elapsed}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--expansions", default="", help="comma-separated, e.g. nomads,crossroads (default: base)")
    parser.add_argument("--out", default="bench_results/openspiel_speed.json")
    args = parser.parse_args(argv)
    import pyspiel

    import kbenv.envs.openspiel  # noqa: F401  (registers python_kingdom_builder)
    from kbenv import kingdom_builder_v0, kingdom_builder_v1
    from kbenv.envs import openspiel as kos

    expansions = list(kos.parse_expansions(args.expansions))
    game = pyspiel.load_game(kos.GAME_NAME, {"players": args.players, "expansions": args.expansions})
    if expansions:
        def make_env():
            return kingdom_builder_v1.raw_env(num_players=args.players, expansions=expansions)
    else:
        def make_env():
            return kingdom_builder_v0.raw_env(num_players=args.players)
    runs: dict[str, Callable[[], dict]] = {
        "openspiel": lambda: openspiel_random(game, args.seconds),
        "openspiel + observation_tensor": lambda: openspiel_random(game, args.seconds, observe="tensor"),
        "openspiel + observer": lambda: openspiel_random(game, args.seconds, observe="observer"),
        "kbenv raw_env": lambda: aec_random(make_env, args.seconds),
        "kbenv Game": lambda: kbenv_game_random(args.players, expansions, args.seconds),
    }
    results: dict = {"players": args.players, "expansions": expansions}
    print(f"{'run':<32}{'decisions/s':>14}")
    for name, run in runs.items():
        results[name] = run()
        print(f"{name:<32}{results[name]['decisions_per_s']:>14,.0f}")
    base = results["kbenv raw_env"]["decisions_per_s"]
    for name in runs:
        results[name]["x_raw_env"] = results[name]["decisions_per_s"] / base
    print("x raw_env: " + ", ".join(f"{name} {results[name]['x_raw_env']:.2f}" for name in runs))
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(results, f, indent=2)
    print(f"wrote {args.out}")
    return results


if __name__ == "__main__":
    main()
