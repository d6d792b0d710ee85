"""Power traits (issue 21): every power code is a catalogue row, and the engine's dispatcher reads the
trait arrays instead of naming powers. Expected values come from the rule text (EN rulebooks, the
expansion spec's rule ids), not from the code."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import kbenv.catalogue as CAT
from kbenv import Game
from kbenv.board.bitset import WORDS
from kbenv.board.geometry import NUM_HEXES, STEP1
from kbenv.engine import state as S
from kbenv.engine.legal import is_move_power
from kbenv.engine.powers import power_targets
from kbenv.engine.traits import POWER_RULE, POWER_TERRAIN, RULE_TERRAIN

ROOT = Path(__file__).resolve().parent.parent

# The powers that build on one fixed terrain (EN: Farm grass, Oasis desert; N-21 Garden flower field;
# Crossroads Forester's lodge forest, Monastery canyon; N-7 a Donation builds on the terrain it shows).
FIXED_TERRAIN = {
    "farm": "grass", "oasis": "desert", "garden": "flower field", "foresters_lodge": "forest",
    "monastery": "canyon", "donation-G": "grass", "donation-C": "canyon", "donation-D": "desert",
    "donation-F": "flower field", "donation-T": "forest", "donation-W": "water", "donation-M": "mountain",
}


def test_every_power_code_has_one_traits_row():
    assert tuple(t.name for t in CAT.POWER_TRAITS) == CAT.POWER_NAMES
    # 32 location types, 10 usable nomad tiles, the cave move, the canoe and refuge bonus tiles (M-9, M-15), the
    # Harvest farm action (H-4); the Island's rope bridge and tree house (QI-3, QI-4)
    assert len(CAT.POWER_TRAITS) == 48


def test_the_twelve_fixed_terrain_builders_share_one_rule():
    fixed = {t.name: t.terrain for t in CAT.POWER_TRAITS
             if t.rule == "terrain" and t.terrain in CAT.TERRAIN_CODE}
    assert fixed == FIXED_TERRAIN
    for name, terrain in FIXED_TERRAIN.items():
        code = CAT.POWER_CODE[name]
        assert POWER_RULE[code] == RULE_TERRAIN and POWER_TERRAIN[code] == CAT.TERRAIN_CODE[terrain]
        assert CAT.POWER_TRAIT[name].target == "build" and CAT.POWER_TRAIT[name].supply


def test_move_powers_come_from_the_source_trait():
    # Barn, Harbor, Paddock (EN), Caravan (N-19), Resettlement (N-9), the cave move (QV-2), Refuge and Refuge
    # bonus (EN 1167, 1173: "relocate one of your previously built settlements") move a settlement; the Temple
    # chooses the settlement it takes off the same way (EN 1148: "remove one of your own settlements").
    movers = {"barn", "harbor", "paddock", "caravan", "resettlement", "cave", "refuge", "refuge_bonus", "temple",
              "palisade",  # Harvest: "Move a settlement ... connected to the same settlement area" (EN 1361)
              "rope_bridge", "tree_house"}  # Island: "Move any of your existing settlements to a canyon hex" (EN 1456)
    assert {name for name in CAT.POWER_NAMES if is_move_power(CAT.POWER_CODE[name])} == movers


def test_powers_that_may_stop_early():
    # Quarry: "1 or 2" walls (N-18); wagon and ship: "up to 3" spaces (C-13, C-14); Resettlement: up to 4 (N-9).
    # Harvest: the Scout cabin places 1 or 2 scouts (A-H4, EN 1245 "2 scout tiles"); the Cathedral builds up to the
    # value returned, at most the pool's 8 ones + 2 fives = 18 (DE 1407), and DONE keeps the rest (A-H5).
    assert {t.name for t in CAT.POWER_TRAITS if t.stop_early} == {"quarry", "wagon", "lighthouse", "resettlement",
                                                                  "scout_cabin", "cathedral"}
    steps = {t.name: t.steps for t in CAT.POWER_TRAITS if t.steps > 1}
    assert steps == {"quarry": 2, "wagon": 3, "lighthouse": 3, "resettlement": 4,
                     **{f"donation-{t}": 3 for t in CAT.DONATION_TERRAINS}, "scout_cabin": 2, "cathedral": 18}


def bits(st, off: int) -> set[int]:
    return {h for h in range(NUM_HEXES) if (int(st[off + h // 60]) >> (h % 60)) & 1}


def expected_build_targets(st, p: int, terrain: int) -> set[int]:
    """Building rules 1-3: free hexes of the terrain, next to own settlements if that leaves any."""
    free = bits(st, S.TERRAIN_MASKS + terrain * WORDS) - bits(st, S.OCCUPIED)
    own = bits(st, S.OWN + p * WORDS)
    near = {n for h in own for n in STEP1[h] if n >= 0}
    return (free & near) or free


@pytest.mark.parametrize("seed", [3, 11])
def test_fixed_terrain_targets_follow_the_building_rule(seed):
    game = Game.new(3, seed=seed, expansions=["nomads", "crossroads"])
    rng = np.random.default_rng(seed)
    for _ in range(40):  # a position in the middle of a game
        game.step(int(rng.choice(game.legal_actions())))
    st = game.state.copy()
    p = int(st[S.DECIDER])
    out = np.zeros(WORDS, dtype=np.int64)
    seen_adjacent = 0
    for name, terrain in FIXED_TERRAIN.items():
        code, t = CAT.POWER_CODE[name], CAT.TERRAIN_CODE[terrain]
        power_targets(st, p, code, -1, out)
        expected = expected_build_targets(st, p, t)
        assert {h for h in range(NUM_HEXES) if (int(out[h // 60]) >> (h % 60)) & 1} == expected, name
        seen_adjacent += bool(expected) and expected != bits(st, S.TERRAIN_MASKS + t * WORDS) - bits(st, S.OCCUPIED)
    assert seen_adjacent > 0  # the adjacency restriction really applied somewhere


def test_no_engine_dispatch_names_a_power():
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "count_power_dispatch.py"), str(ROOT)],
                         capture_output=True, text=True, check=True).stdout
    counts = {line[:36].strip(): int(line[36:]) for line in out.splitlines()}
    assert counts["elif power =="] == 0 and counts["per-power predicate calls"] == 0
    # what is left compares st[POWER] in the two observation encoders (a one-hot slot, the Sword's victim)
    assert counts["power comparisons"] <= 2


def test_the_trait_table_in_the_design_notes_is_the_catalogue():
    assert CAT.power_trait_table() in (ROOT / "docs" / "design-notes.md").read_text()


@pytest.mark.parametrize("expansions", [[], ["nomads", "crossroads"]])
def test_the_base_fast_path_agrees_with_the_dispatcher(expansions):
    from kbenv.engine.powers import base_has_completion, power_has_completion

    rng = np.random.default_rng(5)
    tmp = np.zeros(WORDS, dtype=np.int64)
    usable = 0
    for seed in range(6):
        game = Game.new(2, seed=seed, expansions=expansions)
        while not game.done:
            st = game.state.copy()
            p = int(st[S.DECIDER])
            for code in range(CAT.BASE_POWERS):
                fast = base_has_completion(st, p, code, tmp)
                assert fast == power_has_completion(st, p, code, tmp), (seed, code)
                usable += fast
            game.step(int(rng.choice(game.legal_actions())))
    assert usable > 100
