"""The pooled warm start (`imitation_pool: true`, agents.training.az_pool), the share of random moves in the
teacher's games (`imitation_random_share`) and runs of the warm start only (`iterations: 0`): the config's
checks, that the pool holds exactly the teacher's games, that training passes over all of them, that a run
stopped while playing or while training goes on bit for bit, and what a run without rounds writes."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

import agents.training.az_warm as az_warm
from agents.training.alphazero import Run
from agents.training.az_config import AlphaZeroConfig
from agents.training.az_pool import PoolWarmStart
from agents.training.imitation import imitation_batches
from kbenv.engine import state as S
from kbenv.packed import layout_of


def _config(tmp_path, **over) -> AlphaZeroConfig:
    data = dict(name="pool", games=4, simulations=4, considered=4, channels=8, blocks=1, head_channels=2,
                iterations=0, steps_per_iteration=30, train_batches=2, batch_size=16, buffer_positions=2000,
                min_buffer=1, eval_every=0, eval_games=2, eval_opponents=["random"], checkpoint_every=1,
                device="cpu", threads=1, seed=5, out_dir=str(tmp_path), teacher="greedy", imitation_samples=1500,
                imitation_epochs=2, imitation_batch_size=64, imitation_lr=0.01, imitation_pool=True)
    data.update(over)
    return AlphaZeroConfig.from_dict(data)


def _quiet(*_args) -> None:
    pass


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch):
    """Chunks of 8 teacher games instead of 64 (fast runs; the code is the same)."""
    monkeypatch.setattr(az_warm, "CHUNK_GAMES", 8)


# ----- the config ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("fields", "named"), [
    ({"imitation_random_share": 1.0}, "field 'imitation_random_share'"),
    ({"imitation_random_share": -0.1}, "field 'imitation_random_share'"),
    ({"imitation_pool": "yes"}, "field 'imitation_pool'"),
    ({"iterations": -1}, "field 'iterations'"),
    ({"iterations": 0, "teacher": "none", "imitation_samples": 0}, "field 'iterations' may be 0 only with a warm"),
])
def test_config_errors_name_the_field(tmp_path, fields, named):
    with pytest.raises(ValueError, match=named):
        _config(tmp_path, **fields)


def test_the_defaults_keep_the_chunked_warm_start_and_its_games(tmp_path):
    config = AlphaZeroConfig.from_dict({"teacher": "greedy", "imitation_samples": 10})
    assert config.imitation_pool is False and config.imitation_random_share == 0.2
    chunk = az_warm.teacher_chunk(config, 11)  # the games of the share every run before the field had
    before = next(imitation_batches(8, [2], 1, 0.2, 11, teacher="greedy", positions=True))
    for new, old in zip(chunk, before, strict=True):
        np.testing.assert_array_equal(new, old)
    other = az_warm.teacher_chunk(_config(tmp_path, imitation_random_share=0.0), 11)
    assert len(other[0]) != len(chunk[0]) or not np.array_equal(other[5], chunk[5])


def test_packed_teacher_rows_unpack_to_the_float_observations(tmp_path):
    config = _config(tmp_path)
    packed = az_warm.teacher_chunk(config, 7, packed=True)
    plain = az_warm.teacher_chunk(config, 7)
    assert packed[0].dtype == np.uint8 and packed[0].shape[1] == layout_of(False).nbytes
    np.testing.assert_array_equal(layout_of(False).unpack(packed[0]), plain[0])
    for new, old in zip(packed[1:], plain[1:], strict=True):
        np.testing.assert_array_equal(new, old)


# ----- the pool and its training -------------------------------------------------------------------------
def test_the_pool_holds_every_teacher_game_before_training_starts(tmp_path):
    run = Run(_config(tmp_path), log=_quiet)
    warm = run._new_warm_start()
    assert isinstance(warm, PoolWarmStart)
    initial = {k: v.clone() for k, v in run.net.state_dict().items()}
    warm.chunk()  # the first chunk of games: played, not trained on
    assert warm.arrays is None and warm.steps == 0 and 0 < warm.samples < 1500
    assert all(torch.equal(v, initial[k]) for k, v in run.net.state_dict().items())
    warm.chunk()  # the second passes 1,500 decisions: the pool is complete
    sizes = [len(az_warm.teacher_chunk(run.config, warm.seed + k)[0]) for k in range(2)]
    assert warm.samples == sum(sizes) and len(warm.arrays["obs"]) == sum(sizes)
    targets = np.concatenate([az_warm.value_targets(*az_warm.teacher_chunk(run.config, warm.seed + k)[5:])[0]
                              for k in range(2)])
    np.testing.assert_array_equal(warm.arrays["targets"], targets)
    batches = -(-warm.samples // 64)
    assert warm.total_steps == 2 * batches and not warm.complete


def test_training_passes_over_the_whole_pool_and_moves_toward_the_teacher(tmp_path):
    run = Run(_config(tmp_path, imitation_samples=3000, imitation_epochs=3), log=_quiet)
    card = run.run(progress=False)
    record = card["warm_start"]
    assert record["pool"] is True and record["finished"] and record["samples"] >= 3000
    assert record["gradient_steps"] == 3 * -(-record["samples"] // 64)
    assert record["random_share"] == 0.2
    assert record["agreement_held_out"] > record["agreement_untrained"]
    assert np.isfinite(record["value_loss_held_out"]) and record["held_out_positions"] > 0


def test_a_run_without_rounds_ends_with_its_final_evaluation(tmp_path):
    card = Run(_config(tmp_path, final_eval_games=4), log=_quiet).run(progress=False)
    assert card["rounds"] == 0 and card["self_play_positions"] == 0
    assert [(r["round"], r["opponent"], r["games"]) for r in card["evaluation"]] == [(0, "random", 4)]
    folder = tmp_path / "pool"
    assert json.loads((folder / "model_card.json").read_text())["warm_start"]["pool"] is True
    assert (folder / "model.pt").exists() and (folder / "curve.png").exists()


def test_a_run_stopped_before_its_warm_start_ends_makes_no_evaluation(tmp_path):
    card = Run(_config(tmp_path, max_minutes=1e-9), log=_quiet).run(progress=False)
    assert card["evaluation"] == [] and card["warm_start"]["finished"] is False


# ----- resume --------------------------------------------------------------------------------------------
def _stop_after(run: Run, units: int) -> None:
    """What a time limit after `units` units of the warm start leaves: its checkpoint."""
    run.warm = run._new_warm_start()
    for _ in range(units):
        run.warm.chunk()
    run.save_checkpoint()


@pytest.mark.parametrize("units", [1, 3, 4])  # while playing; in the first epoch; in the second
def test_a_stopped_pooled_warm_start_goes_on_bit_for_bit(tmp_path, monkeypatch, units):
    import agents.training.az_pool as az_pool

    monkeypatch.setattr(az_pool, "STEPS_PER_CALL", 20)  # 2 x 28 steps: unit 3 stops in epoch 1, unit 4 in 2
    straight = Run(_config(tmp_path / "a"), log=_quiet)
    straight.run(progress=False)
    _stop_after(Run(_config(tmp_path / "b"), log=_quiet), units)
    resumed = Run(_config(tmp_path / "b"), resume=True, log=_quiet)
    assert resumed.warm is not None and resumed.imitation is None
    resumed.run(progress=False)
    for (name, x), y in zip(straight.net.state_dict().items(), resumed.net.state_dict().values(), strict=True):
        assert torch.equal(x, y), name
    times = ("seconds", "label_seconds", "train_seconds", "samples_per_second")
    assert {k: v for k, v in resumed.imitation.items() if k not in times} == \
        {k: v for k, v in straight.imitation.items() if k not in times}


def test_a_warm_start_resumes_only_in_its_own_mode(tmp_path):
    _stop_after(Run(_config(tmp_path), log=_quiet), 1)
    with pytest.raises(ValueError, match="field 'imitation_pool' true"):
        Run(_config(tmp_path, imitation_pool=False), resume=True, log=_quiet)
    _stop_after(Run(_config(tmp_path / "c", imitation_pool=False), log=_quiet), 1)
    with pytest.raises(ValueError, match="field 'imitation_pool' false"):
        Run(_config(tmp_path / "c"), resume=True, log=_quiet)


# ----- the pool's cache on disk --------------------------------------------------------------------------
def test_the_pool_cache_gives_back_the_chunks_played_without_playing_them(tmp_path, monkeypatch):
    run = Run(_config(tmp_path), log=_quiet)
    first = run._new_warm_start()
    first.chunk()
    first.chunk()
    files = sorted((tmp_path / "pool" / "pool").glob("*/chunk_*.npz"))
    assert [f.name for f in files] == ["chunk_00000.npz", "chunk_00001.npz"]

    def no_games(*_args, **_kwargs):
        raise AssertionError("a cached chunk was played again")

    monkeypatch.setattr("agents.training.az_pool.teacher_chunk", no_games)
    second = Run(_config(tmp_path), log=_quiet)._new_warm_start()
    second.chunk()
    second.chunk()
    assert second.samples == first.samples
    for key, array in first.arrays.items():
        np.testing.assert_array_equal(second.arrays[key], array)


def test_a_pool_cache_is_kept_per_game_fields(tmp_path):
    from agents.training.az_pool import pool_key

    base = _config(tmp_path)
    assert pool_key(base) == pool_key(_config(tmp_path, imitation_epochs=5, imitation_lr=0.5))  # not the games
    assert pool_key(base) != pool_key(_config(tmp_path, seed=6))
    assert pool_key(base) != pool_key(_config(tmp_path, imitation_random_share=0.3))
    assert pool_key(base) != pool_key(_config(tmp_path, teacher="lookahead"))


# ----- teacher games of several rulesets ------------------------------------------------------------------
ROTATION = {"expansions": ["nomads", "capitol", "caves", "crossroads"],
            "ruleset_rotation": ["base", "all", "random", "crossroads", "nomads+caves"]}


def test_the_rotation_gives_each_chunk_its_ruleset(tmp_path):
    config = _config(tmp_path, **ROTATION)
    seed = az_warm.imitation_seed(config)
    drawn = [az_warm.chunk_ruleset(config, seed + k) for k in range(5)]
    assert drawn[0] == [] and drawn[1] == ROTATION["expansions"] and drawn[3] == ["crossroads"]
    assert drawn[4] == ["nomads", "caves"] and set(drawn[2]) <= set(ROTATION["expansions"])
    randoms = [tuple(az_warm.chunk_ruleset(config, seed + k)) for k in range(2, 200, 5)]
    assert len(set(randoms)) > 5  # the random entry draws a new subset per chunk
    assert az_warm.chunk_ruleset(config, seed + 2) == drawn[2]  # a chunk's draw depends on its index alone
    assert az_warm.chunk_ruleset(_config(tmp_path, expansions=["nomads"]), seed + 3) == ["nomads"]


def test_every_chunk_of_a_rotation_is_read_in_the_v1_layout(tmp_path):
    from kbenv.layout import V1

    config = _config(tmp_path, **ROTATION)
    seed = az_warm.imitation_seed(config)
    base = az_warm.teacher_chunk(config, seed)  # the base game, in v1
    every = az_warm.teacher_chunk(config, seed + 1)
    assert base[0].shape[1:] == every[0].shape[1:] == (V1.num_channels, 20, 20)
    assert base[1].shape[1] == every[1].shape[1] == V1.action_size
    assert not base[1][:, 409:].any() and every[1][:, 409:].any()  # no expansion decision in the base game
    assert not base[5][:, S.EXPANSIONS].any() and (every[5][:, S.EXPANSIONS] == every[5][0, S.EXPANSIONS]).all()
    assert every[5][0, S.EXPANSIONS] != 0


def test_self_play_games_follow_the_rotation_only_when_asked(tmp_path):
    from agents.training.alphazero import SelfPlay

    rotating = _config(tmp_path, **ROTATION, teacher="none", imitation_samples=0, iterations=1, games=10,
                       selfplay_rotation=True)
    played = [list(g.setup.expansions or []) for g in SelfPlay(rotating).games]
    assert played[0] == [] and played[1] == ROTATION["expansions"] and played[3] == ["crossroads"]
    assert played[4] == ["nomads", "caves"] and played[5] == [] and played[6] == ROTATION["expansions"]
    assert set(played[2]) <= set(ROTATION["expansions"]) and set(played[7]) <= set(ROTATION["expansions"])
    draws = {tuple(rotating.selfplay_setup(k, [rotating.seed, k, 3]).get("expansions", ()))
             for k in range(2, 200, 5)}
    assert len(draws) > 5  # the random entry draws a new subset per game
    assert [list(g.setup.expansions or []) for g in SelfPlay(rotating).games] == played  # from the seed alone
    fixed = rotating.model_copy(update={"selfplay_rotation": False})
    assert {tuple(g.setup.expansions or ()) for g in SelfPlay(fixed).games} == {tuple(ROTATION["expansions"])}


def test_actors_rotate_their_own_games(tmp_path):
    from agents.training.actors import ActorSelfPlay

    config = _config(tmp_path, **ROTATION, teacher="none", imitation_samples=0, iterations=1, games=8,
                     selfplay_rotation=True)
    games = ActorSelfPlay(config, actor=1, games=4).games
    assert [list(g.setup.expansions or []) for g in games][:2] == [[], ROTATION["expansions"]]
    assert [list(g.setup.expansions or []) for g in games][3] == ["crossroads"]


@pytest.mark.parametrize(("fields", "named"), [
    ({"selfplay_rotation": True}, "field 'selfplay_rotation': needs the rulesets"),
    ({"ruleset_rotation": ["base"]}, "needs the expansions to draw from"),
    ({**ROTATION, "ruleset_rotation": ["harvest"]}, "entry 0"),
    ({**ROTATION, "ruleset_rotation": ["all", "nomads+nomads"]}, "entry 1"),
    ({**ROTATION, "rules": ["nomad_tile_next_turn"]}, "field 'rules': not with field 'ruleset_rotation'"),
])
def test_rotation_errors_name_the_field(tmp_path, fields, named):
    with pytest.raises(ValueError, match=named):
        _config(tmp_path, **fields)
