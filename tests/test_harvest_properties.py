"""Issue 22, property suite for Harvest alone and for all expansions together (nomads, capitol, caves,
crossroads, marshlands, harvest), as tests/test_marshlands_properties.py does for Marshlands: the legal mask is
what the engine accepts (every legal action applies; an illegal one raises naming the action and leaves the
state unchanged), the batch engine is the single game, compiled kernels are pure Python, a record replays to the
same game, pieces and tiles are conserved (settlements on the board + supply + Temple reserve + Mayors marks = 40
per player, silo builds from the supply; at most the 2 shared scouts, on the board only in their owner's turn;
number tiles held within the pool of 8x1 + 2x5; tests/harvest_games.check_conservation), every game ends, and
every Harvest decision really occurs over these games (the farm action, the 8 powers, option-1 / option-2 as the
Cathedral's take / return and as the silo phase's build / move, the silo phase's hexes and done, the Bazaar's
choose_power, Mayors marks, Rovers gold).

Harvest is under construction: the module opts in through KBENV_EXPERIMENTAL=harvest (its subprocesses too).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kbenv import ACTION_SIZE, Game
from kbenv import catalogue as CAT
from tests import property_checks
from tests.harvest_games import (
    ALL,
    CARDS,
    HARVEST,
    HARVEST_TYPES,
    RULE_FLAGS,
    Tally,
    check_conservation,
    harvest_game,
    pick,
)
from tests.property_checks import assert_batch_engine_equals_single_games, assert_mask_is_accepted

RULESETS = {"harvest": HARVEST, "all": ALL}
SECTION_SETS = {"harvest": ["harvest", "harvest2", None], "all": ["all", "all2", None]}
TALLY = Tally()  # shared by the random games below; test_harvest_decisions_really_occur reads it


def play_checked(game: Game, seed: int, check_illegal: bool = True, bias: float = 0.6) -> Game:
    """Play a biased random game, checking the invariants after every decision; record it in TALLY."""
    return property_checks.play_checked(game, seed, pick=pick, tally=TALLY, conservation=check_conservation,
                                        check_illegal=check_illegal, bias=bias)


@pytest.mark.parametrize("ruleset", list(RULESETS))
@settings(max_examples=12, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**31 - 1), players=st.integers(2, 5), sections=st.integers(0, 2),
       flags=st.sampled_from(RULE_FLAGS), cards=st.sampled_from(CARDS))
def test_random_games_keep_invariants_end_and_replay(ruleset, seed, players, sections, flags, cards):
    """Biased random games (Mayors and Rovers dealt in most), checked at every decision; the record (through
    JSON) replays to the same state and scores."""
    names = SECTION_SETS[ruleset]
    game = harvest_game(players, seed, RULESETS[ruleset], names[sections % len(names)], cards, flags)
    play_checked(game, seed)
    replay = Game.from_record(json.loads(json.dumps(game.to_record())))
    assert replay.state_key() == game.state_key()
    assert replay.scores() == game.scores()


HARVEST_PHASES = ("silo", "choose_power", "step", "reaction")


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_mask_equals_accepted_for_every_action_id(ruleset):
    """At every fifth decision of biased random games, and at every decision of the silo phase, the Bazaar's
    choice, a multi-step power and a Cathedral's open take/return, each action id is accepted iff the mask has it
    (games until each of those was met, 12 at most)."""
    wanted = {"silo", "choose_power", "step", "option", "other"}
    asked: set = set()
    for seed in range(11, 23):
        game = harvest_game(3 + seed % 2, seed, RULESETS[ruleset], SECTION_SETS[ruleset][0], CARDS[0])
        rng = np.random.default_rng(seed)
        while not game.done:
            mask = game.legal_mask()
            choice = mask[CAT.ACTION_ID["option-1"]] or mask[CAT.ACTION_ID["option-2"]]
            kind = game.phase if game.phase in HARVEST_PHASES else "option" if choice else "other"
            if kind not in ("other", "reaction") or len(game.actions) % 5 == 0:
                asked.add(kind)
                assert_mask_is_accepted(game)
            TALLY.step(game, pick(game, rng, 0.7))
        assert game.action_size > ACTION_SIZE
        if wanted <= asked:
            break
    assert wanted <= asked, asked


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_batch_engine_equals_single_games(ruleset):
    assert_batch_engine_equals_single_games(RULESETS[ruleset])


SCRIPT = textwrap.dedent(
    """
    import hashlib, json, sys
    import numpy as np
    from tests.harvest_games import harvest_game, pick
    out = []
    for seed, players, expansions, sections, cards in json.loads(sys.argv[1]):
        game = harvest_game(players, seed, expansions, sections, cards)
        rng = np.random.default_rng(seed)
        while not game.done:
            game.step(pick(game, rng, 0.6))
        out.append({"key": hashlib.sha256(game.state_key()).hexdigest(), "scores": game.scores(),
                    "decisions": len(game.actions)})
    print(json.dumps(out))
    """
)


def test_compiled_kernels_equal_pure_python():
    """Two biased games (Harvest alone, all expansions) run compiled and with NUMBA_DISABLE_JIT=1."""
    games = [[3, 4, HARVEST, "harvest", CARDS[0]], [5, 3, ALL, "all", CARDS[2]]]
    results = []
    for jit in (True, False):
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.getcwd(), os.environ.get("PYTHONPATH", "")]))
        if not jit:
            env["NUMBA_DISABLE_JIT"] = "1"
        proc = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(games)], env=env, capture_output=True,
                              text=True, check=True, cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        results.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    assert results[0] == results[1]
    assert all(r["decisions"] > 50 for r in results[0])


EXPECTED = ["farmland", *HARVEST_TYPES, "cathedral take", "cathedral return", "cathedral return build",
            "silo build", "silo move", "silo hex", "silo done", "bazaar choose_power", "scout placed",
            "number tile taken", "mayors mark", "mayors scored", "rovers gold"]


def test_harvest_decisions_really_occur():
    """Over this file's games (and a few more if needed), every Harvest decision occurs at least once. Runs after
    the tests above in file order; tops up with its own games."""
    for k in range(12):
        if all(TALLY.seen[name] for name in EXPECTED):
            break
        game = harvest_game(2 + k % 4, 500 + k, HARVEST if k % 2 else ALL, "harvest" if k % 2 else "all2",
                            CARDS[k % 3], RULE_FLAGS[k % len(RULE_FLAGS)])
        play_checked(game, 500 + k, check_illegal=False, bias=0.8)
    missing = [name for name in EXPECTED if not TALLY.seen[name]]
    assert not missing, f"never occurred: {missing}; seen {dict(TALLY.seen)}"
