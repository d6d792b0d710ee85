"""Marshlands palaces (M-6, A-M1): majority gold, ties, Workers and Merchants, not buildable.

Scores are read from ``score_position`` (``mscores``: rows with a ``palaces`` column, A10 in
``marshlands_helpers``). The palace ``PAL`` = (5, 5) stands on a mountain-filled board; its neighbours are
(5, 4) (5, 6) (4, 5) (4, 6) (6, 5) (6, 6) (odd row), all made grass here, so settlements can stand on them.

Rule text quoted (the comments below name these):

PALACE (EN 1083): "The player who has built the most settlements next to the palace earns 5 gold at the end of the
    game. In case of a tie, each of the tied players earns 5 gold."
PALACE_CARDS (EN 1085): "Note: The palaces also count for the Kingdom Builder cards "Workers" and "Merchants"."
PALACE_EXAMPLE (EN 1089-1091): "Example: Frank (orange) has built the most settlements next to the palace and earns
    5 gold. Jenny (white) and Ani (blue) do not earn gold."
PALACE_TERRAIN (EN 984): "all 4 sections contain a new terrain type that cannot be built upon: the palace, which
    replaces the castle spaces."
A_M1 (spec A-M1): "Palace with zero. If nobody is adjacent, is everyone tied at 0? Default: at least 1 adjacent
    settlement is required."
"""

import pytest

from tests.rules.marshlands.helpers import PALACE_GOLD, game_mscores, mpos, mscores

PAL = (5, 5)
RING = [(5, 4), (5, 6), (4, 5), (4, 6), (6, 5), (6, 6)]
FAR = [(12, 3), (12, 5), (12, 7)]


def palace_position(kx, settlements, extra=None, cards=("fishermen", "hermits", "citizens")):
    cells = {PAL: "P", **{h: "G" for h in RING + FAR}, **(extra or {})}
    return mpos(kx, cells, settlements=settlements, cards=list(cards), hands=["G"] * len(settlements),
                opp_area=False)


@pytest.mark.parametrize("settlements,expected", [
    # 2 next to the palace against 1: only player 0 earns 5
    ([[(5, 4), (5, 6)], [(4, 5)]], [5, 0]),
    # 1 against 1: a tie, each earns 5
    ([[(5, 4)], [(4, 5)]], [5, 5]),
    # 1 against 2
    ([[(5, 4), (12, 3)], [(4, 5), (6, 6)]], [0, 5]),
    # A_M1: nobody next to the palace -> nobody earns anything (not a tie at 0)
    ([[(12, 3)], [(12, 7)]], [0, 0]),
    # one player alone next to it: 1 is the most
    ([[(6, 5)], [(12, 5)]], [5, 0]),
], ids=["majority", "tie", "minority", "nobody", "alone"])
def test_M6_palace_majority_earns_5(kx, settlements, expected):
    # PALACE / A_M1
    assert PALACE_GOLD == 5
    rows = mscores(palace_position(kx, settlements))
    assert [row["palaces"] for row in rows] == expected


def test_M6_en1089_three_players(kx):
    # PALACE_EXAMPLE: orange (0) has 2 settlements next to the palace, white (1) and blue (2) 1 each -> 5, 0, 0
    rows = mscores(palace_position(kx, [[(5, 4), (5, 6)], [(4, 5)], [(6, 6)]]))
    assert [row["palaces"] for row in rows] == [5, 0, 0]


def test_M6_three_way_tie_everyone_earns_5(kx):
    rows = mscores(palace_position(kx, [[(5, 4)], [(4, 5)], [(6, 6)]]))
    assert [row["palaces"] for row in rows] == [5, 5, 5]


def test_M6_each_palace_is_scored_on_its_own(kx):
    # two palaces: (5, 5) won by player 0, (12, 12) won by player 1; player 0 also ties at (12, 12)
    # (12, 12) (even row) touches (12, 11) (12, 13) (11, 11) (11, 12) (13, 11) (13, 12)
    extra = {(12, 12): "P", (12, 11): "G", (12, 13): "G", (11, 12): "G"}
    rows = mscores(palace_position(kx, [[(5, 4), (12, 11)], [(12, 13)]], extra=extra))
    # player 0: 5 (palace 1, alone) + 5 (palace 2, tie 1:1); player 1: 5 (tie)
    assert [row["palaces"] for row in rows] == [10, 5]
    rows = mscores(palace_position(kx, [[(5, 4)], [(12, 13), (11, 12)]], extra=extra))
    assert [row["palaces"] for row in rows] == [5, 5]


def test_M6_palace_counts_for_workers(kx):
    # PALACE_CARDS. Workers: 1 gold per own settlement next to a castle or location hex (base card); here next
    # to the palace: (5, 4) and (5, 6) -> 2; (12, 3) -> 0.
    rows = mscores(palace_position(kx, [[(5, 4), (5, 6), (12, 3)], []], cards=("workers", "fishermen", "hermits")))
    assert rows[0]["cards"]["workers"] == 2
    assert rows[0]["palaces"] == 5


def test_M6_palace_counts_for_merchants(kx):
    # PALACE_CARDS. Merchants: 4 gold per special hex that shares one of the player's areas with another special
    # hex. The chain (5, 6) (5, 7) (5, 8) touches the palace (5, 5) and the castle (5, 9) -> 2 x 4 = 8.
    extra = {(5, 7): "G", (5, 8): "G", (5, 9): "K"}
    pos = palace_position(kx, [[(5, 6), (5, 7), (5, 8)], []], extra=extra, cards=("merchants", "fishermen", "hermits"))
    rows = mscores(pos)
    assert rows[0]["cards"]["merchants"] == 8
    assert rows[0]["palaces"] == 5 and rows[0]["castles"] == 3
    # without the chain's middle the two specials are in two areas: no merchants gold
    pos = palace_position(kx, [[(5, 6), (5, 8)], []], extra=extra, cards=("merchants", "fishermen", "hermits"))
    assert mscores(pos)[0]["cards"]["merchants"] == 0


def test_M6_no_settlement_on_a_palace(kx):
    # PALACE_TERRAIN "cannot be built upon": a position with a settlement on the palace is refused (field named)
    kx.setup_error(palace_position(kx, [[PAL], []]), "settlements[0]")


def test_M6_a_palace_next_to_own_is_never_a_build_target(kx):
    # PALACE_TERRAIN: player 0 (grass card) owns (5, 4), which (odd row) touches (5, 3) (5, 5) (4, 4) (4, 5)
    # (6, 4) (6, 5); the grass among them: (4, 5) (6, 5). The palace (5, 5) is not offered.
    pos = palace_position(kx, [[(5, 4)], []])
    assert kx.legal(pos) == {(4, 5), (6, 5)}


def test_M6_palace_gold_is_in_the_game_scores_total(kx):
    g = kx.game(palace_position(kx, [[(5, 4), (5, 6)], [(4, 5)]]))
    rows = game_mscores(g)
    assert rows[0]["palaces"] == 5 and rows[1]["palaces"] == 0
