"""Hidden information during Canoe reactions (M-8; issue 21 "reactions reveal nothing hidden").

A reaction is a decision of a player who is not the active player, in the active player's turn. It must not
depend on, or reveal, anything that player cannot see: the other players' hands and the draw pile. The checks go
through ``PlayerView`` (docs/api.md "What a player may see") and the position contract.

3 players. Player 0 (active, grass) builds (12, 2) next to ``X`` = (12, 1), a refuge hex with one tile left;
player 1 holds a canoe tile (canoe hex (4, 4), settlement (4, 5), swamp (4, 6), water (3, 5)) and reacts.

Rule text quoted (the comments below name these):

CANOE_ORDER (EN 1107): "That player's turn is briefly interrupted for this action. If more than one player owns a
    canoe tile, they perform this extra action in player order, starting with the player to the left of the active
    player."
CANOE (EN 1105): "Build one settlement on an unoccupied swamp or water hex, building adjacent to one of the player's
    own previously built settlements, if possible."
"""

import numpy as np
import pytest

from tests.rules.marshlands.helpers import PASS, REACTION, mpos, swamp_card

X = (12, 1)
GRASS = [(12, 2), (12, 3), (12, 4)]


def hidden_position(kx, hands, deck, then=((12, 2),)):
    cells = {**{h: "G" for h in GRASS}, (4, 5): "G", (4, 6): "S", (3, 5): "W", (8, 8): "C"}
    return mpos(kx, cells, settlements=[[], [(4, 5)], [(8, 8)]], hands=list(hands), deck=list(deck),
                locations={X: "refuge", (4, 4): "canoe"}, tiles=[[], [(4, 4)], []], tiles_left={X: 1},
                opp_area=False, then=list(then))


# the hands of players 1 and 2 and the deck differ; player 0's card (grass) is played and public
VARIANTS = [
    (["G", "C", "D"], ["T", "F", swamp_card("D")]),
    (["G", "C", "F"], ["D", "T", swamp_card("D")]),
    (["G", "C", swamp_card("D")], ["F", "D", "T"]),
]


def test_M8_hidden_the_reaction_does_not_depend_on_the_reactors_own_card(kx):
    # CANOE: the canoe builds on swamp or water whatever card the reactor holds
    answers = [kx.answer(hidden_position(kx, ["G", card, "D"], ["T", "F"])) for card in ["C", "D", swamp_card("T")]]
    assert all(a == {"player": 1, "phase": REACTION, "legal": {"canoe", PASS}} for a in answers)
    targets = [kx.legal(hidden_position(kx, ["G", card, "D"], ["T", "F"], then=[(12, 2), "canoe"]))
               for card in ["C", "D", swamp_card("T")]]
    assert targets[0] == targets[1] == targets[2] == {(4, 6), (3, 5)}


def test_M8_hidden_the_reactors_view_is_the_same_whatever_it_cannot_see(kx):
    # player 1 sees its own card (C) and player 0's played card (G); player 2's card and the deck are hidden:
    # the three variants differ only there, so player 1's observation and legal decisions are equal
    from kbenv.game.view import PlayerView

    games = [kx.game(hidden_position(kx, hands, deck)) for hands, deck in VARIANTS]
    for g in games:
        assert g.current_player == 0 and g.decider == 1
    views = [PlayerView(g, 1) for g in games]
    for v in views[1:]:
        np.testing.assert_array_equal(views[0].observation_v1(), v.observation_v1())
        np.testing.assert_array_equal(views[0].legal_mask(), v.legal_mask())
        assert views[0].unseen_cards() == v.unseen_cards()
    np.testing.assert_array_equal(views[0].legal_mask(), games[0].legal_mask())


@pytest.mark.parametrize("watcher", [0, 2])
def test_M8_hidden_reacting_reveals_nothing_of_the_reactors_hand(kx, watcher):
    # before, during and after the reaction the reactor's card stays hidden from the other players
    from kbenv.game.view import PlayerView

    hands, deck = VARIANTS[0]
    for then in ([], [(12, 2)], [(12, 2), "canoe"], [(12, 2), "canoe", (4, 6)], [(12, 2), PASS]):
        g = kx.game(hidden_position(kx, hands, deck, then=then))
        assert PlayerView(g, watcher).hand(1) is None, then
        assert PlayerView(g, 1).hand(1) == "C"


def test_M8_hidden_determinize_keeps_the_reaction(kx):
    # a re-dealt game for the reactor is in the same reaction, with the same decider and legal decisions
    hands, deck = VARIANTS[0]
    g = kx.game(hidden_position(kx, hands, deck))
    for seed in range(3):
        d = g.determinize(1, np.random.default_rng(seed))
        assert d.current_player == 0 and d.decider == 1 and d.phase == g.phase == REACTION
        assert list(d.legal_actions()) == list(g.legal_actions())
        assert d.hand(1) == "C" and d.hand(0) == "G"
