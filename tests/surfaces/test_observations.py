"""Observation v1 in every ruleset (issues 21-23; issue 49: tests by surface): over random games of the rulesets of
tests/ruleset_games.RULESETS the packed observation of each player unpacks to the float planes, the player's view
(kbenv.game.view.PlayerView) observes what the game does, the batch engine's packed rows unpack to its float
observations (all values in [0, 1]); the part of the layout an expansion appends (Harvest's planes and features,
the Island's) reads zeros in every ruleset without it. The layouts themselves, worked out from the rule text and
docs/api.md's table, are each expansion's own: tests/test_marsh_observation.py, tests/test_harvest_observation.py,
tests/test_island_observation.py."""

from __future__ import annotations

import numpy as np
import pytest

from kbenv.engine import observe_v1 as O
from kbenv.game.view import PlayerView
from kbenv.observation import observation_planes_v1
from kbenv.packed import PackedLayout, unpack
from kbenv.vector import VectorGames
from tests.observation_checks import features, packed_equals_float
from tests.ruleset_games import BY_ID, RULESETS, ids

EVERY = [BY_ID[name] for name in ("base", "nomads+capitol+caves", "crossroads", "marshlands", "all5", "harvest",
                                  "island", "island+harvest", "all7")]


@pytest.mark.parametrize("ruleset", EVERY, ids=ids(EVERY))
def test_packed_equals_float_and_view_equals_game_in_random_games(ruleset):
    """Three random games (2, 3 and 4 players; the ruleset's first cards: Mayors, Rovers and Fishermen with
    Harvest): at every fifth decision, for each player, packed = float and the view's observation = the game's."""
    checked = 0
    for seed in range(3):
        g = ruleset.game(2 + seed, seed)
        rng = np.random.default_rng(seed)
        step = 0
        while not g.done:
            if step % 5 == 0:
                for p in range(g.num_players):
                    assert packed_equals_float(g.state, p)
                    assert np.array_equal(PlayerView(g, p).observation_v1(), observation_planes_v1(g.state, p))
                    checked += 1
            g.step(int(rng.choice(g.legal_actions())))
            step += 1
    assert checked > 50


@pytest.mark.parametrize("ruleset", EVERY[1:], ids=ids(EVERY[1:]))
def test_batch_packed_observations_equal_the_float_ones(ruleset):
    """Four batch games of 3 players, 60 random steps: the packed v1 rows unpack to the float observations (the
    base game's batch observes v0: tests/test_packed_observations.py)."""
    layout = PackedLayout("v1")
    v = VectorGames(4, num_players=3, expansions=list(ruleset.expansions), packed=True)
    v.reset(5)
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(60):
        packed = v.observations()
        floats = v.observations(packed=False)
        assert np.array_equal(unpack(packed, layout), floats)
        assert floats.max() <= 1.0 and floats.min() >= 0.0
        checked += len(floats)
        masks = v.legal_masks()
        v.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
    assert checked == 240


# The planes and features each expansion appends: (first channel, end channel), (first feature, end feature).
PARTS = {
    "harvest": ((O.CH_FARMLAND, O.CH_ISLAND_HEXES), (O.V1_MARSHLANDS_FEATURES, O.V1_HARVEST_FEATURES)),
    "island": ((O.CH_ISLAND_HEXES, O.NUM_CHANNELS_V1), (O.F_ISLAND, O.NUM_FEATURES_V1)),
}
WITHOUT = [(r, part) for r in RULESETS for part in PARTS if part not in r.expansions]


@pytest.mark.parametrize("ruleset, part", WITHOUT, ids=[f"{r.id}-no-{part}" for r, part in WITHOUT])
def test_an_expansion_not_in_play_leaves_its_part_zero(ruleset, part):
    """40 random decisions of a 3-player game: every player's observation holds zeros in the part of the layout
    that an expansion not in play appends."""
    (c0, c1), (f0, f1) = PARTS[part]
    g = ruleset.game(3, 5)
    rng = np.random.default_rng(5)
    for _ in range(40):
        for p in range(3):
            obs = observation_planes_v1(g.state, p)
            assert not obs[c0:c1].any()
            assert not features(obs)[f0:f1].any()
        g.step(int(rng.choice(g.legal_actions())))
