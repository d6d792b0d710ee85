"""`kbenv warmup` fills numba's cache: a second process compiles nothing (kbenv.warmup, kbenv.cli)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kbenv import numba_cache
from kbenv.cli import build_parser
from kbenv.warmup import DEFAULT_TARGETS, TARGETS, check_targets

REPO = Path(__file__).resolve().parent.parent


def warmup_process(*targets: str) -> dict:
    environ = dict(os.environ)
    environ.pop("NUMBA_DISABLE_JIT", None)
    done = subprocess.run([sys.executable, "-m", "kbenv.cli", "warmup", "--targets", ",".join(targets), "--json",
                           "--quiet"], cwd=REPO, env=environ, capture_output=True, text=True, check=True,
                          timeout=1200)
    return json.loads(done.stdout)


@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="nothing compiles without the JIT")
def test_warmup_fills_the_cache_and_a_second_process_compiles_nothing():
    first = warmup_process("env")  # compiles what is missing (nothing when the suite's warmup ran)
    assert first["cache"] == str(numba_cache.cache_base())
    second = warmup_process("env")
    assert second["compiled"] == 0
    assert second["targets"]["env"]["compiled"] == 0
    indexes = {p.name.split("-")[0] for p in Path(second["cache"]).rglob("*.nbi")}
    assert {"actions.apply_action", "legal.legal_mask_into", "observe.observe_into"} <= indexes


def test_targets_split_into_groups_of_about_equal_time():
    from kbenv.warmup import groups_of

    groups = groups_of(["games", "v1", "policies", "vector", "search"], 2)
    assert sorted(sum(groups, [])) == ["games", "policies", "search", "v1", "vector"]
    assert len(groups) == 2 and {"vector", "search"} not in [set(g) for g in groups]
    assert groups_of(["v1"], 4) == [["v1"]]


def test_targets_are_checked_by_name():
    assert check_targets(["env", "games"]) == ["env", "games"]
    assert set(DEFAULT_TARGETS) <= set(TARGETS)
    with pytest.raises(ValueError, match="unknown nope"):
        check_targets(["env", "nope"])
    args = build_parser().parse_args(["warmup", "--targets", "env,vector"])
    assert args.targets == ["env", "vector"]
    with pytest.raises(SystemExit):
        build_parser().parse_args(["warmup", "--targets", "env,nope"])
