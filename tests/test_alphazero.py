"""Search-based self-play: the Gumbel search on hand-built cases, hidden information, the training loop
end to end, bit-exact resume, and the agents built on it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch

from agents.alphazero.network import load_network
from agents.alphazero.search import (
    GumbelSearch,
    considered_visits,
    margins,
    relative_values,
    score_values,
    seat_values,
)
from agents.az import AZNetAgent, AZSearchAgent, shipped_card, shipped_models
from agents.evaluation.play import agent_inputs, play_game
from agents.registry import make_agent, parse_spec
from agents.training.alphazero import Run
from agents.training.az_config import AlphaZeroConfig
from kbenv.engine import state as S
from kbenv.game import Game
from kbenv.game.view import PlayerView

from .game_checks import Recording, assert_a_finished_game, swap_hidden_cards


def test_sequential_halving_schedule():
    # m = 4 actions, 8 simulations: each of the 4 once, then the best 2 twice more (log2(4) = 2 rounds).
    assert considered_visits(4, 8) == (0, 0, 0, 0, 1, 1, 2, 2)
    assert considered_visits(1, 3) == (0, 1, 2)
    assert considered_visits(2, 4) == (0, 0, 1, 1)


def test_values_are_margins_over_the_best_other_player():
    assert margins(np.array([30, 21])).tolist() == pytest.approx([0.3, -0.3])
    assert margins(np.array([10, 10, 4])).tolist() == pytest.approx([0.0, 0.0, -0.2])


def test_score_values_are_the_games_own_score():
    game = Game.new(2, seed=4)
    rng = np.random.default_rng(0)
    while not game.done:
        game.step(int(rng.choice(game.legal_actions())))
    totals = game.score_table()[:, -1]
    assert score_values(game.state).tolist() == pytest.approx(((totals - totals[::-1]) / 30).tolist())


def test_value_vectors_turn_with_the_observer():
    st = Game.new(3, seed=1).state.copy()
    st[S.DECIDER] = 2
    rel = np.array([0.1, 0.2, 0.3, 0.0, 0.0])  # observer, next, next-but-one
    assert seat_values(rel[None], [st])[0].tolist() == pytest.approx([0.2, 0.3, 0.1])
    assert relative_values(np.array([0.2, 0.3, 0.1]), 2)[:3].tolist() == pytest.approx([0.1, 0.2, 0.3])


class StubEvaluator:
    """Logits and values by rule: `prior` gets logit `boost`; a seat owning `good_hex` is valued +0.9."""

    def __init__(self, action_size: int, prior: int | None = None, boost: float = 0.0, good_hex: int | None = None):
        self.action_size, self.prior, self.boost, self.good_hex = action_size, prior, boost, good_hex

    def __call__(self, states):
        masks = np.zeros((len(states), self.action_size), dtype=bool)
        logits = np.zeros((len(states), self.action_size))
        values = []
        for k, st in enumerate(states):
            g = Game(None, st.copy())
            masks[k] = g.legal_mask().astype(bool)
            if self.prior is not None:
                logits[k, self.prior] = self.boost
            n = int(st[S.NUM_PLAYERS])
            v = np.zeros(n)
            if self.good_hex is not None:
                for q in range(n):
                    if (self.good_hex // 20, self.good_hex % 20) in g.settlements(q):
                        v[q] = 0.9
            values.append(v)
        return masks, logits, values


def _root():
    game = Game.new(2, seed=7)
    legal = game.legal_actions()
    hexes = [a for a in legal if a < 400]
    assert len(hexes) >= 8
    return game, hexes


def test_visits_follow_the_prior_when_values_are_equal():
    game, hexes = _root()
    favourite = hexes[3]
    search = GumbelSearch(StubEvaluator(game.action_size, prior=favourite, boost=5.0), game.action_size,
                          num_simulations=16, max_considered=8, gumbel_scale=0.0)
    result = search.run([game.state], [np.random.default_rng(0)])[0]
    assert result.action == favourite
    assert result.visits[favourite] == max(result.visits.values())
    assert result.policy[favourite] == result.policy.max()
    assert result.policy.sum() == pytest.approx(1.0)
    assert set(np.flatnonzero(result.policy)) <= set(game.legal_actions())


def test_values_overrule_a_flat_prior():
    game, hexes = _root()
    good = hexes[-1]
    search = GumbelSearch(StubEvaluator(game.action_size, good_hex=good), game.action_size,
                          num_simulations=len(hexes) + 8, max_considered=len(hexes), gumbel_scale=0.0)
    result = search.run([game.state], [np.random.default_rng(0)])[0]
    assert result.action == good
    assert result.visits[good] == max(result.visits.values())
    assert result.policy[good] == result.policy.max()
    assert result.value[game.decider] > 0  # the visits to the good child raise the root's value above 0


def test_values_beat_a_misleading_prior():
    game, hexes = _root()
    good, decoy = hexes[0], hexes[1]
    search = GumbelSearch(StubEvaluator(game.action_size, prior=decoy, boost=1.0, good_hex=good),
                          game.action_size, num_simulations=len(hexes) + 8, max_considered=len(hexes),
                          gumbel_scale=0.0)
    assert search.run([game.state], [np.random.default_rng(0)])[0].action == good


def test_a_batch_searches_each_game_on_its_own():
    game, hexes = _root()
    other = Game.new(3, seed=11)
    evaluator = StubEvaluator(game.action_size, good_hex=hexes[2])
    search = GumbelSearch(evaluator, game.action_size, num_simulations=len(hexes) + 8,
                          max_considered=len(hexes), gumbel_scale=0.0)
    both = search.run([game.state, other.state], [np.random.default_rng(0), np.random.default_rng(1)])
    alone = search.run([game.state], [np.random.default_rng(0)])
    assert both[0].action == alone[0].action == hexes[2]
    assert both[1].action in other.legal_actions()


def test_forced_decisions_are_not_searched():
    game = Game.new(2, seed=3)
    calls = []

    def evaluate(states):
        calls.append(len(states))
        return StubEvaluator(game.action_size)(states)

    while len(game.legal_actions()) != 1:
        game.step(game.legal_actions()[0])
    search = GumbelSearch(evaluate, game.action_size, num_simulations=8)
    result = search.run([game.state], [np.random.default_rng(0)])[0]
    assert result.legal == 1 and result.action == game.legal_actions()[0] and calls == [1]


@pytest.mark.parametrize("players", [2, 3])
def test_hidden_cards_never_reach_the_search(random_model, players):
    game = Game.new(players, seed=5)
    rng = np.random.default_rng(2)
    for _ in range(12):  # into the game, with cards drawn and discarded
        game.step(int(rng.choice(game.legal_actions())))
    p = game.decider
    twin = swap_hidden_cards(game, p)
    a, b = agent_inputs(game, p), agent_inputs(twin, p)
    np.testing.assert_array_equal(a[0], b[0])
    for make in (lambda: AZSearchAgent(random_model, sims=8, seed=3), lambda: AZNetAgent(random_model, seed=3)):
        first, second = make(), make()
        assert first.act(*a) == second.act(*b)


def _tiny_config(tmp_path: Path, **over) -> AlphaZeroConfig:
    data = dict(name="tiny", games=4, simulations=4, considered=4, channels=8, blocks=1, head_channels=2,
                iterations=4, steps_per_iteration=40, train_batches=2, batch_size=16, buffer_positions=2000,
                min_buffer=1, eval_every=0, eval_games=2, eval_opponents=["random"], checkpoint_every=1,
                device="cpu", threads=1, seed=3, out_dir=str(tmp_path))
    data.update(over)
    return AlphaZeroConfig.from_dict(data)


def test_training_runs_end_to_end(tmp_path):
    trainer = Run(_tiny_config(tmp_path, iterations=3), log=lambda *_: None)
    initial = {k: v.detach().clone() for k, v in trainer.net.named_parameters()}
    card = trainer.run(progress=False)
    run = tmp_path / "tiny"
    for name in ("model.pt", "checkpoint.pt", "curve.csv", "curve.png", "losses.csv", "model_card.json"):
        assert (run / name).exists(), name
    assert card["self_play_positions"] == 3 * 40 * 4
    assert card["games_finished"] >= 1  # 120 decisions a game reach the end of a 2-player game
    losses = (run / "losses.csv").read_text().splitlines()
    assert len(losses) == 4 and all(np.isfinite(float(x)) for x in losses[-1].split(",")[2:])
    assert json.loads((run / "model_card.json").read_text())["evaluation"][0]["opponent"] == "random"
    # the optimizer changed the network's weights, and model.pt holds the trained network
    assert any(not torch.equal(initial[k], v) for k, v in trainer.net.named_parameters())
    saved, _ = load_network(run / "model.pt")
    trained = trainer.net.state_dict()
    for name, value in saved.state_dict().items():
        assert torch.equal(value, trained[name]), name
    agent = Recording(make_agent(f"aznet:path={run / 'model.pt'}", seed=0))
    result = play_game(0, 1, ["aznet", "random"], [agent, make_agent("random", seed=1)])
    agent.assert_all_legal(at_least=20)
    assert_a_finished_game(result)


def test_resume_continues_bit_for_bit(tmp_path):
    straight = Run(_tiny_config(tmp_path / "a"), log=lambda *_: None)
    straight.run(progress=False)
    Run(_tiny_config(tmp_path / "b", iterations=2), log=lambda *_: None).run(progress=False)
    resumed = Run(_tiny_config(tmp_path / "b"), resume=True, log=lambda *_: None)
    assert resumed.iteration == 2
    resumed.run(progress=False)
    for (name, x), y in zip(straight.net.state_dict().items(), resumed.net.state_dict().values(), strict=True):
        assert torch.equal(x, y), name
    assert straight.selfplay.positions == resumed.selfplay.positions
    assert [g.actions for g in straight.selfplay.games] == [g.actions for g in resumed.selfplay.games]
    np.testing.assert_array_equal(straight.buffer.states, resumed.buffer.states)


def test_config_errors_name_the_field(tmp_path):
    with pytest.raises(ValueError, match="field 'simulations' must be a positive integer"):
        _tiny_config(tmp_path, simulations=0)
    with pytest.raises(ValueError, match="unknown field 'simulation'"):
        AlphaZeroConfig.from_dict({"simulation": 3})
    with pytest.raises(ValueError, match="needs the 'nomads' expansion"):
        AlphaZeroConfig.from_dict({"rules": ["nomad_spaces_not_special"]})


def test_agent_specs(random_model):
    assert parse_spec("trained:2p") == ("trained", {"model": "2p"})
    assert parse_spec("trained:4p,sims=4") == ("trained", {"model": "4p", "sims": 4})
    with pytest.raises(ValueError, match="must be one of 2p, 4p, nomads-2p"):
        parse_spec("trained:7p")
    with pytest.raises(FileNotFoundError, match="no model there"):
        parse_spec("az:path=/nonexistent/model.pt")
    with pytest.raises(ValueError, match="path is required"):
        parse_spec("aznet")
    agent = make_agent(f"az:path={random_model},sims=2", seed=0)
    assert agent.search.num_simulations == 2
    shipped = make_agent("trained:2p,sims=64,considered=8,search=compiled", seed=0)
    assert (shipped.search.num_simulations, shipped.search.max_considered) == (64, 8)
    rated = make_agent("trained:2p", seed=0)  # the search its card names (play), unless the spec says otherwise
    assert (rated.search.num_simulations, rated.search.max_considered) == (64, 8) and "compiled" in rated.name
    old = make_agent("trained:2p-selfplay", seed=0)  # a card without play: the az agent's defaults
    assert (old.search.num_simulations, old.search.max_considered) == (16, 16)
    four = make_agent("trained:4p", seed=0)
    assert (four.search.num_simulations, four.search.max_considered) == (64, 8) and "compiled" in four.name
    kept = make_agent("trained:2p-lookahead-430k", seed=0)  # the previous trained:2p keeps its card's search
    assert (kept.search.num_simulations, kept.search.max_considered) == (64, 8)
    old_four = make_agent("trained:4p-selfplay", seed=0)
    assert (old_four.search.num_simulations, old_four.search.max_considered) == (16, 16)
    with pytest.raises(ValueError, match="considered must be at least 1, got 0"):
        parse_spec("trained:2p,considered=0")
    with pytest.raises(ValueError, match="considered must be an integer, got 'x'"):
        parse_spec("trained:2p,considered=x")


def _shipped_games() -> list[tuple[str, int, dict]]:
    """(model, players, ruleset) for each shipped model: the most players its card trained on, its ruleset."""
    out = []
    for name in shipped_models():
        card = shipped_card(name)
        ruleset = {key: value for key, value in card["rulesets"][0].items() if value}
        out.append((name, max(card["run"]["players"]), ruleset))
    return out


@pytest.mark.parametrize("model,players,ruleset", _shipped_games())
def test_shipped_models_play_legal_games(model, players, ruleset):
    agent = make_agent(f"trained:{model},sims=2", seed=0)
    others = [make_agent("random", seed=k) for k in range(1, players)]
    result = play_game(0, 9, [f"trained:{model}"] + ["random"] * (players - 1), [agent, *others], **ruleset)
    assert result.decisions > 50 and len(result.gold) == players  # play_game steps only legal actions


def test_every_ruleset_the_shipped_models_claim_is_played():
    claimed = {(name, players, tuple(ruleset.get("expansions", []))) for name, players, ruleset in _shipped_games()}
    assert {("2p", 2, ()), ("4p", 4, ()), ("nomads-2p", 2, ("nomads", "capitol", "caves"))} <= claimed


def test_a_base_network_refuses_expansion_games(random_model):
    game = Game.new(2, seed=1, expansions=["nomads"])
    agent = AZNetAgent(random_model)
    with pytest.raises(ValueError, match="trained on the base game"):
        agent.act(*agent_inputs(game, game.decider))
    assert isinstance(PlayerView(game, 0).public_game(), Game)


def test_kbenv_train_runs_a_search_config(tmp_path, capsys):
    from kbenv.cli import main

    config = _tiny_config(tmp_path, iterations=1, steps_per_iteration=10).to_dict()
    path = tmp_path / "az.yaml"
    path.write_text("\n".join(f"{k}: {json.dumps(v)}" for k, v in config.items()))
    assert main(["train", "--config", str(path), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "trained tiny: 1 rounds, 40 self-play positions" in out and "aznet vs random" in out
    bad = tmp_path / "bad.yaml"
    bad.write_text("method: alphazero\ngames: -1\n")
    assert main(["train", "--config", str(bad), "--quiet"]) == 2
    assert "field 'games' must be a positive integer" in capsys.readouterr().err


def test_a_buffer_resumes_into_another_size():
    from agents.training.alphazero import ReplayBuffer

    small = ReplayBuffer(4, 3)
    for k in range(6):  # wraps: rows hold 4, 5, 2, 3 (oldest 2)
        small.add(np.full(S.STATE_SIZE, k), np.zeros(3), np.zeros(S.MAX_PLAYERS), 2)
    big = ReplayBuffer(8, 3)
    big.load(small.to_dict())
    assert big.size == 4 and big.states[:4, 0].tolist() == [2, 3, 4, 5] and big.next == 4
    same = ReplayBuffer(4, 3)
    same.load(small.to_dict())
    np.testing.assert_array_equal(same.states, small.states)
    assert same.next == small.next


def test_a_resumed_run_takes_the_configs_learning_rate(tmp_path):
    Run(_tiny_config(tmp_path, iterations=1, steps_per_iteration=10), log=lambda *_: None).run(progress=False)
    resumed = Run(_tiny_config(tmp_path, iterations=2, steps_per_iteration=10, learning_rate=0.0002), resume=True,
                  log=lambda *_: None)
    assert resumed.iteration == 1
    assert [g["lr"] for g in resumed.optimizer.param_groups] == [0.0002]


def test_base_rule_flags_keep_the_v0_layout(tmp_path):
    base = Run(_tiny_config(tmp_path, rules=["lords_count_zero"]), log=lambda *_: None)
    assert base.net.config["v1"] is False and base.net.action_size == 409
    nomads = Run(_tiny_config(tmp_path / "n", expansions=["nomads"]), log=lambda *_: None)
    assert nomads.net.config["v1"] is True and nomads.net.action_size == 478
