"""`kbenv score FILE.json [--json]` (docs/api.md), run as `python -m kbenv.cli score ...`.

The expected numbers are worked out by hand from the card texts (shared/kb-data/cards.md, the rulebook's final
scoring), the same positions as in test_scoring_cards.py; the CLI's output is never compared with the scoring
function it calls.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

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


def row(cards: dict, castles: int) -> dict:
    """One player's JSON row of a base-game position: no capitols, no banked gold."""
    return {"cards": cards, "castles": castles, "capitols": 0, "gold": 0,
            "total": sum(cards.values()) + castles}


def test_cli_json_gives_the_hand_worked_scores(tmp_path):
    pos = good_position()
    proc = run_cli(write(tmp_path, pos), "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out == {"players": [
        # (2,3) touches water (2,2): fishermen 1; row 8 holds 2: knights 2*2 = 4; (8,9)-(8,10) links the
        # castle (8,8) and the tavern (8,11): merchants 2*4 = 8; castle (8,8) touched: 3.  total 16
        row({"fishermen": 1, "knights": 4, "merchants": 8}, 3),
        # (2,1) and (3,2) touch water (2,2): fishermen 2; best row holds 1: knights 2; no link, no castle
        row({"fishermen": 2, "knights": 2, "merchants": 0}, 0),
        row({"fishermen": 0, "knights": 0, "merchants": 0}, 0),  # no settlements
    ]}
    assert [p["total"] for p in out["players"]] == [16, 4, 0]


def test_cli_json_with_sections(tmp_path):
    pos = {
        "sections": [["tavern", False], ["paddock", True], ["oasis", False], ["farm", False]],
        "cards": ["workers", "merchants", "discoverers"],
        "settlements": [[[3, 4], [4, 5], [5, 5], [6, 6], [1, 13]], [[8, 15], [17, 2]]],
    }
    proc = run_cli(write(tmp_path, pos), "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    # worked out in test_scoring_cards.py::test_sections_castles_workers_merchants_discoverers:
    # p0 workers 3, merchants 2*4, discoverers rows {1,3,4,5,6} = 5, castles 2*3 -> 22
    # p1 workers 1, merchants 0, discoverers rows {8,17} = 2, castle 3 (the oasis castle only) -> 6
    assert out == {"players": [row({"workers": 3, "merchants": 8, "discoverers": 5}, 6),
                               row({"workers": 1, "merchants": 0, "discoverers": 2}, 3)]}
    assert [p["total"] for p in out["players"]] == [22, 6]


def test_cli_table_output(tmp_path):
    pos = good_position()
    pos["settlements"][2] = [[r, 5] for r in range(10, 20)]  # knights: 1 per row -> 2; total 2
    proc = run_cli(write(tmp_path, pos))
    assert proc.returncode == 0, proc.stderr
    lines = [line.split() for line in proc.stdout.strip().splitlines()]
    # a base-game table: the three cards in play, castles and the total, one row per player
    assert lines[0] == ["player", "fishermen", "knights", "merchants", "castles", "total"]
    assert lines[1:] == [
        ["player_0", "1", "4", "8", "3", "16"],  # as in test_cli_json_gives_the_hand_worked_scores
        ["player_1", "2", "2", "0", "0", "4"],
        ["player_2", "0", "2", "0", "0", "2"],  # rows 10..19 hold one each: knights 1*2 = 2
    ]


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
