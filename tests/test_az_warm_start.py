"""Warm start of search self-play by imitation (agents.training.az_warm, `teacher` in an alphazero config):
the config's checks, the value targets, that imitation moves the policy toward the teacher, that a resumed
run does not imitate again and stays bit for bit, and that the results name the teacher."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest
import torch

import agents.training.az_warm as az_warm
from agents.alphazero.network import PolicyValueNet, load_network, observations
from agents.training.alphazero import Run
from agents.training.az_config import AlphaZeroConfig
from agents.training.config import read_yaml
from agents.training.imitation import imitation_batches
from kbenv.engine import state as S
from kbenv.engine.scoring import SCORE_COLUMNS, score_table

CONFIGS = Path(__file__).resolve().parent.parent / "configs"


def _config(tmp_path, **over) -> AlphaZeroConfig:
    data = dict(name="warm", games=4, simulations=4, considered=4, channels=8, blocks=1, head_channels=2,
                iterations=2, steps_per_iteration=30, train_batches=2, batch_size=16, buffer_positions=2000,
                min_buffer=1, eval_every=0, eval_games=2, eval_opponents=["random"], checkpoint_every=1,
                device="cpu", threads=1, seed=5, out_dir=str(tmp_path), teacher="greedy", imitation_samples=1,
                imitation_epochs=1, imitation_batch_size=128)
    data.update(over)
    return AlphaZeroConfig.from_dict(data)


def _quiet(*_args) -> None:
    pass


@pytest.fixture
def small_chunks(monkeypatch):
    """Chunks of 8 teacher games instead of 64 (fast runs; the code is the same)."""
    monkeypatch.setattr(az_warm, "CHUNK_GAMES", 8)


# ----- the config ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("fields", "named"), [
    ({"teacher": "mcts"}, "field 'teacher'"),
    ({"teacher": "greedy", "imitation_samples": 0}, "field 'imitation_samples' must be positive with a teacher"),
    ({"teacher": "none", "imitation_samples": 1000}, "field 'teacher' must be one of greedy, lookahead"),
    ({"teacher": "lookahead", "imitation_samples": -1}, "field 'imitation_samples'"),
    ({"teacher": "greedy", "imitation_samples": 10, "imitation_epochs": 0}, "field 'imitation_epochs'"),
    ({"teacher": "greedy", "imitation_samples": 10, "imitation_batch_size": 0}, "field 'imitation_batch_size'"),
    ({"teacher": "greedy", "imitation_samples": 10, "imitation_lr": 0.0}, "field 'imitation_lr'"),
    ({"teacher": "greedy", "imitation_samples": 10, "imitation_lr": 2.0}, "field 'imitation_lr'"),
    ({"teacher": "greedy", "imitation_samples": True}, "field 'imitation_samples'"),
])
def test_config_errors_name_the_field(fields, named):
    with pytest.raises(ValueError, match=named):
        AlphaZeroConfig.from_dict({"method": "alphazero", **fields}, source="x.yaml")


def test_the_default_is_no_teacher_and_configs_keep_their_start():
    assert AlphaZeroConfig().teacher == "none" and AlphaZeroConfig().imitation_samples == 0
    for path in sorted(CONFIGS.glob("*.yaml")):
        data = read_yaml(path)
        if data.get("method") != "alphazero":
            continue
        config = AlphaZeroConfig.load(path)
        expected = "lookahead" if path.name == "selfplay_2p_warm.yaml" else data.get("teacher", "none")
        assert config.teacher == expected, path.name
    warm = AlphaZeroConfig.load(CONFIGS / "selfplay_2p_warm.yaml")
    base = AlphaZeroConfig.load(CONFIGS / "selfplay_2p.yaml")
    assert warm.search == "compiled" and warm.imitation_samples > 0
    assert warm.channels * warm.blocks > base.channels * base.blocks  # a bigger network than selfplay_2p


# ----- the samples and their value targets ---------------------------------------------------------------
def _gold(state: np.ndarray) -> np.ndarray:
    table = np.zeros((S.MAX_PLAYERS, SCORE_COLUMNS), dtype=np.int64)
    score_table(state, table)
    return table[: int(state[S.NUM_PLAYERS]), -1]


def test_value_targets_are_the_gold_margin_still_to_come():
    chunk = next(imitation_batches(2, [2, 3], 1, 0.2, 11, teacher="greedy", positions=True))
    obs, masks, _best, _outcomes, _values, states, finals = chunk
    assert len(states) == len(finals) == len(obs) and (finals[:, S.PHASE] == S.PHASE_OVER).all()
    # the observations are the search network's own (agents.alphazero.network.observations)
    np.testing.assert_array_equal(obs[:50], observations(list(states[:50]), False))
    targets, seats = az_warm.value_targets(states, finals)
    assert set(seats.tolist()) == {2, 3}
    for k in range(0, len(states), 37):
        n, me = int(seats[k]), int(states[k, S.DECIDER])
        now, end = _gold(states[k]), _gold(finals[k])
        for j in range(n):  # index j: the seat j places after the decider
            seat = (me + j) % n
            best_other_end = max(end[q] for q in range(n) if q != seat)
            best_other_now = max(now[q] for q in range(n) if q != seat)
            expected = ((end[seat] - best_other_end) - (now[seat] - best_other_now)) / 30
            assert targets[k, j] == pytest.approx(expected, abs=1e-6)
        assert (targets[k, n:] == 0).all()
        if n == 2:  # two players: one's margin is minus the other's
            assert targets[k, 1] == pytest.approx(-targets[k, 0], abs=1e-6)


# ----- imitation moves the policy toward the teacher -----------------------------------------------------
def test_imitation_raises_agreement_with_the_teacher_on_held_out_positions(tmp_path, small_chunks):
    config = _config(tmp_path, imitation_samples=3000, imitation_epochs=2, imitation_lr=0.003)
    torch.manual_seed(0)
    net = PolicyValueNet(channels=8, blocks=1, head_channels=2)
    held_out = next(imitation_batches(16, [2], 1, 0.2, 424242, teacher="greedy", positions=True))
    decisions = held_out[1].sum(axis=1) > 1  # the forced moves agree whatever the network
    held_out = tuple(part[decisions] for part in held_out)
    before, value_before = az_warm.measure(net, held_out, "cpu")
    record = az_warm.imitate_network(net, config, "cpu", log=_quiet)
    after, value_after = az_warm.measure(net, held_out, "cpu")
    assert after > before + 0.1, (before, after)
    assert value_after < value_before
    assert record["teacher"] == "greedy" and record["samples"] >= 3000 and record["gradient_steps"] >= 2 * 3000 // 128
    assert record["agreement_held_out"] > record["agreement_untrained"]


def test_soft_targets_raise_agreement_and_are_recorded(tmp_path, small_chunks):
    """imitation_temperature > 0: the soft loss trains too (other weights than the best-set loss) and the record
    says the temperature; the default record has no such key (old cards unchanged)."""
    nets, records = [], []
    for temperature in (0.0, 0.5):
        config = _config(tmp_path, imitation_samples=3000, imitation_epochs=2, imitation_lr=0.003,
                         imitation_temperature=temperature)
        torch.manual_seed(0)
        net = PolicyValueNet(channels=8, blocks=1, head_channels=2)
        records.append(az_warm.imitate_network(net, config, "cpu", log=_quiet))
        nets.append(net)
    hard, soft = records
    assert "temperature" not in hard and soft["temperature"] == 0.5
    assert soft["agreement_held_out"] > soft["agreement_untrained"] + 0.1, soft
    assert any(not torch.equal(a, b) for a, b in zip(nets[0].parameters(), nets[1].parameters(), strict=True))


def test_imitation_refuses_a_network_of_another_ruleset(tmp_path, small_chunks):
    config = _config(tmp_path, expansions=["nomads"])  # v1 games
    with pytest.raises(ValueError, match="observation channels"):
        az_warm.imitate_network(PolicyValueNet(v1=False, channels=8, blocks=1, head_channels=2), config, "cpu",
                                log=_quiet)


# ----- the run: resume after imitation, and what it records ----------------------------------------------
def _same_run(a: Run, b: Run) -> None:
    for (name, x), y in zip(a.net.state_dict().items(), b.net.state_dict().values(), strict=True):
        assert torch.equal(x, y), name
    assert a.selfplay.positions == b.selfplay.positions
    assert [g.actions for g in a.selfplay.games] == [g.actions for g in b.selfplay.games]
    np.testing.assert_array_equal(a.buffer.states, b.buffer.states)
    np.testing.assert_array_equal(a.buffer.policies, b.buffer.policies)


def _times(record: dict) -> dict:
    """The wall-clock fields of an imitation record (they differ between runs)."""
    return {k: v for k, v in record.items() if k.endswith("seconds") or k == "samples_per_second"}


def test_a_resumed_run_does_not_imitate_again_and_continues_bit_for_bit(tmp_path, monkeypatch, small_chunks):
    straight = Run(_config(tmp_path / "a"), log=_quiet)
    straight.run(progress=False)
    assert straight.imitation is not None and straight.iteration == 2
    first = Run(_config(tmp_path / "b", iterations=1), log=_quiet)
    first.run(progress=False)
    assert first.imitation == {**straight.imitation, **_times(first.imitation)}  # the same warm start

    def no_second_imitation(*_args, **_kwargs):
        raise AssertionError("imitated again after resuming")

    monkeypatch.setattr(az_warm.WarmStart, "__init__", no_second_imitation)
    resumed = Run(_config(tmp_path / "b"), resume=True, log=_quiet)
    assert resumed.iteration == 1 and resumed.imitation == first.imitation and resumed.warm is None
    resumed.run(progress=False)
    _same_run(straight, resumed)
    assert resumed.imitation == first.imitation


def test_torch_keeps_the_runs_thread_count_after_the_engines_parallel_kernels(tmp_path, small_chunks, monkeypatch):
    """numba's OpenMP layer sets the OpenMP thread count that torch reads at every parallel kernel (the
    teacher's labels, the batch engine): a run gives torch its `threads` back before its own torch work."""
    import agents.training.alphazero as alphazero
    from agents.alphazero.network import NetworkEvaluator

    seen = []
    step, infer = alphazero.train_step, NetworkEvaluator.infer
    def counted(function):
        def call(*args, **kwargs):
            seen.append(torch.get_num_threads())
            return function(*args, **kwargs)
        return call

    monkeypatch.setattr(alphazero, "train_step", counted(step))
    monkeypatch.setattr(NetworkEvaluator, "infer", counted(infer))
    torch.set_num_threads(2)  # as numba's parallel kernels leave it on a 2-core machine
    Run(_config(tmp_path, iterations=1, eval_opponents=[]), log=_quiet).run(progress=False)
    assert seen and set(seen) == {1}


def test_a_run_stopped_during_imitation_goes_on_with_it_bit_for_bit(tmp_path, small_chunks):
    over = dict(imitation_samples=1500, iterations=1)  # 8 games give about 900 decisions: two chunks
    straight = Run(_config(tmp_path / "a", **over), log=_quiet)
    straight.run(progress=False)
    assert straight.imitation["samples"] >= 1500 and straight.imitation["finished"]
    # the time limit comes before the first chunk: the checkpoint holds an unfinished warm start, no round
    card = Run(_config(tmp_path / "b", max_minutes=1e-9, **over), log=_quiet).run(progress=False)
    assert card["rounds"] == 0 and card["self_play_positions"] == 0
    assert card["teacher"] == "greedy" and card["warm_start"] == {"teacher": "greedy", "samples": 0,
                                                                    "requested_samples": 1500, "finished": False}
    middle = Run(_config(tmp_path / "b", **over), resume=True, log=_quiet)
    assert middle.warm is not None and middle.warm.chunks == 0 and middle.imitation is None
    middle.warm.chunk()  # one chunk, then stopped (what a time limit between chunks leaves)
    middle.save_checkpoint()
    with pytest.raises(ValueError, match="field 'teacher'"):  # an unfinished warm start needs its teacher
        Run(_config(tmp_path / "b", teacher="lookahead", **over), resume=True, log=_quiet)
    resumed = Run(_config(tmp_path / "b", **over), resume=True, log=_quiet)
    assert resumed.warm.chunks == 1 and 0 < resumed.warm.samples < 1500
    resumed.run(progress=False)
    _same_run(straight, resumed)
    assert resumed.imitation == {**straight.imitation, **_times(resumed.imitation)}


def test_the_results_name_the_teacher_and_the_curve_starts_after_imitation(tmp_path, small_chunks):
    run = Run(_config(tmp_path, iterations=1, eval_every=1, teacher="lookahead"), log=_quiet)
    card = run.run(progress=False)
    folder = tmp_path / "warm"
    for saved in (card, json.loads((folder / "model_card.json").read_text()),
                  load_network(folder / "model.pt")[1]["card"]):
        assert saved["teacher"] == "lookahead"
        assert saved["warm_start"]["teacher"] == "lookahead" and saved["warm_start"]["samples"] >= 1
        assert saved["warm_start"]["samples"] == run.imitation["samples"]
    rows = list(csv.DictReader((folder / "curve.csv").open()))
    assert [r["round"] for r in rows] == ["0", "1"] and rows[0]["positions"] == "0"
    checkpoint = torch.load(folder / "checkpoint.pt", weights_only=False)
    assert checkpoint["imitation"]["teacher"] == "lookahead"
    assert "lookahead imitated" in run.start_description()


def test_a_run_without_teacher_records_none(tmp_path):
    run = Run(_config(tmp_path, iterations=1, teacher="none", imitation_samples=0), log=_quiet)
    card = run.run(progress=False)
    assert card["teacher"] == "none" and card["warm_start"] is None and run.imitation is None
    assert run.start_description() == "network from random weights"
