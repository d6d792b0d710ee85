"""Checks shared by the property and interface suites of every ruleset (tests/surfaces/test_properties.py,
tests/surfaces/test_interfaces.py): the per-decision
mask check, the sweep of every action id, a biased random game checked at every decision, the batch engine
against single games, the Gymnasium self-play environment and VecEnv on a ruleset, and `kbenv legal --json` of
a position written mid-game."""

from __future__ import annotations

import json
from collections.abc import Callable

import numpy as np
import pytest

from kbenv import Game, IllegalActionError
from kbenv import catalogue as CAT


def check_mask_and_refusal(game: Game, rng: np.random.Generator, check_illegal: bool = True) -> None:
    """The legal mask equals legal_actions and offers a decision; with `check_illegal`, one random action outside
    the mask is refused, named in the error, with the state unchanged (the property suites' per-decision check)."""
    mask = game.legal_mask()
    legal = np.flatnonzero(mask)
    assert len(legal), f"a running game always offers a decision (phase {game.phase})"
    assert sorted(legal.tolist()) == sorted(game.legal_actions())
    if check_illegal:
        bad = int(rng.choice(np.flatnonzero(mask == 0)))
        before = game.state_key()
        with pytest.raises(IllegalActionError) as err:
            game.step(bad)
        assert str(bad) in str(err.value) or CAT.ACTION_NAMES[bad] in str(err.value)
        assert game.state_key() == before


def assert_mask_is_accepted(game: Game) -> None:
    """Each action id is accepted iff the mask has it; a refused one names the action and changes nothing."""
    mask = game.legal_mask()
    assert len(mask) == game.action_size
    for a in range(game.action_size):
        trial = game.clone()
        try:
            trial.step(a)
            accepted = True
        except IllegalActionError as err:
            accepted = False
            assert str(a) in str(err) or CAT.ACTION_NAMES[a] in str(err), (a, str(err))
            assert trial.state_key() == game.state_key()
        assert accepted == bool(mask[a]), (a, CAT.ACTION_NAMES[a], game.phase)


def play_checked(game: Game, seed: int, *, pick: Callable, tally, conservation: Callable,
                 check_illegal: bool = True, bias: float = 0.6, extra: Callable[[Game], None] | None = None) -> Game:
    """Play a biased random game (`pick(game, rng, bias)`), checking the mask (and `extra(game)`) before and the
    conservation (`conservation(game, history)`) after every decision, recording it in `tally` (its
    step(game, action) plays the action); the game ends with no legal action left."""
    rng = np.random.default_rng(seed)
    history: dict = {}
    for _ in range(5000):
        if game.done:
            break
        check_mask_and_refusal(game, rng, check_illegal)
        if extra is not None:
            extra(game)
        tally.step(game, pick(game, rng, bias))
        conservation(game, history)
    assert game.done, "every game ends"
    assert game.legal_mask().sum() == 0
    tally.finish(game)
    return game


def assert_batch_engine_equals_single_games(expansions: list[str], steps: int = 500) -> None:
    """Batch games of 2-5 players with random actions: every finished record, played again as a single game,
    ends in the same state as the record (through JSON) replayed."""
    from kbenv.vector import VectorGames

    v = VectorGames(8, num_players=[2, 3, 4, 5] * 2, record=True, expansions=expansions)
    v.reset(70)
    records = []
    for _ in range(steps):
        records += v.step(v.random_actions()).records
    assert len(records) >= 8
    for record in records:
        single = Game.new(record["setup"]["num_players"], seed=record["setup"]["seed"], expansions=expansions)
        for a in record["actions"]:
            single.step(a)
        assert single.done
        assert single.state_key() == Game.from_record(json.loads(json.dumps(record))).state_key()


def assert_self_play_env_and_vecenv(expansions: list[str], shape: tuple, vec_steps: int) -> None:
    """The Gymnasium self-play environment plays a whole game against random opponents, and a VecEnv of 3 games
    finishes at least one in `vec_steps` steps, with observations of `shape`."""
    from kbenv.envs.vector_env import SelfPlayVecEnv
    from kbenv.envs.wrappers import SelfPlayEnvV1

    env = SelfPlayEnvV1(num_players=2, expansions=expansions)  # random opponents
    obs, _ = env.reset(seed=3)
    assert obs.shape == shape
    rng = np.random.default_rng(3)
    done, steps = False, 0
    while not done:
        obs, _, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        done, steps = term or trunc, steps + 1
    assert steps > 10
    vec = SelfPlayVecEnv(3, num_players=2, expansions=expansions, seed=1)
    obs = vec.reset()
    assert obs.shape == (3, *shape)
    finished = 0
    for _ in range(vec_steps):
        masks = vec.action_masks()
        obs, _, dones, _ = vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        finished += int(dones.sum())
    assert obs.shape == (3, *shape) and finished >= 1


def assert_cli_legal_matches_the_game(record, at: int, tmp_path, capsys) -> None:
    """`kbenv position RECORD --at N` writes a position file mid-game, and `kbenv legal --json` of it names the
    game's own decider, phase and decisions there."""
    from kbenv.cli import main
    from kbenv.positions.files import decision_name

    data = json.loads(record.read_text())
    middle = tmp_path / "middle.json"
    assert main(["position", str(record), "--at", str(at), "--out", str(middle)]) == 0
    capsys.readouterr()
    setup = data["setup"]
    g = Game.new(setup["num_players"], seed=setup["seed"], expansions=setup.get("expansions"), cards=setup["cards"])
    for a in data["actions"][:at]:
        g.step(a)
    assert main(["legal", str(middle), "--json"]) == 0
    legal = json.loads(capsys.readouterr().out)
    assert legal["player"] == g.decider and legal["phase"] == g.phase
    names = [decision_name(a, g.phase) for a in g.legal_actions()]
    assert legal["legal"] == [list(n) if isinstance(n, tuple) else n for n in names]
