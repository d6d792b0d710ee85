"""Crossroads location: two-card hands (C-7, A-C8).

A Crossroads hand is given as a list of letters in ``hands``. Player 0's settlement ``HOME`` = (10, 10) holds
the crossroads tile of (11, 10) (and the oracle tile of (9, 9) where a test says so). Grass row east of
HOME: (10, 11) (10, 12) (10, 13) (10, 14); flower row far away: (15, 9) (15, 10) (15, 11); canyon (9, 12)
touches (10, 12) and (10, 13); forest (5, 9) (5, 10) far away. Player 1 holds desert with ``OPP_D``
(16, 0) (16, 1) (16, 2), so its turn is three forced builds.

Rule text quoted (the comments below name these):

CROSSROADS (EN 845-849): "Draw one additional terrain card at the end of each of your turns. During your turn, you
    choose which of your two terrain cards you will use for both your mandatory action and your extra actions, if
    any. Discard both terrain cards after you have finished your actions. Draw the first additional terrain card at
    the end of your turn during which you gained this location tile."
A_C8 (spec A-C8): "With 2 crossroads tiles, draw 2 extra (3 cards). The fresh tile already counts at the end of the
    acquiring turn. The choice fixes the terrain for the mandatory action and for card-dependent extras (Oracle,
    Barn, Quarry, Cathedral). Default: lazy choice. The terrain is fixed by the first decision that needs it, and
    both/all cards are discarded at the end of the turn. No-eligible-hex exception: a card in hand is replaced only
    if none of the cards in hand offers a terrain with a free hex (R)."
ORACLE (EN 422): "Build one settlement on a hex of the same terrain type as your played terrain card."
"""

from collections import Counter

import pytest

from tests.rules.crossroads.helpers import OPP_D_HEXES, cpos

HOME = (10, 10)
ORACLE_HEX = (9, 9)
CROSS_HEX = (11, 10)
GRASS = [(10, 11), (10, 12), (10, 13), (10, 14)]
FLOWER = [(15, 9), (15, 10), (15, 11)]
CANYON = (9, 12)
FOREST = [(5, 9), (5, 10)]


def hand_cells(grass=True):
    cells = {HOME: "D", ORACLE_HEX: "o", CROSS_HEX: "x", CANYON: "C"}
    cells.update({h: "F" for h in FLOWER})
    cells.update({h: "T" for h in FOREST})
    if grass:
        cells.update({h: "G" for h in GRASS})
    return cells


def hand_position(kx, hand, tiles=(CROSS_HEX,), extra=None, own=(HOME,), then=None, deck=None):
    cells = {**hand_cells(), **(extra or {})}
    return cpos(kx, cells, settlements=[list(own), []], hands=[list(hand), "D"], tiles=[list(tiles), []],
                deck=deck, then=then)


def test_C7_mandatory_union_then_fixed_by_the_first_build(kx):
    # CROSSROADS "you choose which of your two terrain cards you will use": grass (adjacent to HOME: (10, 11))
    # or flower (nothing touches own: any of the three). The crossroads tile itself is passive.
    pos = hand_position(kx, ["G", "F"])
    out = kx.answer(pos)
    assert out["phase"] == "idle"
    assert out["legal"] == {(10, 11)} | set(FLOWER)
    # the first build on flower fixes flower: the next must touch (15, 10); grass is gone
    out = kx.answer(kx.with_then(pos, [(15, 10)]))
    assert out["phase"] == "mandatory" and out["legal"] == {(15, 9), (15, 11)}
    # the first build on grass fixes grass
    assert kx.legal(kx.with_then(pos, [(10, 11)])) == {(10, 12)}
    kx.then_error(kx.with_then(pos, [(15, 10), (10, 11)]), 1)
    kx.then_error(kx.with_then(pos, [(10, 11), (15, 10)]), 1)


def test_C7_oracle_uses_the_card_chosen_for_the_turn(kx):
    # CROSSROADS "for both your mandatory action and your extra actions" / A_C8 lazy choice
    pos = hand_position(kx, ["G", "F"], tiles=(CROSS_HEX, ORACLE_HEX))
    union = {(10, 11)} | set(FLOWER)
    assert kx.legal(pos) == union | {"oracle"}
    # before any choice the oracle may use either card
    assert kx.legal(kx.with_then(pos, ["oracle"])) == union
    # the oracle's flower build fixes flower for the mandatory action
    assert kx.legal(kx.with_then(pos, ["oracle", (15, 9)])) == {(15, 10)}
    # after a grass mandatory action the oracle builds grass only
    mandatory = [(10, 11), (10, 12), (10, 13)]
    assert kx.legal(kx.with_then(pos, mandatory)) == {"oracle", "end_turn"}
    assert kx.legal(kx.with_then(pos, mandatory + ["oracle"])) == {(10, 14)}
    kx.then_error(kx.with_then(pos, mandatory + ["oracle", (15, 9)]), 4)


@pytest.mark.parametrize("n_tiles,hand", [(1, ["G", "F"]), (2, ["G", "F", "T"])], ids=["one-tile", "two-tiles"])
def test_C7_discard_the_hand_and_draw_one_plus_one_per_tile(kx, n_tiles, hand):
    # CROSSROADS / A_C8: at the end of the turn the whole hand is discarded, then 1 + (crossroads tiles) cards
    # are drawn. A second crossroads tile comes from the crossroads hex (3, 3) through own (3, 4).
    deck = ["C", "T", "F", "D", "D"]
    tiles = (CROSS_HEX,) if n_tiles == 1 else (CROSS_HEX, (3, 3))
    extra = {} if n_tiles == 1 else {(3, 3): "x", (3, 4): "D"}
    own = (HOME,) if n_tiles == 1 else (HOME, (3, 4))
    pos = hand_position(kx, hand, tiles=tiles, extra=extra, own=own, deck=deck)
    g0 = kx.game(pos)
    assert g0.deck_size() == 5
    turn0 = [(10, 11), (10, 12), (10, 13)]
    out = kx.answer(kx.with_then(pos, turn0))
    assert out["player"] == 1 and out["legal"] == OPP_D_HEXES       # nothing left: the turn ended by itself
    g = kx.game(kx.with_then(pos, turn0))
    assert g.deck_size() == 5 - (1 + n_tiles)
    assert Counter(g.discard_pile()) - Counter(g0.discard_pile()) == Counter(hand)
    # player 1 (no crossroads tile) draws 1; player 0's next hand is C T (one tile) or C T F (two tiles)
    out = kx.answer(kx.with_then(pos, turn0 + sorted(OPP_D_HEXES)))
    assert out["player"] == 0
    expected = {CANYON} | set(FOREST)              # canyon touches (10, 12); no forest touches own
    if n_tiles == 2:
        expected |= set(FLOWER)
    assert out["legal"] == expected
    assert kx.game(kx.with_then(pos, turn0 + sorted(OPP_D_HEXES))).deck_size() == 5 - (1 + n_tiles) - 1


def test_C7_a_tile_gained_this_turn_counts_at_the_end_of_the_turn(kx):
    # CROSSROADS "Draw the first additional terrain card at the end of your turn during which you gained this
    # location tile": player 0 (one grass card, no tile) builds (12, 2) next to the crossroads hex (12, 1).
    cells = {(12, 1): "x", (12, 2): "G", (12, 3): "G", (12, 4): "G", (13, 2): "C", **{h: "T" for h in FOREST}}
    pos = cpos(kx, cells, settlements=[[], []], hands=["G", "D"], deck=["C", "T", "D", "D"])
    assert kx.legal(pos) == {(12, 2), (12, 3), (12, 4)}
    turn0 = [(12, 2), (12, 3), (12, 4)]
    g = kx.game(kx.with_then(pos, turn0))
    assert kx.tiles(g, 0) == [("crossroads", (12, 1))]
    assert g.current_player == 1
    assert g.deck_size() == 2                                   # player 0 drew 2 cards
    out = kx.answer(kx.with_then(pos, turn0 + sorted(OPP_D_HEXES)))
    # player 0 now holds canyon and forest: canyon (13, 2) touches own, forest does not
    assert out["player"] == 0 and out["legal"] == {(13, 2)} | set(FOREST)


def test_A_C8_no_card_is_replaced_while_one_card_of_the_hand_is_buildable(kx):
    # no grass hex on the board, flower hexes free: the grass card is not replaced, flower is used
    deck = ["C", "T", "D", "D"]
    cells = hand_cells(grass=False)
    pos = cpos(kx, cells, settlements=[[HOME], []], hands=[["G", "F"], "D"], tiles=[[CROSS_HEX], []], deck=deck)
    assert kx.legal(pos) == set(FLOWER)
    g = kx.game(pos)
    assert g.deck_size() == 4
    assert list(g.removed_cards()) == []
