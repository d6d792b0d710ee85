"""The lookahead policy: greedy over the rest of the mover's own turn (kbenv.policies.lookahead)."""

from __future__ import annotations

import numpy as np

from agents import make_agent
from kbenv import Game
from kbenv.engine.legal import ACTION_SIZE, END_TURN
from kbenv.policies.greedy import greedy_values, position_value
from kbenv.policies.lookahead import lookahead_values
from kbenv.vector import VectorGames, best_sets
from kbenv.vector_env import SelfPlayVecEnv

from .test_agents import decide, positions


def turn_value_by_replay(game: Game, action: int) -> float:
    """The definition, step by step through the Game API: make the decision, then take greedy's first best
    decision until greedy would end the turn or the turn passes; the mover's gold + 2 per tile then."""
    p = game.current_player
    world = game.clone()
    world.step(action)
    values = np.empty(ACTION_SIZE)
    while not world.done and world.current_player == p:
        greedy_values(world.state, values)
        follow = int(np.argmax(values))
        if follow == END_TURN:
            break
        world.step(follow)
    return position_value(world.state, p)


def test_lookahead_values_follow_their_definition():
    checked = 0
    for game in positions(8):
        values = np.empty(ACTION_SIZE)
        lookahead_values(game.state, values)
        legal = game.legal_actions()
        assert set(np.flatnonzero(np.isfinite(values))) == set(legal)
        for action in legal[:12]:
            assert values[action] == turn_value_by_replay(game, action)
            checked += 1
    assert checked > 30


def chain_position() -> Game:
    """Own settlement S at (5,2); grass runs (5,3), (5,4), (5,5) along row 5 to a castle at (5,6);
    water at (4,5) touches (5,4) and (5,5). Grass (6,2) also touches S and touches water at (7,2).
    Everything else is desert (not buildable with a grass card). Cards: fishermen (1 gold per
    settlement next to water) plus farmers and lords, which score every build on offer alike."""
    rows = [list("D" * 20) for _ in range(20)]
    for c in (2, 3, 4, 5):
        rows[5][c] = "G"
    rows[5][6] = "K"
    rows[4][5] = "W"
    rows[6][2] = "G"
    rows[7][2] = "W"
    board = ["".join(r) for r in rows]
    return Game.custom(board=board, num_players=2, cards=["fishermen", "farmers", "lords"],
                       settlements=[[(5, 2)], [(19, 19)]], hands=["G", "G"])


def test_lookahead_builds_towards_the_castle_that_greedy_cannot_see():
    """Greedy takes (6,2) for +1 now (next to water); (5,3) and (5,4) follow: +2 this turn.
    Lookahead values (5,3) by its greedy finish: (5,4) +1 (water; it ties with (6,2) and comes first),
    then (5,5) +1 water +3 castle: +5. So lookahead builds (5,3), greedy (6,2)."""
    game = chain_position()
    assert decide(make_agent("greedy"), game, 0) == 6 * 20 + 2
    assert decide(make_agent("lookahead"), game, 0) == 5 * 20 + 3
    values = np.empty(ACTION_SIZE)
    lookahead_values(game.state, values)
    start = position_value(game.state, 0)
    assert values[5 * 20 + 3] - start == 5
    assert values[6 * 20 + 2] - start == 2


def test_lookahead_beats_greedy_in_2_player_games(tmp_path):
    from agents.evaluation.tournament import run_tournament

    summary = run_tournament(["lookahead", "greedy"], [2], games=40, seed=3, out_dir=str(tmp_path),
                             progress=False)
    share = summary["by_players"]["2"]["seats"]["lookahead"]["win_share"]
    assert share > 0.6


def test_vector_lookahead_matches_the_kernel_and_its_best_set():
    games = VectorGames(4, num_players=[2, 3, 4, 5])
    games.reset(12)
    for _ in range(30):
        values = games.teacher_values("lookahead")
        chosen = games.lookahead_actions()
        best = best_sets(values)
        masks = games.legal_masks()
        assert (best <= masks).all()
        assert all(best[i, chosen[i]] for i in range(4))
        for i in range(4):
            single = np.empty(ACTION_SIZE)
            lookahead_values(games.states[i].copy(), single)
            assert np.array_equal(single, values[i])
        games.step(chosen)


def test_lookahead_opponents_and_teacher_in_the_self_play_env():
    env = SelfPlayVecEnv(4, num_players=[2, 3], opponents=["lookahead"], seed=1)
    env.reset()
    for _ in range(20):
        masks = env.action_masks()
        expert = env.expert_masks("lookahead")
        assert (expert <= masks).all() and expert.any(axis=1).all()
        env.step_async(np.argmax(expert, axis=1))
        env.step_wait()
