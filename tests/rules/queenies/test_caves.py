"""Queenie 2: Caves (QV-1, QV-2, A-QV1..A-QV3).

Hand-built cave positions use a water-filled board, so every mountain (and so every cave) is named.

Rule text quoted (the comments below name these):

CAVES (EN 1423): "On each quadrant, put one of the cave tiles on any mountain hex, which is not within two hexes of
    a location, castle or nomad hex. A cave counts as a mountain hex."
CAVE_MOVE (EN 1425): "Once every turn, before or after the mandatory action, the player may move one of his
    settlements adjacent to a cave, to any unoccupied and suitable hex adjacent to any cave (including the same one)
    on the board."
CAVE_EXAMPLE (EN 1429): "Example: 2 possibilities to place the cave."
KEEP_TILE (EN 217): "If they move their last settlement away from such a location by using an extra action, they
    must discard this location tile and remove it from the game."
"""

from collections import Counter

import pytest

A_QV1 = ("Eligible = mountain hexes at hex distance >= 3 from every location, castle and nomad hex. A quadrant "
         "without an eligible hex gets no cave. Default seeded random.")
A_QV2 = ("(a) Yes [a cave hex is occupied]: no Donation-M, Fountain-bonus or wagon there. (b) It is a normal "
         "mountain. Default (a). Caves count as mountain for Miners.")
A_QV3 = ("A power available to every player, once per turn, without a tile. Source: an own plain settlement "
         "adjacent to any cave. Target: an eligible hex adjacent to any cave, != source. No adjacency rule. It "
         "seizes and loses tiles like any move.")

READINGS = [pytest.param(None, id="cave-occupied"), pytest.param({"caves_are_plain_mountain": True}, id="plain")]


# --------------------------------------------------------------------------- QV-1 placement


def test_QV1_random_caves_on_eligible_mountains_one_per_quadrant(kx):
    from kbenv import Game

    for seed in range(120):
        n = 2 + seed % 4
        g = Game.new(n, seed=seed, expansions=["nomads", "caves"])
        grid = kx.assemble([(name, bool(t)) for name, t in g.setup.sections])
        cands = kx.cave_candidates(grid)
        caves = {tuple(h) for h in g.caves()}
        per_quadrant = Counter(kx.quadrant(h) for h in caves)
        for q in range(4):
            assert per_quadrant[q] == (1 if cands[q] else 0), (seed, g.setup.sections, q, caves)
        for h in caves:
            assert grid[h[0]][h[1]] == "M"
            assert h in cands[kx.quadrant(h)], (seed, h)
        assert {tuple(h) for h in Game.new(n, seed=seed, expansions=["nomads", "caves"]).caves()} == caves


def test_QV1_farm_section_has_exactly_two_cave_hexes(kx):
    # CAVE_EXAMPLE: the Farm section (top left, not turned) has 2 mountains, (7, 4) and (8, 1); its special
    # hexes are farm (1, 7), farm (5, 2), castle (1, 1). Distances to (5, 2): 3 and 3 (cube coordinates);
    # the other sections' specials are at least 3 rows away. Both are eligible; nothing else is.
    # The Oasis section (top right) has no mountain: no cave there.
    sections = [("farm", False), ("oasis", False), ("tavern", False), ("oracle", False)]
    grid = kx.assemble(sections)
    cands = kx.cave_candidates(grid)
    assert cands[0] == {(7, 4), (8, 1)} and cands[1] == set()
    from kbenv import Game

    seen = Counter()
    for seed in range(40):
        caves = {tuple(h) for h in Game.new(2, seed=seed, sections=sections, expansions=["caves"]).caves()}
        tl = {h for h in caves if kx.quadrant(h) == 0}
        assert len(tl) == 1 and tl <= {(7, 4), (8, 1)}
        assert not any(kx.quadrant(h) == 1 for h in caves)
        for q in (2, 3):
            assert len({h for h in caves if kx.quadrant(h) == q} & cands[q]) == 1
        seen.update(tl)
    assert set(seen) == {(7, 4), (8, 1)}                  # seeded random choice among the 2


def test_QV1_cave_must_lie_on_a_mountain(kx):
    pos = kx.position({(10, 10): "G"}, fill="W", settlements=[[], []], expansions=["caves"], caves=[(10, 10)])
    kx.setup_error(pos, "caves")


@pytest.mark.parametrize("options", READINGS)
def test_QV1_cave_counts_as_mountain_for_miners(kx, options):
    # CAVES "A cave counts as a mountain hex": own (10, 10) touches only water and the cave (10, 11)
    pos = kx.position({(10, 10): "G", (10, 11): "M"}, fill="W", settlements=[[(10, 10)], []],
                      expansions=["caves"], caves=[(10, 11)], options=options,
                      cards=["miners", "fishermen", "hermits"])
    s0 = kx.scores(pos)[0]
    assert s0["cards"] == {"miners": 1, "fishermen": 1, "hermits": 1}


# --------------------------------------------------------------------------- QV-2 the cave move

C1, C2 = (5, 5), (14, 14)
S = (5, 4)          # own, next to C1 and to the farm (5, 3) whose tile player 0 holds
FAR = (0, 2)        # own, next to no cave
CAVE_CELLS = {
    C1: "M", C2: "M",
    S: "G", (5, 3): "f",
    (5, 6): "G",                 # free, next to C1
    (4, 5): "G",                 # next to C1, the opponent's settlement
    (4, 6): "M",                 # next to C1, a plain mountain (not suitable)
    (6, 5): "G",                 # next to C1, a wall
    (14, 13): "G", (13, 13): "G",   # free, next to C2; (14, 13) also touches the oracle (14, 12)
    (14, 12): "o",
    FAR: "G", (0, 0): "G",       # (0, 0): free grass next to no cave
}


def cave_position(kx, then=None):
    return kx.position({**kx.MAND_T, **CAVE_CELLS}, fill="W", settlements=[[S, FAR], [(4, 5)]], card="T",
                       expansions=["nomads", "caves"], caves=[C1, C2], walls=[(6, 5)], tiles=[[(5, 3)], []],
                       then=then)


def test_QV2_cave_move_sources_targets_tiles_once_per_turn(kx):
    pos = cave_position(kx)
    # idle: mandatory start (forest), the farm tile (grass is free), the cave move
    assert kx.legal(pos) == kx.MAND_T_HEXES | {"cave", "farm"}
    assert kx.legal(kx.with_then(pos, ["cave"])) == {S}
    # any free, suitable hex next to any cave, the same cave included; not the source, the opponent's hex,
    # the wall, the mountain or water next to the caves, nor (0, 0) (next to no cave)
    assert kx.legal(kx.with_then(pos, ["cave", S])) == {(5, 6), (14, 13), (13, 13)}
    moved = kx.with_then(pos, ["cave", S, (14, 13)])
    # KEEP_TILE: S was player 0's last settlement next to the farm: the farm tile is gone; the oracle tile
    # seized at (14, 13) is fresh. Once per turn: no second cave move although (14, 13) touches C2.
    assert kx.legal(moved) == kx.MAND_T_HEXES
    g = kx.game(moved)
    assert kx.settlements(g, 0) == {(14, 13), FAR}
    assert kx.tiles(g, 0) == [("oracle", (14, 12))]
    assert g.tiles_left((5, 3)) == 1 and g.tiles_left((14, 12)) == 1
    kx.then_error(kx.with_then(pos, ["cave", S, (0, 0)]), 2)
    kx.then_error(kx.with_then(pos, ["cave", S, (14, 13), "cave"]), 3)


def test_QV2_cave_move_before_or_after_mandatory_not_between(kx):
    pos = cave_position(kx)
    assert kx.legal(kx.with_then(pos, [(18, 0)])) == {(18, 1)}
    assert kx.legal(kx.with_then(pos, kx.MAND_T_BUILDS)) == {"cave", "farm", "end_turn"}


def test_QV2_cave_move_same_cave(kx):
    g = kx.game(cave_position(kx, then=["cave", S, (5, 6)]))
    assert kx.settlements(g, 0) == {(5, 6), FAR}
    assert kx.tiles(g, 0) == []                        # (5, 6) does not touch the farm (5, 3)


@pytest.mark.parametrize("options,expected", [(None, {(10, 9)}), ({"caves_are_plain_mountain": True},
                                                                    {(10, 9), (10, 11)})],
                         ids=["cave-occupied", "plain"])
def test_A_QV2_cave_is_not_a_donation_M_target(kx, options, expected):
    # A_QV2: own (10, 10) touches the plain mountain (10, 9) and the cave (10, 11)
    cells = {**kx.MAND_T, (10, 10): "G", (10, 9): "M", (10, 11): "M"}
    pos = kx.position(cells, fill="W", settlements=[[(10, 10)], []], card="T", expansions=["nomads", "caves"],
                      caves=[(10, 11)], nomad_tiles=[["donation-M"], []], options=options, then=["donation-M"])
    assert kx.legal(pos) == expected
