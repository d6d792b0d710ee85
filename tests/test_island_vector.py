"""The batch engine with the Island (issue 23 part 2): VectorGames deals the same games as Game.new, seed by seed
and state array by state array, and its steps are the single game's steps.

The side of a seeded game is `random.Random(seed * 7919 + 23).randrange(2)`
(kbenv.expansions.island.setup.choose_side); the batch draws it inside numba (kbenv.engine.island.deal.side_of_seed),
so the two are compared over many seeds, small and huge.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from kbenv import Game
from kbenv import catalogue as CAT
from kbenv.board.geometry import ISLAND_FIRST
from kbenv.board.island_files import DATA
from kbenv.engine import state as S
from kbenv.engine.island.deal import side_of_seed
from kbenv.expansions.island.setup import choose_side
from kbenv.setup import SetupError
from kbenv.vector import VectorGames

ALL = ["nomads", "crossroads", "capitol", "caves", "marshlands", "harvest", "island"]
SIDES = ("island-substitute-1", "island-substitute-2")


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 17, 99, 2**31 - 1, 2**32, 2**32 + 5, 123456789012345, 2**63 - 1])
def test_the_seeded_side_is_pythons_draw(seed):
    expected = random.Random(seed * 7919 + 23).randrange(2)  # kbenv.expansions.island.setup.choose_side
    assert side_of_seed(seed) == expected
    assert SIDES[expected] == choose_side(seed)


def test_both_sides_come_up():
    sides = {side_of_seed(s) for s in range(40)}
    assert sides == {0, 1}


@pytest.mark.parametrize("expansions", [["island"], ALL])
def test_batch_deals_the_games_of_game_new(expansions):
    seeds = np.arange(100, 112, dtype=np.int64)
    players = np.array([2, 3, 4, 5] * 3, dtype=np.int64)
    batch = VectorGames(len(seeds), players, expansions=expansions)
    batch.reset(seeds)
    for i, seed in enumerate(seeds):
        g = Game.new(int(players[i]), seed=int(seed), expansions=expansions)
        assert np.array_equal(batch.states[i], g.state), f"seed {seed}"
        assert batch.states[i, S.ISLAND_LOC_AT] - 1 >= ISLAND_FIRST  # the island's location hex (ids 400..419)
        assert batch.states[i, S.ISLAND_LOC_TILES] == 2  # EN 1443: 2 tiles on the location hex


def test_a_forced_side_is_game_news_island_side():
    batch = VectorGames(4, 3, expansions=["island"], island_side="island-substitute-2")
    batch.reset(7)
    for i in range(4):
        g = Game.new(3, seed=7 + i, expansions=["island"], island_side="island-substitute-2")
        assert np.array_equal(batch.states[i], g.state)
        # side 2 holds the tree house (island_files: side k has location type k of the island)
        assert batch.states[i, S.ISLAND_LOC_TYPE] == CAT.LOCATION_NAMES.index("tree_house")
    assert batch.setup_of(2).island[0] == "island-substitute-2"
    assert np.array_equal(batch.game(2).state, batch.states[2])


def test_batch_steps_are_single_game_steps():
    """Random play in the batch (auto reset off) and the same actions in Game objects give equal states."""
    n = 6
    batch = VectorGames(n, [2, 3, 4, 2, 3, 5], expansions=ALL, auto_reset=False, record=True)
    batch.reset(40)
    games = [Game.new(int(batch.num_players[i]), seed=40 + i, expansions=ALL) for i in range(n)]
    island_moves = 0
    for _ in range(400):
        rows = np.flatnonzero(~batch.done())
        if len(rows) == 0:
            break
        actions = batch.random_actions(rows)
        island_moves += int(np.sum(actions >= CAT.ISLAND_ACTION_BASE))
        masks = batch.legal_masks(rows)
        for j, i in enumerate(rows):
            assert np.array_equal(np.flatnonzero(masks[j]), np.flatnonzero(games[i].legal_mask()))
        batch.step(actions, rows)
        for j, i in enumerate(rows):
            games[i].step(int(actions[j]))
            assert np.array_equal(batch.states[i], games[i].state)
    assert island_moves > 0  # the random players did build on the island
    for i in range(n):  # the batch's records replay to the same game (scratch space aside: Game.state_key)
        assert Game.from_record(batch.record_of(i)).state_key() == games[i].state_key()


def test_fused_random_steps_restart_island_games():
    """step_random resets finished games inside numba: the restarted slot holds Game.new's game of its next seed."""
    batch = VectorGames(3, 2, expansions=["island"])
    batch.reset(5)
    restarted = set()
    for _ in range(3000):
        _, result, _ = batch.step_random()
        restarted |= set(np.flatnonzero(result.done).tolist())
        if restarted:
            break
    assert restarted
    i = min(restarted)
    g = Game.new(2, seed=int(batch.seeds[i]), expansions=["island"])
    # the new game's first decisions may have been taken already in this step; compare the island's set-up
    for field in (S.ISLAND_LOC_AT, S.ISLAND_LOC_TYPE):
        assert batch.states[i, field] == g.state[field]
    assert batch.episodes[i] >= 1


def test_island_side_errors_name_the_option(tmp_path):
    with pytest.raises(SetupError, match="island_side"):
        VectorGames(2, 2, island_side="island-substitute-1")  # no island expansion
    with pytest.raises(SetupError, match="island_side"):
        VectorGames(2, 2, expansions=["island"], island_side="island-substitute-9")
    side = tmp_path / "my-side.txt"  # a good side file: Game.new takes it, the batch engine does not
    side.write_bytes((DATA / "island-substitute-1.txt").read_bytes())
    assert Game.new(2, seed=1, expansions=["island"], island_side=str(side)).setup.island[0] == "my-side"
    with pytest.raises(SetupError, match="island_side: the batch engine deals the shipped sides only"):
        VectorGames(2, 2, expansions=["island"], island_side=str(side))


PURE_SCRIPT = """
import hashlib, json, sys
import numpy as np
from kbenv.engine.island.deal import side_of_seed
from kbenv.vector import VectorGames
batch = VectorGames(2, [2, 3], expansions=["island", "harvest"], packed=True)
batch.reset(21)
for _ in range(30):
    batch.step_random()
states = hashlib.sha256(batch.states.tobytes()).hexdigest()  # before observing (observations use scratch space)
obs = batch.observations(packed=False)
print(json.dumps({"sides": [int(side_of_seed(s)) for s in (0, 5, 2**40 + 3)], "states": states,
                  "obs": hashlib.sha256(obs.tobytes()).hexdigest(),
                  "packed": hashlib.sha256(batch.observations().tobytes()).hexdigest()}))
"""


def test_the_island_kernels_agree_compiled_and_interpreted():
    """NUMBA_DISABLE_JIT=1: the island's set-up, random steps and (packed) observations are the same numbers."""
    import hashlib
    import json
    import os
    import subprocess
    import sys

    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    run = subprocess.run([sys.executable, "-c", PURE_SCRIPT], env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    pure = json.loads(run.stdout.strip().splitlines()[-1])
    batch = VectorGames(2, [2, 3], expansions=["island", "harvest"], packed=True)
    batch.reset(21)
    for _ in range(30):
        batch.step_random()
    assert pure["sides"] == [random.Random(s * 7919 + 23).randrange(2) for s in (0, 5, 2**40 + 3)]
    assert pure["states"] == hashlib.sha256(batch.states.tobytes()).hexdigest()
    assert pure["obs"] == hashlib.sha256(batch.observations(packed=False).tobytes()).hexdigest()
    assert pure["packed"] == hashlib.sha256(batch.observations().tobytes()).hexdigest()
