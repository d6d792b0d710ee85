"""`kbenv score FILE.json [--json]` (docs/api.md), run as `python -m kbenv.cli score ...`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

try:
    from kbenv import score_position
except ImportError as exc:  # engine not written yet
    pytest.skip(f"kbenv engine not importable yet: {exc}", allow_module_level=True)

REPO = Path(__file__).resolve().parents[2]


def make_board(cells=None, fill="G"):
    rows = [[fill] * 20 for _ in range(20)]
    for (r, c), code in (cells or {}).items():
        rows[r][c] = code
    return ["".join(row) for row in rows]


def run_cli(*args):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run(
        [sys.executable, "-m", "kbenv.cli", "score", *map(str, args)],
        check=False,
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=120,
    )


def write(tmp_path, data, name="pos.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def good_position():
    # same position as test_result_shape_and_total_first_game_cards: totals 16 and 4
    return {
        "board": make_board({(2, 2): "W", (8, 8): "K", (8, 11): "t"}),
        "cards": ["fishermen", "knights", "merchants"],
        "settlements": [[[2, 3], [8, 9], [8, 10]], [[2, 1], [3, 2], [15, 0]], []],
    }


def test_cli_json_matches_score_position(tmp_path):
    pos = good_position()
    proc = run_cli(write(tmp_path, pos), "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out == {"players": score_position(pos)}
    players = out["players"]
    # fishermen 1 + knights 2*2 + merchants 2*4 + castle 3 = 16
    assert players[0]["cards"] == {"fishermen": 1, "knights": 4, "merchants": 8}
    assert players[0]["castles"] == 3 and players[0]["total"] == 16
    # fishermen 2 + knights 1*2 = 4
    assert players[1]["total"] == 4
    assert players[2]["total"] == 0


def test_cli_json_with_sections(tmp_path):
    pos = {
        "sections": [["tavern", False], ["paddock", True], ["oasis", False], ["farm", False]],
        "cards": ["workers", "merchants", "discoverers"],
        "settlements": [[[3, 4], [4, 5], [5, 5], [6, 6], [1, 13]], [[8, 15], [17, 2]]],
    }
    proc = run_cli(write(tmp_path, pos), "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out == {"players": score_position(pos)}
    # see test_sections_castles_workers_merchants_discoverers: 3 + 8 + 5 + 6 and 1 + 0 + 2 + 3
    assert [p["total"] for p in out["players"]] == [22, 6]


def test_cli_table_output(tmp_path):
    pos = good_position()
    pos["settlements"][2] = [[r, 5] for r in range(10, 20)]  # knights: 1 per row -> 2; total 2
    expected = score_position(pos)
    proc = run_cli(write(tmp_path, pos))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip()
    for p in expected:
        assert str(p["total"]) in proc.stdout


def _bad(pos_update=None, drop=None):
    pos = good_position()
    if drop:
        del pos[drop]
    pos.update(pos_update or {})
    return pos


BAD_FILES = {
    "missing_cards": (_bad(drop="cards"), "cards"),
    "unknown_card": (_bad({"cards": ["fishermen", "knights", "pirates"]}), "cards"),
    "settlement_off_board_row": (_bad({"settlements": [[[20, 3]], []]}), "settlements"),
    "settlement_off_board_col": (_bad({"settlements": [[[3, 20]], []]}), "settlements"),
    "settlement_negative": (_bad({"settlements": [[[-1, 3]], []]}), "settlements"),
    "board_row_too_short": (
        _bad({"board": make_board()[:19] + ["G" * 19]}),
        "board",
    ),
    "board_too_few_rows": (_bad({"board": make_board()[:19]}), "board"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_cli_bad_file_names_the_field(tmp_path, case):
    pos, field = BAD_FILES[case]
    proc = run_cli(write(tmp_path, pos), "--json")
    assert proc.returncode != 0
    assert field in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr


def test_cli_not_json_and_missing_file(tmp_path):
    proc = run_cli(write(tmp_path, "{not json"), "--json")
    assert proc.returncode != 0
    assert proc.stderr.strip()
    proc = run_cli(tmp_path / "does-not-exist.json", "--json")
    assert proc.returncode != 0
    assert proc.stderr.strip()
