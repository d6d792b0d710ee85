"""Marshlands Fountain, Temple, Refuge and bonus tiles beyond the rule-text acceptance tests
(tests/rules/marshlands/test_marshlands_*.py): random whole games (pieces conserved, the mask is what the
engine accepts, the powers really occur), position round trips of the Marshlands keys mid-turn, the
A-M6 (R) return of a reserve that cannot be built, bonus tiles that go out of the game, and the errors of
the position keys (the field named)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from kbenv import Game, SetupError
from kbenv import catalogue as CAT
from kbenv.engine import state as S
from kbenv.positions.files import game_from_position, legal_position
from tests.roundtrip_checks import assert_same_future
from tests.ruleset_games import canonical

MARSH = ["marshlands"]
POWERS = {CAT.ACTION_ID[name]: name for name in ("fountain", "temple", "refuge", "refuge_bonus")}
# The random set-up does not deal the Marshlands sections yet (M-1 is another part of issue 21): these games
# name them, beside a base section.
SECTIONS = [("marsh-substitute-2", False), ("marsh-substitute-3", True), ("paddock", False),
            ("marsh-substitute-4", False)]


def board(cells: dict, fill: str = "M") -> list[str]:
    grid = [[fill] * 20 for _ in range(20)]
    for (r, c), code in cells.items():
        grid[r][c] = code
    return ["".join(row) for row in grid]


def position(cells: dict, settlements, **extra) -> dict:
    """A 2-player Marshlands position; `locations` {(r, c): type} become L hexes."""
    locations = extra.pop("locations", {})
    cells = {**cells, **{h: "L" for h in locations}, (16, 0): "C", (16, 1): "C", (16, 2): "C"}
    pos = {"board": board(cells), "cards": ["fishermen", "knights", "merchants"], "expansions": MARSH,
           "settlements": [[list(h) for h in own] for own in settlements], "hands": ["T", "C"],
           "locations": {f"{r},{c}": kind for (r, c), kind in locations.items()}, **extra}
    return json.loads(json.dumps(pos))


def pieces_of(g: Game, p: int) -> int:
    """Settlements on the board + supply + the Temple's reserve: always 40 (A-M6)."""
    return len(g.settlements(p)) + g.supply(p) + int(g.state[S.TEMPLE_RESERVE + p])


def play(seed: int) -> set[str]:
    """A random 3-player Marshlands game that prefers the Marshlands powers; checks at every decision that the
    mask is what the engine lists, and that board + supply + reserve stay 40. Returns the powers used."""
    rng = np.random.default_rng(seed)
    used: set[str] = set()
    g = Game.new(3, seed=seed, expansions=MARSH, sections=SECTIONS)
    while not g.done:
        legal = np.flatnonzero(g.legal_mask())
        assert sorted(legal.tolist()) == sorted(g.legal_actions())
        powers = [a for a in legal if a in POWERS]
        action = int(rng.choice(powers)) if powers and rng.random() < 0.7 else int(rng.choice(legal))
        used.add(POWERS.get(action, ""))
        g.step(action)
        for p in range(3):
            assert pieces_of(g, p) == S.SETTLEMENTS_PER_PLAYER
            assert 0 <= int(g.state[S.TEMPLE_RESERVE + p])
        assert all(0 <= int(g.state[S.BONUS_LEFT + k]) <= 2 for k in range(4))
    return used - {""}


def test_random_marshlands_games_conserve_pieces_and_use_the_powers():
    used = [play(seed) for seed in range(6)]
    assert all(u for u in used), used
    assert set().union(*used) >= {"fountain", "temple", "refuge"}, used


@pytest.mark.parametrize("seed", range(4))
def test_marshlands_positions_round_trip_mid_game(seed):
    rng = np.random.default_rng(100 + seed)
    rules = ["bonus_kept_after_tile_loss"] if seed % 2 else None
    g = Game.new(2, seed=seed, expansions=MARSH, sections=SECTIONS, rules=rules)
    checked = 0
    while not g.done and checked < 12:
        legal = np.flatnonzero(g.legal_mask())
        powers = [a for a in legal if a in POWERS]
        g.step(int(rng.choice(powers)) if powers else int(rng.choice(legal)))
        if rng.random() < 0.15:
            rebuilt = game_from_position(json.loads(json.dumps(g.to_position())))
            np.testing.assert_array_equal(canonical(rebuilt), canonical(g))
            checked += 1
    rebuilt = game_from_position(json.loads(json.dumps(g.to_position())))
    assert_same_future(g, rebuilt, rng, canonical=canonical)


def test_a_temple_reserve_round_trips_with_what_is_owed_this_turn():
    # player 0 removes X with the temple before its mandatory action: the reserve is 1 but nothing is owed this
    # turn (EN 1148 "on your next turn"); a position written now and read back keeps that apart
    cells = {(18, 0): "T", (18, 1): "T", (18, 2): "T", (10, 11): "G", (5, 5): "G"}
    pos = position(cells, [[(10, 11), (5, 5)], []], locations={(10, 10): "temple"}, tiles=[[[10, 10]], []],
                   then=["temple", [5, 5]])
    g = game_from_position(pos)
    written = g.to_position()
    assert written["temple_reserve"] == [1, 0] and written["decision"]["temple_owed"] == 0
    again = game_from_position(json.loads(json.dumps(written)))
    assert legal_position(json.loads(json.dumps(written)))["legal"] == [[18, 0], [18, 1], [18, 2]]
    np.testing.assert_array_equal(canonical(again), canonical(g))


def test_A_M6_R_a_reserve_that_cannot_be_built_returns_to_the_supply():
    # player 0 owes 1 settlement (reserve 1) and holds forest, but no forest hex is free: every forest card is
    # discarded (no-eligible-hex exception) and the mandatory action cannot be built; at the end of the turn the
    # reserve goes back to the supply (A-M6 R), so nothing stays owed for ever and 40 pieces remain
    cells = {(10, 11): "G", (16, 3): "C", (16, 4): "C", (16, 5): "C"}
    pos = position(cells, [[(10, 11)], []], locations={(10, 10): "temple"}, tiles=[[[10, 10]], []],
                   temple_reserve=[1, 0], supply=[38, 40], deck=["T", "T"])
    g = game_from_position(pos)
    assert int(g.state[S.TEMPLE_OWED]) == 1
    assert sorted(g.legal_actions()) == sorted([CAT.ACTION_ID["temple"], CAT.ACTION_ID["end_turn"]])
    g.step(CAT.ACTION_ID["end_turn"])
    assert int(g.state[S.TEMPLE_RESERVE]) == 0 and g.supply(0) == 39
    assert pieces_of(g, 0) == 40


def test_a_lost_bonus_tile_is_out_of_the_game():
    # A-M4 (b): player 0 holds the refuge bonus and both refuge tiles; the refuge moves A away from L1, the tile
    # and the bonus are lost, and the bonus tile does not go back to its summary card (1 left, not 2)
    cells = {(18, 0): "T", (18, 1): "T", (18, 2): "T", (10, 11): "G", (10, 12): "G", (4, 5): "G"}
    pos = position(cells, [[(10, 11), (4, 5)], []], locations={(10, 10): "refuge", (4, 4): "refuge"},
                   tiles=[[[10, 10], [4, 4]], []], bonus_tiles=[["refuge"], []], then=["refuge", [10, 11], [10, 12]])
    g = game_from_position(pos)
    written = g.to_position()
    assert written["bonus_tiles"] == [[], []]
    assert written["bonus_tiles_left"]["refuge"] == 1
    assert written["bonus_tiles_left"]["temple"] == 2


@pytest.mark.parametrize("extra, field", [
    ({"temple_reserve": [1]}, "temple_reserve"),
    ({"temple_reserve": [-1, 0]}, "temple_reserve[0]"),
    ({"temple_reserve": [2, 0], "supply": [38, 40]}, "temple_reserve[0]"),  # 1 on the board + 38 + 2 > 40
    ({"temple_reserve": [40, 0]}, "temple_reserve[0]"),           # 1 on the board + 40 set aside > 40
    ({"bonus_tiles": [["palace"], []]}, "bonus_tiles[0]"),
    ({"bonus_tiles": [["refuge", "refuge"], []]}, "bonus_tiles[0]"),
    ({"bonus_tiles": "refuge"}, "bonus_tiles"),
    ({"bonus_tiles_fresh": [["oracle"], []]}, "bonus_tiles_fresh[0]"),
    ({"bonus_tiles_left": {"refuge": 3}}, "bonus_tiles_left.refuge"),
    ({"decision": {"temple_owed": -1}}, "decision.temple_owed"),
])
def test_marshlands_position_keys_name_the_field_at_fault(extra, field):
    pos = position({(10, 11): "G"}, [[(10, 11)], []], **extra)
    with pytest.raises(SetupError) as info:
        legal_position(pos)
    assert str(info.value).startswith(field), str(info.value)


def test_the_marshlands_keys_need_the_expansion():
    pos = position({(10, 11): "G"}, [[(10, 11)], []], temple_reserve=[0, 0])
    pos["expansions"] = []
    pos.pop("locations")
    with pytest.raises(SetupError) as info:
        legal_position(pos)
    assert str(info.value).startswith("temple_reserve: needs the 'marshlands' expansion")


def test_the_bonus_flag_needs_marshlands():
    with pytest.raises(SetupError, match="bonus_kept_after_tile_loss"):
        Game.new(2, seed=0, rules=["bonus_kept_after_tile_loss"])


def test_refuge_bonus_explains_why_it_is_refused():
    from kbenv.game.explain import explain_illegal

    cells = {(18, 0): "T", (18, 1): "T", (18, 2): "T", (10, 11): "G", (10, 13): "G", (4, 5): "G"}
    pos = position(cells, [[(10, 11), (4, 5)], []], locations={(10, 10): "refuge", (4, 4): "refuge"},
                   tiles=[[[10, 10], [4, 4]], []], bonus_tiles_fresh=[["refuge"], []])
    g = game_from_position(pos)
    assert CAT.ACTION_ID["refuge_bonus"] not in g.legal_actions()
    assert "usable from the turn after" in explain_illegal(g, CAT.ACTION_ID["refuge_bonus"])
