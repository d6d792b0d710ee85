"""Issue 21, property suite for Marshlands alone and for all implemented expansions together (nomads, capitol,
caves, crossroads, marshlands): the legal mask is what the engine accepts (every legal action applies; an
illegal one raises naming the action and leaves the state unchanged), the batch engine is the single game,
compiled kernels are pure Python, a record replays to the same game, pieces are conserved (settlements on the
board + supply + Temple reserve = 40 per player; location, bonus and nomad tiles never come back), every game
ends, and the Marshlands decisions really occur over these games (tests/marsh_games.py counts them)."""

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
from kbenv.catalogue import BONUS_TILES_PER_TYPE
from kbenv.engine import state as S
from tests import property_checks
from tests.marsh_games import ALL, MARSH, SIX, Tally, marsh_game, pick
from tests.property_checks import assert_batch_engine_equals_single_games, assert_mask_is_accepted

RULESETS = {"marshlands": MARSH, "all": ALL}
SECTION_SETS = {"marshlands": ["marsh", None], "all": ["all", "all2", None]}
RULE_FLAGS = [None, ["bonus_kept_after_tile_loss"], ["canoe_taker_reacts"], ["scouts_keep_dealt_hands"],
              ["vassals_count_outer_edge"]]
TALLY = Tally()  # shared by the random games below; test_marshlands_decisions_really_occur reads it


def check_conservation(game: Game, history: dict) -> None:
    """Pieces and tiles are conserved (checked after every decision)."""
    n = game.num_players
    for p in range(n):
        reserve = int(game.state[S.TEMPLE_RESERVE + p])
        assert reserve >= 0 and game.supply(p) >= 0
        assert len(game.settlements(p)) + game.supply(p) + reserve == S.SETTLEMENTS_PER_PLAYER, \
            f"player {p}: board + supply + temple reserve != 40"
    occupied = game.occupied()
    owned = [game.own_hexes(p) for p in range(n)]
    assert sum(map(len, owned)) == len(set().union(*owned)) and set().union(*owned) <= occupied, \
        "no hex holds two players' pieces"
    for loc in game.location_hexes():
        holders = sum(any(rc == loc for _, rc in game.tiles(p)) for p in range(n))
        left = game.tiles_left(loc)
        assert left + holders <= 2, "a location hex hands out at most its 2 tiles"
        assert left <= history.get(loc, left), "tiles never return to a location hex"
        history[loc] = left
    for t in range(S.NUM_BONUS_TYPES):
        left = int(game.state[S.BONUS_LEFT + t])
        held = sum(int(game.state[S.BONUS_HELD + p]) >> t & 1 for p in range(n))
        assert 0 <= left and left + held <= BONUS_TILES_PER_TYPE, "2 bonus tiles per type (M-7)"
        assert left <= history.get(("bonus", t), left), "bonus tiles never return to the summary card"
        history[("bonus", t)] = left
    for p in range(n):
        assert int(game.state[S.BONUS_FRESH + p]) & ~int(game.state[S.BONUS_HELD + p]) == 0, "fresh = held"
    hands = sum(len(game.hand_cards(p)) for p in range(n)) + (game.fort_card() is not None)
    cards = game.deck_size() + len(game.discard_pile()) + len(game.removed_cards()) + hands
    assert cards == 30, "the 30 terrain cards are conserved (M-4; the Scouts set-up's cards are in the removed pile)"


def play_checked(game: Game, seed: int, check_illegal: bool = True, bias: float = 0.6) -> Game:
    """Play a biased random game, checking the invariants after every decision; record it in TALLY."""
    return property_checks.play_checked(game, seed, pick=pick, tally=TALLY, conservation=check_conservation,
                                        check_illegal=check_illegal, bias=bias)


@pytest.mark.parametrize("ruleset", list(RULESETS))
@settings(max_examples=12, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**31 - 1), players=st.integers(2, 5), sections=st.integers(0, 2),
       flags=st.sampled_from(RULE_FLAGS), six=st.sampled_from(SIX))
def test_random_games_keep_invariants_end_and_replay(ruleset, seed, players, sections, flags, six):
    """Biased random games (one of the six Marshlands cards always dealt), checked at every decision; the
    record (through JSON) replays to the same state and scores."""
    names = SECTION_SETS[ruleset]
    cards = [six, "fishermen", "lords"] if seed % 3 else None
    game = marsh_game(players, seed, RULESETS[ruleset], names[sections % len(names)], cards, flags)
    play_checked(game, seed)
    replay = Game.from_record(json.loads(json.dumps(game.to_record())))
    assert replay.state_key() == game.state_key()
    assert replay.scores() == game.scores()


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_mask_equals_accepted_for_every_action_id(ruleset):
    """At every decision of a biased random game, each of the action ids is accepted iff the mask has it."""
    game = marsh_game(3, 11, RULESETS[ruleset], SECTION_SETS[ruleset][0])
    rng = np.random.default_rng(11)
    asked = 0
    while not game.done:
        if len(game.actions) % 3 == 0 or game.phase == "reaction":
            asked += 1
            assert_mask_is_accepted(game)
        TALLY.step(game, pick(game, rng, 0.6))
    assert asked > 30 and game.action_size > ACTION_SIZE


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_batch_engine_equals_single_games(ruleset):
    assert_batch_engine_equals_single_games(RULESETS[ruleset])


SCRIPT = textwrap.dedent(
    """
    import hashlib, json, sys
    import numpy as np
    from tests.marsh_games import marsh_game, pick
    out = []
    for seed, players, expansions, sections in json.loads(sys.argv[1]):
        game = marsh_game(players, seed, expansions, sections)
        rng = np.random.default_rng(seed)
        while not game.done:
            game.step(pick(game, rng, 0.6))
        out.append({"key": hashlib.sha256(game.state_key()).hexdigest(), "scores": game.scores(),
                    "decisions": len(game.actions)})
    print(json.dumps(out))
    """
)


def test_compiled_kernels_equal_pure_python():
    """Two biased games (Marshlands alone, all expansions) run compiled and with NUMBA_DISABLE_JIT=1."""
    games = [[3, 4, MARSH, "marsh"], [5, 3, ALL, "all"]]
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


EXPECTED = ["swamp 2-build", "canoe reaction asked", "canoe reaction taken", "pass", "fountain", "temple",
            "temple reserve built", "refuge", "refuge_bonus", "canoe_bonus", "bonus tile taken", "palace scored",
            *(f"{card} scored" for card in SIX), "scouts set-up"]


def test_marshlands_decisions_really_occur():
    """Over this file's games (and a few more, each dealing one of the six cards), every Marshlands decision
    occurs at least once. Runs after the tests above in file order; tops up with its own games."""
    for k, card in enumerate(SIX * 2):
        if all(TALLY.seen[name] for name in EXPECTED):
            break
        game = marsh_game(2 + k % 4, 500 + k, MARSH if k % 2 else ALL, "marsh" if k % 2 else "all",
                          [card, "fishermen", "knights"])
        play_checked(game, 500 + k, check_illegal=False, bias=0.8)
    missing = [name for name in EXPECTED if not TALLY.seen[name]]
    assert not missing, f"never occurred: {missing}; seen {dict(TALLY.seen)}"
