"""Issue 23 part 2, property suite for the Island alone, with each expansion its rules meet (nomads, crossroads,
marshlands, harvest) and with all seven, as tests/test_harvest_properties.py does for Harvest: the legal mask is what
the engine accepts (every legal action applies; an illegal one raises naming the action and leaves the state
unchanged; full sweeps of every action id 0..477 while an island hex or an island power is on offer), compiled
kernels are pure Python, a record replays to the same game, pieces are conserved (settlements on the board and the
island + supply + Temple reserve + Mayors marks on board and island lines = 40 per player; the island's location hands
out its 2 tiles at most; tests/island_games.check_conservation), every game ends, and the island is really played:
builds on it, the Rope bridge and the Tree house, settlements moving onto, off and within it, its tile taken, and its
lines in the Discoverers and Knights scores (QI-2, A-QI1; checked against the settlements), Mayors marks on its lines.
Batch = single game for the island: tests/test_island_vector.py.
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

from kbenv import Game
from kbenv import catalogue as CAT
from kbenv.catalogue import ACTION_SIZE_V1
from kbenv.engine import state as S
from tests import property_checks
from tests.island_games import (
    ALL,
    CARDS,
    HARVEST_CARDS,
    ISLAND,
    ROPE_BRIDGE,
    RULE_FLAGS,
    SIDES,
    TREE_HOUSE,
    WITH,
    Tally,
    check_conservation,
    check_targets,
    island_game,
    pick,
)

RULESETS = {"island": ISLAND, **{f"island+{k}": v for k, v in WITH.items()}, "all": ALL}
TALLY = Tally()  # shared by the random games below; test_island_play_really_occurs reads it


def cards_for(expansions, k: int):
    choices = HARVEST_CARDS if "harvest" in expansions else CARDS
    return choices[k % len(choices)]


def island_only_targets(game: Game) -> None:
    """The island's target checks, in games of the island alone."""
    if game.expansions == ("island",):
        check_targets(game)


def play_checked(game: Game, seed: int, check_illegal: bool = True, bias: float = 0.6) -> Game:
    """Play a biased random game, checking the invariants after every decision; record it in TALLY."""
    return property_checks.play_checked(game, seed, pick=pick, tally=TALLY, conservation=check_conservation,
                                        check_illegal=check_illegal, bias=bias, extra=island_only_targets)


@pytest.mark.parametrize("ruleset", list(RULESETS))
@settings(max_examples=6, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**31 - 1), players=st.integers(2, 5), side=st.sampled_from(SIDES),
       flags=st.sampled_from(RULE_FLAGS), cards=st.integers(0, 4))
def test_random_games_keep_invariants_end_and_replay(ruleset, seed, players, side, flags, cards):
    """Biased random games, checked at every decision; the record (through JSON) replays to the same state and
    scores."""
    expansions = RULESETS[ruleset]
    game = island_game(players, seed, expansions, side, cards_for(expansions, cards), flags)
    play_checked(game, seed)
    record = json.loads(json.dumps(game.to_record()))
    replay = Game.from_record(record)
    assert replay.state_key() == game.state_key()
    assert replay.scores() == game.scores()
    assert replay.location_hexes() == game.location_hexes()


def assert_mask_is_accepted(game: Game) -> None:
    """Each action id 0..477 is accepted iff the mask has it; a refused one names the action and changes nothing."""
    assert game.action_size == ACTION_SIZE_V1 == 478
    property_checks.assert_mask_is_accepted(game)


def sweep_kind(game: Game) -> str:
    """Which island situation the decision is in (for the sweeps below)."""
    mask = game.legal_mask()
    if game.phase in ("choose_source", "choose_target") and game.state[S.POWER] in ISLAND_POWER_CODES:
        return game.phase
    if mask[CAT.ISLAND_ACTION_BASE : CAT.ISLAND_ACTION_BASE + 20].any():
        return "island hex " + game.phase
    if mask[[ROPE_BRIDGE, TREE_HOUSE]].any():
        return "island power offered"
    return "other"


ISLAND_POWER_CODES = (CAT.POWER_CODE["rope_bridge"], CAT.POWER_CODE["tree_house"])


@pytest.mark.parametrize("ruleset", ["island", "all"])
def test_mask_equals_accepted_for_every_action_id(ruleset):
    """At every tenth decision of biased random games, and at every decision that offers an island hex (the
    mandatory action and a power's target) or an island power, or is a Rope bridge / Tree house source or target,
    each action id 0..477 is accepted iff the mask has it (games until each of those was met, 10 at most; at most
    4 sweeps of a kind per game)."""
    wanted = {"choose_source", "choose_target", "island hex mandatory", "island hex idle", "island power offered"}
    asked: dict = {}
    for seed in range(31, 41):
        game = island_game(3 + seed % 2, seed, RULESETS[ruleset], SIDES[seed % 2], cards_for(RULESETS[ruleset], seed))
        rng = np.random.default_rng(seed)
        per_game: dict = {}
        while not game.done:
            kind = sweep_kind(game)
            if (kind != "other" and per_game.get(kind, 0) < 4) or len(game.actions) % 10 == 0:
                per_game[kind] = per_game.get(kind, 0) + 1
                asked[kind] = asked.get(kind, 0) + 1
                assert_mask_is_accepted(game)
            TALLY.step(game, pick(game, rng, 0.7))
        if wanted <= set(asked):
            break
    assert wanted <= set(asked), asked


SCRIPT = textwrap.dedent(
    """
    import hashlib, json, sys
    import numpy as np
    from tests.island_games import island_game, pick
    out = []
    for seed, players, expansions, side, cards, rules in json.loads(sys.argv[1]):
        game = island_game(players, seed, expansions, side, cards, rules)
        rng = np.random.default_rng(seed)
        while not game.done:
            game.step(pick(game, rng, 0.6))
        out.append({"key": hashlib.sha256(game.state_key()).hexdigest(), "scores": game.scores(),
                    "decisions": len(game.actions), "island": sum(1 for p in range(players)
                                                                  for r, _ in game.settlements(p) if r >= 20)})
    print(json.dumps(out))
    """
)


def test_compiled_kernels_equal_pure_python():
    """Three biased games (the Island alone on each side, all seven expansions) run compiled and with
    NUMBA_DISABLE_JIT=1: the same states, scores and lengths, with settlements on the island."""
    games = [[3, 4, ISLAND, SIDES[0], CARDS[0], None], [4, 2, ISLAND, SIDES[1], CARDS[1], ["no_island_knights"]],
             [5, 3, ALL, None, HARVEST_CARDS[0], ["island_coast_not_water"]]]
    results = []
    for jit in (True, False):
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.getcwd(), os.environ.get("PYTHONPATH", "")]))
        if not jit:
            env["NUMBA_DISABLE_JIT"] = "1"
        proc = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(games)], env=env, capture_output=True,
                              text=True, check=True, cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        results.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    assert results[0] == results[1]
    assert all(r["decisions"] > 50 and r["island"] > 0 for r in results[0])


EXPECTED = ["island hex action", "island build", "rope_bridge", "tree_house", "move onto the island",
            "move off the island", "move within the island", "island tile taken", "discoverers island lines",
            "knights island line", "knights island line ignored", "mayors island mark", "farmers ignore the island",
            "fishermen on the island", "miners on the island", "workers on the island", "areas on the island"]


def test_island_play_really_occurs():
    """Over this file's games (and a few more if needed), every island event occurs at least once: builds on the
    island, both island powers, moves onto / off / within it, its tile taken, island lines scored by Discoverers
    and Knights (and ignored by Knights under no_island_knights), a Mayors mark on an island line. Runs after the
    tests above in file order; tops up with its own games."""
    for k in range(16):
        if all(TALLY.seen[name] for name in EXPECTED):
            break
        expansions = [ISLAND, WITH["harvest"]][k % 2]
        cards = CARDS[k // 2 % 4] if k % 2 == 0 else ["mayors", "knights", "lords"]
        game = island_game(2 + k % 4, 900 + k, expansions, SIDES[k % 3], cards, RULE_FLAGS[(k // 2) % 4])
        play_checked(game, 900 + k, check_illegal=False, bias=0.8)
    missing = [name for name in EXPECTED if not TALLY.seen[name]]
    assert not missing, f"never occurred: {missing}; seen {dict(TALLY.seen)}"
