"""Search self-play against a field of built-in players (`opponent: greedy | lookahead`): the search plays one
seat of each game, the built-in policy every other seat, and only the search's decisions are trained on."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from agents.training.alphazero import Run
from agents.training.az_config import AlphaZeroConfig
from kbenv.engine.legal import ACTION_SIZE_V1
from kbenv.game import Game
from kbenv.policies.greedy import greedy_values
from kbenv.policies.lookahead import lookahead_values


def _config(tmp_path: Path, **over) -> AlphaZeroConfig:
    data = dict(name="field", players=[4], games=4, simulations=4, considered=4, channels=8, blocks=1,
                head_channels=2, iterations=2, steps_per_iteration=60, train_batches=1, batch_size=8,
                buffer_positions=4000, min_buffer=1, eval_every=0, eval_games=2, eval_opponents=["random"],
                checkpoint_every=1, device="cpu", threads=1, seed=11, opponent="lookahead", out_dir=str(tmp_path))
    data.update(over)
    return AlphaZeroConfig.from_dict(data)


def _best_actions(values_of, state: np.ndarray) -> set[int]:
    """The legal actions of the largest value under a built-in policy's value kernel."""
    values = np.full(ACTION_SIZE_V1, -np.inf)
    values_of(state, values)
    return {int(a) for a in np.flatnonzero(values == values.max())}


def _replay_checks(run: Run, values_of) -> tuple[int, int]:
    """Replay every live game: each move of a seat other than the learner's is one of the built-in policy's best
    moves; the pending positions are the learner's decisions only. Returns (opponent moves, learner moves)."""
    opponent_moves = learner_moves = 0
    for game, pending in zip(run.selfplay.games, run.selfplay.pending, strict=True):
        learner = run.selfplay.learner_seat(game)
        replay = Game.from_setup(game.setup)
        for action in game.actions:
            if replay.decider == learner:
                learner_moves += 1
            else:
                assert action in _best_actions(values_of, replay.state), (game.setup.seed, len(replay.actions))
                opponent_moves += 1
            replay.step(action)
        np.testing.assert_array_equal(replay.state, game.state)
        assert all(observer == learner for _, _, observer, *_ in pending)
    return opponent_moves, learner_moves


@pytest.mark.parametrize("opponent, values_of", [("lookahead", lookahead_values), ("greedy", greedy_values)])
def test_the_field_plays_the_built_in_policy_and_only_the_learner_is_searched(tmp_path, opponent, values_of):
    run = Run(_config(tmp_path, opponent=opponent, iterations=1), log=lambda *_: None)
    run.run(progress=False)
    opponent_moves, learner_moves = _replay_checks(run, values_of)
    assert opponent_moves > 2 * learner_moves > 0  # three opponents to one learner in 4-player games
    # every searched decision is the learner's (60 a game this round); the others cost no search
    assert run.selfplay.positions == 4 * 60
    assert run.card()["opponent"] == opponent


def test_the_learner_seat_rotates_over_the_games(tmp_path):
    run = Run(_config(tmp_path, games=8, iterations=0, teacher="greedy", imitation_samples=1), log=lambda *_: None)
    seats = [run.selfplay.learner_seat(game) for game in run.selfplay.games]
    assert sorted(set(seats)) == [0, 1, 2, 3]


def test_finished_games_reach_the_buffer_with_the_learners_positions(tmp_path):
    # 2-player games against lookahead: about 55 learner decisions a game, so 200 steps finish several games
    run = Run(_config(tmp_path, players=[2], games=2, steps_per_iteration=200, iterations=1), log=lambda *_: None)
    run.run(progress=False)
    assert run.selfplay.finished >= 3
    assert 0 < run.buffer.size <= run.selfplay.positions
    _replay_checks(run, lookahead_values)


def test_a_run_against_a_field_resumes_bit_for_bit(tmp_path):
    straight = Run(_config(tmp_path / "a"), log=lambda *_: None)
    straight.run(progress=False)
    Run(_config(tmp_path / "b", iterations=1), log=lambda *_: None).run(progress=False)
    resumed = Run(_config(tmp_path / "b"), resume=True, log=lambda *_: None)
    resumed.run(progress=False)
    for (name, x), y in zip(straight.net.state_dict().items(), resumed.net.state_dict().values(), strict=True):
        assert torch.equal(x, y), name
    assert [g.actions for g in straight.selfplay.games] == [g.actions for g in resumed.selfplay.games]
    np.testing.assert_array_equal(straight.buffer.values, resumed.buffer.values)


def test_self_play_is_the_default_and_unchanged(tmp_path):
    config = AlphaZeroConfig.from_dict({})
    assert config.opponent == "self"
    run = Run(_config(tmp_path, opponent="self", iterations=1, steps_per_iteration=10), log=lambda *_: None)
    run.run(progress=False)
    assert {run.selfplay.learner_seat(g) for g in run.selfplay.games} == {None}
    # every seat's decisions are searched (and kept) in self-play
    observers = {observer for pending in run.selfplay.pending for _, _, observer, *_ in pending}
    assert observers == {0, 1, 2, 3}


@pytest.mark.parametrize("value", ["random", "mcts:sims=300", 3, ""])
def test_an_unknown_opponent_names_the_field(value):
    with pytest.raises(ValueError, match="field 'opponent'"):
        AlphaZeroConfig.from_dict({"opponent": value})


def test_an_actors_games_play_against_the_field_too(tmp_path):
    """Ray actors (agents.training.actors) play their share of the games with the same step: here one actor's
    games without Ray, stepped with the run's search."""
    from agents.training.actors import ActorSelfPlay

    run = Run(_config(tmp_path), log=lambda *_: None)
    _, search = run._searcher()
    games = ActorSelfPlay(run.config, actor=1, games=3)
    for _ in range(30):
        games.step(search, run.buffer)
    assert games.positions == 3 * 30
    for game, pending in zip(games.games, games.pending, strict=True):
        learner = games.learner_seat(game)
        assert all(observer == learner for _, _, observer, *_ in pending)
        assert sum(1 for action_by in _deciders(game) if action_by == learner) >= len(pending)


def _deciders(game: Game) -> list[int]:
    """The seat that made each of the game's decisions, by replaying it."""
    replay, seats = Game.from_setup(game.setup), []
    for action in game.actions:
        seats.append(replay.decider)
        replay.step(action)
    return seats


def test_the_fields_decisions_can_train_the_value_head_too(tmp_path):
    """opponent_positions: every built-in player's decision is kept with its outcome and an empty policy row."""
    run = Run(_config(tmp_path, players=[2], games=2, steps_per_iteration=200, iterations=1, opponent_positions=True),
              log=lambda *_: None)
    run.run(progress=False)
    assert run.selfplay.finished >= 3 and run.card()["opponent_positions"] is True
    for game, pending in zip(run.selfplay.games, run.selfplay.pending, strict=True):
        learner, deciders = run.selfplay.learner_seat(game), _deciders(game)
        theirs = [entry for entry in pending if entry[2] != learner]
        assert len(theirs) == sum(1 for seat in deciders if seat != learner) > 0  # every one of their decisions
        assert all(policy is None and searched is None for _, policy, _, _, searched in theirs)
        assert all(policy is not None for _, policy, observer, *_ in pending if observer == learner)
    rows = run.buffer.policies[: run.buffer.size].sum(axis=1)
    empty = np.isclose(rows, 0.0)
    assert empty.sum() > run.selfplay.positions // 2  # a lookahead decision for about every searched one
    np.testing.assert_allclose(rows[~empty], 1.0, atol=1e-4)  # the learner's rows: the improved policy


def test_rows_without_a_policy_count_in_no_policy_loss(tmp_path):
    import copy

    from agents.alphazero.network import legal_masks, observations
    from agents.training.alphazero import train_step

    run = Run(_config(tmp_path, players=[2], games=2, steps_per_iteration=200, iterations=1, opponent_positions=True,
                      batch_size=64), log=lambda *_: None)
    run.run(progress=False)
    before, rng = copy.deepcopy(run.net), np.random.default_rng(5)
    idx = np.random.default_rng(5).integers(0, run.buffer.size, size=64)
    policy_loss, _ = train_step(run.net, run.optimizer, run.buffer, rng, run.config, "cpu")
    kept = idx[run.buffer.policies[idx].sum(axis=1) > 0]
    assert 0 < len(kept) < len(idx)
    states = [run.buffer.states[k] for k in kept]
    before.train()
    logits, _ = before(torch.from_numpy(observations(states, before.config["v1"])))
    logits = logits.masked_fill(~torch.from_numpy(legal_masks(states, before.action_size)), -1e9)
    expected = -(torch.from_numpy(run.buffer.policies[kept]) * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
    assert policy_loss == pytest.approx(expected.item(), rel=1e-5)


def test_a_run_keeping_the_fields_decisions_resumes_bit_for_bit(tmp_path):
    over = dict(players=[2], games=2, steps_per_iteration=120, opponent_positions=True)
    straight = Run(_config(tmp_path / "a", **over), log=lambda *_: None)
    straight.run(progress=False)
    Run(_config(tmp_path / "b", **{**over, "iterations": 1}), log=lambda *_: None).run(progress=False)
    resumed = Run(_config(tmp_path / "b", **over), resume=True, log=lambda *_: None)
    resumed.run(progress=False)
    for (name, x), y in zip(straight.net.state_dict().items(), resumed.net.state_dict().values(), strict=True):
        assert torch.equal(x, y), name
    np.testing.assert_array_equal(straight.buffer.values, resumed.buffer.values)
    np.testing.assert_array_equal(straight.buffer.policies, resumed.buffer.policies)


def test_keeping_the_fields_decisions_needs_a_field():
    with pytest.raises(ValueError, match="field 'opponent_positions': needs a built-in opponent"):
        AlphaZeroConfig.from_dict({"opponent_positions": True})
    assert AlphaZeroConfig.from_dict({"opponent": "greedy", "opponent_positions": True}).opponent_positions


def test_an_actors_batch_carries_the_fields_decisions_as_empty_policy_rows(tmp_path):
    """The positions an actor sends the learner (PositionBatch) hold the field's decisions as all-zero rows."""
    from agents.training.actors import ActorSelfPlay, PositionBatch

    run = Run(_config(tmp_path, players=[2], opponent_positions=True), log=lambda *_: None)
    _, search = run._searcher()
    games = ActorSelfPlay(run.config, actor=0, games=1)
    batch = PositionBatch(run.buffer.policies.shape[1])
    while games.finished == 0:
        games.step(search, batch)
    rows = batch.arrays()["policies"].sum(axis=1)
    empty = np.isclose(rows, 0.0)
    assert 0 < empty.sum() < len(rows)
    np.testing.assert_allclose(rows[~empty], 1.0, atol=1e-4)
