"""Harvest Bazaar repeating the Crossroads tile's extra action (H-6, A-H3, C-7, A-C8).

The Crossroads tile's power is headed "Extra action" in the rulebook (EN 840) and the Bazaar repeats "any other one
of their extra actions" (EN 1297); the spec's completions say what the repeat does: one more card at the end of the
turn (A-H3 "Crossroads repeat = 1 more card at the end of the turn (TG, D)", A-C8 "Bazaar repeating Crossroads
draws one more (TG, D)"). In the Bazaar's phase ``choose_power`` the repeat is the decision ``"crossroads"``
(option-1: the passive tile has no action id of its own).

Board (mountains elsewhere): player 0's settlement ``HOME`` = (10, 10) on desert holds the tiles of the bazaar hex
``BZ`` = (10, 9) and the crossroads hex ``CROSS`` = (11, 10). Its hand is grass + flower; the grass row ``GRASS``
east of HOME and the flower row ``FLOWER`` far away. Player 1 holds desert with ``OPP_D`` (three forced builds).

Rule text quoted (the comments below name these):

EXTRA_ACTION (EN 840 (the heading of the Crossroads tile)): "Extra action: Draw one additional terrain card."
CROSSROADS (EN 845): "Draw one additional terrain card at the end of each of your turns."
BAZAAR (EN 1297): "The player may repeat any other one of their extra actions during their turn."
A_H3_CROSSROADS (spec A-H3): "Crossroads repeat = 1 more card at the end of the turn (TG, D)."
A_C8_BAZAAR (spec A-C8): "With 2 crossroads tiles, draw 2 extra (3 cards). Bazaar repeating Crossroads draws one
    more (TG, D)."
A_H3_B (spec A-H3, flag bazaar_repeats_used_power_only): "(b) Only a power already used this turn."
"""

from collections import Counter

import pytest

from kbenv.engine import state as S
from kbenv.positions.files import game_from_position
from kbenv.setup import SetupError
from tests.rules.crossroads.helpers import OPP_D, OPP_D_HEXES
from tests.rules.harvest.helpers import CHOOSE_POWER, flag, requires_harvest, state, with_options

pytestmark = requires_harvest


HOME = (10, 10)
BZ = (10, 9)
CROSS = (11, 10)
GRASS = [(10, 11), (10, 12), (10, 13)]
FLOWER = [(15, 9), (15, 10), (15, 11)]
DECK = ["C", "T", "F", "D", "D", "G"]
REPEAT = ["bazaar", "crossroads"]


def position(kx, tiles=(BZ, CROSS), locations=None, hand=("G", "F"), then=None):
    """Both expansions; location hexes written as ``L`` with their type (decision 8)."""
    locs = {BZ: "bazaar", CROSS: "crossroads", **(locations or {})}
    cells = {**OPP_D, HOME: "D", **{h: "G" for h in GRASS}, **{h: "F" for h in FLOWER}}
    cells.update({h: "L" for h in locs})
    pos = kx.position(cells, settlements=[[HOME], []], hands=[list(hand), "D"], tiles=[list(tiles), []],
                      expansions=("crossroads", "harvest"), deck=list(DECK), opp_area=False, then=then)
    pos["locations"] = {f"{r},{c}": kind for (r, c), kind in locs.items()}
    return pos


def test_H6_C7_the_bazaar_repeats_the_crossroads_extra_action(kx):
    # EXTRA_ACTION / BAZAAR: the crossroads tile is the only other extra action held, so the bazaar is usable and
    # names it; the repeat is carried out at once (the card comes at the end of the turn)
    pos = position(kx)
    union = {GRASS[0], *FLOWER}
    assert kx.legal(pos) == union | {"bazaar"}
    out = kx.answer(kx.with_then(pos, ["bazaar"]))
    assert out["player"] == 0 and out["phase"] == CHOOSE_POWER and out["legal"] == {"crossroads"}
    after = kx.answer(kx.with_then(pos, REPEAT))
    assert after["phase"] == "idle" and after["legal"] == union  # the bazaar tile is used
    assert state(kx.game(kx.with_then(pos, REPEAT)))["repeat_cards"] == 1


def test_A_H3_A_C8_one_more_card_at_the_end_of_the_turn(kx):
    # CROSSROADS + A_H3_CROSSROADS / A_C8_BAZAAR: the hand (G F) is discarded, then 1 + 1 (the tile) + 1 (the repeat)
    # cards are drawn: C T F, where without the repeat C T (the bazaar unused, the turn ended by end_turn)
    turn = [(10, 11), (10, 12), (10, 13)]
    for then, drawn in ((REPEAT + turn, 3), (turn + ["end_turn"], 2)):
        pos = position(kx, then=then)
        g = kx.game(pos)
        assert g.current_player == 1
        assert g.deck_size() == len(DECK) - drawn
        assert Counter(g.discard_pile()) == Counter(["G", "F"])
        assert sorted(g.hand_cards(0)) == sorted(DECK[:drawn])
        assert state(g)["repeat_cards"] == 0            # owed only until the end of the turn
    # player 0's next turn offers the three terrains: canyon, forest and flower far away (nothing touches own)
    g = kx.game(position(kx, then=REPEAT + turn + sorted(OPP_D_HEXES)))
    assert g.current_player == 0 and sorted(g.hand_cards(0)) == ["C", "F", "T"]


def test_A_H3_the_owed_card_survives_a_position_file(kx):
    # the key repeat_cards carries the repeat through a full-state position (A-H3): the resumed game draws 3
    pos = position(kx, then=REPEAT)
    middle = state(kx.game(pos))
    assert middle["repeat_cards"] == 1
    g = kx.game(kx.with_then(middle, [(10, 11), (10, 12), (10, 13)]))
    assert g.deck_size() == len(DECK) - 3


def test_A_H3_flag_b_never_offers_the_passive_crossroads(kx):
    # A_H3_B: the crossroads tile's extra action is carried out at the end of the turn, so it is never "already
    # used" during the turn: with the flag the bazaar has nothing to repeat and is not offered
    pos = with_options(position(kx), flag("A-H3"))
    assert "bazaar" not in kx.legal(pos)


def test_A_H3_a_fresh_crossroads_tile_is_not_repeated(kx):
    # A-H3 "held, usable (not fresh)": the first grass build (10, 11) takes the tiles of the crossroads hexes (9, 11)
    # and CROSS (not held here); both are fresh, the bazaar has nothing else to repeat, so it is not offered
    pos = position(kx, tiles=(BZ,), locations={(9, 11): "crossroads"}, then=[(10, 11)])
    g = kx.game(pos)
    assert ("crossroads", (9, 11)) in kx.tiles(g, 0)
    assert "bazaar" not in kx.legal(pos)


def test_A_C8_the_hand_limit_closes_the_repeat(kx):
    # A_C8_BAZAAR with two bazaar tiles and two crossroads tiles: 2 (tiles) + 1 (first repeat) = 3 extra cards, the
    # most a hand holds beside the turn's card (kbenv MAX_EXTRA_CARDS); a second repeat is not offered
    assert S.MAX_EXTRA_CARDS == 3
    second = {(9, 9): "bazaar", (11, 9): "crossroads"}
    pos = position(kx, tiles=(BZ, CROSS, *second), locations=second, hand=("G", "F", "T"))
    assert kx.legal(kx.with_then(pos, ["bazaar"])) == {"crossroads"}
    assert "bazaar" not in kx.legal(kx.with_then(pos, REPEAT))


@pytest.mark.parametrize("value, words", [(3, "expected 0..2"), (-1, "expected 0..2"), ("1", "expected 0..2"),
                                          (True, "expected 0..2")])
def test_a_bad_repeat_cards_key_is_refused_by_name(kx, value, words):
    pos = position(kx)
    pos["repeat_cards"] = value
    with pytest.raises(SetupError, match=f"repeat_cards: {words}"):
        game_from_position(pos)


def test_repeat_cards_needs_both_expansions(kx):
    pos = position(kx)
    pos["repeat_cards"] = 1
    pos["expansions"] = ["harvest"]
    pos["locations"] = {key: kind for key, kind in pos["locations"].items() if kind != "crossroads"}
    r, c = CROSS
    pos["board"][r] = pos["board"][r][:c] + "M" + pos["board"][r][c + 1:]
    pos["tiles"] = [[list(BZ)], []]
    pos["hands"] = ["G", "D"]
    with pytest.raises(SetupError, match="repeat_cards: needs the 'harvest' and 'crossroads' expansions"):
        game_from_position(pos)
