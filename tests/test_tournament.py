"""Tournaments: seat rotation, ratings on hand-made results, resume, determinism, end to end."""

from __future__ import annotations

import csv
import json
import math
import re
import shutil
import signal
import zipfile

import pytest

from agents.evaluation.play import places_of
from agents.evaluation.ratings import Z95, agent_places, head_to_head, rate, seat_stats, wilson_interval
from agents.evaluation.tournament import (
    claim_out_dir,
    load_results,
    run_tournament,
    schedule,
    table_text,
    tables_for,
    task_seats,
    tournament_identity,
)


def test_every_agent_sits_in_every_seat_equally_often():
    agents = ["random", "greedy", "mcts:sims=10"]
    for n in (2, 3, 4, 5):
        tasks = schedule(agents, [n], games=30, seed=1)
        counts = task_seats(tasks)
        assert len(set(counts.values())) == 1, counts
        assert {seat for _, seat in counts} == set(range(n))
        # Every deal is replayed in all n rotations of its table.
        by_seed: dict = {}
        for t in tasks:
            by_seed.setdefault((t.seed, tuple(sorted(t.seats))), []).append(t.seats)
        assert all(len(v) % n == 0 for v in by_seed.values())


def test_tables_with_fewer_agents_than_seats_are_balanced():
    assert tables_for(["a", "b"], 4) == [("a", "a", "b", "b")]
    assert sorted(tables_for(["a", "b", "c"], 4)) == sorted(
        [("a", "a", "b", "c"), ("a", "b", "b", "c"), ("a", "b", "c", "c")]
    )


def test_places_share_ties():
    assert places_of([50, 40, 40, 10]) == [1.0, 2.5, 2.5, 4.0]
    assert agent_places(["x", "y", "x"], [1.0, 2.0, 3.0]) == {"x": 2.0, "y": 2.0}


def hand_made(results):
    return [
        {"game_id": i, "num_players": len(g), "seats": [a for a, _ in g], "gold": [v for _, v in g],
         "places": places_of([v for _, v in g]),
         "winners": [k for k, (_, v) in enumerate(g) if v == max(x for _, x in g)], "seed": 0, "decisions": 1,
         "seconds_per_decision": [0.0] * len(g)}
        for i, g in enumerate(results)
    ]


def test_ratings_move_the_right_way_and_ties_are_even():
    games = hand_made([[("A", 50), ("B", 30)]] * 10)
    r = rate(games, ["A", "B"])
    assert r["A"]["mu"] > 25 > r["B"]["mu"]
    ties = hand_made([[("A", 40), ("B", 40)]] * 10)
    r = rate(ties, ["A", "B"])
    assert r["A"]["mu"] == pytest.approx(r["B"]["mu"])
    assert r["A"]["sigma"] < 25 / 3


def test_win_share_and_head_to_head_on_hand_made_results():
    games = hand_made([[("A", 50), ("B", 30)], [("B", 40), ("A", 40)], [("A", 10), ("B", 20)], [("B", 5), ("A", 9)]])
    stats = seat_stats(games, ["A", "B"])
    # A: wins game 0 and 3, shares game 1 (1/2), loses game 2 -> 2.5 / 4.
    assert stats["A"]["win_share"] == pytest.approx(0.625)
    assert stats["B"]["win_share"] == pytest.approx(0.375)
    assert stats["A"]["fair_share"] == 0.5
    assert stats["A"]["mean_gold"] == pytest.approx((50 + 40 + 10 + 9) / 4)
    low, high = stats["A"]["win_share_ci95"]
    assert low < 0.625 < high
    h2h = head_to_head(games, ["A", "B"])
    assert h2h["A"]["B"] == pytest.approx(0.625) and h2h["B"]["A"] == pytest.approx(0.375)


def wilson_by_hand(wins, n, z=1.96):
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


@pytest.mark.parametrize(("wins", "n", "expected"), [(0, 10, (0.0, 0.278)), (5, 10, (0.237, 0.763)),
                                                     (10, 10, (0.722, 1.0)), (1, 4, (0.046, 0.699))])
def test_win_share_interval_is_wilson(wins, n, expected):
    low, high = wilson_interval(wins / n, n)
    assert (low, high) == pytest.approx(wilson_by_hand(wins, n, Z95), abs=1e-12)
    assert (low, high) == pytest.approx(wilson_by_hand(wins, n), abs=2e-4)  # z = 1.96
    assert (low, high) == pytest.approx(expected, abs=1e-3)
    assert 0.0 <= low <= wins / n <= high <= 1.0 and high - low > 0.1


def test_a_whitewash_still_has_a_real_interval():
    games = hand_made([[("A", 50), ("B", 30)]] * 10)
    stats = seat_stats(games, ["A", "B"])
    assert stats["B"]["win_share"] == 0.0
    assert stats["B"]["win_share_ci95"][0] == 0.0
    assert stats["B"]["win_share_ci95"][1] == pytest.approx(0.278, abs=1e-3)
    assert stats["A"]["win_share_ci95"] == pytest.approx([0.722, 1.0], abs=1e-3)
    summary = {"by_players": {"2": {"games": 10, "ratings": rate(games, ["A", "B"]), "seats": stats}}}
    assert "[0.000, 0.278]" in table_text(summary)


def test_tiny_tournament_end_to_end_and_resume(tmp_path):
    out = tmp_path / "t"
    agents = ["random", "greedy"]
    summary = run_tournament(agents, [2, 3], games=4, seed=3, out_dir=str(out), workers=1, progress=False)
    assert summary["games"] == 4 + 6
    for name in ("tournament.json", "games.csv", "records.jsonl", "summary.json", "ratings.csv", "ratings.png"):
        assert (out / name).exists()
    first_csv, first_records = (out / "games.csv").read_text(), (out / "records.jsonl").read_text()
    # Interrupt: drop the last 3 games, then resume; the result must be the same file content.
    rows = list(csv.DictReader(open(out / "games.csv")))
    with open(out / "games.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=rows[0].keys())
        w.writeheader()
        w.writerows(rows[:-3])
    played = []
    run_tournament(agents, [2, 3], games=4, seed=3, out_dir=str(out), workers=1, progress=False,
                   on_result=played.append)
    assert sorted(r["game_id"] for r in played) == [7, 8, 9]
    assert_same_games(out, first_csv, first_records)


def assert_same_games(out, csv_text, records_text):
    """Each game exactly once in both files, in id order, with the content of the reference run."""
    resumed = load_results(str(out))
    reference = load_results_from_text(csv_text)
    ids = [r["game_id"] for r in reference]
    assert [r["game_id"] for r in resumed] == ids == sorted(set(ids))
    assert without_timing(resumed) == without_timing(reference)
    assert (out / "records.jsonl").read_text() == records_text
    assert [json.loads(line)["game_id"] for line in records_text.splitlines()] == ids


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """An uninterrupted 10-game tournament: its folder and the text of games.csv and records.jsonl."""
    out = tmp_path_factory.mktemp("reference")
    run_tournament(["random", "greedy"], [2, 3], games=4, seed=3, out_dir=str(out), workers=1, progress=False)
    return out, (out / "games.csv").read_text(), (out / "records.jsonl").read_text()


def _lines(path):
    return path.read_bytes().split(b"\n")[:-1]


def _write_lines(path, lines, tail=b""):
    path.write_bytes(b"".join(line + b"\n" for line in lines) + tail)


def cut_csv_mid_line(out):  # SIGKILL while writing games.csv: the last row is cut short
    lines = _lines(out / "games.csv")
    _write_lines(out / "games.csv", lines[:-2], lines[-2][:25])
    return {8, 9}


def cut_records_mid_line(out):  # records.jsonl ends in half a record
    lines = _lines(out / "records.jsonl")
    _write_lines(out / "records.jsonl", lines[:-1], lines[-1][: len(lines[-1]) // 2])
    return {9}


def record_without_row(out):  # killed between writing the record and the games.csv row
    lines = _lines(out / "games.csv")
    _write_lines(out / "games.csv", lines[:-1])
    return {9}


def row_without_record(out):
    lines = _lines(out / "records.jsonl")
    _write_lines(out / "records.jsonl", lines[:4] + lines[5:])
    return {4}


def duplicated_lines(out):  # a game written twice (once by a run that was then resumed)
    for name in ("games.csv", "records.jsonl"):
        lines = _lines(out / name)
        _write_lines(out / name, lines + lines[-2:])
    return set()


def garbage_lines(out):  # unreadable lines between good ones are dropped, the good ones kept
    for name, junk in (("games.csv", b"7,\x00,junk"), ("records.jsonl", b'{"game_id": 3, "rec')):
        lines = _lines(out / name)
        _write_lines(out / name, lines[:3] + [junk] + lines[3:])
    return set()


def cut_header(out):  # killed before the header was complete
    (out / "games.csv").write_bytes(b"game_id,num_pl")
    (out / "records.jsonl").write_bytes(b"")
    return set(range(10))


@pytest.mark.parametrize("damage", [cut_csv_mid_line, cut_records_mid_line, record_without_row,
                                    row_without_record, duplicated_lines, garbage_lines, cut_header])
def test_resume_repairs_both_files_to_each_game_exactly_once(reference, tmp_path, damage):
    ref_dir, csv_text, records_text = reference
    out = tmp_path / "t"
    shutil.copytree(ref_dir, out)
    replayed = damage(out)
    played = []
    summary = run_tournament(["random", "greedy"], [2, 3], games=4, seed=3, out_dir=str(out), workers=1,
                             progress=False, on_result=played.append)
    assert {r["game_id"] for r in played} == replayed and len(played) == len(replayed)
    assert summary["games"] == 10
    assert_same_games(out, csv_text, records_text)


@pytest.mark.parametrize(
    ("change", "message"),
    [({"seed": 4}, "seed 3, not 4"), ({"agents": ["random", "lookahead"]}, "agents random greedy, not random"),
     ({"player_counts": [2]}, "players 2,3, not 2"), ({"games": 6}, "games 4, not 6"),
     ({"setup": {"preset": "first-game"}}, "setup"), ({"field": True}, "field off, not on")],
)
def test_an_out_folder_of_another_tournament_is_refused(reference, change, message):
    out, csv_text, records_text = reference
    settings = {"agents": ["random", "greedy"], "player_counts": [2, 3], "games": 4, "seed": 3, **change}
    with pytest.raises(ValueError, match=f"out folder {re.escape(str(out))} holds a tournament with {message}"):
        run_tournament(out_dir=str(out), progress=False, **settings)
    assert (out / "games.csv").read_text() == csv_text and (out / "records.jsonl").read_text() == records_text


def test_other_workers_resume_the_same_tournament(reference, tmp_path):
    ref_dir, csv_text, records_text = reference
    out = tmp_path / "t"
    shutil.copytree(ref_dir, out)
    played = []
    summary = run_tournament(["random", "greedy"], [2, 3], games=4, seed=3, out_dir=str(out), workers=2,
                             progress=False, on_result=played.append)
    assert played == [] and summary["games"] == 10 and summary["config"]["workers"] == 2
    assert_same_games(out, csv_text, records_text)


def test_a_folder_from_before_tournament_json_is_refused(reference, tmp_path):
    out = tmp_path / "old"
    shutil.copytree(reference[0], out)
    (out / "tournament.json").unlink()
    with pytest.raises(ValueError, match="no tournament.json"):
        run_tournament(["random", "greedy"], [2, 3], games=4, seed=3, out_dir=str(out), progress=False)


def test_another_model_file_under_the_same_spec_is_another_tournament(tmp_path):
    model = tmp_path / "model.zip"
    with zipfile.ZipFile(model, "w") as z:
        z.writestr("data", "first model")
    identity = tournament_identity([f"ppo:path={model}", "greedy"], [2], 4, 0, {}, False)
    claim_out_dir(str(tmp_path), identity)
    claim_out_dir(str(tmp_path), tournament_identity([f"ppo:path={model}", "greedy"], [2], 4, 0, {}, False))
    with zipfile.ZipFile(model, "w") as z:
        z.writestr("data", "retrained model")
    with pytest.raises(ValueError, match="holds a tournament with model ppo:path="):
        claim_out_dir(str(tmp_path), tournament_identity([f"ppo:path={model}", "greedy"], [2], 4, 0, {}, False))


def test_a_folder_in_use_by_another_run_is_refused(tmp_path):
    fcntl = pytest.importorskip("fcntl")
    with open(tmp_path / "tournament.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(ValueError, match="in use by another tournament"):
            run_tournament(["random", "greedy"], [2], games=2, out_dir=str(tmp_path), progress=False)
    assert not (tmp_path / "games.csv").exists()


def test_run_tournament_restores_the_sigterm_handler(tmp_path):
    def mine(signum, frame):
        pass

    previous = signal.signal(signal.SIGTERM, mine)
    try:
        run_tournament(["random", "greedy"], [2], games=2, out_dir=str(tmp_path), progress=False)
        assert signal.getsignal(signal.SIGTERM) is mine
        with pytest.raises(RuntimeError, match="stop"):
            run_tournament(["random", "greedy"], [2], games=4, seed=1, out_dir=str(tmp_path / "b"), progress=False,
                           on_result=stop)
        assert signal.getsignal(signal.SIGTERM) is mine
    finally:
        signal.signal(signal.SIGTERM, previous)


def stop(result):
    raise RuntimeError("stop")


def without_timing(results):
    return sorted(({k: v for k, v in r.items() if k != "seconds_per_decision"} for r in results),
                  key=lambda r: r["game_id"])


def load_results_from_text(text):
    from agents.evaluation.tournament import _row_result

    return [_row_result(row) for row in csv.DictReader(text.splitlines())]


def test_same_seed_same_tournament(tmp_path):
    a = run_tournament(["random", "greedy"], [2], games=4, seed=8, out_dir=str(tmp_path / "a"), progress=False)
    b = run_tournament(["random", "greedy"], [2], games=4, seed=8, out_dir=str(tmp_path / "b"), progress=False,
                       workers=2)
    assert without_timing(load_results(str(tmp_path / "a"))) == without_timing(load_results(str(tmp_path / "b")))
    assert a["by_players"]["2"]["ratings"] == b["by_players"]["2"]["ratings"]


def test_spawned_workers_play_the_same_games(tmp_path):
    """backend='spawn': fresh worker processes (for callers with threads running) give the same games."""
    a = run_tournament(["random", "greedy"], [2], games=4, seed=8, out_dir=str(tmp_path / "a"), progress=False)
    b = run_tournament(["random", "greedy"], [2], games=4, seed=8, out_dir=str(tmp_path / "b"), progress=False,
                       workers=2, backend="spawn")
    assert without_timing(load_results(str(tmp_path / "a"))) == without_timing(load_results(str(tmp_path / "b")))
    assert a["by_players"]["2"]["ratings"] == b["by_players"]["2"]["ratings"]
    assert b["config"]["backend"] == "spawn"


def test_ray_backend_on_a_local_instance(tmp_path):
    ray = pytest.importorskip("ray")
    try:
        summary = run_tournament(["random", "greedy"], [2], games=2, seed=1, out_dir=str(tmp_path),
                                 workers=1, backend="ray", progress=False)
    finally:
        ray.shutdown()
    assert summary["games"] == 2
    local = run_tournament(["random", "greedy"], [2], games=2, seed=1, out_dir=str(tmp_path / "local"),
                           progress=False)
    assert summary["by_players"]["2"]["seats"] == local["by_players"]["2"]["seats"]


def test_bad_tournament_arguments():
    with pytest.raises(ValueError, match="unknown agent"):
        run_tournament(["random", "nobody"], [2], games=1, progress=False)
    with pytest.raises(ValueError, match="backend"):
        run_tournament(["random", "greedy"], [2], games=1, backend="mpi", progress=False)


@pytest.mark.parametrize(
    ("change", "field"),
    [({"games": 0}, "games"), ({"games": -3}, "games"), ({"games": 2.5}, "games"), ({"workers": 0}, "workers"),
     ({"workers": -1}, "workers"), ({"player_counts": []}, "players"), ({"player_counts": [6]}, "players"),
     ({"player_counts": [2, 2]}, "players"), ({"seed": -1}, "seed"), ({"agents": []}, "agents"),
     ({"agents": ["random", "random"]}, "agents"), ({"agents": ["random", "greedy\nrandom"]}, "agents"),
     ({"agents": ["mcts:sims=10,nonsense=1", "greedy"]}, "mcts:sims=10,nonsense=1"),
     ({"agents": ["ppo:file=x.zip", "greedy"]}, "ppo:file=x.zip"), ({"setup": {"colour": 1}}, "setup"),
     ({"setup": {"preset": "no-such-preset"}}, "preset")],
)
def test_bad_arguments_are_refused_before_anything_is_written(tmp_path, change, field):
    settings = {"agents": ["random", "greedy"], "player_counts": [2], "games": 2, "seed": 0, **change}
    with pytest.raises(ValueError, match=field):
        run_tournament(out_dir=str(tmp_path / "t"), progress=False, **settings)
    assert not (tmp_path / "t").exists()


def test_an_out_path_that_is_a_file_is_refused(tmp_path):
    (tmp_path / "t").write_text("not a folder")
    with pytest.raises(ValueError, match="out folder .* cannot write there"):
        run_tournament(["random", "greedy"], [2], games=2, out_dir=str(tmp_path / "t"), progress=False)


def test_a_missing_model_file_is_refused(tmp_path):
    with pytest.raises(FileNotFoundError, match="no checkpoint"):
        run_tournament([f"ppo:path={tmp_path / 'none.zip'}", "greedy"], [2], games=2, out_dir=str(tmp_path / "t"),
                       progress=False)


def test_cli_refuses_zero_games(tmp_path, capsys):
    from kbenv.cli import main

    try:  # argparse may refuse it first (SystemExit), or run_tournament (ValueError, exit code 2)
        code = main(["tournament", "--agents", "random", "greedy", "--games", "0", "--out", str(tmp_path / "t"),
                     "--quiet"])
    except SystemExit as stop:
        code = stop.code
    assert code == 2
    assert "games" in capsys.readouterr().err
    assert not (tmp_path / "t").exists()


def test_field_seats_the_first_agent_alone_against_the_others():
    assert tables_for(["a", "b"], 4, field=True) == [("a", "b", "b", "b")]
    assert tables_for(["a", "b", "c"], 4, field=True) == [("a", "b", "c", "b")]
    tasks = schedule(["a", "b"], [3], games=6, seed=0, field=True)
    assert len(tasks) == 6
    assert all(sorted(t.seats) == ["a", "b", "b"] for t in tasks)
    assert sorted(t.seats.index("a") for t in tasks) == [0, 0, 1, 1, 2, 2]
    with pytest.raises(ValueError, match="field"):
        tables_for(["a"], 3, field=True)


def test_field_tournament_counts_seats(tmp_path):
    summary = run_tournament(["greedy", "random"], [3], games=3, seed=4, out_dir=str(tmp_path), progress=False,
                             field=True)
    seats = summary["by_players"]["3"]["seats"]
    assert seats["greedy"]["seats"] == 3 and seats["random"]["seats"] == 6
    assert summary["config"]["field"] is True
