"""Parallel self-play on Ray (agents.training.actors): actors + learner end to end on a tiny config, the
buffer gets the positions the actors made, weights reach the actors, resume, and bad config fields."""

from __future__ import annotations

import csv
import json
import shutil

import numpy as np
import pytest
import torch

from agents.alphazero.network import PolicyValueNet
from agents.training.actors import ActorRun, ActorSelfPlay, InferenceServer, SelfPlayWorker, split_games
from agents.training.alphazero import Run
from agents.training.az_config import AlphaZeroConfig
from kbenv.engine import state as S

ray = pytest.importorskip("ray")


def _config(tmp_path, **over) -> AlphaZeroConfig:
    data = dict(name="tiny", games=4, simulations=4, considered=4, channels=8, blocks=1, head_channels=2,
                iterations=1, steps_per_iteration=150, train_batches=2, batch_size=16, buffer_positions=4000,
                min_buffer=1, eval_every=0, eval_games=2, eval_opponents=[], checkpoint_every=1, search="compiled",
                device="cpu", threads=1, seed=3, out_dir=str(tmp_path), actors=2)
    data.update(over)
    return AlphaZeroConfig.from_dict(data)


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, address="local")
    yield
    ray.shutdown()


@pytest.fixture
def one_thread():
    threads = torch.get_num_threads()
    yield
    torch.set_num_threads(threads)


def _weights(net) -> dict:
    return {k: v.detach().numpy().copy() for k, v in net.state_dict().items()}


# ----- no Ray needed ---------------------------------------------------------------------------------
def test_bad_actor_fields_are_refused_by_name(tmp_path):
    for over, message in [
        ({"actors": -1}, "field 'actors' must be an integer from 0 to 4096, or auto (got -1)"),
        ({"actors": "all"}, "field 'actors' must be an integer from 0 to 4096, or auto (got 'all')"),
        ({"actors": True}, "field 'actors' must be an integer from 0 to 4096, or auto (got True)"),
        ({"actors": 5}, "field 'actors': 5 actors need at least as many games (field 'games' is 4)"),
        ({"actors": 0, "ray_address": "auto"}, "field 'ray_address': only used with actors"),
        ({"actors": 2, "ray_address": ""}, "field 'ray_address' must be null, or a Ray address"),
        ({"actors": 0, "inference": "server"}, "field 'inference': server needs actors"),
        ({"inference": "gpu"}, "field 'inference' must be one of local, server (got 'gpu')"),
    ]:
        with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
            _config(tmp_path, **over)
    assert _config(tmp_path, actors="auto").actors == "auto"
    assert AlphaZeroConfig.from_dict({}).actors == 0  # one process unless asked


def test_kbenv_train_refuses_bad_actor_options(tmp_path, capsys):
    from kbenv.cli import main

    path = tmp_path / "az.yaml"
    path.write_text("method: alphazero\ngames: 2\n")
    with pytest.raises(SystemExit) as exit_info:
        main(["train", "--config", str(path), "--actors", "-2"])
    assert exit_info.value.code == 2 and "--actors: expected auto or an integer >= 0, got -2" in capsys.readouterr().err
    assert main(["train", "--config", str(path), "--actors", "3", "--quiet"]) == 2
    assert "field 'actors': 3 actors need at least as many games (field 'games' is 2)" in capsys.readouterr().err
    assert main(["train", "--config", str(path), "--address", "auto", "--quiet"]) == 2
    assert "field 'ray_address': only used with actors" in capsys.readouterr().err
    ppo = tmp_path / "ppo.yaml"
    ppo.write_text("method: ppo\n")
    assert main(["train", "--config", str(ppo), "--actors", "2", "--quiet"]) == 2
    assert "--actors and --address: only for search self-play configs" in capsys.readouterr().err
    assert not (tmp_path / "runs").exists()


def test_games_are_dealt_evenly():
    assert split_games(64, 3) == [22, 21, 21]
    assert split_games(4, 4) == [1, 1, 1, 1]
    with pytest.raises(ValueError, match="actors: 3 actors cannot share 2 games"):
        split_games(2, 3)


def test_an_actors_games_depend_on_run_seed_actor_and_number_only(tmp_path):
    config = _config(tmp_path)
    a = ActorSelfPlay(config, actor=1, games=2)
    b = ActorSelfPlay(config, actor=1, games=3)  # more games: the first two are the same games
    other = ActorSelfPlay(config, actor=0, games=2)
    for x, y in zip(a.games, b.games[:2], strict=True):
        assert np.array_equal(x.state, y.state)
    assert a.rngs[0].random() == b.rngs[0].random()
    assert not np.array_equal(a.games[0].state, other.games[0].state)
    assert a.next_game == 2 and b.next_game == 3
    resumed = ActorSelfPlay(config, actor=1, games=0)  # a game begun after a checkpoint takes the next number
    resumed.load(b.to_dict())
    resumed._new_game(0)
    assert resumed.next_game == 4 and not np.array_equal(resumed.games[0].state, b.games[0].state)


def test_a_single_process_run_refuses_an_actor_checkpoint(tmp_path):
    pool_data = {"games": [], "setups": [], "actions": [], "rngs": [], "pending": [], "next_game": {0: 1},
                 "actors": 1, "started": 1, "finished": 0, "positions": 0}
    with pytest.raises(ValueError, match="written by a run with actors"):
        Run(_config(tmp_path, actors=0), log=lambda *_: None).selfplay.load(pool_data)
    with pytest.raises(ValueError, match="written by a single-process run"):
        ActorRun(_config(tmp_path), log=lambda *_: None).selfplay.load({"games": []})


# ----- local Ray ---------------------------------------------------------------------------------------
def test_weights_reach_the_actors(local_ray, one_thread, tmp_path):
    net = PolicyValueNet(v1=False, channels=8, blocks=1, head_channels=2).eval()
    worker = ray.remote(num_cpus=1)(SelfPlayWorker).remote(_config(tmp_path).to_dict(), 0, net.config)
    obs = np.random.default_rng(0).random((3, 28, 20, 20), dtype=np.float32)
    ray.get(worker.set_weights.remote(_weights(net)))
    logits, values = ray.get(worker.evaluate.remote(obs))
    with torch.no_grad():
        expected = net(torch.from_numpy(obs))
    np.testing.assert_allclose(logits, expected[0].numpy(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(values, expected[1].numpy(), rtol=1e-5, atol=1e-5)
    with torch.no_grad():
        net.value[-1].bias += 1.0  # a changed weight: every predicted value rises by 1
    ray.get(worker.set_weights.remote(_weights(net)))
    _, changed = ray.get(worker.evaluate.remote(obs))
    np.testing.assert_allclose(changed, values + 1.0, rtol=1e-5, atol=1e-5)
    ray.kill(worker)


def test_the_inference_server_batches_the_actors_requests(local_ray):
    net = PolicyValueNet(v1=False, channels=8, blocks=1, head_channels=2).eval()
    server = ray.remote(num_cpus=0)(InferenceServer).remote(net.config, "cpu", 2, 5.0)  # waits for both actors
    ray.get(server.set_weights.remote(_weights(net)))
    obs = np.random.default_rng(1).random((5, 28, 20, 20), dtype=np.float32)
    first, second = ray.get([server.infer.remote(obs[:2]), server.infer.remote(obs[2:])])
    assert ray.get(server.stats.remote()) == {"batches": 1, "positions": 5}  # one forward pass for both
    with torch.no_grad():
        expected = net(torch.from_numpy(obs))[1].numpy()
    np.testing.assert_allclose(np.concatenate([first[1], second[1]]), expected, rtol=1e-5, atol=1e-5)
    assert first[0].shape == (2, net.action_size) and second[0].shape == (3, net.action_size)
    ray.kill(server)


class SnapshotRun(ActorRun):
    """An ActorRun that keeps a copy of its round-1 checkpoint and buffer (to resume from, to compare with)."""

    def save_checkpoint(self) -> None:
        super().save_checkpoint()
        if self.iteration == 1:
            shutil.copytree(self.dir, self.dir.parent.parent / "round1" / self.dir.name, dirs_exist_ok=True)
            self.round1 = {"size": self.buffer.size, "states": self.buffer.states[:self.buffer.size].copy(),
                           "policies": self.buffer.policies[:self.buffer.size].copy(),
                           "values": self.buffer.values[:self.buffer.size].copy(), "weights": _weights(self.net)}


def test_the_gpu_path_packed_rows_through_the_server(local_ray, one_thread, tmp_path):
    # inference: server on a GPU sends packed rows (kbenv.packed) to the server; here the server is on the
    # CPU, which unpacks them to the same planes: the same games as an actor with its own network
    config = _config(tmp_path, inference="server")
    net = PolicyValueNet(v1=False, channels=8, blocks=1, head_channels=2).eval()
    server = ray.remote(num_cpus=0)(InferenceServer).remote(net.config, "cpu", 1)
    ray.get(server.set_weights.remote(_weights(net)))
    remote = SelfPlayWorker(config.to_dict(), 0, net.config, server=server, packed=True)
    assert remote.search.packed
    local = SelfPlayWorker(config.to_dict(), 0, net.config)
    for worker in (remote, local):
        worker.start(2)
        done = worker.play(_weights(net), 6)
        assert done["positions"] == 12 and done["evaluations"] == 6 * 2 * (1 + 4)  # root + 4 simulations
    assert ray.get(server.stats.remote())["positions"] == 60
    assert [g.actions for g in remote.selfplay.games] == [g.actions for g in local.selfplay.games]
    ray.kill(server)


@pytest.fixture(scope="module")
def two_rounds(local_ray, tmp_path_factory):
    """Two rounds of a 2-actor run (its folder, the Run, the initial weights, the card); a copy of its
    folder after round 1 is in out/round1."""
    threads = torch.get_num_threads()
    out = tmp_path_factory.mktemp("actors")
    run = SnapshotRun(_config(out / "straight", iterations=2, eval_opponents=["random"]), log=lambda *_: None)
    initial = _weights(run.net)
    card = run.run(progress=False)
    torch.set_num_threads(threads)
    return out, run, initial, card


def test_actors_and_learner_end_to_end(two_rounds, one_thread):
    out, run, initial, card = two_rounds
    config = run.config
    folder = out / "straight" / "tiny"
    for name in ("model.pt", "checkpoint.pt", "curve.csv", "curve.png", "losses.csv", "model_card.json"):
        assert (folder / name).exists(), name
    assert card["actors"] == 2 and card["self_play_positions"] == 2 * 4 * 150
    assert json.loads((folder / "model_card.json").read_text())["evaluation"][0]["opponent"] == "random"
    rows = list(csv.DictReader((folder / "losses.csv").open()))
    assert [int(r["positions"]) for r in rows] == [600, 1200] and {r["actors"] for r in rows} == {"2"}
    assert all(float(r["positions_per_s"]) > 0 and float(r["evaluations_per_s"]) > 0 for r in rows)
    # after round 1 the buffer holds exactly what the actors made: actor 0's finished games, then actor 1's,
    # as two workers with the same weights, seeds and shares make them here
    first = run.round1
    assert first["size"] > 0
    expected = []
    for actor, share in enumerate(split_games(4, 2)):
        worker = SelfPlayWorker(config.to_dict(), actor, run.net.config)
        worker.start(share)
        expected.append(worker.play(initial, 150)["batch"])
    game = slice(0, S.SCRATCH)  # the kernels' scratch words are not part of a game (kbenv.engine.state)
    np.testing.assert_array_equal(first["states"][:, game], np.concatenate([b["states"] for b in expected])[:, game])
    np.testing.assert_array_equal(first["policies"], np.concatenate([b["policies"] for b in expected]))
    np.testing.assert_array_equal(first["values"], np.concatenate([b["values"] for b in expected]))
    # the learner trained on them, and its round-2 positions came after
    assert any(not np.array_equal(v, initial[k]) for k, v in first["weights"].items())
    assert run.buffer.size > first["size"] and card["games_finished"] >= 4


def test_a_resumed_actor_run_continues_bit_for_bit(two_rounds):
    out, straight, _, _ = two_rounds
    resumed = ActorRun(_config(out / "round1", iterations=2, eval_opponents=["random"]), resume=True,
                       log=lambda *_: None)
    assert resumed.iteration == 1 and resumed.selfplay.positions == 600
    resumed.run(progress=False)
    for (name, x), y in zip(straight.net.state_dict().items(), resumed.net.state_dict().values(), strict=True):
        assert torch.equal(x, y), name
    assert straight.selfplay.positions == resumed.selfplay.positions == 2 * 150 * 4
    assert straight.selfplay.finished == resumed.selfplay.finished
    assert straight.selfplay.saved["actions"] == resumed.selfplay.saved["actions"]
    np.testing.assert_array_equal(straight.buffer.states, resumed.buffer.states)
    np.testing.assert_array_equal(straight.buffer.policies, resumed.buffer.policies)
    # on a machine with another number of cores: one actor takes over the four live games
    single = ActorRun(_config(out / "round1", iterations=3, steps_per_iteration=5, actors=1), resume=True,
                      log=lambda *_: None)
    single.run(progress=False)
    assert single.selfplay.count == 1 and single.selfplay.positions == 2 * 150 * 4 + 5 * 4
    for before, after in zip(resumed.selfplay.saved["actions"], single.selfplay.saved["actions"], strict=True):
        assert after[:len(before)] == before or len(after) < len(before)  # the same game went on, or a new one
