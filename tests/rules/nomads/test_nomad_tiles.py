"""Nomad spaces and nomad tiles (N-4..N-13, A-N1..A-N5).

A position starts at the start of ``current_player``'s turn in round 0. ``nomad_tiles`` are tiles
claimed last round, usable in this round. Multi-turn tests give both players real mandatory actions
and an explicit deck, so every turn of the flow is a decision sequence worked out by hand:

* player 0 (card grass) builds along row 12 from (12, 2) eastwards, one turn = 3 hexes;
* player 1 (card canyon) builds along row 16 from (16, 0) eastwards;
* deck ``G C G C``: player 0 draws grass, player 1 canyon, again and again.

Rule text quoted (the comments below name these):

NOMAD_SPACE (EN 490): "nomad spaces ... appear on these game board sections in place of castle spaces"
CLAIM (EN 538): "After building a settlement next to a nomad space, the player claims the nomad tile from that
    space, if available, and places it on the table for use next round."
EMPTY (EN 540): "If the nomad space is empty, the player receives nothing for building a settlement next to it."
TIMING (EN 542): "The player can use this extra action only during the next game round, not the game round in which
    it is claimed. At the end of the next game round, remove the nomad tile from the game, whether or not the player
    used the action on it!"
FAQ_MOVE (FAQ, spec N-5): "'After building a settlement' means 'After building or moving a settlement'"
KEPT (spec N-7): "The tile is kept even if the player no longer touches the space (FAQ, TG)."
DONATION (EN 556): "Build 3 additional settlements, taken from your supply, on spaces of the terrain type shown on
    the nomad tile. You may perform this extra action either before or after your mandatory action."
DONATION_NOTE (EN 558): "If these 3 additional settlements are built on water or mountain spaces, they do not count
    for gold for the Kingdom Builder cards 'Fishermen' and 'Miners'."
DONATION_FAQ (spec N-8): "FAQ intent: on water, no Fishermen gold (Miners possible); on mountain, no Miners gold
    (Fishermen possible). If it's possible to build your Donation tile houses next to existing houses, you must."
DONATION_STOP (spec 3.2): "It stops early only when there is no target or the supply is 0 (there is no DONE)."
RESETTLEMENT (EN 568): "Move 1-4 settlements up to 4 spaces in total. Settlements can be moved only to adjacent,
    unoccupied spaces that are eligible for building. After movement, these settlements don't need to be adjacent to
    the player's other settlements."
RESETTLEMENT_EXAMPLE (EN 574): "The player moves one of her settlements 3 spaces, then claims the nomad tile next to
    its new location. Then she moves another settlement 1 space next to a location space."
A_N2 (spec A-N2): "Default: every single step is a move that seizes tiles and loses orphaned ones."
A_N3 (spec A-N3): "It needs at least 1 step ('1-4'). The 4 steps are a shared budget; steps of different settlements
    may interleave. The player may stop early (DONE)."
OUTPOST (EN 580-582): "When building settlements, whether during your mandatory action or any extra actions, you may
    use the outpost in order to disregard the adjacency requirement for one settlement. This settlement must still
    be built on the appropriate terrain type for your mandatory action or the specific extra action."
OUTPOST_EXAMPLE (EN 582 picture text): "The player builds settlements A and B next to a location space on the
    appropriate terrain, then uses the outpost to build settlement C next to a nomad space."
SWORD (EN 592): "Remove one settlement belonging to each other player from the game board, then return those
    settlements to their respective supplies. You may perform this extra action either before or after your
    mandatory action."
KEEP_TILE (EN 217, spec N-12): "The player keeps a location tile as long as at least one of their settlements is
    adjacent to the corresponding location."
TREASURE (EN 598): "Gain 3 gold immediately when claiming this tile, then remove it from the game."
A_N1 (spec A-N1): "(a) The tile can be used only in the holder's turn in round (claim round + 1). (b) 'The holder's
    next turn'. The two differ only for off-turn claims. Default (a)."
"""

import pytest

A_N5 = "A player with no plain settlement is skipped. TG: 'Sword cannot cancel the end of game'. ENDING stays set."

READINGS = [pytest.param({}, id="next-round"), pytest.param({"nomad_tile_next_turn": True}, id="next-turn")]

ROW12 = [(12, c) for c in range(2, 11)]          # player 0's grass
ROW16 = [(16, c) for c in range(0, 6)]           # player 1's canyon


def two_turn_cells(n_grass=9):
    cells = {h: "G" for h in ROW12[:n_grass]}
    cells.update({h: "C" for h in ROW16})
    return cells


# --------------------------------------------------------------------------- N-4 nomad spaces


def test_N4_no_settlement_on_a_nomad_space(kx):
    pos = kx.position({(10, 10): "N"}, settlements=[[(10, 10)], []])
    kx.setup_error(pos, "settlements[0]")


# --------------------------------------------------------------------------- N-5 / N-6 claim and timing


@pytest.mark.parametrize("options", READINGS)
@pytest.mark.parametrize("kind", ["sword", None], ids=["sword", "empty-space"])
def test_N5_N6_claim_on_build_usable_in_next_round_only(kx, kind, options):
    # CLAIM / EMPTY / TIMING. Nomad space (12, 1) touches (12, 2), player 0's first build.
    spaces = {(12, 1): kind} if kind else {}
    pos = kx.position({**two_turn_cells(), (12, 1): "N"}, settlements=[[], []], hands=["G", "C"],
                      deck=["G", "C", "G", "C"], nomad_spaces=spaces, options=options)
    out = kx.answer(pos)
    assert out["player"] == 0 and out["legal"] == set(ROW12)
    round0 = [(12, 2), (12, 3), (12, 4)]
    out = kx.answer(kx.with_then(pos, round0))
    # the claimed tile gives no decision in its claim round: nothing is left, the turn ends by itself
    assert out["player"] == 1 and out["legal"] == set(ROW16)
    assert kx.nomad_spaces(kx.game(kx.with_then(pos, round0))) == {(12, 1): None}
    round0 += [(16, 0), (16, 1), (16, 2)]
    out = kx.answer(kx.with_then(pos, round0))
    assert out["player"] == 0
    assert out["legal"] == ({(12, 5), "sword"} if kind else {(12, 5)})   # sword: player 1 has settlements
    round1 = round0 + [(12, 5), (12, 6), (12, 7)]
    if kind:
        assert kx.legal(kx.with_then(pos, round1)) == {"sword", "end_turn"}
        round1.append("end_turn")                             # not used
    round1 += [(16, 3), (16, 4), (16, 5)]
    out = kx.answer(kx.with_then(pos, round1))
    # round 2: the unused tile was removed at the end of round 1
    assert out["player"] == 0 and out["legal"] == {(12, 8)}


@pytest.mark.parametrize("options", READINGS)
def test_N6_unused_tile_is_removed_at_end_of_its_round(kx, options):
    # TIMING "whether or not the player used the action on it": a tile usable in round 0 (claimed in the
    # round before) is gone in round 1. Player 1's settlement (3, 3) makes the sword usable.
    cells = {**two_turn_cells(6), (3, 3): "G"}
    pos = kx.position(cells, settlements=[[], [(3, 3)]], hands=["G", "C"], deck=["G", "C"],
                      nomad_tiles=[["sword"], []], options=options)
    assert kx.legal(pos) == set(ROW12[:6]) | {"sword"}
    then = [(12, 2), (12, 3), (12, 4)]
    assert kx.legal(kx.with_then(pos, then)) == {"sword", "end_turn"}
    then += ["end_turn", (16, 0), (16, 1), (16, 2)]
    out = kx.answer(kx.with_then(pos, then))
    assert out["player"] == 0 and out["legal"] == {(12, 5)}


def test_N5_claim_on_move_with_barn(kx):
    # FAQ_MOVE: player 0 moves (12, 12) with the Barn (card grass) to (8, 8), next to the nomad space
    # (8, 9). Own (5, 6) holds the barn tile (barn (5, 5)); no grass touches own, so any grass is legal.
    grass = [(8, 4), (8, 5), (8, 6), (8, 7), (8, 8)]
    cells = {(5, 5): "b", (5, 6): "T", (12, 12): "T", (8, 9): "N", **{h: "G" for h in grass}}
    pos = kx.position(cells, settlements=[[(5, 6), (12, 12)], []], hands=["G", "C"], deck=["G", "C"],
                      tiles=[[(5, 5)], []], nomad_spaces={(8, 9): "sword"})
    assert kx.legal(pos) == set(grass) | {"barn"}
    assert kx.legal(kx.with_then(pos, ["barn"])) == {(5, 6), (12, 12)}
    assert kx.legal(kx.with_then(pos, ["barn", (12, 12)])) == set(grass)
    moved = ["barn", (12, 12), (8, 8)]
    assert kx.nomad_spaces(kx.game(kx.with_then(pos, moved))) == {(8, 9): None}
    assert kx.legal(kx.with_then(pos, moved)) == {(8, 7)}      # mandatory, next to own (8, 8)
    # finish round 0 (player 0's turn ends by itself: barn used, sword fresh), player 1 builds
    then = moved + [(8, 7), (8, 6), (8, 5), (16, 0), (16, 1), (16, 2)]
    out = kx.answer(kx.with_then(pos, then))
    assert out["player"] == 0 and out["legal"] == {(8, 4), "barn", "sword"}


def test_N7_tile_kept_after_moving_away_from_the_space(kx):
    # KEPT: player 0 claims the sword at (12, 1) with the first build (12, 2), then moves (12, 2) with the
    # Paddock two hexes north-east to (10, 3). No own settlement touches (12, 1) any more; in round 1
    # the sword is usable all the same. Paddock tile via own (14, 15) on forest next to paddock (14, 14).
    cells = {**two_turn_cells(6), (12, 1): "N", (10, 3): "G", (14, 14): "p", (14, 15): "T"}
    pos = kx.position(cells, settlements=[[(14, 15)], []], hands=["G", "C"], deck=["G", "C"],
                      tiles=[[(14, 14)], []], nomad_spaces={(12, 1): "sword"})
    assert kx.legal(pos) == set(ROW12[:6]) | {(10, 3)}      # no paddock move possible yet
    then = [(12, 2), (12, 3), (12, 4)]
    assert kx.legal(kx.with_then(pos, then)) == {"paddock", "end_turn"}
    then += ["paddock", (12, 2), (10, 3), (16, 0), (16, 1), (16, 2)]
    g = kx.game(kx.with_then(pos, then))
    assert kx.settlements(g, 0) == {(14, 15), (10, 3), (12, 3), (12, 4)}
    out = kx.answer(kx.with_then(pos, then))
    # mandatory: grass next to own = (12, 2) (by (12, 3)) and (12, 5) (by (12, 4))
    assert out["player"] == 0 and out["legal"] == {(12, 2), (12, 5), "sword", "paddock"}


def test_N13_treasure_gives_3_gold_at_once(kx):
    cells = {(12, 1): "N", (12, 2): "G", (12, 3): "G", (12, 4): "G"}
    pos = kx.position(cells, settlements=[[], []], card="G", gold=[4, 0], nomad_spaces={(12, 1): "treasure"},
                      then=[(12, 2)])
    g = kx.game(pos)
    assert kx.gold(g, 0) == 7                                    # 4 banked + 3 at once, mid-mandatory
    assert kx.gold(g, 1) == 0
    assert kx.nomad_spaces(g) == {(12, 1): None}
    assert kx.legal(pos) == {(12, 3)}
    # the treasure is not held: after the mandatory action nothing is left and the turn ends
    out = kx.answer(kx.with_then(pos, [(12, 2), (12, 3), (12, 4)]))
    assert out["player"] == 1


# --------------------------------------------------------------------------- N-8 donation

DONATION_OWN = (10, 10)


def donation_position(kx, kind, fill, then=None):
    """Own (10, 10) on grass; the donation terrain X on (10, 11) (10, 12) (10, 13) (9, 10) and far (15, 5).
    Neighbours: (10, 10) touches (10, 11) and (9, 10); (10, 11) touches (10, 12) and (9, 10); (10, 12)
    touches (10, 13)."""
    terrain = kind[-1]
    cells = {**kx.MAND_T, DONATION_OWN: "G"}
    cells.update({h: terrain for h in [(10, 11), (10, 12), (10, 13), (9, 10), (15, 5)]})
    return kx.position(cells, fill=fill, settlements=[[DONATION_OWN], []], card="T",
                       nomad_tiles=[[kind], []], cards=["fishermen", "miners", "knights"], then=then)


@pytest.mark.parametrize("kind,fill,fishermen,miners", [
    # water on a mountain board: the 3 settlements on water give no Fishermen; each touches a mountain
    # (Miners 1 each); own (10, 10) keeps Fishermen 1 through the free water (9, 10) and Miners 1.
    ("donation-W", "M", 1, 4),
    # mountain on a water board: the 3 settlements on mountains give no Miners; each touches water
    # (Fishermen 1 each); own (10, 10): Fishermen 1 (water all round), Miners 1 (free mountain (9, 10)).
    ("donation-M", "W", 4, 1),
])
def test_N8_donation_water_and_mountain(kx, kind, fill, fishermen, miners):
    # DONATION / DONATION_NOTE / DONATION_FAQ
    pos = donation_position(kx, kind, fill)
    assert kx.legal(pos) == kx.MAND_T_HEXES | {kind}
    then = [kind]
    assert kx.legal(kx.with_then(pos, then)) == {(10, 11), (9, 10)}     # adjacent if possible
    then.append((10, 11))
    assert kx.legal(kx.with_then(pos, then)) == {(10, 12), (9, 10)}
    then.append((10, 12))
    assert kx.legal(kx.with_then(pos, then)) == {(10, 13), (9, 10)}
    then.append((10, 13))
    assert kx.legal(kx.with_then(pos, then)) == kx.MAND_T_HEXES        # 3 built, tile used
    g = kx.game(kx.with_then(pos, then))
    assert kx.settlements(g, 0) == {DONATION_OWN, (10, 11), (10, 12), (10, 13)}
    assert g.supply(0) == 36
    cards = kx.game_scores(g)[0]["cards"]
    # Knights: row 10 holds 4 -> 8
    assert cards == {"fishermen": fishermen, "miners": miners, "knights": 8}


def test_N8_donation_before_or_after_mandatory_not_between(kx):
    pos = donation_position(kx, "donation-W", "M")
    assert kx.legal(kx.with_then(pos, [(18, 0)])) == {(18, 1)}            # mid-mandatory: builds only
    assert kx.legal(kx.with_then(pos, kx.MAND_T_BUILDS)) == {"donation-W", "end_turn"}


def test_N8_donation_stops_when_no_target_is_left(kx):
    # DONATION_STOP: only 2 free grass hexes (10, 11) (10, 12); own (10, 10) on canyon
    cells = {**kx.MAND_T, (10, 10): "C", (10, 11): "G", (10, 12): "G"}
    pos = kx.position(cells, settlements=[[(10, 10)], []], card="T", nomad_tiles=[["donation-G"], []])
    assert kx.legal(kx.with_then(pos, ["donation-G"])) == {(10, 11)}
    assert kx.legal(kx.with_then(pos, ["donation-G", (10, 11)])) == {(10, 12)}
    done = kx.with_then(pos, ["donation-G", (10, 11), (10, 12)])
    assert kx.legal(done) == kx.MAND_T_HEXES
    g = kx.game(done)
    assert g.supply(0) == 37


# --------------------------------------------------------------------------- N-9 resettlement


def test_N9_resettlement_en574_three_steps_then_one(kx):
    # RESETTLEMENT_EXAMPLE: A = (10, 4) walks east (10, 5) (10, 6) (10, 7) and claims the donation at
    # (10, 8); then B = (14, 10) steps to (14, 11) next to the oracle (14, 12). Budget 4 spent.
    A, B = (10, 4), (14, 10)
    cells = {**kx.MAND_T, A: "G", (10, 5): "G", (10, 6): "G", (10, 7): "G", (10, 8): "N",
             B: "G", (14, 11): "G", (14, 12): "o"}
    pos = kx.position(cells, settlements=[[A, B], []], card="T", nomad_tiles=[["resettlement"], []],
                      nomad_spaces={(10, 8): "donation-G"})
    assert kx.legal(pos) == kx.MAND_T_HEXES | {"resettlement"}
    steps = [
        ("resettlement", {A, B}),                 # sources; no "done" before the first step
        (A, {(10, 5)}),
        ((10, 5), {(10, 5), B, "done"}),
        ((10, 5), {(10, 4), (10, 6)}),            # any eligible neighbour, also back
        ((10, 6), {(10, 6), B, "done"}),
        ((10, 6), {(10, 5), (10, 7)}),
        ((10, 7), {(10, 7), B, "done"}),          # 3 steps used, (10, 8) claimed
        (B, {(14, 11)}),
    ]
    then = []
    for decision, expected in steps:
        then.append(decision)
        assert kx.legal(kx.with_then(pos, then)) == expected, then
    g = kx.game(kx.with_then(pos, then[:7]))
    assert kx.nomad_spaces(g) == {(10, 8): None}
    then.append((14, 11))                         # 4th step: the power ends
    out, final = kx.settled(kx.with_then(pos, then))
    assert out["player"] == 0 and out["legal"] == kx.MAND_T_HEXES
    g = kx.game(final)
    assert kx.settlements(g, 0) == {(10, 7), (14, 11)}
    assert g.supply(0) == 38
    assert kx.tiles(g, 0) == [("oracle", (14, 12))]


STEP_INTO = {
    "water": ({(10, 11): "W"}, {}),
    "mountain": ({(10, 11): "M"}, {}),
    "castle": ({(10, 11): "K"}, {}),
    "location": ({(10, 11): "o"}, {}),
    "nomad-space": ({(10, 11): "N"}, {}),
    "wall": ({(10, 11): "G"}, {"walls": [(10, 11)]}),
    "own-settlement": ({(10, 11): "G"}, {"own": [(10, 11)]}),
    "opponent-settlement": ({(10, 11): "G"}, {"opp": [(10, 11)]}),
    "free-grass": ({(10, 11): "G"}, {}),
}


@pytest.mark.parametrize("kind", sorted(STEP_INTO))
def test_N9_resettlement_step_only_into_eligible_hexes(kx, kind):
    # RESETTLEMENT "only to adjacent, unoccupied spaces that are eligible for building": S = (10, 10) has
    # the free grass (10, 9) west and the tested hex (10, 11) east; the rest is mountain.
    cells, extra = STEP_INTO[kind]
    S = (10, 10)
    pos = kx.position({**kx.MAND_T, S: "G", (10, 9): "G", **cells},
                      settlements=[[S, *extra.get("own", [])], extra.get("opp", [])], card="T",
                      walls=extra.get("walls"), nomad_tiles=[["resettlement"], []])
    # an own settlement on (10, 11) has no free neighbour, so it is not a source
    assert kx.legal(kx.with_then(pos, ["resettlement"])) == {S}
    expected = {(10, 9), (10, 11)} if kind == "free-grass" else {(10, 9)}
    assert kx.legal(kx.with_then(pos, ["resettlement", S])) == expected
    if kind != "free-grass":
        kx.then_error(kx.with_then(pos, ["resettlement", S, (10, 11)]), 2)


def test_N9_resettlement_done_after_one_step(kx):
    # A_N3: DONE is legal after >= 1 step and ends the power; the tile is used up
    cells = {**kx.MAND_T, (10, 10): "G", (10, 11): "G", (10, 12): "G"}
    pos = kx.position(cells, settlements=[[(10, 10)], []], card="T", nomad_tiles=[["resettlement"], []])
    assert kx.legal(kx.with_then(pos, ["resettlement"])) == {(10, 10)}
    assert kx.legal(kx.with_then(pos, ["resettlement", (10, 10)])) == {(10, 11)}
    assert kx.legal(kx.with_then(pos, ["resettlement", (10, 10), (10, 11)])) == {(10, 11), "done"}
    kx.then_error(kx.with_then(pos, ["resettlement", "done"]), 1)
    done = kx.with_then(pos, ["resettlement", (10, 10), (10, 11), "done"])
    assert kx.legal(done) == kx.MAND_T_HEXES
    assert kx.settlements(kx.game(done), 0) == {(10, 11)}


def test_N9_resettlement_budget_is_four_steps(kx):
    # one settlement walks east along (10, 11)..(10, 15): after 4 steps the power ends at (10, 14)
    cells = {**kx.MAND_T, **{(10, c): "G" for c in range(10, 16)}}
    pos = kx.position(cells, settlements=[[(10, 10)], []], card="T", nomad_tiles=[["resettlement"], []])
    then = ["resettlement"]
    for c in range(10, 13):
        then += [(10, c), (10, c + 1)]
    assert kx.legal(kx.with_then(pos, then)) == {(10, 13), "done"}
    then += [(10, 13), (10, 14)]
    out, final = kx.settled(kx.with_then(pos, then))
    assert out["player"] == 0 and out["legal"] == kx.MAND_T_HEXES
    assert kx.settlements(kx.game(final), 0) == {(10, 14)}


def test_A_N2_resettlement_claims_nomad_tiles_en_route(kx):
    # A_N2: (10, 4) -> (10, 5) -> (11, 5). Only (10, 5) touches the nomad space (9, 5).
    cells = {**kx.MAND_T, (10, 4): "G", (10, 5): "G", (11, 5): "G", (9, 5): "N"}
    pos = kx.position(cells, settlements=[[(10, 4)], []], card="T", nomad_tiles=[["resettlement"], []],
                      nomad_spaces={(9, 5): "sword"},
                      then=["resettlement", (10, 4), (10, 5), (10, 5), (11, 5), "done"])
    g = kx.game(pos)
    assert kx.settlements(g, 0) == {(11, 5)}
    assert kx.nomad_spaces(g) == {(9, 5): None}


# --------------------------------------------------------------------------- N-10 outpost


def test_N10_outpost_waives_adjacency_for_one_mandatory_build(kx):
    # OUTPOST / OUTPOST_EXAMPLE: own (10, 10); grass (10, 11) (10, 12) (10, 13) in a row, far grass (15, 5)
    # (15, 7), far canyon (15, 9). The outpost is used for the 2nd mandatory build.
    cells = {(10, 10): "G", (10, 11): "G", (10, 12): "G", (10, 13): "G", (15, 5): "G", (15, 7): "G", (15, 9): "C"}
    pos = kx.position(cells, settlements=[[(10, 10)], []], card="G", nomad_tiles=[["outpost"], []])
    assert kx.legal(pos) == {(10, 11), "outpost"}
    assert kx.legal(kx.with_then(pos, [(10, 11)])) == {(10, 12), "outpost"}
    # armed: any free grass, adjacent or not; never another terrain
    assert kx.legal(kx.with_then(pos, [(10, 11), "outpost"])) == {(10, 12), (10, 13), (15, 5), (15, 7)}
    # consumed: the 3rd build must be adjacent again, and the outpost is gone
    assert kx.legal(kx.with_then(pos, [(10, 11), "outpost", (15, 5)])) == {(10, 12)}
    done = kx.with_then(pos, [(10, 11), "outpost", (15, 5), (10, 12)])
    out = kx.answer(done)
    assert out["player"] == 1                                    # nothing left: the turn ended
    assert kx.settlements(kx.game(done), 0) == {(10, 10), (10, 11), (15, 5), (10, 12)}
    # armed before the mandatory action: the 1st build is free, the 2nd must touch own again
    assert kx.legal(kx.with_then(pos, ["outpost"])) == {(10, 11), (10, 12), (10, 13), (15, 5), (15, 7)}
    assert kx.legal(kx.with_then(pos, ["outpost", (15, 5)])) == {(10, 11)}


# --------------------------------------------------------------------------- N-11 / N-12 sword


def test_N11_sword_removes_one_settlement_of_each_other_player(kx):
    cells = {**kx.MAND_T, (5, 5): "G", (5, 7): "G", (7, 5): "G"}
    pos = kx.position(cells, settlements=[[], [(5, 5), (5, 7)], [(7, 5)]], card="T",
                      nomad_tiles=[["sword"], [], []])
    assert kx.legal(pos) == kx.MAND_T_HEXES | {"sword"}
    assert kx.legal(kx.with_then(pos, ["sword"])) == {(5, 5), (5, 7)}     # player 1 first (seat order)
    assert kx.legal(kx.with_then(pos, ["sword", (5, 5)])) == {(7, 5)}     # then player 2
    done = kx.with_then(pos, ["sword", (5, 5), (7, 5)])
    assert kx.legal(done) == kx.MAND_T_HEXES
    g = kx.game(done)
    assert kx.settlements(g, 1) == {(5, 7)} and kx.settlements(g, 2) == set()
    assert (g.supply(0), g.supply(1), g.supply(2)) == (40, 39, 40)


def test_N11_sword_skips_a_player_without_settlements(kx):
    cells = {**kx.MAND_T, (7, 5): "G"}
    pos = kx.position(cells, settlements=[[], [], [(7, 5)]], card="T", nomad_tiles=[["sword"], [], []])
    assert kx.legal(kx.with_then(pos, ["sword"])) == {(7, 5)}
    assert kx.legal(kx.with_then(pos, ["sword", (7, 5)])) == kx.MAND_T_HEXES


def test_N11_sword_not_offered_without_a_victim(kx):
    pos = kx.position(dict(kx.MAND_T), settlements=[[], [], []], card="T", nomad_tiles=[["sword"], [], []])
    assert kx.legal(pos) == kx.MAND_T_HEXES


@pytest.mark.parametrize("second,keeps", [(None, False), ((2, 3), True)], ids=["orphaned", "still-adjacent"])
def test_N12_sword_victim_loses_an_orphaned_tile(kx, second, keeps):
    # KEEP_TILE: player 1 holds the farm tile of (3, 3) through (3, 4) (and maybe (2, 3)); the sword takes (3, 4)
    own1 = [(3, 4)] + ([second] if second else [])
    cells = {**kx.MAND_T, (3, 3): "f", (3, 4): "G", (2, 3): "G"}
    pos = kx.position(cells, settlements=[[], own1], card="T", tiles=[[], [(3, 3)]], nomad_tiles=[["sword"], []])
    assert kx.legal(kx.with_then(pos, ["sword"])) == set(own1)
    g = kx.game(kx.with_then(pos, ["sword", (3, 4)]))
    assert kx.tiles(g, 1) == ([("farm", (3, 3))] if keeps else [])
    assert g.tiles_left((3, 3)) == 1                              # a lost tile leaves the game
    assert g.supply(1) == 40 - len(own1) + 1


def test_N11_sword_does_not_cancel_the_game_end(kx):
    # A_N5: start player 1 builds its last 3 settlements (supply 3 -> 0): the game ends after this round,
    # whose last turn is player 0's. Player 0 uses the sword on player 1 (supply back to 1): the game
    # still ends after player 0's turn.
    cells = {(16, 0): "C", (16, 1): "C", (16, 2): "C", (16, 3): "C", (12, 2): "G", (12, 3): "G", (12, 4): "G"}
    pos = kx.position(cells, opp_area=False, settlements=[[], [(16, 0)]], hands=["G", "C"], deck=["C", "G"],
                      supply=[40, 3], start_player=1, current_player=1, nomad_tiles=[["sword"], []])
    assert kx.answer(pos)["player"] == 1 and kx.legal(pos) == {(16, 1)}
    then = [(16, 1), (16, 2), (16, 3)]
    out = kx.answer(kx.with_then(pos, then))
    assert out["player"] == 0 and out["legal"] == {(12, 2), (12, 3), (12, 4), "sword"}
    then.append("sword")
    assert kx.legal(kx.with_then(pos, then)) == {(16, 0), (16, 1), (16, 2), (16, 3)}
    then += [(16, 3), (12, 2), (12, 3), (12, 4)]
    g = kx.game(kx.with_then(pos, then))
    assert g.supply(1) == 1
    assert g.done and g.phase == "game_over"
