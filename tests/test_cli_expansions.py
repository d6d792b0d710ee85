"""The command line with expansions: `kbenv legal`, `kbenv score` of expansion positions, --expansions and
--rules for play and tournament, and agents playing expansion games through `agents.evaluation.play.play_game`."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents import make_agent
from agents.evaluation.play import agent_inputs, play_game
from kbenv import Game
from kbenv.catalogue import ACTION_SIZE_V0, ACTION_SIZE_V1, EXPANSIONS, RULE_FLAGS
from kbenv.cli import build_parser, legal_text, main
from kbenv.engine.observe_v1 import OBSERVATION_SHAPE_V1
from kbenv.observation import OBSERVATION_SHAPE
from kbenv.positions.files import legal_position, score_position

ALL = ["nomads", "capitol", "caves"]
SECTIONS = [["garden", False], ["harbor", False], ["tavern", True], ["caravan", True]]


def expansion_position(**extra) -> dict:
    """Player 0 next to the garden at (1, 4) and holding its tile; walls, two nomad tiles, a capitol, caves."""
    return {
        "expansions": ALL, "sections": SECTIONS, "cards": ["hermits", "lords", "shepherds"],
        "settlements": [[[0, 3], [0, 4]], [[10, 0]]], "hands": ["G", "C"], "tiles": [[[1, 4]], []],
        "walls": [[0, 0], [0, 1], [2, 2]], "nomad_spaces": {"7,6": "treasure", "16,16": "donation-T"},
        "capitols": [[4, 12]], "caves": [[3, 16], [4, 6], [16, 0], [16, 12]], "gold": [3, 0], **extra,
    }


def write(tmp_path, position, name="position.json"):
    path = tmp_path / name
    path.write_text(json.dumps(position))
    return str(path)


# ----- kbenv legal ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("then", [[], ["garden"]])
def test_legal_json_is_legal_position(tmp_path, capsys, then):
    position = expansion_position(then=then)
    assert main(["legal", write(tmp_path, position), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == legal_position(position)
    assert out["player"] == 0 and out["phase"] == ("choose_target" if then else "idle")
    assert ("garden" in out["legal"]) == (not then)


def test_legal_table_lists_player_phase_hexes_and_powers(tmp_path, capsys):
    position = expansion_position()
    expected = legal_position(position)
    assert main(["legal", write(tmp_path, position)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].split() == ["player", "player_0"] and lines[1].split() == ["phase", "idle"]
    assert lines[2].split() == ["legal", str(len(expected["legal"])), "decisions"]
    hexes = [d for d in expected["legal"] if isinstance(d, list)]
    shown = [tuple(map(int, word.split(","))) for line in lines[3:] for word in line.split() if "," in word]
    assert shown == [tuple(h) for h in hexes]
    assert lines[-1].split() == ["powers", "garden"]


def test_legal_text_of_every_kind_of_decision():
    text = legal_text({"player": 1, "phase": "choose_target",
                       "legal": [[3, 4], [12, 15], "quarry", "sword", "done", "end_turn"]})
    assert text.splitlines() == ["player  player_1", "phase   choose_target", "legal   6 decisions",
                                 "hexes   3,4   12,15", "powers  quarry, sword", "other   done, end_turn"]
    assert legal_text({"player": 0, "phase": "game_over", "legal": []}).splitlines()[-1] == "legal   0 decisions"


@pytest.mark.parametrize(("position", "field"), [
    ({"cards": ["fishermen", "knights", "merchants"]}, "settlements"),
    (expansion_position(walls=[[0, 3]]), "walls"),
    (expansion_position(then=["cave", "cave"]), "then[0]"),
    (expansion_position(bogus=1), "bogus"),
])
def test_legal_errors_are_one_line_and_exit_2(tmp_path, capsys, position, field):
    assert main(["legal", write(tmp_path, position)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("kbenv legal: error: ") and field in err and err.count("\n") == 1, err


def test_legal_of_a_missing_or_broken_file(tmp_path, capsys):
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    for path in (str(tmp_path / "missing.json"), str(broken), str(tmp_path)):
        assert main(["legal", path, "--json"]) == 2
        err = capsys.readouterr().err
        assert err.startswith("kbenv legal: error: ") and err.count("\n") == 1, err


# ----- kbenv score ---------------------------------------------------------------------------------------
def test_score_of_an_expansion_position_shows_capitols_and_gold(tmp_path, capsys):
    position = expansion_position()
    path = write(tmp_path, position)
    assert main(["score", path, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"players": score_position(position)}
    assert main(["score", path]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["player", "hermits", "lords", "shepherds", "castles", "capitols", "gold", "total"]
    for p, s in enumerate(score_position(position)):
        assert lines[1 + p].split() == [f"player_{p}", *map(str, s["cards"].values()), str(s["castles"]),
                                        str(s["capitols"]), str(s["gold"]), str(s["total"])]
    assert lines[1].split()[-2] == "3"  # the banked gold of the position


def test_score_of_a_base_position_keeps_the_base_columns(tmp_path, capsys):
    position = {"sections": SECTIONS[:2] + [["oasis", False], ["farm", False]],
                "cards": ["fishermen", "knights", "merchants"], "settlements": [[[0, 3]], [[10, 0]]]}
    assert main(["score", write(tmp_path, position)]) == 0
    header = capsys.readouterr().out.splitlines()[0].split()
    assert header == ["player", "fishermen", "knights", "merchants", "castles", "total"]


# ----- --expansions and --rules ----------------------------------------------------------------------------
def test_expansions_and_rules_parse_to_lists():
    args = build_parser().parse_args(["play", "--expansions", "nomads, caves", "--rules", "lords_count_zero"])
    assert args.expansions == ["nomads", "caves"] and args.rules == ["lords_count_zero"]
    args = build_parser().parse_args(["tournament", "--agents", "random", "--expansions", ",".join(ALL),
                                      "--rules", "capitol_replaces_castle,caves_are_plain_mountain"])
    assert args.expansions == ALL and args.rules == ["capitol_replaces_castle", "caves_are_plain_mountain"]
    args = build_parser().parse_args(["play"])
    assert args.expansions is None and args.rules is None


def test_help_names_every_implemented_expansion_and_rule_flag():
    play = build_parser()._subparsers._group_actions[0].choices["play"]
    helps = {a.dest: a.help for a in play._actions}
    assert all(e.name in helps["expansions"] for e in EXPANSIONS if e.implemented)
    assert not any(e.name in helps["expansions"] for e in EXPANSIONS if not e.implemented)
    assert all(f.name in helps["rules"] for f in RULE_FLAGS)


@pytest.mark.parametrize(("command", "option", "value"), [
    ("play", "--expansions", "nomads,foo"),
    ("play", "--expansions", "nomads,,caves"),
    ("play", "--expansions", "nomads,nomads"),
    ("play", "--rules", "bogus"),
    ("play", "--rules", "lords_count_zero,lords_count_zero"),
    ("tournament", "--rules", "capitol"),
])
def test_bad_expansions_and_rules_are_argparse_errors(command, option, value, capsys):
    argv = [command, *(["--agents", "random"] if command == "tournament" else []), option, value]
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.splitlines()[-1].startswith(f"kbenv {command}: error: argument {option}: expected")


@pytest.mark.parametrize("command", ["play", "tournament"])
def test_a_rule_flag_without_its_expansion_is_one_line(command, tmp_path, capsys):
    argv = [command, "--rules", "capitol_replaces_castle", "--expansions", "nomads"]
    if command == "tournament":
        argv += ["--agents", "random", "--out", str(tmp_path / "t"), "--quiet"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err == f"kbenv {command}: error: --rules: capitol_replaces_castle needs the capitol expansion " \
                  "(--expansions capitol)\n"
    assert not (tmp_path / "t").exists()


def test_play_with_every_expansion_and_agents(tmp_path, capsys):
    record, png = tmp_path / "game.json", tmp_path / "final.png"
    argv = ["play", "--players", "2", "--seed", "5", "--expansions", ",".join(ALL), "--rules",
            "capitol_replaces_castle", "--agents", "greedy", "random", "--no-colour",
            "--record", str(record), "--png", str(png)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "expansions: nomads, capitol, caves; rules: capitol_replaces_castle" in out
    assert "player_0: greedy (red)\nplayer_1: random (blue)\n" in out
    assert "pieces: # stone wall" in out and "nomad tiles on nomad spaces:" in out
    game = Game.from_record(json.loads(record.read_text()))
    assert game.done and game.expansions == tuple(ALL)
    assert game.setup.rules == ("capitol_replaces_castle",)
    header = next(line for line in out.splitlines() if line.startswith("player ") and "total" in line)
    assert header.split()[-3:] == ["capitols", "gold", "total"]
    for p, s in enumerate(game.scores()):
        row = next(line for line in out.splitlines() if line.startswith(f"player_{p} ") and "gold" not in line)
        assert row.split()[-3:] == [str(s["capitols"]), str(s["gold"]), str(s["total"])]
    assert png.stat().st_size > 0


def test_play_with_expansions_same_seed_same_output(capsys):
    argv = ["play", "--players", "3", "--seed", "11", "--expansions", "nomads,caves", "--no-colour"]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert main(argv) == 0
    assert capsys.readouterr().out == first and "expansions: nomads, caves; rules: default" in first


def test_base_play_output_has_no_ruleset_line(capsys):
    assert main(["play", "--players", "2", "--seed", "7", "--no-colour"]) == 0
    out = capsys.readouterr().out
    assert "expansions:" not in out and "pieces:" not in out


def test_tournament_passes_the_ruleset_in_its_setup(tmp_path, capsys):
    out_dir = tmp_path / "t"
    argv = ["tournament", "--agents", "greedy", "random", "--games", "2", "--quiet", "--out", str(out_dir),
            "--expansions", "nomads,capitol", "--rules", "capitol_replaces_castle"]
    assert main(argv) == 0
    identity = json.loads((out_dir / "tournament.json").read_text())
    assert identity["setup"] == {"expansions": ["nomads", "capitol"], "rules": ["capitol_replaces_castle"]}
    records = [json.loads(line) for line in (out_dir / "records.jsonl").read_text().splitlines()]
    assert len(records) == 2
    for entry in records:
        game = Game.from_record(entry["record"])
        assert game.done and game.expansions == ("nomads", "capitol")
        assert game.setup.rules == ("capitol_replaces_castle",)
    capsys.readouterr()
    assert main(argv[:-2]) == 2  # another ruleset in the same folder is another tournament
    assert "setup" in capsys.readouterr().err


# ----- play_game: the observation and mask of the ruleset --------------------------------------------------
class Recorder:
    """Wraps an agent and checks what it is given."""

    def __init__(self, agent, seat: int):
        self.agent, self.seat, self.calls = agent, seat, 0
        self.shapes: set = set()

    def reset(self, seed=None):
        self.agent.reset(seed)

    def act(self, observation, action_mask, view):
        assert view.player == self.seat and view.current_player == self.seat
        assert action_mask.any()
        self.shapes.add((observation.shape, action_mask.shape))
        self.calls += 1
        return self.agent.act(observation, action_mask, view)


@pytest.mark.parametrize("first", ["greedy", "mcts:sims=8"])
def test_agents_play_every_expansion_to_the_end(first):
    seats = [first, "random"]
    agents = [Recorder(make_agent(spec, seed=i), i) for i, spec in enumerate(seats)]
    result = play_game(0, 3, seats, agents, expansions=ALL)
    game = Game.from_record(result.record)
    assert game.done and game.expansions == tuple(ALL) and result.record["version"] == 2
    assert result.gold == [s["total"] for s in game.scores()]
    assert result.decisions == len(game.actions) == sum(a.calls for a in agents)
    for agent in agents:
        assert agent.shapes == {(OBSERVATION_SHAPE_V1, (ACTION_SIZE_V1,))}


def test_base_games_keep_the_v0_observation_and_mask():
    seats = ["greedy", "random"]
    agents = [Recorder(make_agent(spec, seed=i), i) for i, spec in enumerate(seats)]
    result = play_game(0, 3, seats, agents)
    assert result.record["version"] == 1
    for agent in agents:
        assert agent.shapes == {(OBSERVATION_SHAPE, (ACTION_SIZE_V0,))}


def test_agent_inputs_follow_the_ruleset():
    base, nomads = Game.new(2, seed=1), Game.new(2, seed=1, expansions=["nomads"])
    lords = Game.new(2, seed=1, rules=["lords_count_zero"])  # a reading of the base game: still v0
    for game, shape, size in ((base, OBSERVATION_SHAPE, 409), (lords, OBSERVATION_SHAPE, 409),
                              (nomads, OBSERVATION_SHAPE_V1, ACTION_SIZE_V1)):
        p = game.decider
        observation, mask, view = agent_inputs(game, p)
        assert observation.shape == shape and mask.shape == (size,) and view.player == p
        np.testing.assert_array_equal(mask, game.legal_mask())
        other, other_mask, _ = agent_inputs(game, 1 - p)
        assert not other_mask.any()


# ----- Crossroads on the command line ----------------------------------------------------------------------
def test_sections_lists_every_section_and_marks_the_unverified_ones(capsys):
    assert main(["sections", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    crossroads = {r["name"]: r for r in rows if r["expansion"] == "crossroads"}
    assert set(crossroads) == {"barracks", "city_hall", "lighthouse", "monastery"}
    # Barracks is checked against the rulebook picture on all 100 hexes (issue 19); the other three only in part
    partial = {"city_hall", "lighthouse", "monastery"}
    assert all(not crossroads[name]["verified"] and "single source" in crossroads[name]["provenance"]
               for name in partial)
    assert crossroads["barracks"]["verified"] and "all 100 hexes" in crossroads["barracks"]["provenance"]
    assert all(r["verified"] for r in rows if r["expansion"] not in ("crossroads", "marshlands", "harvest"))
    # decision 5: the Marshlands (and Harvest) sections are generated substitutes, named as such
    assert all(r["substitute"] and not r["verified"] for r in rows if r["expansion"] in ("marshlands", "harvest"))
    assert crossroads["barracks"]["locations"] == ["barracks", "crossroads"]
    assert main(["sections"]) == 0
    assert capsys.readouterr().out.count("[UNVERIFIED]") == 3


def test_play_says_when_a_section_is_unverified(capsys):
    for seed in range(20):
        game = Game.new(2, seed=seed, expansions=["crossroads"])
        if any(name in ("city_hall", "lighthouse", "monastery") for name, _ in game.setup.sections):
            break
    assert main(["play", "--players", "2", "--seed", str(seed), "--expansions", "crossroads", "--no-colour"]) == 0
    assert "(unverified section data)" in capsys.readouterr().out.splitlines()[0]


def test_legal_and_score_name_the_crossroads_decisions_and_tasks(tmp_path, capsys):
    board = ["M" * 20] * 20
    rows = [list(r) for r in board]
    for (r, c), code in {(5, 5): "G", (5, 6): "k", (6, 5): "G", (6, 6): "G", (4, 5): "G", (12, 3): "C"}.items():
        rows[r][c] = code
    position = {"expansions": ["crossroads"], "board": ["".join(r) for r in rows],
                "cards": ["fishermen", "knights", "merchants"], "settlements": [[[5, 5]], [[12, 3]]],
                "tiles": [[[5, 6]], []], "hands": [["G", "C"], "C"], "tasks": ["fortress"]}
    assert main(["legal", write(tmp_path, position), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "barracks" in out["legal"] and [6, 5] in out["legal"]
    assert main(["score", write(tmp_path, position), "--json"]) == 0
    players = json.loads(capsys.readouterr().out)["players"]
    assert players[0]["tasks"] == {"fortress": 0} and players[0]["total"] == sum(players[0]["cards"].values()) \
        + players[0]["castles"] + players[0]["capitols"] + players[0]["gold"]


@pytest.mark.parametrize("command", ["play", "tournament"])
def test_an_expansion_under_construction_is_an_argparse_error(command, an_expansion_under_construction, capsys):
    argv = [command, *(["--agents", "random"] if command == "tournament" else []), "--expansions",
            an_expansion_under_construction]
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "KBENV_EXPERIMENTAL=island" in err
    assert err.splitlines()[-1].startswith(f"kbenv {command}: error: argument --expansions: expected")
