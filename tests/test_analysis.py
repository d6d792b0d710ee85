"""The analysis API (agents.analysis): shares that sum to 1, values and evaluations of each analyst, the best line
within the turn, the hint's words, the curve, errors that name the analyst, and the same analysis for twin games
that differ only in what the seat cannot see."""

from __future__ import annotations

import math

import numpy as np
import pytest

from agents.analysis import (
    VALUE_TEMPERATURE,
    analyse,
    evaluation_curve,
    hint_lines,
    make_analyst,
)
from agents.rulesets import ModelRulesetError
from kbenv import Game
from kbenv.engine import state as S
from kbenv.game.view import PlayerView
from kbenv.policies.greedy import greedy_values, position_value
from kbenv.policies.lookahead import lookahead_values

from .game_checks import played_game

TWIN_POSITIONS = [(2, 11, 9), (3, 4, 23), (4, 8, 40)]  # (players, seed, random decisions)


def hidden_part(game: Game, player: int) -> tuple:
    return (tuple(tuple(game.hand_cards(p)) for p in game.hidden_from(player)),
            game.state[S.DECK: S.DECK + S.DECK_SIZE].tobytes())


def twin(game: Game, player: int, seed: int) -> Game:
    """The same game with everything hidden from `player` dealt anew; it must really differ."""
    for k in range(20):
        other = game.determinize(player, np.random.default_rng(seed + k))
        if hidden_part(other, player) != hidden_part(game, player):
            return other
    raise AssertionError("no re-deal differs")  # pragma: no cover


@pytest.fixture(scope="module")
def analysts(random_model):
    return {spec: make_analyst(spec) for spec in
            ("greedy", "lookahead", f"aznet:path={random_model}", f"az:path={random_model},sims=8")}


@pytest.mark.parametrize("kind", ["greedy", "lookahead"])
def test_value_analysts_share_by_a_softmax_of_the_kernel_values(analysts, kind):
    game = played_game(3, 14, 2)
    view = PlayerView(game, game.decider)
    result = analyse(analysts[kind], view)
    table = np.empty(game.action_size)
    (greedy_values if kind == "greedy" else lookahead_values)(game.state.copy(), table)
    legal = sorted(view.legal_actions())
    assert sorted(d["action"] for d in result.decisions) == legal
    assert math.isclose(sum(d["share"] for d in result.decisions), 1.0, abs_tol=1e-9)
    shares = [d["share"] for d in result.decisions]
    assert shares == sorted(shares, reverse=True)
    for a, b in zip(result.decisions, result.decisions[1:], strict=False):
        assert a["value"] == table[a["action"]]
        assert math.isclose(a["share"] / b["share"], math.exp((a["value"] - b["value"]) / VALUE_TEMPERATURE))
    mover = game.current_player
    assert result.evaluation[mover] == max(table[legal])
    others = [p for p in range(game.num_players) if p != mover]
    assert [result.evaluation[p] for p in others] == [position_value(game.state, p) for p in others]
    assert result.eval_kind == "gold" and result.decider == game.decider and result.viewer == game.decider


def test_network_analysts_share_by_the_policy_and_by_the_visits(analysts, random_model):
    game = played_game(5, 6, 2)
    view = PlayerView(game, game.decider)
    net = analyse(analysts[f"aznet:path={random_model}"], view)
    search = analyse(analysts[f"az:path={random_model},sims=8"], view)
    for result in (net, search):
        assert math.isclose(sum(d["share"] for d in result.decisions), 1.0, abs_tol=1e-6)
        assert sorted(d["action"] for d in result.decisions) == sorted(view.legal_actions())
        assert result.eval_kind == "margin" and len(result.evaluation) == 2
        assert all(d["value"] is not None for d in result.decisions)
    # 8 simulations visit at most 8 root decisions: the others have no share
    assert 1 <= sum(d["share"] > 0 for d in search.decisions) <= 8
    assert all(round(d["share"] * 8) == d["share"] * 8 for d in search.decisions)
    # the network's policy is a softmax of its logits: every legal decision has a share
    assert all(d["share"] > 0 for d in net.decisions)


@pytest.mark.parametrize("kind", ["greedy", "lookahead"])
def test_the_best_line_is_the_rest_of_the_deciding_seats_turn_and_legal_in_the_real_game(analysts, kind):
    game = Game.new(2, seed=5)  # player_0 starts
    result = analyse(analysts[kind], PlayerView(game, 0))
    assert result.line[0]["action"] == result.top["action"]
    assert len(result.line) >= 3  # the mandatory action: three builds
    real = game.clone()
    for step in result.line:
        assert step["seat"] == 0 and real.decider == 0
        assert step["action"] in real.legal_actions()
        real.step(step["action"])
    assert len(result.line_games) == len(result.line)
    assert result.line_games[-1].state[S.CURRENT] == real.state[S.CURRENT]


def test_a_finished_game_has_no_decision_and_its_final_evaluation(analysts):
    game = played_game(2, 5000, 2)
    assert game.done
    result = analyse(analysts["lookahead"], PlayerView(game, 0))
    assert result.decisions == [] and result.line == [] and result.top is None and result.decider is None
    assert result.evaluation == [position_value(game.state, p) for p in range(2)]
    assert hint_lines(result) == ["no decision to hint: the game is over"]


@pytest.mark.parametrize(("players", "seed", "steps"), TWIN_POSITIONS)
def test_twin_games_that_differ_only_in_hidden_cards_get_the_same_analysis(analysts, players, seed, steps):
    game = played_game(seed, steps, players)
    for viewer in range(players):
        other = twin(game, viewer, seed * 7 + viewer)
        for spec, analyst in analysts.items():
            a = analyse(analyst, PlayerView(game, viewer))
            b = analyse(analyst, PlayerView(other, viewer))
            assert a.to_dict() == b.to_dict(), (spec, viewer)
        a = evaluation_curve(analysts["lookahead"], [PlayerView(game, viewer)])
        assert a == evaluation_curve(analysts["lookahead"], [PlayerView(other, viewer)])


def test_the_analysis_is_made_from_the_view_not_from_the_game(analysts):
    """Analysing the same view twice gives the same answer (a seeded world), and the game is left untouched."""
    game = played_game(9, 17, 3)
    before = game.state.copy()
    view = PlayerView(game, 1)
    a, b = (analyse(analysts["lookahead"], view).to_dict() for _ in range(2))
    assert a == b
    np.testing.assert_array_equal(game.state, before)


def test_the_curve_has_one_point_per_position_and_seat(analysts, random_model):
    game = Game.new(2, seed=1)
    rng = np.random.default_rng(1)
    views = []
    for _ in range(12):
        views.append(PlayerView(game, (game.decider + 1) % 2))
        game.step(int(rng.choice(game.legal_actions())))
    for spec in ("lookahead", f"aznet:path={random_model}"):
        points = evaluation_curve(analysts[spec], views)
        assert len(points) == 12 and all(len(p) == 2 for p in points)
    gold = evaluation_curve(analysts["greedy"], views[:1])[0]
    assert gold == analyse(analysts["greedy"], views[0], line=False).evaluation


def test_hint_lines_name_the_top_decisions_and_the_line(analysts):
    game = Game.new(2, seed=5)
    result = analyse(analysts["lookahead"], PlayerView(game, 0))
    lines = hint_lines(result, count=2)
    assert lines[0].startswith("hint (lookahead: softmax of lookahead's values")
    assert lines[1].startswith(f"  1. {result.decisions[0]['words']} (share ")
    assert len([line for line in lines if line.startswith("  ") and ". " in line[:6]]) == 2
    assert lines[-1].startswith("  best line this turn: ")


@pytest.mark.parametrize(("spec", "message"), [
    ("random", "a random agent gives no values"),
    ("", "analyst: expected greedy, lookahead"),
    ("network:nope", "analyst 'network:nope': the shipped model must be one of"),
    ("mcts:sims=x", "analyst: agent spec 'mcts:sims=x': sims must be an integer"),
    ("az:path=/no/such/model.pt", "analyst: agent spec"),
])
def test_a_bad_analyst_is_refused_with_a_message_naming_it(spec, message):
    with pytest.raises((ValueError, OSError), match=None) as err:
        make_analyst(spec)
    assert message in str(err.value)


def test_a_shipped_model_refuses_a_ruleset_outside_its_training():
    analyst = make_analyst("network:crossroads-2p")
    with pytest.raises(ModelRulesetError, match="network:crossroads-2p was trained for crossroads"):
        analyse(analyst, PlayerView(Game.new(2, seed=0), 0))
    base = analyse(make_analyst("network:2p"), PlayerView(Game.new(2, seed=0), 0))
    assert math.isclose(sum(d["share"] for d in base.decisions), 1.0, abs_tol=1e-6)


def test_the_top_decision_is_the_first_step_of_the_best_line_for_every_analyst(analysts):
    game = played_game(4, 20, 2)
    for spec, analyst in analysts.items():
        result = analyse(analyst, PlayerView(game, game.decider))
        assert result.top["action"] == result.line[0]["action"], spec
