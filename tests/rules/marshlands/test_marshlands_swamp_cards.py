"""Marshlands swamp terrain and swamp cards (M-4, M-5, A-M2, A-M3).

Positions are built on mountain-filled boards (conftest, ``kx``) with the Marshlands keys of
``marshlands_helpers`` (every API assumption is there). Player 0 holds the swamp card under test;
player 1 holds canyon with ``OPP_C`` = (16, 0) (16, 1) (16, 2), so its turn is three forced builds.

Areas used below:

* ``SWAMP_ROW`` (14, 0) (14, 1) (14, 2): three swamp hexes in a row, far from everything;
* ``DESERT_ROW`` (18, 0) (18, 1) (18, 2): three desert hexes in a row, far from everything.

Rows 14, 16 and 18 are two rows apart, so no hex of one row touches another row.

Rule text quoted (the comments below name these):

SWAMP_CARD (EN 1071): "If a player's terrain card shows a swamp and another terrain type that's suitable to be built
    upon, the player must place as their mandatory action either 2 settlements from their personal supply on
    unoccupied swamp hexes or 3 settlements on unoccupied hexes of the depicted terrain type. The usual building
    rules apply in both cases."
SAME_TERRAIN (EN 1073): "Note: If a player performs the oracle or barn extra action, they must choose the same
    terrain type for both their mandatory action and their extra action."
EXAMPLE_1077 (EN 1077): "Example: Frank (orange) has drawn a swamp/desert card. He now chooses whether to build 2
    settlements on swamp hexes or 3 on desert hexes."
SWAMP_TERRAIN (EN 984): "This expansion introduces a new terrain type found on all 4 game board sections that is
    suitable for being built upon: swamp."
DECK (EN 1061): "Shuffle the 5 new terrain cards with the terrain cards of the basic game, then place this deck face
    down next to the game board."
IGNORE_SWAMP (EN 1063): "If you want, you can combine all the Kingdom Builder expansions, leaving the new terrain
    cards in the terrain deck even when one of these game board sections is not in play. In this case, simply ignore
    the swamp pictured on these cards."
LAZY (spec, decision 8): "As for Crossroads hands (A-C8), the choice between swamp and the other terrain is lazy:
    the first hex built names the terrain; there is no separate terrain decision."
A_M2 (spec A-M2): "The choice is made when the mandatory terrain is first needed (lazy). Oracle, Barn, Quarry and
    Cathedral must use the same terrain. No-eligible-hex exception: the card is replaced only when neither swamp nor
    X has a free hex (R). If only one of them has a free hex, that option is forced. Families cannot score with 2
    swamp builds."
A_M3 (spec A-M3): "Swamp cards without swamp hexes. The swamp option is simply not offered (EN 1063)."
FAMILIES (EN 614-616): "2 gold, if you built all 3 settlements of the mandatory action adjacent to each other in
    straight line (horizontally or diagonally)."
"""

from collections import Counter

import pytest

from tests.rules.marshlands.helpers import full_deck, game_mscores, mpos, new_game, state, swamp_card

SWAMP_ROW = [(14, 0), (14, 1), (14, 2)]
DESERT_ROW = [(18, 0), (18, 1), (18, 2)]
SWAMPS = {h: "S" for h in SWAMP_ROW}
DESERTS = {h: "D" for h in DESERT_ROW}


# --------------------------------------------------------------------------- M-4 the deck


def test_M4_the_terrain_deck_has_30_cards_with_the_5_swamp_cards():
    # DECK: 25 base cards (5 per terrain) + swamp/grass, swamp/canyon, swamp/desert, swamp/flower, swamp/forest
    # The cards are named: with Scouts among 3 random cards its set-up (M-16, EN 1211) takes 6 cards out.
    for seed in range(6):
        n = 2 + seed % 4
        st = state(new_game(n, seed, cards=["fishermen", "knights", "merchants"]))
        cards = [c for c in st["hands"] if c is not None] + list(st["deck"]) + list(st.get("discard", []))
        assert len(cards) == 30, (seed, cards)
        assert Counter(cards) == Counter(full_deck()), seed
        assert list(st.get("removed", [])) == []


# --------------------------------------------------------------------------- M-5 two on swamp or three on X


def test_M5_en1077_two_on_swamp_or_three_on_desert(kx):
    # EXAMPLE_1077 / LAZY: no swamp or desert touches player 0 (no settlement), so the first build may go on any of
    # the 3 swamps or the 3 deserts. Swamp chosen: 2 builds (the second adjacent: (14, 0) or (14, 2)), then the turn
    # is over (nothing else to do, END_TURN taken automatically). Desert chosen: 3 builds.
    pos = mpos(kx, {**SWAMPS, **DESERTS}, settlements=[[], []], hands=[swamp_card("D"), "C"])
    out = kx.answer(pos)
    assert out["player"] == 0 and out["phase"] == "idle"
    assert out["legal"] == set(SWAMP_ROW) | set(DESERT_ROW)
    # swamp: 2 settlements
    out = kx.answer(kx.with_then(pos, [(14, 1)]))
    assert out["phase"] == "mandatory" and out["legal"] == {(14, 0), (14, 2)}   # the desert option is gone
    out = kx.answer(kx.with_then(pos, [(14, 1), (14, 0)]))
    assert out["player"] == 1 and out["legal"] == kx.OPP_C_HEXES              # 2 builds end the mandatory action
    g = kx.game(kx.with_then(pos, [(14, 1), (14, 0)]))
    assert kx.settlements(g, 0) == {(14, 1), (14, 0)}
    assert g.supply(0) == 40 - 2
    # desert: 3 settlements
    assert kx.legal(kx.with_then(pos, [(18, 1)])) == {(18, 0), (18, 2)}
    assert kx.legal(kx.with_then(pos, [(18, 1), (18, 0)])) == {(18, 2)}
    out = kx.answer(kx.with_then(pos, [(18, 1), (18, 0), (18, 2)]))
    assert out["player"] == 1
    assert kx.settlements(kx.game(kx.with_then(pos, DESERT_ROW)), 0) == set(DESERT_ROW)


@pytest.mark.parametrize("first,second", [((14, 1), (18, 0)), ((18, 1), (14, 0))], ids=["swamp-then-desert",
                                                                                      "desert-then-swamp"])
def test_M5_the_first_build_fixes_the_terrain(kx, first, second):
    # SWAMP_CARD "either ... or": the two options are never mixed within one mandatory action
    pos = mpos(kx, {**SWAMPS, **DESERTS}, settlements=[[], []], hands=[swamp_card("D"), "C"], then=[first, second])
    kx.then_error(pos, 1)


def test_M5_usual_building_rules_apply_to_each_option(kx):
    # SWAMP_CARD "The usual building rules apply in both cases" / decision 8 "each computed with its own
    # adjacency-if-possible": own (12, 5) touches the swamp (12, 6) and no desert. Swamp: only (12, 6) (adjacent
    # possible); desert: none touches own, so any desert. The far swamps (14, 0) (14, 1) are not legal.
    cells = {(12, 5): "G", (12, 6): "S", (14, 0): "S", (14, 1): "S", **DESERTS}
    pos = mpos(kx, cells, settlements=[[(12, 5)], []], hands=[swamp_card("D"), "C"])
    assert kx.legal(pos) == {(12, 6)} | set(DESERT_ROW)
    # after (12, 6) no other swamp touches (12, 5) or (12, 6), so the second swamp goes anywhere
    assert kx.legal(kx.with_then(pos, [(12, 6)])) == {(14, 0), (14, 1)}
    kx.then_error(kx.with_then(pos, [(14, 0)]), 0)


@pytest.mark.parametrize("terrain", list("GCDFT"))
def test_M5_every_swamp_card_offers_swamp_or_its_terrain(kx, terrain):
    # EN 1039-1051: swamp/grass, swamp/canyon, swamp/desert, swamp/flower field, swamp/forest
    cells = {**SWAMPS, (18, 0): terrain, (18, 1): terrain, (18, 2): terrain, (5, 5): "C" if terrain != "C" else "D"}
    pos = mpos(kx, cells, settlements=[[], []], hands=[swamp_card(terrain), "C"], opp_area=False)
    assert kx.legal(pos) == set(SWAMP_ROW) | set(DESERT_ROW)     # never (5, 5), another terrain


# --------------------------------------------------------------------------- M-5 Oracle and Barn (EN 1073)

HOME = (10, 11)      # next to the oracle / barn hex (10, 10); touches (9, 11) swamp and (10, 12) desert


def oracle_position(kx, then=None):
    cells = {HOME: "G", (9, 11): "S", (10, 12): "D", (14, 0): "S", (14, 1): "S", **DESERTS, (5, 5): "D"}
    return mpos(kx, cells, settlements=[[HOME], []], hands=[swamp_card("D"), "C"], tiles=[[(10, 10)], []],
                locations={(10, 10): "oracle"}, then=then)


def test_M5_oracle_before_the_mandatory_action_fixes_the_terrain(kx):
    # SAME_TERRAIN. Before any choice: mandatory = adjacent swamp (9, 11) or adjacent desert (10, 12); the
    # oracle offers the same union.
    pos = oracle_position(kx)
    assert kx.legal(pos) == {(9, 11), (10, 12), "oracle"}
    assert kx.legal(kx.with_then(pos, ["oracle"])) == {(9, 11), (10, 12)}
    # the oracle builds on swamp (9, 11): the mandatory action is now 2 swamp builds. No free swamp touches
    # (10, 11) or (9, 11) ((9, 11) touches (9, 10) (9, 12) (8, 11) (8, 12) (10, 11) (10, 12)), so any free swamp;
    # the adjacent desert (10, 12) is not legal any more.
    assert kx.legal(kx.with_then(pos, ["oracle", (9, 11)])) == {(14, 0), (14, 1)}
    kx.then_error(oracle_position(kx, then=["oracle", (9, 11), (10, 12)]), 2)
    assert kx.legal(kx.with_then(pos, ["oracle", (9, 11), (14, 0)])) == {(14, 1)}
    out = kx.answer(kx.with_then(pos, ["oracle", (9, 11), (14, 0), (14, 1)]))
    assert out["player"] == 1                                                # 2 swamp builds: done


def test_M5_oracle_after_a_desert_mandatory_action_builds_desert(kx):
    # SAME_TERRAIN: mandatory on desert (10, 12), then (no desert touches own) anywhere: (18, 1), (18, 0).
    # Oracle afterwards: desert only; the swamp (9, 11) next to HOME is not offered; the free deserts are
    # (18, 2) (touches (18, 1)) and (5, 5): adjacent if possible -> (18, 2).
    mandatory = [(10, 12), (18, 1), (18, 0)]
    pos = oracle_position(kx, then=mandatory)
    assert kx.legal(pos) == {"oracle", "end_turn"}
    assert kx.legal(kx.with_then(pos, mandatory + ["oracle"])) == {(18, 2)}
    kx.then_error(oracle_position(kx, then=mandatory + ["oracle", (9, 11)]), 4)


def test_M5_barn_after_a_swamp_mandatory_action_moves_to_swamp(kx):
    # SAME_TERRAIN for the barn: after 2 swamp builds (14, 0) (14, 1), the barn moves HOME to a swamp hex,
    # adjacent to own if possible: (14, 2) touches (14, 1). Never to the deserts.
    cells = {HOME: "G", (10, 12): "D", **SWAMPS, **DESERTS}
    pos = mpos(kx, cells, settlements=[[HOME], []], hands=[swamp_card("D"), "C"], tiles=[[(10, 10)], []],
               locations={(10, 10): "barn"}, then=[(14, 0), (14, 1)])
    assert kx.legal(pos) == {"barn", "end_turn"}
    assert kx.legal(kx.with_then(pos, [(14, 0), (14, 1), "barn", HOME])) == {(14, 2)}


# --------------------------------------------------------------------------- A-M2 / A-M3 no eligible hex


def test_A_M3_no_swamp_hex_means_the_other_terrain(kx):
    # IGNORE_SWAMP / A_M3: a board without swamp: the swamp/desert card is a desert card (3 builds)
    pos = mpos(kx, DESERTS, settlements=[[], []], hands=[swamp_card("D"), "C"])
    assert kx.legal(pos) == set(DESERT_ROW)
    assert kx.legal(kx.with_then(pos, [(18, 0), (18, 1)])) == {(18, 2)}
    assert kx.answer(kx.with_then(pos, DESERT_ROW))["player"] == 1
    assert list(kx.game(pos).removed_cards()) == []


def test_A_M2_only_swamp_free_forces_swamp_and_keeps_the_card(kx):
    # A_M2 "If only one of them has a free hex, that option is forced": the only desert hex holds player 1's
    # settlement; the card is not replaced, player 0 builds 2 swamps.
    cells = {**SWAMPS, (18, 0): "D"}
    pos = mpos(kx, cells, settlements=[[], [(18, 0)]], hands=[swamp_card("D"), "C"], deck=["G", "G"])
    assert kx.legal(pos) == set(SWAMP_ROW)
    g = kx.game(pos)
    assert list(g.removed_cards()) == [] and g.deck_size() == 2
    assert kx.answer(kx.with_then(pos, [(14, 1), (14, 2)]))["player"] == 1


def test_A_M2_the_card_is_replaced_only_when_neither_option_has_a_free_hex(kx):
    # A_M2: no swamp hex and no desert hex is free -> the swamp/desert card leaves the game and the next card
    # (grass) is drawn: the mandatory action is on the grass row (12, 0) (12, 1) (12, 2).
    cells = {(14, 0): "S", (18, 0): "D", (12, 0): "G", (12, 1): "G", (12, 2): "G"}
    pos = mpos(kx, cells, settlements=[[], [(14, 0), (18, 0)]], hands=[swamp_card("D"), "C"], deck=["G", "C"])
    assert kx.legal(pos) == {(12, 0), (12, 1), (12, 2)}
    g = kx.game(pos)
    assert list(g.removed_cards()) == [swamp_card("D")]
    assert g.hand(0) == "G" and g.deck_size() == 1


def test_A_M2_families_never_scores_two_swamp_builds(kx):
    # FAMILIES needs "all 3 settlements of the mandatory action" in a line; a swamp mandatory action has 2.
    pos = mpos(kx, SWAMPS, settlements=[[], []], hands=[swamp_card("D"), "C"], expansions=("marshlands", "nomads"),
               cards=["families", "fishermen", "knights"], then=[(14, 0), (14, 1)])
    g = kx.game(pos)
    assert kx.settlements(g, 0) == {(14, 0), (14, 1)}
    assert game_mscores(g)[0]["gold"] == 0


def test_M5_swamp_is_buildable_terrain_in_positions(kx):
    # SWAMP_TERRAIN: a settlement may stand on swamp (A16), and it counts like any settlement (knights: 2 gold
    # per settlement in the best row: row 14 holds 2 -> 4)
    pos = mpos(kx, SWAMPS, settlements=[[(14, 0), (14, 2)], []], cards=["knights", "fishermen", "hermits"])
    g = kx.game(pos)
    assert kx.settlements(g, 0) == {(14, 0), (14, 2)}
    assert game_mscores(g)[0]["cards"]["knights"] == 4
