"""Tournament folders (kbenv issue 19): a ruleset is a set, the lock file goes when the run ends, and the
paths printed by `kbenv tournament` are proper paths."""

from __future__ import annotations

import json
import os

import pytest

from agents.evaluation.tournament import LOCK, claim_out_dir, run_tournament, tournament_identity
from kbenv.cli import main

AGENTS = ["random", "greedy"]


def test_a_run_resumes_with_the_expansions_in_another_order(tmp_path):
    first = run_tournament(AGENTS, [2], games=2, out_dir=str(tmp_path), progress=False,
                           setup={"expansions": ["crossroads", "caves"]})
    stored = json.loads((tmp_path / "tournament.json").read_text())
    assert stored["setup"] == {"expansions": ["caves", "crossroads"]}  # catalogue order
    again = run_tournament(AGENTS, [2], games=2, out_dir=str(tmp_path), progress=False,
                           setup={"expansions": ["caves", "crossroads"]})
    assert again["games"] == first["games"] == 2
    assert again["overall"] == first["overall"]


def test_rules_as_a_mapping_or_a_list_are_one_ruleset(tmp_path):
    run_tournament(AGENTS, [2], games=2, out_dir=str(tmp_path), progress=False,
                   setup={"expansions": ["capitol", "nomads"],
                          "rules": ["capitol_replaces_castle", "lords_count_zero"]})
    run_tournament(AGENTS, [2], games=2, out_dir=str(tmp_path), progress=False,
                   setup={"expansions": ["nomads", "capitol"],
                          "rules": {"lords_count_zero": True, "capitol_replaces_castle": True,
                                    "caves_are_plain_mountain": False}})


def test_another_ruleset_is_still_refused(tmp_path):
    run_tournament(AGENTS, [2], games=2, out_dir=str(tmp_path), progress=False, setup={"expansions": ["caves"]})
    with pytest.raises(ValueError, match=r"holds a tournament with setup .*caves.*, not .*capitol"):
        run_tournament(AGENTS, [2], games=2, out_dir=str(tmp_path), progress=False,
                       setup={"expansions": ["caves", "capitol"]})


def test_a_folder_written_before_rulesets_were_sets_still_resumes(tmp_path):
    # kbenv stored the expansions in the order given; such a folder resumes in any order
    old = tournament_identity(AGENTS, [2], 2, 0, {"expansions": ["crossroads", "caves"]}, False)
    (tmp_path / "tournament.json").write_text(json.dumps({"version": 1, **old}))
    claim_out_dir(str(tmp_path), tournament_identity(AGENTS, [2], 2, 0, {"expansions": ["caves", "crossroads"]},
                                                     False))


def test_the_lock_file_is_removed_when_the_run_ends(tmp_path):
    run_tournament(AGENTS, [2], games=2, out_dir=str(tmp_path), progress=False)
    assert (tmp_path / "summary.json").exists()
    assert not (tmp_path / LOCK).exists()


def stop(result):
    raise RuntimeError("stop")


def ctrl_c(result):
    raise KeyboardInterrupt


@pytest.mark.parametrize(("on_result", "error"), [(stop, RuntimeError), (ctrl_c, KeyboardInterrupt)])
def test_the_lock_file_is_removed_on_an_error_and_on_ctrl_c(tmp_path, on_result, error):
    with pytest.raises(error):
        run_tournament(AGENTS, [2], games=4, out_dir=str(tmp_path), progress=False, on_result=on_result)
    assert (tmp_path / "tournament.json").exists()
    assert not (tmp_path / LOCK).exists()


def test_a_lock_left_by_a_dead_process_does_not_block(tmp_path):
    (tmp_path / LOCK).write_text("999999999\n")  # a killed run: the file stays, its lock died with it
    summary = run_tournament(AGENTS, [2], games=2, out_dir=str(tmp_path), progress=False)
    assert summary["games"] == 2
    assert not (tmp_path / LOCK).exists()


def test_a_live_holder_is_named(tmp_path):
    fcntl = pytest.importorskip("fcntl")
    with open(tmp_path / LOCK, "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        lock.write("4242\n")
        lock.flush()
        with pytest.raises(ValueError, match=r"in use by another tournament \(process 4242\)"):
            run_tournament(AGENTS, [2], games=2, out_dir=str(tmp_path), progress=False)
        assert (tmp_path / LOCK).exists()  # the holder's file is left alone
    assert not (tmp_path / "games.csv").exists()


def test_the_cli_prints_proper_paths(tmp_path, capsys):
    out = tmp_path / "results_t"
    code = main(["tournament", "--agents", *AGENTS, "--games", "2", "--quiet", "--out", f"{out}/"])
    assert code == 0
    printed = capsys.readouterr().out.splitlines()[-1]
    assert "//" not in printed
    assert printed == "wrote " + ", ".join(os.path.join(str(out), name) for name in
                                           ("games.csv", "records.jsonl", "summary.json", "ratings.csv", "ratings.png"))
    assert all((out / name).exists() for name in ("games.csv", "records.jsonl", "summary.json", "ratings.csv",
                                                   "ratings.png"))
    assert not (out / LOCK).exists()
