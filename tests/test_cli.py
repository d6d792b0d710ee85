"""The kbenv command line: play (record, PNG, GIF)."""

from __future__ import annotations

import json
import subprocess
import sys

from PIL import Image

from kbenv import Game


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
        assert f"\n{p} " in out.stdout and str(s["total"]) in out.stdout
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
