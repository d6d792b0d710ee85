"""Tournaments: seat rotation, ratings on hand-made results, resume, determinism, end to end."""

from __future__ import annotations

import csv
import json

import pytest

from agents.play import places_of
from agents.ratings import agent_places, head_to_head, rate, seat_stats
from agents.tournament import load_results, run_tournament, schedule, tables_for, task_seats


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


def test_tiny_tournament_end_to_end_and_resume(tmp_path):
    out = tmp_path / "t"
    agents = ["random", "greedy"]
    summary = run_tournament(agents, [2, 3], games=4, seed=3, out_dir=str(out), workers=1, progress=False)
    assert summary["games"] == 4 + 6
    for name in ("games.csv", "records.jsonl", "summary.json", "ratings.csv", "ratings.png"):
        assert (out / name).exists()
    first = (out / "games.csv").read_text()
    # Interrupt: drop the last 3 games, then resume; the result must be the same file content.
    rows = list(csv.DictReader(open(out / "games.csv")))
    with open(out / "games.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=rows[0].keys())
        w.writeheader()
        w.writerows(rows[:-3])
    played = []
    run_tournament(agents, [2, 3], games=4, seed=3, out_dir=str(out), workers=1, progress=False,
                   on_result=played.append)
    assert len(played) == 3
    resumed = without_timing(load_results(str(out)))
    assert resumed == without_timing(load_results_from_text(first))
    records = [json.loads(line) for line in open(out / "records.jsonl")]
    assert {r["game_id"] for r in records} >= {r["game_id"] for r in resumed}


def without_timing(results):
    return sorted(({k: v for k, v in r.items() if k != "seconds_per_decision"} for r in results),
                  key=lambda r: r["game_id"])


def load_results_from_text(text):
    from agents.tournament import _row_result

    return [_row_result(row) for row in csv.DictReader(text.splitlines())]


def test_same_seed_same_tournament(tmp_path):
    a = run_tournament(["random", "greedy"], [2], games=4, seed=8, out_dir=str(tmp_path / "a"), progress=False)
    b = run_tournament(["random", "greedy"], [2], games=4, seed=8, out_dir=str(tmp_path / "b"), progress=False,
                       workers=2)
    assert without_timing(load_results(str(tmp_path / "a"))) == without_timing(load_results(str(tmp_path / "b")))
    assert a["by_players"]["2"]["ratings"] == b["by_players"]["2"]["ratings"]


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
