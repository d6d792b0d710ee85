"""The Harvest silo end phase (H-5, A-H2) in whole games: it occurs in random games, its masks are exactly the
accepted decisions, it follows the A-H2 order, the AEC env hands the decision to the silo player, records and
positions replay it, and its position key is validated (kbenv.engine.harvest.silo, kbenv.expansions.harvest.setup).

The rule-text tests of the phase are tests/rules/harvest/test_harvest_silo.py.
"""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from kbenv import Game, SetupError
from kbenv import catalogue as CAT
from kbenv.engine import state as S
from kbenv.positions.files import decision_name, game_from_position, legal_position
from tests.ruleset_games import canonical

BUILD, MOVE, DONE = CAT.ACTION_ID["option-1"], CAT.ACTION_ID["option-2"], CAT.DONE
SEEDS = range(12)  # 2, 3 and 4 players in turn (seed % 3)


def random_game(seed: int, rules=None, stop_in_silo: int | None = None):
    """A random Harvest game played to its end (or to its `stop_in_silo`-th silo-phase decision); returns the
    game and the silo-phase games seen (clones, before each of their decisions)."""
    g = Game.new(2 + seed % 3, seed=seed, expansions=["harvest"], rules=rules)
    rng = np.random.default_rng(seed)
    seen = []
    while not g.done:
        if g.phase == "silo":
            seen.append(g.clone())
            if stop_in_silo is not None and len(seen) > stop_in_silo:
                return g, seen
        g.step(int(rng.choice(g.legal_actions())))
    return g, seen


@pytest.fixture(scope="module")
def games():
    return {seed: random_game(seed) for seed in SEEDS}


def test_the_silo_phase_occurs_in_random_games(games):
    # Every Harvest board has 4 silos, one per section; by the end of a game random players have settlements next
    # to one of them in most games (measured: 11 of these 12 seeds; the 4-player seed 11 touches none). The test
    # asks for at least half.
    reached = [seed for seed, (_, seen) in games.items() if seen]
    assert len(reached) >= len(SEEDS) // 2, reached
    for g, seen in games.values():
        assert g.done and g.phase == "game_over"
        if seen:  # the phase comes after the last turn: the last round's turn counter stays where it was
            assert all(s.turn == g.turn for s in seen)
            assert all(s.state[S.ENDING] == 1 or s.state[S.TURNS_WITHOUT_BUILD] > 0 for s in seen)


def test_masks_are_the_accepted_decisions_in_the_silo_phase(games):
    # every action id: legal in the mask <=> Game.step accepts it (and a refused one leaves the state unchanged)
    checked = 0
    for _, seen in games.values():
        for s in seen[:6]:
            mask = s.legal_mask()
            assert mask.sum() >= 1
            for a in range(s.action_size):
                g = s.clone()
                before = g.state.copy()
                try:
                    g.step(a)
                    ok = True
                except ValueError as err:
                    ok = False
                    assert str(err).startswith(f"action {a} "), str(err)
                    assert np.array_equal(g.state[: S.SCRATCH], before[: S.SCRATCH])
                    assert np.array_equal(g.state[S.SCRATCH_END :], before[S.SCRATCH_END :])
                assert ok == bool(mask[a]), (a, s.phase, mask[a])
            checked += 1
    assert checked >= 6


def test_silo_decisions_are_build_move_done_and_hexes(games):
    for _, seen in games.values():
        for s in seen:
            legal = s.legal_actions()
            assert all(a < 400 or a in (BUILD, MOVE, DONE) for a in legal), legal
            mode = int(s.state[S.SILO_MODE])
            if mode == 0:  # the choice: build while the supply lasts, move while a settlement stands, done
                assert DONE in legal and all(a >= 400 for a in legal)
                assert (BUILD in legal) == (s.supply(s.decider) > 0)
            else:
                assert BUILD not in legal and MOVE not in legal  # no mixing (H-5)


def test_the_order_of_silo_players_is_a_h2_a(games):
    # A-H2 (a): each player in turn order from the start player does all their silos: the seats' offsets from the
    # start player never go down during the phase
    for _, seen in games.values():
        order = [(s.decider - s.start_player) % s.num_players for s in seen]
        assert order == sorted(order), order


def test_the_order_with_the_flag_silo_by_silo():
    # A-H2 (b): silo by silo (ascending hex), each silo's players in turn order from the start player
    found = 0
    for seed in SEEDS:
        _, seen = random_game(seed, rules={"silo_by_silo": True})
        keys = [(int(s.state[S.SILO_AT]), (s.decider - s.start_player) % s.num_players) for s in seen]
        assert keys == sorted(keys), keys
        found += len({k for k, _ in keys}) > 1
    assert found >= 1  # some game had two silos


def test_rule_flag_needs_harvest():
    with pytest.raises(ValueError, match="rules.silo_by_silo: needs the 'harvest' expansion"):
        Game.new(2, seed=0, expansions=["nomads"], rules={"silo_by_silo": True})


def test_records_replay_the_silo_phase(games):
    for seed, (g, seen) in games.items():
        if not seen:
            continue
        record = json.loads(json.dumps(g.to_record()))
        again = Game.from_record(record)
        assert again.done and np.array_equal(canonical(again), canonical(g))
        assert again.scores() == g.scores()
        # the same seed plays the same game (the random player is seeded too)
        same, _ = random_game(seed)
        assert same.actions == g.actions


def test_positions_inside_the_silo_phase_round_trip(games):
    rounds = 0
    for g, seen in games.values():
        for s in seen[:4]:
            pos = json.loads(json.dumps(s.to_position()))
            assert pos["decision"]["phase"] == "silo" and set(pos["silo"]) == {"at", "mode", "steps", "left"}
            back = game_from_position(copy.deepcopy(pos))
            assert np.array_equal(canonical(back), canonical(s))
            assert back.legal_actions() == s.legal_actions() and back.decider == s.decider
            # the rest of the game from the position ends as the game did
            rest = g.actions[len(s.actions):]
            for a in rest:
                back.step(a)
            assert back.done and back.scores() == g.scores()
            # legal_position names the silo player and the decisions in words
            out = legal_position(copy.deepcopy(pos))
            assert out["player"] == s.decider and out["phase"] == "silo"
            assert out["legal"] == [decision_name(a, "silo") for a in s.legal_actions()]
            assert all(isinstance(x, list) or x in ("build", "move", "done") for x in out["legal"])
            rounds += 1
    assert rounds >= 6
    # outside the phase there is no silo key
    g, _ = games[0]
    assert "silo" not in g.to_position()


def silo_position():
    """A position at a silo decision of a random game."""
    for seed in SEEDS:
        _, seen = random_game(seed, stop_in_silo=0)
        if seen:
            return json.loads(json.dumps(seen[0].to_position()))
    raise AssertionError("no silo phase")


@pytest.mark.parametrize("change, field", [
    (lambda p: p.pop("silo"), "silo:"),
    (lambda p: p["silo"].update(at=[0, 0]), "silo.at:"),
    (lambda p: p["silo"].update(mode="walk"), "silo.mode:"),
    (lambda p: p["silo"].update(steps=3, mode="build"), "silo.steps:"),
    (lambda p: p["silo"].update(steps=1), "silo.steps:"),  # steps before the mode is chosen
    (lambda p: p["silo"].update(left="all"), "silo.left:"),
    (lambda p: p["silo"].update(left=[p["silo"]["at"]]), "silo.left:"),
    (lambda p: p["decision"].update(phase="idle"), "silo:"),  # the key only inside the phase
])
def test_bad_silo_keys_are_refused_by_name(change, field):
    pos = silo_position()
    change(pos)
    with pytest.raises(SetupError) as info:
        game_from_position(pos)
    assert str(info.value).startswith(field), str(info.value)


def test_the_env_hands_silo_decisions_to_the_silo_player():
    from kbenv import kingdom_builder_v1

    seen_other = reached = 0
    for seed in range(6):
        env = kingdom_builder_v1.env(num_players=2 + seed % 3, expansions=["harvest"])
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        silo_steps = 0
        for agent in env.agent_iter(max_iter=5000):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            game = env.unwrapped.game
            assert agent == f"player_{game.decider}"
            if game.phase == "silo":
                silo_steps += 1
                seen_other += game.decider != game.current_player
                assert np.array_equal(obs["action_mask"], game.legal_mask())
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert env.unwrapped.game.done
        reached += silo_steps > 0
    assert reached >= 2  # as in Game.new's random games, most env games reach the silo phase
    assert seen_other > 0  # a silo player other than the last turn's player decided


def test_words_and_explanations_in_the_silo_phase():
    from kbenv.present.words import describe_decision, phase_words

    pos = silo_position()
    g = game_from_position(copy.deepcopy(pos))
    assert phase_words(g).startswith("silo at ")
    assert describe_decision(g, BUILD) == "Silo: build up to 3 settlements"
    with pytest.raises(ValueError, match="the game is in the silo phase"):
        g.step(CAT.ACTION_ID["end_turn"])
    with pytest.raises(ValueError, match="first chooses build, move or done"):
        g.step(0)
    if g.supply(g.decider) > 0:
        g.step(BUILD)
        if g.phase == "silo":
            with pytest.raises(ValueError, match="builds and moves are not mixed"):
                g.step(MOVE)


def test_kbenv_legal_and_score_in_the_silo_phase(tmp_path, capsys):
    from kbenv.cli import legal_text, main

    pos = silo_position()
    path = tmp_path / "silo.json"
    path.write_text(json.dumps(pos))
    assert main(["legal", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == legal_position(copy.deepcopy(pos))
    assert out["phase"] == "silo" and out["player"] == pos["decision"]["decider"]
    assert "done" in out["legal"] and set(out["legal"]) <= {"build", "move", "done"}  # the choice comes first
    assert main(["score", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["players"]
    # the table lists build / move with done, not as powers
    text = legal_text({"player": 1, "phase": "silo", "legal": ["build", "move", "done"]})
    assert text.splitlines()[-1] == "other   build, move, done"


def test_the_batch_engine_plays_the_silo_phase_as_game_does():
    # VectorGames shares the kernels: its random games end after the silo phase, and their records replay in
    # Game to the same final state and totals
    from kbenv.vector import VectorGames

    vg = VectorGames(6, num_players=[2, 3, 4, 2, 3, 4], expansions=["harvest"], record=True, auto_reset=False)
    vg.reset(seeds=100)
    finals = {}
    for _ in range(5000):
        if vg.done().all():
            break
        _, result, _ = vg.step_random()
        for record in result.records:
            finals[record["setup"]["seed"]] = record
    assert vg.done().all() and len(finals) == 6
    silo_games = 0
    for i in range(6):
        record = vg.record_of(i)
        g = Game.from_record(record)
        assert g.done and np.array_equal(canonical(g), canonical(vg.states[i]))
        assert list(vg.final_totals(i)) == [row["total"] for row in g.scores()]
        replay = Game.from_record({**record, "actions": []})
        for a in record["actions"]:
            silo_games += replay.phase == "silo"
            replay.step(a)
    assert silo_games > 0


def test_a_person_types_build_and_move():
    from agents.human import legal_list, parse_decision

    g = game_from_position(silo_position())
    legal = g.legal_actions()
    assert parse_decision("build", legal) == BUILD and parse_decision("move", legal) == MOVE
    lines = " ".join(legal_list(g, legal))
    assert "Silo: move up to 3 settlements" in lines and "done" in lines  # "move" is in the words: no (move)


def test_with_every_expansion_masks_and_positions_hold_in_the_silo_phase():
    # Nomads, Crossroads, Marshlands, Capitol and Caves with Harvest, both A-H2 readings: in the silo phase every
    # masked action is accepted and no other, and the position round trip keeps the legal decisions
    every = ["nomads", "crossroads", "marshlands", "capitol", "caves", "harvest"]
    reached = 0
    for seed in range(6):
        rules = {"silo_by_silo": True} if seed % 2 else None
        g = Game.new(2 + seed % 4, seed=seed, expansions=every, rules=rules)
        rng = np.random.default_rng(seed)
        checked = 0
        while not g.done:
            if g.phase == "silo" and checked < 2:
                mask = g.legal_mask()
                for a in range(g.action_size):
                    c = g.clone()
                    try:
                        c.step(a)
                        ok = True
                    except ValueError:
                        ok = False
                    assert ok == bool(mask[a]), (seed, a)
                back = game_from_position(json.loads(json.dumps(g.to_position())))
                assert back.legal_actions() == g.legal_actions() and np.array_equal(canonical(back), canonical(g))
                checked += 1
            g.step(int(rng.choice(g.legal_actions())))
        reached += checked > 0
    assert reached >= 2  # measured: 4 of these 6 games reach the silo phase
