"""Canoe reactions (M-8) beyond the rule-text tests: position files mid-reaction, hidden information with plain
cards, and random games on the substitute sections (reactions occur, the mask is what the engine accepts,
settlements are conserved, the games end)."""

import json

import numpy as np

from kbenv.positions.files import game_from_position
from tests.rules.marshlands.helpers import PASS, REACTION, mpos

X = (12, 1)
GRASS = [(12, 2), (12, 3), (12, 4)]


def canoe_pos(kx, hands=("G", "C", "D"), deck=("T", "F"), then=()):
    cells = {**{h: "G" for h in GRASS}, (4, 5): "G", (4, 6): "S", (3, 5): "W", (8, 8): "C"}
    return mpos(kx, cells, settlements=[[], [(4, 5)], [(8, 8)]], hands=list(hands), deck=list(deck),
                locations={X: "refuge", (4, 4): "canoe"}, tiles=[[], [(4, 4)], []], tiles_left={X: 1},
                opp_area=False, then=list(then))


def test_a_position_written_mid_reaction_resumes_it(kx):
    for then in ([(12, 2)], [(12, 2), "canoe"], [(12, 2), "canoe", (4, 6)], [(12, 2), PASS]):
        g = kx.game(canoe_pos(kx, then=then))
        back = game_from_position(json.loads(json.dumps(g.to_position())))
        assert back.state_key() == g.state_key(), then
        assert (back.phase, back.decider, list(back.legal_actions())) == (g.phase, g.decider,
                                                                         list(g.legal_actions()))
    g = kx.game(canoe_pos(kx, then=[(12, 2)]))
    assert g.phase == REACTION and len(g.to_position()["decision"]["frames"]) == 1


def test_the_reactors_view_does_not_depend_on_hidden_cards(kx):
    from kbenv.game.view import PlayerView

    variants = [(["G", "C", "D"], ["T", "F"]), (["G", "C", "F"], ["D", "T"]), (["G", "C", "T"], ["F", "D"])]
    games = [kx.game(canoe_pos(kx, hands, deck, then=[(12, 2)])) for hands, deck in variants]
    views = [PlayerView(g, 1) for g in games]
    for g, v in zip(games, views, strict=True):
        assert g.current_player == 0 and g.decider == 1 and g.phase == REACTION
        np.testing.assert_array_equal(views[0].observation_v1(), v.observation_v1())
        np.testing.assert_array_equal(views[0].legal_mask(), v.legal_mask())
        assert PlayerView(g, 0).hand(1) is None and PlayerView(g, 2).hand(1) is None
    for seed in range(3):
        d = games[0].determinize(1, np.random.default_rng(seed))
        assert (d.current_player, d.decider, d.phase) == (0, 1, REACTION)
        assert list(d.legal_actions()) == list(games[0].legal_actions()) and d.hand(1) == "C"


def test_random_games_on_the_substitute_sections():
    reactions = 0
    for seed in range(3):
        pos = {"expansions": ["marshlands"], "cards": ["fishermen", "knights", "merchants"],
               "sections": [["marsh-substitute-1", False], ["marsh-substitute-2", True], ["tavern", False],
                            ["barn", False]], "settlements": [[], [], []], "hands": ["G", "C", "D"], "seed": seed}
        g = game_from_position(pos)
        rng = np.random.default_rng(seed)
        for _ in range(2000):
            if g.done:
                break
            legal = list(g.legal_actions())
            assert legal == [int(a) for a in np.flatnonzero(g.legal_mask())]
            if g.phase == REACTION:
                reactions += 1
                assert g.decider != g.current_player
            g.step(int(rng.choice(legal)))
            assert all(g.supply(p) + len(g.settlements(p)) == 40 for p in range(3))
        assert g.done
    assert reactions > 0  # seeds 0 and 1 ask for reactions (4 and 1 of them)
