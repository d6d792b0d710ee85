"""The numba kernels give identical results when run as plain Python (NUMBA_DISABLE_JIT=1)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np

from kbenv import Game

SCRIPT = textwrap.dedent(
    """
    import hashlib, json, sys
    import numpy as np
    from kbenv import Game
    from kbenv.policies.playout import random_playout
    from kbenv.engine.rng import seed_u32
    out = []
    for seed, players in json.loads(sys.argv[1]):
        game = Game.new(players, seed=seed)
        rng = np.random.default_rng(seed)
        while not game.done:
            game.step(int(rng.choice(game.legal_actions())))
        kernel = Game.new(players, seed=seed)
        r = np.array([seed_u32(seed)], dtype=np.int64)
        n = random_playout(kernel.state, r, 0, 100000)
        out.append({
            "key": hashlib.sha256(game.state_key()).hexdigest(),
            "scores": game.scores(),
            "kernel_key": hashlib.sha256(kernel.state_key()).hexdigest(),
            "kernel_decisions": int(n),
        })
    print(json.dumps(out))
    """
)
CASES = [[3, 2], [11, 3], [5, 5]]


def run_games(jit: bool) -> list[dict]:
    env = dict(os.environ)
    if not jit:
        env["NUMBA_DISABLE_JIT"] = "1"
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(CASES)], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_kernels_agree_compiled_and_interpreted():
    interpreted = run_games(jit=False)
    compiled = run_games(jit=True)
    assert interpreted == compiled
    assert all(case["kernel_decisions"] > 50 for case in compiled)


def test_interpreted_run_really_is_interpreted():
    """Guard: with the variable set, numba's dispatchers are plain Python functions."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    code = "from kbenv.engine.actions import apply_action; print(type(apply_action).__name__)"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "function"
    assert Game.new(2, seed=0).legal_mask().dtype == np.int8
