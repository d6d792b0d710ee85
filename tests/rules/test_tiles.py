"""Location hexes and location tiles (base rulebook "Location hex and location tile" and
"Extra action").
"""

import pytest

SEIZE = ("Whenever a player builds a settlement next to a location hex, they seize immediately one "
         "of these location tiles, if available. Then, they place this tile in front of "
         "themselves, picture side face up and can use this extra action from their next turn on.")
ONE_PER_LOCATION = "A player may seize only one location tile from a given location."
KEEP = ("The player keeps a location tile as long as at least one of their settlements is adjacent "
        "to the corresponding location. If they move their last settlement away from such a "
        "location by using an extra action, they must discard this location tile and remove it "
        "from the game.")
EMPTY = ("If there is no more location tile on a location, the player does not receive any "
         "location tile.")
TWO_IDENTICAL = ("A player may only have 2 identical location tiles if they have build a "
                 "settlement next to both identical location hexes of that game board section.")
ONCE_PER_TURN = ("Location tiles grant extra actions and players can perform each extra action "
                 "once during their turn.")
BEFORE_AFTER = ("A player may perform each single extra action before or after their mandatory "
                "action.")
SET_UP = "Place 2 corresponding location tiles on each location hex."

# Farm location (10, 10); its neighbours: (10, 9) (10, 11) (9, 9) (9, 10) (11, 9) (11, 10).
FARM = (10, 10)
# Oasis location (4, 4); player 0's settlement (4, 5) touches it (no other neighbour buildable).
OASIS = (4, 4)


def _seize_game(kb, **kwargs):
    """Player 0 holds the oasis tile (settlement (4, 5)), plays canyon. Canyon chain
    (10, 9)-(10, 8)-(10, 7) leads away from the farm location; two more canyon hexes far away.
    Free grass and desert exist so that farm and oasis powers have targets."""
    cells = {
        OASIS: "a", (4, 5): "T", FARM: "f",
        (10, 9): "C", (10, 8): "C", (10, 7): "C", (2, 15): "C", (2, 16): "C",
        (15, 2): "G", (15, 3): "G", (16, 16): "D", (16, 17): "D",
        (18, 5): "F", (18, 6): "F", (18, 7): "F", (18, 8): "F", (18, 9): "F",
    }
    return kb.game(cells, hands=["C", "F"], settlements=[[(4, 5)], []],
                   tiles=[[OASIS], []], deck=["C", "F", "G", "D", "T"], **kwargs)


def test_default_two_tiles_per_location_hex(kb):
    # SET_UP.
    g = _seize_game(kb)
    assert g.tiles_left(FARM) == 2
    # Player 0 holds one of the oasis tiles (docs/api.md: default 2 minus held).
    assert g.tiles_left(OASIS) == 1


def test_tile_seized_immediately_usable_from_next_turn(kb):
    g = _seize_game(kb)
    assert kb.tile_actions(g) == {"oasis"}
    kb.build(g, (10, 9))
    # SEIZE "immediately": right after the build, still inside the mandatory action.
    assert g.phase == "mandatory"
    assert kb.tiles(g, 0) == [("farm", FARM), ("oasis", OASIS)]
    assert g.tiles_left(FARM) == 1
    kb.build(g, (10, 8), (10, 7))
    # SEIZE "from their next turn on": the farm is not usable now, the oasis is.
    assert g.phase == "idle" and g.current_player == 0
    assert kb.legal(g) == {kb.TILE["oasis"], kb.END_TURN}
    kb.assert_illegal(g, kb.TILE["farm"])
    g.step(kb.END_TURN)
    kb.play_turn(g)
    assert g.current_player == 0
    assert kb.tile_actions(g) == {"farm", "oasis"}
    # Nothing was "flipped back" wrongly: both tiles are still held.
    assert kb.tiles(g, 0) == [("farm", FARM), ("oasis", OASIS)]


def test_seized_tile_alone_does_not_stop_automatic_end_turn(kb):
    # SEIZE: a tile seized this turn is no legal decision, so after the mandatory action only
    # END_TURN remains and the turn ends by itself (docs/api.md).
    g = kb.game({FARM: "f", (10, 9): "C", (10, 8): "C", (10, 7): "C", (2, 15): "C",
                 (15, 2): "G", (18, 5): "F", (18, 6): "F", (18, 7): "F"},
                hands=["C", "F"], deck=["C", "F", "G"])
    kb.build(g, (10, 9), (10, 8), (10, 7))
    assert g.current_player == 1
    assert kb.tiles(g, 0) == [("farm", FARM)]


def test_only_one_tile_per_location_per_player(kb):
    # ONE_PER_LOCATION: player 0 already holds the farm tile of (10, 10) via (10, 9) and builds
    # (9, 9), which also touches the farm: no second tile.
    cells = {
        FARM: "f", (10, 9): "C", (9, 9): "C", (8, 9): "C", (8, 8): "C", (2, 15): "C",
        (2, 17): "C",
    }
    g = kb.game(cells, hands=["C", "C"], settlements=[[(10, 9)], []], tiles=[[FARM], []])
    assert g.tiles_left(FARM) == 1
    assert kb.hexes(g) == {(9, 9)}
    kb.build(g, (9, 9))
    assert kb.tiles(g, 0) == [("farm", FARM)]
    assert g.tiles_left(FARM) == 1


def test_second_player_takes_second_tile_then_location_is_empty(kb):
    # SET_UP (2 tiles per hex), SEIZE ("if available"), EMPTY.
    cells = {FARM: "f", (10, 9): "C", (10, 11): "C", (9, 9): "C", (9, 10): "C",
             (2, 3): "C", (2, 5): "C", (2, 7): "C", (17, 3): "C", (17, 5): "C"}
    g = kb.game(cells, num_players=3, hands=["C", "C", "C"],
                settlements=[[], [(10, 11)], [(10, 9)]], tiles=[[], [FARM], [FARM]])
    assert g.tiles_left(FARM) == 0
    kb.build(g, (9, 10))
    assert kb.tiles(g, 0) == []
    assert g.tiles_left(FARM) == 0


def test_tiles_left_one_then_zero(kb):
    cells = {FARM: "f", (10, 9): "C", (10, 11): "C", (2, 3): "C", (2, 5): "C", (2, 7): "C",
             (17, 3): "C", (17, 5): "C"}
    g = kb.game(cells, hands=["C", "C"], settlements=[[], [(10, 11)]], tiles=[[], [FARM]])
    assert g.tiles_left(FARM) == 1
    kb.build(g, (10, 9))
    assert kb.tiles(g, 0) == [("farm", FARM)]
    assert g.tiles_left(FARM) == 0


def test_explicit_tiles_left_zero_gives_nothing(kb):
    # EMPTY.
    cells = {FARM: "f", (10, 9): "C", (2, 3): "C", (2, 5): "C", (2, 7): "C", (17, 3): "C"}
    g = kb.game(cells, hands=["C", "C"], tiles_left={FARM: 0})
    kb.build(g, (10, 9))
    assert kb.tiles(g, 0) == []
    assert g.tiles_left(FARM) == 0


def test_two_identical_tiles_from_two_locations(kb):
    # TWO_IDENTICAL + SEIZE: (10, 11) touches the farm (10, 10), (10, 13) the farm (10, 14).
    cells = {FARM: "f", (10, 14): "f", (10, 11): "C", (10, 12): "C", (10, 13): "C",
             (2, 3): "C", (2, 5): "C"}
    g = kb.game(cells, hands=["C", "C"])
    kb.build(g, (10, 11))
    assert kb.hexes(g) == {(10, 12)}
    kb.build(g, (10, 12), (10, 13))
    assert kb.tiles(g, 0) == [("farm", FARM), ("farm", (10, 14))]
    assert g.tiles_left(FARM) == 1 and g.tiles_left((10, 14)) == 1


def _two_farms_game(kb):
    cells = {FARM: "f", (10, 14): "f", (10, 11): "C", (10, 13): "C",
             (15, 2): "G", (15, 3): "G", (15, 4): "G", (15, 6): "G",
             (2, 3): "C", (2, 5): "C", (2, 7): "C", (2, 9): "C"}
    return kb.game(cells, hands=["C", "C"], settlements=[[(10, 11), (10, 13)], []],
                   tiles=[[FARM, (10, 14)], []])


def test_two_identical_tiles_give_two_uses_per_turn(kb):
    # ONCE_PER_TURN per tile; docs/api.md: two tiles of one type -> that power twice.
    g = _two_farms_game(kb)
    assert kb.tile_actions(g) == {"farm"}
    kb.use(g, "farm", (15, 2))
    assert kb.tile_actions(g) == {"farm"}
    g.step(kb.TILE["farm"])
    # Building rule 3 for the second farm settlement: adjacent to (15, 2) if possible.
    assert kb.hexes(g) == {(15, 3)}
    kb.build(g, (15, 3))
    assert kb.tile_actions(g) == set()
    kb.assert_illegal(g, kb.TILE["farm"])
    assert {(15, 2), (15, 3)} <= g.settlements(0)


def test_each_tile_once_per_turn(kb):
    # ONCE_PER_TURN: the oasis tile, once used, is not available again this turn.
    g = _seize_game(kb)
    kb.use(g, "oasis", (16, 16))
    assert kb.tile_actions(g) == set()
    kb.assert_illegal(g, kb.TILE["oasis"])
    kb.build(g, (10, 9), (10, 8), (10, 7))
    # Oasis used, farm seized this turn: only END_TURN left, the turn ended by itself.
    assert g.current_player == 1
    kb.play_turn(g)
    # Next turn the oasis is available again (tiles are flipped back at the end of the turn).
    assert g.current_player == 0
    assert "oasis" in kb.tile_actions(g)


@pytest.mark.parametrize("when", ["before", "after"])
def test_extra_action_before_or_after_mandatory(kb, when):
    # BEFORE_AFTER.
    g = _seize_game(kb)
    if when == "before":
        kb.use(g, "oasis", (16, 16))
        kb.build(g, (10, 9), (10, 8), (10, 7))
    else:
        kb.build(g, (10, 9), (10, 8), (10, 7))
        assert kb.tile_actions(g) == {"oasis"}
        kb.use(g, "oasis", (16, 16))
    assert g.current_player == 1
    assert {(16, 16), (10, 9), (10, 8), (10, 7)} <= g.settlements(0)


def test_tile_seized_by_extra_action_build_not_usable_this_turn(kb):
    # SEIZE applies to any built settlement, here one built by the farm power; the new oasis
    # tile is usable only from the next turn.
    cells = {
        FARM: "f", (10, 9): "C", OASIS: "a", (4, 3): "G", (15, 2): "G", (15, 4): "G",
        (16, 16): "D", (2, 15): "C", (2, 17): "C", (6, 15): "C",
    }
    g = kb.game(cells, hands=["C", "C"], settlements=[[(10, 9)], []], tiles=[[FARM], []])
    g.step(kb.TILE["farm"])
    assert kb.hexes(g) == {(4, 3), (15, 2), (15, 4)}
    kb.build(g, (4, 3))
    assert kb.tiles(g, 0) == [("farm", FARM), ("oasis", OASIS)]
    assert g.tiles_left(OASIS) == 1
    assert kb.tile_actions(g) == set()
    kb.assert_illegal(g, kb.TILE["oasis"])


def test_tile_seized_by_moving_next_to_location(kb):
    # SEIZE + barn ("Move ... Build adjacent if possible"; "Extra location tile actions - Apply
    # building rules as usual"): moving a settlement next to a location hex is building there.
    cells = {
        (2, 2): "b", (2, 3): "C", (12, 12): "T", (7, 7): "o", (7, 8): "G", (15, 15): "G",
        (15, 17): "G",
    }
    g = kb.game(cells, hands=["G", "G"], settlements=[[(2, 3), (12, 12)], []],
                tiles=[[(2, 2)], []])
    kb.use(g, "barn", (12, 12))
    assert kb.hexes(g) == {(7, 8), (15, 15), (15, 17)}
    kb.build(g, (7, 8))
    assert kb.tiles(g, 0) == [("barn", (2, 2)), ("oracle", (7, 7))]
    assert g.tiles_left((7, 7)) == 1
    assert kb.tile_actions(g) == set()


def _barn_and_farm_game(kb, extra_own=()):
    """Player 0: barn tile (2, 2) via (2, 3); farm tile (10, 10) via (10, 9) and extra_own.
    Grass card; grass far away only."""
    cells = {
        (2, 2): "b", (2, 3): "C", FARM: "f", (10, 9): "C", (10, 11): "C",
        (15, 2): "G", (15, 4): "G", (15, 6): "G", (15, 8): "G", (15, 10): "G",
    }
    return kb.game(cells, hands=["G", "G"],
                   settlements=[[(2, 3), (10, 9), *extra_own], []],
                   tiles=[[(2, 2), FARM], []])


def test_tile_lost_when_last_adjacent_settlement_moved_away(kb):
    # KEEP: moving (10, 9), the only settlement next to the farm, discards the farm tile; it is
    # removed from the game, not put back on the location hex.
    g = _barn_and_farm_game(kb)
    assert g.tiles_left(FARM) == 1
    supply = g.supply(0)
    kb.use(g, "barn", (10, 9), (15, 2))
    assert g.settlements(0) == {(2, 3), (15, 2)}
    assert kb.tiles(g, 0) == [("barn", (2, 2))]
    assert g.tiles_left(FARM) == 1
    assert g.supply(0) == supply
    assert kb.tile_actions(g) == set()
    kb.assert_illegal(g, kb.TILE["farm"])


def test_tile_kept_while_another_settlement_is_adjacent(kb):
    # KEEP: (10, 11) still touches the farm after (10, 9) moved away.
    g = _barn_and_farm_game(kb, extra_own=[(10, 11)])
    kb.use(g, "barn", (10, 9), (15, 2))
    assert kb.tiles(g, 0) == [("barn", (2, 2)), ("farm", FARM)]
    assert g.tiles_left(FARM) == 1
    assert kb.tile_actions(g) == {"farm"}


def test_paddock_jump_over_location_keeps_tile(kb):
    # KEEP: the paddock moves (10, 9) over the farm hex to (10, 11), which is adjacent to the
    # farm as well, so the settlement never left it; no second tile is taken (ONE_PER_LOCATION).
    cells = {(2, 2): "p", (2, 3): "C", FARM: "f", (10, 9): "C", (10, 11): "D",
             (15, 2): "G", (15, 4): "G", (15, 6): "G", (15, 8): "G"}
    g = kb.game(cells, hands=["G", "G"], settlements=[[(2, 3), (10, 9)], []],
                tiles=[[(2, 2), FARM], []])
    g.step(kb.TILE["paddock"])
    assert kb.hexes(g) == {(10, 9)}
    kb.build(g, (10, 9))
    assert kb.hexes(g) == {(10, 11)}
    kb.build(g, (10, 11))
    assert kb.tiles(g, 0) == [("farm", FARM), ("paddock", (2, 2))]
    assert g.tiles_left(FARM) == 1


def test_moving_the_settlement_next_to_the_used_location_loses_that_tile(kb):
    # KEEP: the harbor moves (2, 3), the only settlement next to the harbor location (2, 2),
    # to water; the harbor tile itself is discarded.
    cells = {(2, 2): "h", (2, 3): "C", (15, 15): "T", (15, 16): "W", (12, 12): "W",
             (17, 2): "G", (17, 4): "G", (17, 6): "G", (17, 8): "G"}
    g = kb.game(cells, hands=["G", "G"], settlements=[[(2, 3), (15, 15)], []],
                tiles=[[(2, 2)], []])
    g.step(kb.TILE["harbor"])
    kb.build(g, (2, 3))
    # Adjacent to the remaining settlement (15, 15) if possible (harbor: "Build adjacent if
    # possible").
    assert kb.hexes(g) == {(15, 16)}
    kb.build(g, (15, 16))
    assert kb.tiles(g, 0) == []
    assert g.tiles_left((2, 2)) == 1
    assert g.phase == "idle" and g.current_player == 0


def test_power_without_completion_does_not_block_automatic_end_turn(kb):
    # A held farm tile with no free grass hex on the board ("Skip this action if there is not a
    # single unoccupied grass hex") leaves END_TURN as the only decision after the mandatory
    # action, so the turn ends by itself.
    cells = {FARM: "f", (10, 9): "C", (9, 5): "G", (15, 2): "C", (15, 4): "C", (15, 6): "C",
             (15, 8): "C"}
    g = kb.game(cells, hands=["C", "C"], settlements=[[(10, 9)], [(9, 5)]], tiles=[[FARM], []])
    assert kb.tile_actions(g) == set()
    kb.build(g, (15, 2), (15, 4), (15, 6))
    assert g.current_player == 1


def test_losing_one_of_two_identical_tiles_keeps_the_other(kb):
    # KEEP applies per location: moving away from the farm (10, 10) discards that farm tile
    # only; the farm tile of (10, 14) stays and is still usable.
    cells = {(2, 2): "b", (2, 3): "C", FARM: "f", (10, 14): "f", (10, 11): "C", (10, 13): "C",
             (15, 2): "G", (15, 4): "G", (15, 6): "G", (15, 8): "G"}
    g = kb.game(cells, hands=["G", "G"], settlements=[[(2, 3), (10, 11), (10, 13)], []],
                tiles=[[(2, 2), FARM, (10, 14)], []])
    kb.use(g, "barn", (10, 11), (15, 2))
    assert kb.tiles(g, 0) == [("barn", (2, 2)), ("farm", (10, 14))]
    assert g.tiles_left(FARM) == 1
    assert kb.tile_actions(g) == {"farm"}
    kb.use(g, "farm", (15, 4))
    assert kb.tile_actions(g) == set()
