"""A swamp card drawn by the Crossroads Fort in a game with Marshlands (spec A-C9, M-5): the player chooses swamp
or the card's other terrain, each with its own "adjacent if possible", and builds one settlement either way.

Found by the property suite over all expansions together (tests/surfaces/test_properties.py): the engine
read the swamp card's id (5..9) as a terrain code, so the Fort built on water, mountain, castle or nomad
hexes, and a position written with such a Fort card could not be written at all.

Rule text quoted (the comments below name these):

FORT (EN 836): "Draw a terrain card and build one settlement on an empty space of the terrain type the card shows.
    You must build this settlement adjacent to one of your settlements, if possible."
A_C9 (spec A-C9): "A swamp/X card drawn by Fort: choose swamp or X (R). A swamp choice still gives 1 build."
"""

import numpy as np

from tests.rules.crossroads.helpers import MAND, MAND_G, cpos

# EN 1071:
SWAMP_CARDS = ("If a player's terrain card shows a swamp and another terrain type that's suitable to be built upon, "
               "the player must place ... either 2 settlements ... on unoccupied swamp hexes or 3 settlements on "
               "unoccupied hexes of the depicted terrain type. The usual building rules apply in both cases.")

L = (10, 10)
HOME = (10, 11)
NEAR_SWAMP = (9, 11)  # touches HOME
FAR_SWAMP = (3, 3)
CELLS = {**MAND_G, L: "r", HOME: "D", (10, 12): "F", (11, 11): "F", (5, 5): "F", (5, 7): "T", (5, 9): "T",
         (5, 11): "C", NEAR_SWAMP: "S", FAR_SWAMP: "S"}  # the only canyon hex holds player 1's settlement


def fort_position(kx, deck, then=None):
    return cpos(kx, CELLS, settlements=[[HOME], [(5, 11)]], tiles=[[L], []], deck=deck, then=then,
                expansions=("crossroads", "marshlands"))


def test_a_drawn_swamp_card_offers_swamp_or_its_terrain_each_adjacent_if_possible(kx):
    # S/F: flower hexes next to HOME, and the swamp next to HOME (FORT: adjacent if possible, per option)
    pos = fort_position(kx, ["S/F", "C", "D", "T"])
    out = kx.answer(kx.with_then(pos, ["fort"]))
    assert out["phase"] == "choose_target"
    assert out["legal"] == {(10, 12), (11, 11), NEAR_SWAMP}
    # S/T: no forest touches HOME, so any free forest; the swamp option stays adjacent
    out = kx.answer(kx.with_then(fort_position(kx, ["S/T", "C", "D", "T"]), ["fort"]))
    assert out["legal"] == {(5, 7), (5, 9), NEAR_SWAMP}


def test_the_swamp_choice_builds_one_settlement_and_discards_the_card(kx):
    pos = fort_position(kx, ["S/F", "C", "D", "T"])
    g = kx.game(kx.with_then(pos, ["fort", NEAR_SWAMP]))
    assert kx.settlements(g, 0) == {HOME, NEAR_SWAMP}
    assert g.supply(0) == 38                                     # A_C9: one build, not the swamp card's two
    assert kx.legal(kx.with_then(pos, ["fort", NEAR_SWAMP])) == MAND
    assert "S/F" in g.discard_pile()
    kx.then_error(fort_position(kx, ["S/F", "C", "D", "T"], then=["fort", FAR_SWAMP]), 1)  # not adjacent


def test_a_full_terrain_leaves_the_swamp_option(kx):
    # the only canyon hex is occupied: S/C still offers the swamp
    out = kx.answer(kx.with_then(fort_position(kx, ["S/C", "F", "D", "T"]), ["fort"]))
    assert out["legal"] == {NEAR_SWAMP}


def test_a_position_with_a_drawn_swamp_card_round_trips(kx):
    import json

    from kbenv.positions.files import game_from_position
    from tests.ruleset_games import canonical

    g = kx.game(fort_position(kx, ["S/F", "C", "D", "T"], then=["fort"]))
    written = json.loads(json.dumps(g.to_position()))
    assert written["decision"]["fort_card"] == "S/F" and g.fort_card() == "S/F"
    back = game_from_position(written)
    np.testing.assert_array_equal(canonical(back), canonical(g))
    assert back.legal_actions() == g.legal_actions()


def test_the_observation_marks_the_drawn_swamp_cards_terrain_inside_the_fort_field(kx):
    """The v1 field `fort_card` has the 5 terrains; a swamp card S/F marks flower (index 3) and writes nothing
    into the fields that follow it (it wrote index 5 + 3 = 8, two slots into `own_pieces_left`)."""
    from kbenv.engine.observe_v1 import CH_FEATURES_V1, F1, V1_FEATURES
    from kbenv.game.view import PlayerView

    sizes = {name: size for name, size, _ in V1_FEATURES}
    feats = {}
    for deck in (["S/F", "C", "D", "T"], ["F", "C", "D", "T"]):
        g = kx.game(fort_position(kx, deck, then=["fort"]))
        f = PlayerView(g, 0).observation_v1()[CH_FEATURES_V1].reshape(-1)
        feats[deck[0]] = f
        assert list(f[F1["fort_card"] : F1["fort_card"] + 5]) == [0, 0, 0, 1, 0]
    after = F1["own_pieces_left"]
    np.testing.assert_array_equal(feats["S/F"][after : after + sizes["own_pieces_left"]],
                                  feats["F"][after : after + sizes["own_pieces_left"]])
