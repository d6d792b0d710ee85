"""Packed observations on the torch side: UnpackObservations, the search network and the PPO extractor
given packed rows compute exactly what they compute on the float planes; the VecEnv's packed option."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from gymnasium import spaces

from agents.alphazero.network import PolicyValueNet
from agents.training.networks import KingdomBuilderExtractor
from agents.training.packed import UnpackObservations
from kbenv.observation import observation_space, observation_space_v1
from kbenv.packed import PackedLayout
from kbenv.vector import VectorGames

ALL = ["nomads", "capitol", "caves", "crossroads"]


def positions(expansions=None, hints: str = "none", steps: int = 90) -> VectorGames:
    v = VectorGames(6, num_players=np.array([2, 3, 4, 5, 2, 4]), expansions=expansions, hints=hints)
    v.reset(21)
    for _ in range(steps):
        v.step_random()
    return v


@pytest.mark.parametrize(("expansions", "hints"), [(None, "none"), (None, "greedy"), (ALL, "none")],
                         ids=["v0", "v0-hints", "v1"])
def test_torch_unpack_equals_float_planes(expansions, hints):
    v = positions(expansions, hints, steps=40 if hints != "none" else 90)
    packed = v.observations(packed=True)
    unpack = UnpackObservations(v.packed_layout)
    out = unpack(torch.from_numpy(packed))
    assert out.dtype == torch.float32 and out.numpy().tobytes() == v.observations().tobytes()
    # stable-baselines3 hands an extractor the bytes cast to float32: the same result
    assert torch.equal(unpack(torch.from_numpy(packed).float()), out)
    with pytest.raises(ValueError, match="packed: expected"):
        unpack(torch.zeros(2, 10, dtype=torch.uint8))


def test_unpack_has_no_saved_state():
    assert UnpackObservations(PackedLayout("v1")).state_dict() == {}


@pytest.mark.parametrize(("v1", "channels"), [(False, None), (True, None), (True, 35)],
                         ids=["v0", "v1", "v1-35-channels"])
def test_search_network_computes_the_same_on_packed_input(v1, channels):
    torch.manual_seed(0)
    net = PolicyValueNet(v1=v1, channels=8, blocks=1, input_channels=channels).eval()
    v = positions(ALL if v1 else None)
    floats = v.observations()[:, : net.config["input_channels"]]
    with torch.no_grad():
        logits_f, values_f = net(torch.from_numpy(np.ascontiguousarray(floats)))
        logits_p, values_p = net(torch.from_numpy(v.observations(packed=True)))
    assert torch.equal(logits_f, logits_p) and torch.equal(values_f, values_p)
    assert not any(key.startswith("unpack") for key in net.state_dict())  # saved networks load as before


@pytest.mark.parametrize("expansions", [None, ALL], ids=["v0", "v1"])
def test_ppo_extractor_on_a_packed_space_matches_the_float_one(expansions):
    v = positions(expansions)
    layout = v.packed_layout
    float_space = observation_space_v1() if expansions else observation_space("none")
    packed_space = spaces.Box(0, 255, (layout.nbytes,), dtype=np.uint8)
    torch.manual_seed(1)
    reference = KingdomBuilderExtractor(float_space, channels=8, blocks=1, expansions=expansions or ())
    packed = KingdomBuilderExtractor(packed_space, channels=8, blocks=1, expansions=expansions or ())
    packed.load_state_dict(reference.state_dict())  # the same weights: unpacking adds none
    with torch.no_grad():
        expected = reference(torch.from_numpy(v.observations()))
        got = packed(torch.from_numpy(v.observations(packed=True)).float())  # as stable-baselines3 feeds it
    assert torch.equal(expected, got)


def test_vector_env_packed_option_gives_the_same_games_packed():
    from kbenv.vector_env import SelfPlayVecEnv

    envs = [SelfPlayVecEnv(4, num_players=[2, 3], opponents=["random", "greedy"], seed=5, packed=packed)
            for packed in (False, True)]
    plain, packed = envs
    layout = packed.games.packed_layout
    assert packed.observation_space.shape == (layout.nbytes,) and packed.observation_space.dtype == np.uint8
    obs_f, obs_p = plain.reset(), packed.reset()
    assert obs_p.dtype == np.uint8 and layout.unpack(obs_p).tobytes() == obs_f.tobytes()
    finished = 0
    for _ in range(150):
        actions = np.array([int(np.flatnonzero(m)[0]) for m in plain.action_masks()])
        obs_f, rewards_f, dones_f, infos_f = plain.step(actions)
        obs_p, rewards_p, dones_p, infos_p = packed.step(actions)
        assert layout.unpack(obs_p).tobytes() == obs_f.tobytes()
        assert np.array_equal(rewards_f, rewards_p) and np.array_equal(dones_f, dones_p)
        for i in np.flatnonzero(dones_p):
            finished += 1
            terminal = infos_p[i]["terminal_observation"]
            assert terminal.shape == (layout.nbytes,)
            assert layout.unpack(terminal).tobytes() == infos_f[i]["terminal_observation"].tobytes()
    assert finished > 0
