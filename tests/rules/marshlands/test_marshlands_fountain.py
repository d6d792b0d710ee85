"""Marshlands Fountain and Fountain bonus (M-10, M-11, A-M8, A-M4 timing).

Player 0's fountain tile comes from the fountain hex ``FL`` = (10, 10) through its settlement ``A`` = (10, 11)
(held since before this turn). Player 0's card is forest with ``MAND_T`` = (18, 0) (18, 1) (18, 2) (no forest
touches its settlements, so the mandatory action may start on any of the three); player 1 holds canyon with
``OPP_C`` = (16, 0) (16, 1) (16, 2). Neighbour counts were worked out with the odd-r rule of docs/api.md:

* (10, 11) touches (10, 10) (10, 12) (9, 10) (9, 11) (11, 10) (11, 11);
* (10, 13) touches (10, 12) (10, 14) (9, 12) (9, 13) (11, 12) (11, 13);
* (9, 11) touches (8, 11) (8, 12) (9, 10) (9, 12) (10, 11) (10, 12);
* (11, 11) touches (10, 11) (10, 12) (11, 10) (11, 12) (12, 11) (12, 12);
* (9, 13) touches (8, 13) (8, 14) (9, 12) (9, 14) (10, 13) (10, 14);
* (11, 13) touches (10, 13) (10, 14) (11, 12) (11, 14) (12, 13) (12, 14).

Rule text quoted (the comments below name these):

FOUNTAIN (EN 1131): "Build one settlement next to exactly one of your own settlements and next to none of any
    opponent's settlements on any unoccupied hex suitable to be built upon."
FOUNTAIN_EXAMPLE (EN 1134): "Example: Frank (orange) wants to build next to the palace space in order to draw level
    with Jenny (white). There is only one possible space."
FOUNTAIN_BONUS (EN 1138-1140): "The fountain extra action allows the player to build this bonus settlement on a
    mountain hex. Important: The fountain bonus action does not allow for the building of an additional settlement;
    instead it modifies and improves the fountain extra action."
FOUNTAIN_BONUS_DE (DE 1261): "Die Brunnen Bonusaktion erlaubt nicht das Bauen einer weiteren Siedlung, sondern
    verbessert nur die Beiden, zur Verfügung stehenden Sonderaktionen für Brunnen."
BONUS_TAKEN (EN 1095): "When a player takes a second location tile of the same type, they also take the bonus action
    tile from the corresponding bonus action summary card."
A_M4_TIMING (spec A-M4): "Usable from the next turn (TG: 'Fountain Bonus tile does not modify Fountain until the
    turn after it is acquired')."
A_M8 (spec A-M8): "'Next to exactly one own settlement and none of an opponent': count OWN neighbours. With the
    bonus, free mountain hexes (not caves) are also targets; the 'exactly one own / no opponent' condition still
    applies."
"""

from tests.rules.marshlands.helpers import bonus_held, bonus_ready, mpos

FL = (10, 10)
A = (10, 11)
B = (10, 13)
OPPONENT = [(8, 11), (12, 12), (8, 13)]


def fountain_position(kx, then=None):
    """Free buildable hexes and their (own, opponent) neighbour counts: (10, 12) (2, 0) touches A and B;
    (9, 11) (1, 1), (11, 11) (1, 1), (9, 13) (1, 1) each touch an opponent; (11, 13) (1, 0) a swamp: the only
    target; (5, 5) (0, 0). Water (11, 10) (1, 0) and mountain (9, 10) are not suitable to be built upon."""
    cells = {**kx.MAND_T, A: "G", B: "G", (10, 12): "G", (9, 11): "G", (11, 11): "G", (9, 13): "G", (11, 13): "S",
             (5, 5): "G", (11, 10): "W", **{h: "G" for h in OPPONENT}}
    return mpos(kx, cells, settlements=[[A, B], OPPONENT], card="T", locations={FL: "fountain"}, tiles=[[FL], []],
                then=then)


def test_M10_en1134_exactly_one_legal_hex(kx):
    # FOUNTAIN / FOUNTAIN_EXAMPLE (a position built like the example: several hexes look possible, one is)
    pos = fountain_position(kx)
    assert kx.legal(pos) == kx.MAND_T_HEXES | {"fountain"}
    out = kx.answer(kx.with_then(pos, ["fountain"]))
    assert out["player"] == 0 and out["phase"] == "choose_target"
    assert out["legal"] == {(11, 13)}
    g = kx.game(kx.with_then(pos, ["fountain", (11, 13)]))
    assert kx.settlements(g, 0) == {A, B, (11, 13)}                # built on the swamp, from the supply
    assert g.supply(0) == 40 - 2 - 1
    # once per turn with one tile: only the mandatory action is left
    assert kx.legal(kx.with_then(pos, ["fountain", (11, 13)])) == kx.MAND_T_HEXES


def test_M10_fountain_after_the_mandatory_action(kx):
    pos = fountain_position(kx, then=kx.MAND_T_BUILDS)
    assert kx.legal(pos) == {"fountain", "end_turn"}
    assert kx.legal(kx.with_then(pos, kx.MAND_T_BUILDS + ["fountain"])) == {(11, 13)}
    assert kx.answer(kx.with_then(pos, kx.MAND_T_BUILDS + ["fountain", (11, 13)]))["player"] == 1


def test_M10_illegal_fountain_targets_are_refused(kx):
    # two own neighbours, an opponent's neighbour, no own neighbour, water, mountain, occupied
    for target in [(10, 12), (9, 11), (11, 11), (9, 13), (5, 5), (11, 10), (9, 10), B]:
        kx.then_error(fountain_position(kx, then=["fountain", target]), 1)


def test_M10_no_fountain_without_a_target(kx):
    # with the opponent also on (12, 13) the swamp (11, 13) touches an opponent: no target, no fountain
    cells = {**kx.MAND_T, A: "G", B: "G", (11, 13): "S", (12, 13): "G"}
    pos = mpos(kx, cells, settlements=[[A, B], [(12, 13)]], card="T", locations={FL: "fountain"}, tiles=[[FL], []])
    assert kx.legal(pos) == kx.MAND_T_HEXES


# --------------------------------------------------------------------------- M-11 fountain bonus

FL2 = (4, 4)
A2 = (4, 5)      # touches (4, 4) (4, 6) (3, 4) (3, 5) (5, 4) (5, 5): all water or the fountain hex


def bonus_position(kx, bonus=True, then=None):
    """Fill water. Mountains (10, 12) (own A only: a bonus target), (10, 13) (no own neighbour yet), (9, 11)
    (touches the opponent (8, 11)), (15, 15) (no neighbour); desert (11, 11) touches A only."""
    cells = {**kx.MAND_T, A: "G", (11, 11): "D", (10, 12): "M", (10, 13): "M", (9, 11): "M", (15, 15): "M",
             (8, 11): "G"}
    locations = {FL: "fountain"}
    own = [A]
    tiles = [FL]
    if bonus:
        cells[A2] = "G"
        locations[FL2] = "fountain"
        own.append(A2)
        tiles.append(FL2)
    return mpos(kx, cells, fill="W", settlements=[own, [(8, 11)]], card="T", locations=locations,
                tiles=[tiles, []], bonus_tiles=[["fountain"] if bonus else [], []], then=then)


def test_M11_fountain_bonus_allows_a_mountain(kx):
    # FOUNTAIN_BONUS / A_M8: without the bonus only the desert (11, 11); with it also the mountain (10, 12);
    # never (9, 11) (opponent) or (10, 13) / (15, 15) (no own neighbour)
    assert kx.legal(kx.with_then(bonus_position(kx, bonus=False), ["fountain"])) == {(11, 11)}
    pos = bonus_position(kx)
    assert kx.legal(pos) == kx.MAND_T_HEXES | {"fountain"}          # the bonus is no decision of its own
    assert kx.legal(kx.with_then(pos, ["fountain"])) == {(11, 11), (10, 12)}
    g = kx.game(kx.with_then(pos, ["fountain", (10, 12)]))
    assert (10, 12) in kx.settlements(g, 0)
    assert g.supply(0) == 40 - 2 - 1


def test_M11_both_fountain_actions_are_improved_and_no_third_build(kx):
    # FOUNTAIN_BONUS_DE: two fountain tiles = two fountain actions, both may use a mountain. After (10, 12):
    # (11, 11) touches A and (10, 12) (2 own) -> no; (10, 13) touches (10, 12) only -> yes (a mountain).
    pos = bonus_position(kx, then=["fountain", (10, 12)])
    assert kx.legal(pos) == kx.MAND_T_HEXES | {"fountain"}
    assert kx.legal(kx.with_then(pos, ["fountain", (10, 12), "fountain"])) == {(10, 13)}
    # FOUNTAIN_BONUS "does not allow for the building of an additional settlement": after both fountain builds
    # only the mandatory action is left
    done = kx.with_then(pos, ["fountain", (10, 12), "fountain", (10, 13)])
    assert kx.legal(done) == kx.MAND_T_HEXES
    assert kx.legal(kx.with_then(pos, ["fountain", (10, 12), "fountain", (10, 13)] + kx.MAND_T_BUILDS[:1])) \
        == {(18, 1)}


def test_M11_the_mountain_must_still_touch_exactly_one_own_and_no_opponent(kx):
    for target in [(9, 11), (10, 13), (15, 15)]:
        kx.then_error(bonus_position(kx, then=["fountain", target]), 1)


def test_M11_A_M4_bonus_taken_with_the_second_tile_works_from_the_next_turn(kx):
    # BONUS_TAKEN / A_M4_TIMING. Fill water. Player 0 holds the fountain tile of FL through A; the second fountain
    # hex FL2 = (4, 4) touches the grass (4, 5). Grass: (4, 5) (4, 6) (4, 7) and (2, 0) (2, 1) (2, 2). Deck G, C.
    cells = {A: "G", (11, 11): "D", (10, 12): "M", (10, 13): "M", (9, 11): "M", (8, 11): "G",
             (4, 5): "G", (4, 6): "G", (4, 7): "G", (2, 0): "G", (2, 1): "G", (2, 2): "G"}
    pos = mpos(kx, cells, fill="W", settlements=[[A], [(8, 11)]], card="G",
               locations={FL: "fountain", FL2: "fountain"}, tiles=[[FL], []], deck=["G", "C"])
    grass = {(4, 5), (4, 6), (4, 7), (2, 0), (2, 1), (2, 2)}
    assert kx.legal(pos) == grass | {"fountain"}
    turn1 = [(4, 5), (4, 6), (4, 7)]                 # (4, 5) takes the second fountain tile and the bonus
    g = kx.game(kx.with_then(pos, turn1))
    assert kx.tiles(g, 0) == [("fountain", FL2), ("fountain", FL)]         # sorted: (4, 4) before (10, 10)
    assert bonus_held(g, 0) == {"fountain"}
    assert bonus_ready(g, 0) == set()
    assert kx.legal(kx.with_then(pos, turn1)) == {"fountain", "end_turn"}
    # this turn the bonus does not work yet: the mountain (10, 12) is not offered
    assert kx.legal(kx.with_then(pos, turn1 + ["fountain"])) == {(11, 11)}
    # next turn it does (player 1 builds OPP_C in between; player 0 draws grass: (2, 0) (2, 1) (2, 2))
    turn2 = turn1 + ["end_turn", (16, 0), (16, 1), (16, 2)]
    out = kx.answer(kx.with_then(pos, turn2))
    assert out["player"] == 0
    assert out["legal"] == {(2, 0), (2, 1), (2, 2), "fountain"}
    assert bonus_ready(kx.game(kx.with_then(pos, turn2)), 0) == {"fountain"}
    assert kx.legal(kx.with_then(pos, turn2 + ["fountain"])) == {(11, 11), (10, 12)}
