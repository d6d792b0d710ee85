"""Tournaments stopped by SIGTERM, Ctrl-C (SIGINT) or a failure: no worker left alive, no broken line, exact resume."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agents.evaluation import tournament
from agents.evaluation.tournament import load_results, run_tournament, schedule

ROOT = Path(__file__).resolve().parents[1]
AGENTS = ["random", "greedy"]
GAMES = 2000  # about 13 s with 2 warm workers: still running when the first games arrive, also when a busy
# machine (CI runs two test workers on two cores) delays the test's polling or a cold numba cache delays the start

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")


def _stat(pid: int) -> list[str] | None:
    """Fields of /proc/<pid>/stat after the command name (state first), or None when gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()


def descendants(pid: int) -> dict[int, str]:
    """Every process below pid, with its start time (to tell a reused pid apart)."""
    children: dict[int, list[int]] = {}
    starts: dict[int, str] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(int(entry))):
            children.setdefault(int(fields[1]), []).append(int(entry))
            starts[int(entry)] = fields[19]
    found, todo = {}, [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found[child] = starts[child]
            todo.append(child)
    return found


def still_running(processes: dict[int, str]) -> list[int]:
    """The processes that are still alive (zombies and reused pids do not count)."""
    alive = []
    for pid, start in processes.items():
        fields = _stat(pid)
        if fields and fields[19] == start and fields[0] != "Z":
            alive.append(pid)
    return alive


def game_rows(out: Path) -> int:
    path = out / "games.csv"
    return max(0, path.read_bytes().count(b"\n") - 1) if path.exists() else 0


def interrupt_tournament(out: Path, send, stderr: Path) -> tuple[subprocess.Popen, dict[int, str]]:
    """Start a 2-worker tournament in a subprocess; once games arrive, send the signal; its workers.

    stderr goes to a file, not a pipe: a leaked worker would hold a pipe open and hang the test.
    """
    code = (f"from agents.evaluation.tournament import run_tournament\n"
            f"run_tournament({AGENTS!r}, [2], games={GAMES}, seed=5, out_dir={str(out)!r}, workers=2, progress=False)")
    with open(stderr, "wb") as err:
        proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, start_new_session=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # not inherited
                                stdout=subprocess.DEVNULL, stderr=err)
    try:
        deadline = time.monotonic() + 300  # a cold numba cache compiles the kernels first
        while game_rows(out) < 1:
            assert proc.poll() is None, stderr.read_text()
            assert time.monotonic() < deadline, "no game finished within 300 s"
            time.sleep(0.01)
        workers = descendants(proc.pid)
        send(proc)
        proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return proc, workers


def assert_clean_stop_and_exact_resume(out: Path, proc: subprocess.Popen, workers: dict[int, str],
                                       stderr: Path) -> None:
    assert len(workers) >= 2, workers
    deadline = time.monotonic() + 30  # a grace period for the kernel to reap them, not a speed check
    while still_running(workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    leaked = still_running(workers)
    for pid in leaked:  # do not leave them behind when the test fails
        os.kill(pid, signal.SIGKILL)
    assert leaked == [], "worker processes outlived the tournament"
    assert proc.returncode != 0, "the tournament finished before it was interrupted"
    assert "KeyboardInterrupt" in stderr.read_text(), stderr.read_text()
    for name in ("games.csv", "records.jsonl"):
        data = (out / name).read_bytes()
        assert data.endswith(b"\n"), f"{name} ends in a partial line"
    stopped_at = len(load_results(str(out)))
    assert stopped_at < GAMES
    assert_no_lock_left(out)  # the stopped run released tournament.lock
    played = []
    summary = run_tournament(AGENTS, [2], games=GAMES, seed=5, out_dir=str(out), workers=2, progress=False,
                             on_result=played.append)
    assert summary["games"] == GAMES
    ids = [r["game_id"] for r in load_results(str(out))]
    assert ids == [t.game_id for t in schedule(AGENTS, [2], GAMES, 5)]
    records = [line for line in (out / "records.jsonl").read_text().splitlines()]
    assert [int(line.split(",", 1)[0].split(":")[1]) for line in records] == ids
    assert len(played) <= GAMES - stopped_at + 2  # at most the lines cut off by the stop are played again
    assert_no_lock_left(out)


def test_sigterm_stops_the_workers_and_the_run_resumes_exactly(tmp_path):
    out = tmp_path / "t"
    proc, workers = interrupt_tournament(out, lambda p: os.kill(p.pid, signal.SIGTERM), tmp_path / "stderr")
    assert_clean_stop_and_exact_resume(out, proc, workers, tmp_path / "stderr")


def test_ctrl_c_stops_the_workers_and_the_run_resumes_exactly(tmp_path):
    out = tmp_path / "t"
    # Ctrl-C in a terminal signals the whole process group: the parent and its workers.
    proc, workers = interrupt_tournament(out, lambda p: os.killpg(p.pid, signal.SIGINT), tmp_path / "stderr")
    assert_clean_stop_and_exact_resume(out, proc, workers, tmp_path / "stderr")


STARTED = "KBENV_TEST_STARTED_GAMES"  # a file each worker appends a started game's id to (inherited environment)
_run_task = tournament.run_task


def counted_run_task(task, setup):
    """tournament.run_task, noting first in the file named by $KBENV_TEST_STARTED_GAMES that the game started."""
    with open(os.environ[STARTED], "a") as f:
        f.write(f"{task.game_id}\n")
    return _run_task(task, setup)


def assert_no_lock_left(out: Path) -> None:
    """Nothing holds tournament.lock any more: another run may take it at once."""
    fcntl = pytest.importorskip("fcntl")
    with open(out / tournament.LOCK, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # BlockingIOError if a lock were left
        fcntl.flock(lock, fcntl.LOCK_UN)


FAIL_GAMES = 1000


def test_a_failure_during_the_run_stops_the_workers_and_leaves_a_resumable_folder(tmp_path, monkeypatch):
    """A failing result callback: the run raises, its workers are gone, the games still queued never start, the
    files hold exactly the one game finished, no lock is left, and a second run completes the schedule."""
    started = tmp_path / "started.txt"
    monkeypatch.setenv(STARTED, str(started))
    monkeypatch.setattr(tournament, "run_task", counted_run_task)  # the workers are forked after this
    out = tmp_path / "t"
    failed = []

    def fail(result):
        failed.append(result["game_id"])
        raise RuntimeError("callback failed")

    with pytest.raises(RuntimeError, match="callback failed"):
        run_tournament(AGENTS, [2], games=FAIL_GAMES, seed=5, out_dir=str(out), workers=2, progress=False,
                       on_result=fail)
    assert len(failed) == 1
    assert multiprocessing.active_children() == []  # the workers were stopped before run_tournament returned
    # The queued games were cancelled: only the few already handed to a worker had started (all 1000 would
    # start if the pool were left to drain its queue). A worker killed mid-write may leave a partial last line.
    started_games = started.read_text().split()
    assert 1 <= len(started_games) < FAIL_GAMES // 2, len(started_games)
    # The files hold the one finished game, in complete lines, and it is the game the callback saw.
    assert [r["game_id"] for r in load_results(str(out))] == failed
    for name in ("games.csv", "records.jsonl"):
        assert (out / name).read_bytes().endswith(b"\n"), name
    assert len((out / "records.jsonl").read_text().splitlines()) == 1
    assert_no_lock_left(out)
    # Resumable: a second run plays exactly the other games and ends with the whole schedule, in order.
    monkeypatch.setattr(tournament, "run_task", _run_task)
    played = []
    summary = run_tournament(AGENTS, [2], games=FAIL_GAMES, seed=5, out_dir=str(out), workers=2, progress=False,
                             on_result=lambda r: played.append(r["game_id"]))
    schedule_ids = [t.game_id for t in schedule(AGENTS, [2], FAIL_GAMES, 5)]
    assert summary["games"] == len(schedule_ids)
    assert sorted(played) == sorted(set(schedule_ids) - set(failed))
    assert [r["game_id"] for r in load_results(str(out))] == schedule_ids
    assert_no_lock_left(out)
