"""`init_from`: a search self-play run that starts from a saved network (a model file or a shipped model) instead
of random weights or a warm start; the checkpoint decides once the run has one."""

from __future__ import annotations

import json

import pytest
import torch

from agents.alphazero.network import save_network
from agents.az import MODELS, shipped_models
from agents.training.alphazero import Run
from agents.training.az_config import AlphaZeroConfig


def _config(tmp_path, **over) -> AlphaZeroConfig:
    data = dict(name="init", games=2, simulations=2, considered=2, channels=8, blocks=1, head_channels=2,
                iterations=1, steps_per_iteration=4, train_batches=1, batch_size=8, buffer_positions=200,
                min_buffer=1, eval_every=0, eval_opponents=[], checkpoint_every=1, device="cpu", threads=1,
                seed=5, out_dir=str(tmp_path))
    data.update(over)
    return AlphaZeroConfig.from_dict(data)


def _quiet(*_args) -> None:
    """No log lines in the tests."""


def _weights(run: Run) -> dict:
    return {k: v.clone() for k, v in run.net.state_dict().items()}


def _same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


@pytest.fixture
def saved(tmp_path):
    """A network of the small config, saved as a run saves its model (other seed: other weights)."""
    source = Run(_config(tmp_path, name="source", seed=99), log=_quiet)
    path = tmp_path / "source.pt"
    save_network(source.net, path, {"card": {"name": "source"}})
    return path, _weights(source)


def test_a_run_starts_with_the_saved_networks_weights(tmp_path, saved):
    path, weights = saved
    fresh = Run(_config(tmp_path, name="fresh"), log=_quiet)
    run = Run(_config(tmp_path, init_from=str(path)), log=_quiet)
    assert not _same(_weights(fresh), weights)  # the seed alone would give other weights
    assert _same(_weights(run), weights)
    assert run.card()["initial_network"] == {"init_from": str(path), "file": str(path), "name": "source"}
    assert run.start_description() == f"network of {path}"


def test_the_start_is_trained_on_and_recorded_in_the_model_card(tmp_path, saved):
    path, weights = saved
    card = Run(_config(tmp_path, init_from=str(path)), log=_quiet).run(progress=False)
    assert card["self_play_positions"] > 0 and card["initial_network"]["init_from"] == str(path)
    written = json.loads((tmp_path / "init" / "model_card.json").read_text())
    assert written["initial_network"]["name"] == "source"
    resumed = Run(_config(tmp_path, init_from=str(path), iterations=2), resume=True, log=_quiet)
    assert resumed.iteration == 1 and resumed.initial == card["initial_network"]


def test_a_resumed_run_takes_its_weights_from_the_checkpoint(tmp_path, saved):
    path, weights = saved
    run = Run(_config(tmp_path, init_from=str(path)), log=_quiet)
    with torch.no_grad():
        next(run.net.parameters()).add_(1.0)  # as training would move them
    run.save_checkpoint()
    moved = _weights(run)
    resumed = Run(_config(tmp_path, init_from=str(path)), resume=True, log=_quiet)
    assert _same(_weights(resumed), moved) and not _same(moved, weights)


def test_a_shipped_model_is_named_by_its_spec(tmp_path):
    assert "2p" in shipped_models()
    run = Run(_config(tmp_path, channels=32, blocks=2, head_channels=4, init_from="trained:2p"), log=_quiet)
    shipped = torch.load(MODELS / shipped_models()["2p"], map_location="cpu", weights_only=False)["state_dict"]
    assert _same(_weights(run), shipped)
    assert run.initial["file"].endswith("trained_2p.pt")


@pytest.mark.parametrize("over, named", [
    (dict(channels=16), r"the config's fields \(channels, blocks, head_channels, expansions\) ask for"),
    (dict(expansions=["nomads"]), "the config's fields"),
])
def test_a_network_of_another_shape_or_ruleset_is_refused(tmp_path, saved, over, named):
    path, _ = saved
    with pytest.raises(ValueError, match=r"field 'init_from': the network in .* is .*" + named):
        Run(_config(tmp_path, init_from=str(path), **over), log=_quiet)


def test_bad_sources_name_the_field(tmp_path):
    with pytest.raises(ValueError, match="field 'init_from': no file .*missing.pt"):
        Run(_config(tmp_path, init_from=str(tmp_path / "missing.pt")), log=_quiet)
    with pytest.raises(ValueError, match="field 'init_from': trained:9p: must be one of 2p, "):
        Run(_config(tmp_path, init_from="trained:9p"), log=_quiet)
    (tmp_path / "junk.pt").write_bytes(b"not a network")
    with pytest.raises(ValueError, match="field 'init_from': model file .*junk.pt: not a kbenv search network"):
        Run(_config(tmp_path, init_from=str(tmp_path / "junk.pt")), log=_quiet)


def test_a_saved_start_and_a_teacher_do_not_go_together(tmp_path):
    with pytest.raises(ValueError, match="field 'init_from': a run starts from a saved network or imitates"):
        _config(tmp_path, init_from="trained:2p", teacher="greedy", imitation_samples=10)


@pytest.mark.parametrize("value", ["", 3, ["trained:2p"], "a\x00b"])
def test_a_malformed_init_from_names_the_field(value):
    with pytest.raises(ValueError, match="field 'init_from'"):
        AlphaZeroConfig.from_dict({"method": "alphazero", "init_from": value}, source="x.yaml")


CONFIGS = MODELS.parents[1] / "configs"
STARTS = sorted(p.name for p in CONFIGS.glob("*.yaml") if "init_from:" in p.read_text())


@pytest.mark.parametrize("name", STARTS)
def test_the_shipped_configs_that_start_from_a_network_describe_it(tmp_path, name):
    """Each config with init_from (the second step of policy iteration) starts: its network fields are the saved
    network's. Run with a small buffer and few games; the network fields and the start are the config's."""
    config = AlphaZeroConfig.load(CONFIGS / name)
    small = config.model_copy(update=dict(games=2, buffer_positions=200, min_buffer=1, actors=0, device="cpu",
                                          out_dir=str(tmp_path)))
    run = Run(small, log=_quiet)
    assert run.initial["init_from"] == config.init_from
    assert (run.net.config["channels"], run.net.config["blocks"]) == (config.channels, config.blocks)


def test_there_are_configs_that_start_from_a_network():
    assert {"selfplay_2p_from_trained_cpu.yaml", "selfplay_2p_from_trained_gpu.yaml"} <= set(STARTS)
