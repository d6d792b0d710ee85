"""Every ruleset: the property suite (mask = accepted for every action id, replay, batch = single game,
conservation of pieces, every game ends, compiled = pure Python) and the kingdom_builder_v1 env."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from kbenv import Game, IllegalActionError, kingdom_builder_v0, kingdom_builder_v1
from kbenv.catalogue import ACTION_NAMES, ACTION_SIZE_V0, ACTION_SIZE_V1, EXPANSIONS
from kbenv.engine import state as S
from kbenv.setup import SetupError
from kbenv.vector import VectorGames

RULESETS = [[], ["nomads"], ["capitol"], ["caves"], ["nomads", "capitol"], ["nomads", "caves"],
            ["capitol", "caves"], ["nomads", "capitol", "caves"], ["crossroads"],
            ["nomads", "capitol", "caves", "crossroads"], ["marshlands"],
            ["nomads", "capitol", "caves", "crossroads", "marshlands"], ["harvest"],
            ["nomads", "capitol", "caves", "crossroads", "marshlands", "harvest"], ["island"],
            ["nomads", "capitol", "caves", "crossroads", "marshlands", "harvest", "island"]]
IDS = ["base" if not r else "+".join(r) for r in RULESETS]


def random_game(players: int, seed: int, expansions, check_every_id: bool = False) -> Game:
    game = Game.new(players, seed=seed, expansions=expansions)
    rng = np.random.default_rng(seed)
    decisions = 0
    while not game.done:
        mask = game.legal_mask()
        legal = np.flatnonzero(mask)
        assert len(legal), (seed, game.phase)
        if check_every_id:
            for a in range(game.action_size):
                trial = game.clone()
                try:
                    trial.step(a)
                    accepted = True
                except IllegalActionError:
                    accepted = False
                    assert trial.state_key() == game.state_key()
                assert accepted == bool(mask[a]), (a, ACTION_NAMES[a], game.phase)
        game.step(int(rng.choice(legal)))
        decisions += 1
        assert decisions < 5000
    return game


@pytest.mark.parametrize("expansions", RULESETS, ids=IDS)
def test_random_games_end_conserve_pieces_and_replay(expansions):
    for seed in range(12):
        players = 2 + seed % 4
        game = random_game(players, seed, expansions)
        for p in range(players):
            # a Temple reserve not yet built when the game ended stays off the board (A-M6); a Mayors mark takes a
            # settlement from the supply (H-15, A-H7)
            marks = int((game.state[S.MAYOR_LINES : S.MAYOR_LINES + 20] == p + 1).sum())
            assert game.supply(p) + len(game.settlements(p)) + int(game.state[S.TEMPLE_RESERVE + p]) + marks == 40
        if "nomads" in expansions:
            assert len(game.walls()) + int(game.state[S.WALLS_LEFT]) == 25
        occupied = set().union(*(game.own_hexes(p) for p in range(players))) | game.walls()
        if "caves" in expansions:
            occupied |= game.caves()
        assert game.occupied() == occupied
        check_crossroads_pieces(game)
        record = json.loads(json.dumps(game.to_record()))
        assert record["version"] == (2 if expansions else 1)
        assert Game.from_record(record).state_key() == game.state_key()
        assert game.scores()[0]["total"] == sum(game.scores()[0]["cards"].values()) + game.scores()[0]["castles"] \
            + game.scores()[0].get("capitols", 0) + game.scores()[0].get("gold", 0) \
            + sum(game.scores()[0].get("tasks", {}).values()) + game.scores()[0].get("palaces", 0)


def check_crossroads_pieces(game: Game) -> None:
    """Pieces conserved and zones consistent: each player's own hexes are settlements plus pieces, at most
    2 warriors, 1 wagon, 1 ship and 1 city hall (7 cells); the zone is exactly the warriors' neighbours and
    every zone hex is closed to building."""
    from kbenv.board.geometry import hex_id, hex_rc, neighbours

    warriors = set()
    for p in range(game.num_players):
        pieces = game.pieces(p)
        cells = set(pieces["warriors"]) | {pieces[k] for k in ("wagon", "ship") if pieces[k] is not None}
        if pieces["city_hall"] is not None:
            centre = hex_id(*pieces["city_hall"])
            cells |= {pieces["city_hall"], *(hex_rc(h) for h in neighbours(centre))}
            assert len(cells & {hex_rc(h) for h in neighbours(centre)}) == 6
        assert len(pieces["warriors"]) <= 2
        assert game.own_hexes(p) == game.settlements(p) | cells
        assert not game.settlements(p) & cells
        warriors |= set(pieces["warriors"])
    zone = {hex_rc(n) for w in warriors for n in neighbours(hex_id(*w))}
    assert game.warrior_zone() == zone
    assert game.closed() == game.occupied() | zone


@pytest.mark.parametrize("expansions", RULESETS[1:], ids=IDS[1:])
def test_mask_equals_accepted_for_every_action_id(expansions):
    random_game(3, 5, expansions, check_every_id=True)


@pytest.mark.parametrize("expansions", RULESETS, ids=IDS)
def test_batch_engine_equals_single_games(expansions):
    v = VectorGames(8, num_players=[2, 3, 4, 5] * 2, record=True, expansions=expansions or None)
    v.reset(40)
    records = []
    for _ in range(600):
        masks = v.legal_masks()
        assert masks.shape[1] == (ACTION_SIZE_V1 if expansions else ACTION_SIZE_V0)
        records += v.step(v.random_actions()).records
    assert records
    for record in records:
        replay = Game.from_record(json.loads(json.dumps(record)))
        single = Game.new(record["setup"]["num_players"], seed=record["setup"]["seed"], expansions=expansions or None)
        for a in record["actions"]:
            single.step(a)
        assert single.state_key() == replay.state_key() and single.done


def test_nomads_games_really_use_the_nomads_rules():
    """The random games above exercise the new decisions (not only the base ones)."""
    seen = set()
    for seed in range(30):
        game = Game.new(4, seed=seed, expansions=["nomads", "capitol", "caves"])
        rng = np.random.default_rng(seed)
        while not game.done:
            a = int(rng.choice(game.legal_actions()))
            if a >= ACTION_SIZE_V0:
                seen.add(ACTION_NAMES[a])
            game.step(a)
    assert {"caravan", "quarry", "village", "garden", "cave", "done"} <= seen
    assert any(name.startswith("donation") for name in seen) and {"sword", "outpost", "resettlement"} & seen


def test_crossroads_games_really_use_the_crossroads_rules():
    """Random Crossroads games place and take back every piece, draw for the Fort and hold several cards."""
    seen, extra_hands, steps, zones = set(), 0, 0, 0
    for seed in range(30):
        game = Game.new(4, seed=seed, expansions=["crossroads"])
        rng = np.random.default_rng(seed)
        while not game.done:
            a = int(rng.choice(game.legal_actions()))
            if a >= ACTION_SIZE_V0:
                seen.add(ACTION_NAMES[a])
            steps += game.phase == "step"
            extra_hands += len(game.hand_cards(game.current_player)) > 1
            zones += bool(game.warrior_zone())
            game.step(a)
    assert {"foresters_lodge", "monastery", "fort", "city_hall", "barracks", "wagon", "lighthouse", "done"} <= seen
    assert extra_hands and steps and zones


SCRIPT = textwrap.dedent(
    """
    import hashlib, json, sys
    import numpy as np
    from kbenv import Game
    out = []
    for seed, players in json.loads(sys.argv[1]):
        game = Game.new(players, seed=seed, expansions=["nomads", "capitol", "caves", "crossroads"])
        rng = np.random.default_rng(seed)
        while not game.done:
            game.step(int(rng.choice(game.legal_actions())))
        out.append({"key": hashlib.sha256(game.state_key()).hexdigest(), "scores": game.scores()})
    print(json.dumps(out))
    """
)


def test_expansion_kernels_agree_compiled_and_interpreted():
    results = []
    for jit in (True, False):
        env = dict(os.environ)
        if not jit:
            env["NUMBA_DISABLE_JIT"] = "1"
        proc = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps([[4, 3], [9, 2]])], env=env,
                              capture_output=True, text=True, check=True)
        results.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    assert results[0] == results[1]


# ----- kingdom_builder_v1 ------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("expansions", [None, ["nomads", "capitol", "caves", "crossroads"]], ids=["base", "all"])
def test_v1_pettingzoo_api_seed_and_render(players, expansions):
    api_test(kingdom_builder_v1.env(num_players=players, expansions=expansions), num_cycles=400,
             verbose_progress=False)
    seed_test(lambda: kingdom_builder_v1.env(num_players=players, expansions=expansions), num_cycles=200)
    render_test(lambda render_mode=None: kingdom_builder_v1.env(num_players=players, expansions=expansions,
                                                                render_mode=render_mode))


def test_v1_spaces_and_observation_size():
    e = kingdom_builder_v1.raw_env(num_players=3, expansions=["nomads"])
    e.reset(seed=1)
    obs = e.observe(e.agent_selection)
    assert e.action_space("player_0").n == ACTION_SIZE_V1
    assert obs["observation"].shape == (50, 20, 20) and obs["observation"].nbytes <= 80_000
    assert obs["action_mask"].shape == (ACTION_SIZE_V1,)
    assert e.state().shape == e.state_space.shape


def test_v1_base_games_have_v0_observations_and_masks_as_prefix():
    """A base game in v1 is the v0 game: the first 28 channels and 409 mask entries are v0's."""
    a = kingdom_builder_v0.raw_env(num_players=2)
    b = kingdom_builder_v1.raw_env(num_players=2)
    a.reset(seed=3)
    b.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(60):
        oa, ob = a.observe(a.agent_selection), b.observe(b.agent_selection)
        np.testing.assert_array_equal(oa["observation"], ob["observation"][:28])
        np.testing.assert_array_equal(oa["action_mask"], ob["action_mask"][:ACTION_SIZE_V0])
        assert not ob["action_mask"][ACTION_SIZE_V0:].any()
        action = int(rng.choice(np.flatnonzero(oa["action_mask"])))
        a.step(action)
        b.step(action)


def test_v1_observation_hides_hidden_cards():
    game = Game.new(3, seed=8, expansions=["nomads", "capitol", "caves"])
    rng = np.random.default_rng(1)
    for _ in range(40):
        game.step(int(rng.choice(game.legal_actions())))
    from kbenv.observation import observation_planes_v1

    for p in range(3):
        other = game.determinize(p, np.random.default_rng(5))
        np.testing.assert_array_equal(observation_planes_v1(game.state, p), observation_planes_v1(other.state, p))


@pytest.mark.parametrize("kwargs, field", [({"expansions": ["islands"]}, "expansions"),
                                           ({"expansions": "nomads"}, "expansions"),
                                           ({"rules": {"capitol_replaces_castle": True}}, "capitol"),
                                           ({"rules": {"no_such_flag": True}}, "rules"),
                                           ({"expansions": ["nomads"], "rules": {"nomad_tile_next_turn": "yes"}},
                                            "nomad_tile_next_turn"),
                                           ({"expansions": ["nomads"], "hints": "greedy"}, "hints")])
def test_bad_rulesets_name_the_field(kwargs, field):
    with pytest.raises(SetupError, match=field):
        kingdom_builder_v1.raw_env(num_players=2, **kwargs)


def test_an_expansion_under_construction_is_refused_naming_the_field(an_expansion_under_construction):
    with pytest.raises(SetupError, match="expansions: 'island' is not implemented yet"):
        kingdom_builder_v1.raw_env(num_players=2, expansions=[an_expansion_under_construction])


IN_PROGRESS: set[str] = set()  # implemented expansions not yet in RULESETS (none)


def test_every_implemented_expansion_is_in_the_rulesets():
    assert {e.name for e in EXPANSIONS if e.implemented} - IN_PROGRESS == {name for r in RULESETS for name in r}


def test_docs_show_the_declared_v1_layout():
    """docs/api.md prints the v1 observation table generated from its declarations, and the action ids."""
    from pathlib import Path

    from kbenv.catalogue import ACTION_ID
    from kbenv.engine.observe_v1 import layout_table

    doc = (Path(__file__).parent.parent / "docs" / "api.md").read_text()
    assert layout_table() in doc
    assert f"ACTION_SIZE_V1 = {ACTION_SIZE_V1}" in doc
    for name in ("caravan", "donation-G", "sword", "cave", "done"):
        assert str(ACTION_ID[name]) in doc, name


def test_sections_are_catalogue_rows_in_their_fixed_order():
    """Section ids of seeded set-ups come from the catalogue's order, which must never change."""
    from kbenv.board.tables import TABLE_SECTIONS
    from kbenv.catalogue import SECTIONS

    assert TABLE_SECTIONS == ("tavern", "paddock", "oasis", "farm", "tower", "harbor", "oracle", "barn",
                              "caravan", "quarry", "garden", "village",
                              "barracks", "city_hall", "lighthouse", "monastery",
                              "marsh-substitute-1", "marsh-substitute-2", "marsh-substitute-3", "marsh-substitute-4",
                              # issue 22: the Harvest substitutes are appended (earlier ids, hence seeds, unchanged)
                              "harvest-substitute-1", "harvest-substitute-2", "harvest-substitute-3",
                              "harvest-substitute-4")
    assert all(sec.provenance.startswith(("kb-data", "UNVERIFIED: kb-data")) for sec in SECTIONS
               if sec.expansion not in ("marshlands", "harvest"))
    assert {sec.expansion for sec in SECTIONS} == {None, "nomads", "crossroads", "marshlands", "harvest"}
    # decision 5: the Marshlands rows are generated substitutes, named as such
    assert all(sec.provenance.startswith("SUBSTITUTE: generated by scripts/make_substitute_sections.py; no printed "
                                         "layout is reachable") for sec in SECTIONS if sec.expansion == "marshlands")
    # Decision 4 / A-C11: the Crossroads sections say everywhere that a single unverified source gave them,
    # except Barracks, checked hex by hex against the first-edition Big Box rulebook picture (issue 19).
    assert all(sec.provenance.startswith("UNVERIFIED") for sec in SECTIONS
               if sec.expansion == "crossroads" and sec.name != "barracks")
    assert [sec.provenance.startswith("kb-data") for sec in SECTIONS if sec.name == "barracks"] == [True]


GARBAGE_RULESETS = [({"expansions": [["nomads"]]}, "expansions"), ({"expansions": [5]}, "expansions"),
                    ({"rules": 5}, "rules"), ({"rules": [["x"]]}, "rules"), ({"rules": {5: True}}, "rules")]


@pytest.mark.parametrize("kwargs, field", GARBAGE_RULESETS)
def test_garbage_rulesets_name_the_field(kwargs, field):
    with pytest.raises(SetupError, match=field):
        Game.new(2, seed=0, **kwargs)


# Digests of every v1 observation (channels 0..34, every seat, every decision) of three random Nomads +
# Capitol + Caves games, taken at commit 0a81d1f, before Crossroads appended its planes and features.
NOMADS_V1_PREFIX_DIGESTS = [
    "88642ce803cbae6ef99974021ff1b33f7778a89edd5f9f1887e58e2b3763520e",
    "b4b577527acd0d11cde7e8368ad646d5e861bdc9f261948839b1a9f3a91cb962",
    "84184dfe8063236022f38e8bf4ffa84159a29887218f0b8bf23f6b02bdd26b05",
]


def test_v1_observation_prefix_of_games_without_crossroads_is_unchanged():
    """Networks made before Crossroads (35 channels, e.g. trained:nomads-2p-selfplay) see exactly what they saw."""
    import hashlib

    from kbenv.engine.observe_v1 import V1_BASE_CHANNELS
    from kbenv.observation import observation_planes_v1

    digests = []
    for seed, n in [(1, 2), (2, 3), (5, 4)]:
        game = Game.new(n, seed=seed, expansions=["nomads", "capitol", "caves"])
        rng = np.random.default_rng(seed)
        h = hashlib.sha256()
        while not game.done:
            for p in range(n):
                obs = observation_planes_v1(game.state, p)
                assert not obs[V1_BASE_CHANNELS:].any()
                h.update(np.ascontiguousarray(obs[:V1_BASE_CHANNELS]).tobytes())
            game.step(int(rng.choice(game.legal_actions())))
        digests.append(h.hexdigest())
    assert digests == NOMADS_V1_PREFIX_DIGESTS
