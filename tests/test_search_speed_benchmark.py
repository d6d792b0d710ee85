"""benchmarks.search_speed runs end to end on a tiny self-play and its kinds play the same games.

Only what the benchmark reports is checked here (the keys, and that every kind made the same decisions as
the Python reference, with the view's determinization or the kernels'); its speed is never asserted.
"""

from __future__ import annotations

import json

from benchmarks.search_speed import main


def test_every_kind_plays_the_same_games(tmp_path):
    out = tmp_path / "search_speed.json"
    result = main(["--steps", "1", "--rounds", "1", "--games", "2", "--network", "zero", "--out", str(out)])
    assert result["same_games"] is True
    assert set(result["best"]) == {"python", "compiled", "compiled-packed", "compiled-view"}
    assert all(r["positions"] == 2 for r in result["best"].values())  # one decision in each of the two games
    assert result["ratio_kernel_determinization"] > 0
    assert json.loads(out.read_text())["games"] == 2
