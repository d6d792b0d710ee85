"""The kbenv command line: play (record, PNG, GIF), option checks, user errors, Ctrl-C and closed pipes."""

from __future__ import annotations

import argparse
import json
import shlex
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
import yaml
from PIL import Image

from agents import make_agent, parse_spec
from kbenv import Game, cli
from kbenv.cli import build_parser, main
from kbenv.setup import SetupError

ROOT = Path(__file__).resolve().parents[1]


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kbenv.cli", *args], capture_output=True, text=True)


def test_play_writes_a_replayable_record_and_pictures(tmp_path):
    record, png, gif = tmp_path / "game.json", tmp_path / "final.png", tmp_path / "game.gif"
    out = run_cli("play", "--players", "3", "--seed", "4", "--no-colour",
                  "--record", str(record), "--png", str(png), "--gif", str(gif))
    assert out.returncode == 0, out.stderr
    assert "winner(s)" in out.stdout and "total" in out.stdout
    game = Game.from_record(json.loads(record.read_text()))
    assert game.done
    for p, s in enumerate(game.scores()):
        assert f"\nplayer_{p} " in out.stdout and str(s["total"]) in out.stdout
    assert Image.open(png).size[0] > 800
    with Image.open(gif) as anim:
        assert anim.n_frames > 10


def test_play_same_seed_same_output():
    a = run_cli("play", "--players", "2", "--seed", "7", "--no-colour")
    b = run_cli("play", "--players", "2", "--seed", "7", "--no-colour")
    assert a.returncode == 0 and a.stdout == b.stdout


def test_play_first_game_preset():
    out = run_cli("play", "--players", "2", "--seed", "1", "--preset", "first-game", "--no-colour")
    assert out.returncode == 0
    assert "tavern, paddock, oasis, farm" in out.stdout
    assert "fishermen" in out.stdout and "knights" in out.stdout and "merchants" in out.stdout


# ----- what a user sees ----------------------------------------------------------------------------------
def test_play_prints_the_seat_to_agent_map(capsys):
    assert main(["play", "--players", "3", "--seed", "2", "--no-colour", "--agents", "greedy", "random"]) == 0
    out = capsys.readouterr().out
    assert "player_0: greedy (red)\nplayer_1: random (blue)\nplayer_2: random (white)\n" in out
    assert "winner(s): player_" in out and "\nplayer_2 " in out
    assert main(["play", "--players", "2", "--seed", "2", "--no-colour"]) == 0
    assert "player_0: random (red)\nplayer_1: random (blue)\n" in capsys.readouterr().out


def test_play_refuses_more_agent_specs_than_seats(capsys):
    assert main(["play", "--players", "2", "--agents", "random", "greedy", "mcts"]) == 2
    err = capsys.readouterr().err
    assert err == "kbenv play: error: --agents: 3 agent specs for 2 players; give at most one spec per seat\n"


def test_every_option_and_command_has_help_text():
    parsers = [build_parser()]
    checked = 0
    while parsers:
        parser = parsers.pop()
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            assert action.help, f"{parser.prog}: {action.option_strings or action.dest} has no help text"
            checked += 1
            if isinstance(action, argparse._SubParsersAction):
                parsers.extend(action.choices.values())
                assert all(a.help for a in action._choices_actions), "a subcommand has no help text"
    assert checked > 30


# ----- option values are refused by argparse, naming the option --------------------------------------------
AGENTS = ["--agents", "random", "greedy"]


@pytest.mark.parametrize(("argv", "option"), [
    (["bench", "--seconds", "0"], "--seconds"),
    (["bench", "--seconds", "-1"], "--seconds"),
    (["bench", "--seconds", "nan"], "--seconds"),
    (["bench", "--batch-sizes", "1,,x"], "--batch-sizes"),
    (["bench", "--batch-sizes", "0"], "--batch-sizes"),
    (["bench", "--batch-sizes", "1,x"], "--batch-sizes"),
    (["bench", "--players", "6"], "--players"),
    (["play", "--players", "1"], "--players"),
    (["play", "--players", "x"], "--players"),
    (["play", "--seed", "-1"], "--seed"),
    (["play", "--seed", str(2**63)], "--seed"),
    (["play", "--seed", "99999999999999999999"], "--seed"),
    (["tournament", *AGENTS, "--seed", "99999999999999999999"], "--seed"),
    (["tournament", *AGENTS, "--players", "2,,3"], "--players"),
    (["tournament", *AGENTS, "--players", "2,x"], "--players"),
    (["tournament", *AGENTS, "--players", "2,6"], "--players"),
    (["tournament", *AGENTS, "--players", "2,2"], "--players"),
    (["tournament", *AGENTS, "--games", "0"], "--games"),
    (["tournament", *AGENTS, "--workers", "0"], "--workers"),
    (["train", "--config", "c.yaml", "--timesteps", "0"], "--timesteps"),
    (["train", "--config", "c.yaml", "--max-minutes", "-1"], "--max-minutes"),
])
def test_bad_option_values_are_argparse_errors(argv, option, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.splitlines()[-1].startswith(f"kbenv {argv[0]}: error: argument {option}: expected")


def test_largest_seed_and_player_lists_parse():
    args = build_parser().parse_args(["tournament", *AGENTS, "--players", "2, 3,5", "--seed", str(2**63 - 1)])
    assert args.players == [2, 3, 5] and args.seed == 2**63 - 1
    assert build_parser().parse_args(["bench", "--batch-sizes", "1,16"]).batch_sizes == (1, 16)


# ----- agent specs: named errors ------------------------------------------------------------------------
def _zip(path, entries):
    with zipfile.ZipFile(path, "w") as archive:
        for name in entries:
            archive.writestr(name, "x")
    return path


@pytest.mark.parametrize(("spec", "message"), [
    ("mcts:sims=abc", "sims must be an integer, got 'abc'"),
    ("mcts:sims=0", "sims must be at least 1, got 0"),
    ("mcts:bogus=1", "unknown parameter 'bogus'; mcts accepts sims, rollout, c, max_rollout, seed"),
    ("mcts:rollout=clever", "rollout must be one of random, greedy, mixed, got 'clever'"),
    ("mcts:c=-1", "c must be a finite number >= 0"),
    ("mcts:sims=5,sims=6", "sims is given twice"),
    ("greedy:x=1", "unknown parameter 'x'; greedy accepts seed"),
    ("random:seed=abc", "seed must be an integer, got 'abc'"),
    ("random:seed=-3", "seed must be at least 0"),
    ("ppo", "path is required"),
    ("ppo:path={tmp}", "is a folder, not a checkpoint file"),
    ("ppo:path={tmp}/missing.zip", "no checkpoint there"),
    ("ppo:path={tmp}/notes.txt", "is not a checkpoint"),
    ("ppo:path={tmp}/other.zip", "not a stable-baselines3 checkpoint"),
    ("ppo:path={tmp}/other.zip,device=gpu", "not a stable-baselines3 checkpoint"),
    ("ppo:path={tmp}/notes.txt,deterministic=maybe", "is not a checkpoint"),
])
def test_bad_agent_specs_are_one_line_errors(spec, message, tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("not a model")
    _zip(tmp_path / "other.zip", ["readme.txt"])
    spec = spec.format(tmp=tmp_path)
    assert main(["play", "--players", "2", "--agents", spec]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"kbenv play: error: agent spec {spec!r}: ") and message in err
    assert err.count("\n") == 1


def test_spec_parameters_are_typed_and_checked_without_torch(tmp_path):
    script = ("import sys; from agents import parse_spec; "
              f"print(parse_spec({'ppo:path=' + str(_zip(tmp_path / 'm.zip', ['data'])) + ',deterministic=false'!r})); "
              "print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[1] == "False" and "'deterministic': False" in out.stdout
    kind, params = parse_spec("mcts:sims=40,rollout=mixed,c=0.5,max_rollout=100,seed=3")
    assert (kind, params) == ("mcts", {"sims": 40, "rollout": "mixed", "c": 0.5, "max_rollout": 100, "seed": 3})
    with pytest.raises(ValueError, match="device must be auto, cpu"):
        parse_spec(f"ppo:path={tmp_path / 'm.zip'},device=gpu")


def test_spec_seed_fixes_the_agent_seed():
    a, b = make_agent("random:seed=5", seed=1), make_agent("random:seed=5", seed=2)
    assert a.rng.integers(10**9) == b.rng.integers(10**9)
    assert make_agent("mcts:sims=3,seed=4").sims == 3


def test_a_zip_with_data_that_sb3_cannot_load_is_a_named_error(tmp_path):
    path = _zip(tmp_path / "fake.zip", ["data"])
    with pytest.raises(ValueError, match="cannot load the checkpoint"):
        make_agent(f"ppo:path={path}")


def test_tournament_refuses_a_bad_spec_before_playing(tmp_path, capsys):
    out = tmp_path / "t"
    assert main(["tournament", "--agents", "random", f"ppo:path={tmp_path}", "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("kbenv tournament: error: agent spec ") and "is a folder" in err and err.count("\n") == 1


# ----- user errors: one line, exit 2; bugs keep their traceback ------------------------------------------
def test_file_errors_are_one_line(tmp_path, capsys):
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{not json")
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"cards": ["fishermen", "knights", "merchants"]}))
    for argv in (["score", str(tmp_path / "missing.json")], ["score", str(tmp_path)], ["score", str(bad_json)],
                 ["score", str(wrong)], ["play", "--record", str(tmp_path / "no" / "such" / "game.json")],
                 ["play", "--png", str(tmp_path)]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith(f"kbenv {argv[0]}: error: ") and err.count("\n") == 1, err


def test_bad_training_config_is_one_line(tmp_path, capsys):
    config = tmp_path / "bad.yaml"
    config.write_text("name: [unclosed\n  - x: {")
    assert main(["train", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("kbenv train: error: ") and err.count("\n") == 1


@pytest.mark.parametrize(("error", "line"), [
    (PermissionError(13, "Permission denied", "x.json"), "x.json: Permission denied"),
    (IsADirectoryError(21, "Is a directory", "runs"), "runs: Is a directory"),
    (json.JSONDecodeError("Expecting value", "{", 1), "Expecting value: line 1 column 2 (char 1)"),
    (yaml.YAMLError("while parsing\n  in line 3"), "while parsing; in line 3"),
    (SetupError("seed: expected 0 .. 2**63-1"), "seed: expected 0 .. 2**63-1"),
    (ValueError("3 validation errors for TrainConfig\nlr\n  must be positive"),
     "3 validation errors for TrainConfig; lr; must be positive"),
])
def test_user_errors_of_every_kind_are_one_line(error, line, monkeypatch, capsys):
    def fail(args):
        raise error

    monkeypatch.setattr(cli, "cmd_score", fail)
    assert main(["score", "position.json"]) == 2
    assert capsys.readouterr().err == f"kbenv score: error: {line}\n"


def test_internal_errors_keep_their_traceback(monkeypatch):
    def bug(args):
        raise KeyError("a bug")

    monkeypatch.setattr(cli, "cmd_score", bug)
    with pytest.raises(KeyError):
        main(["score", "position.json"])


# ----- Ctrl-C and a closed stdout -----------------------------------------------------------------------
def test_ctrl_c_is_one_line_and_exit_130(monkeypatch, capsys):
    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "cmd_tournament", interrupted)
    assert main(["tournament", *AGENTS]) == 130
    assert capsys.readouterr().err == "kbenv tournament: interrupted\n"


def default_sigint() -> None:
    """In the child before exec: SIGINT back to its default. A test runner's worker process may ignore
    SIGINT, and an ignored SIGINT is inherited, so Python would never raise KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_sigint_during_a_tournament_ends_it_with_one_line(tmp_path):
    out = tmp_path / "t"
    proc = subprocess.Popen([sys.executable, "-m", "kbenv.cli", "tournament", "--agents", "mcts:sims=100", "greedy",
                             "--games", "1000", "--workers", "1", "--quiet", "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            preexec_fn=default_sigint)
    deadline = time.monotonic() + 300  # a cold numba cache compiles the kernels first (a minute or more)
    games = out / "games.csv"
    while proc.poll() is None and time.monotonic() < deadline and (
            not games.exists() or games.read_text().count("\n") < 2):
        time.sleep(0.1)
    assert proc.poll() is None, "the tournament ended before it could be interrupted"
    proc.send_signal(signal.SIGINT)  # inside the games: the first one is written, the kernels are compiled
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert err.splitlines()[-1] == "kbenv tournament: interrupted" and "Traceback" not in err


def test_play_into_head_exits_quietly():
    command = f"{shlex.quote(sys.executable)} -m kbenv.cli play --players 5 --seed 3 --colour | head -1"
    out = subprocess.run(["bash", "-c", command], capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.startswith("Kingdom Builder, 5 players") and out.stdout.count("\n") == 1
    assert "Traceback" not in out.stderr and "Exception ignored" not in out.stderr and out.stderr == ""


def test_closed_stdout_exits_141_without_a_word():
    proc = subprocess.Popen([sys.executable, "-m", "kbenv.cli", "play", "--players", "2", "--seed", "3"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    proc.stdout.close()  # the reader leaves before kbenv writes anything
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141
    assert err == ""
