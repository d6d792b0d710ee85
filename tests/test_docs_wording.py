"""The project names commits, dates and versions, never the development's work periods (kbenv issue 50).

No tracked text file may say "session 12" (or "sessions 17-22"), and no tracked file may be named after one
(`platform_speed_s12_paired.json`): result files are named by the commit that produced them. Binary files and
this file are skipped. The serve app's game sessions (`new_session`, `GameSession`) are a different word: the
pattern needs a number right after "session".
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WORK_PERIOD = re.compile(r"\bsessions? [0-9]+\b", re.IGNORECASE)
WORK_PERIOD_NAME = re.compile(r"_s[0-9]+[_.]")
# a file name of that kind written in a text (a reference to a result file under its old name)
WORK_PERIOD_FILE = re.compile(r"[A-Za-z0-9-]+_s[0-9]+(?:_[A-Za-z0-9-]+)*\.(?:json|csv|png|md|yaml|pt|txt)\b")


def tracked_files() -> list[str]:
    if not (ROOT / ".git").exists() or not shutil.which("git"):
        pytest.skip("not a git checkout")
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [name for name in out.splitlines() if (ROOT / name).is_file()]


def text_of(name: str) -> str | None:
    """The file's text, or None for a binary file (a NUL byte or no UTF-8)."""
    data = (ROOT / name).read_bytes()
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def test_the_patterns_catch_work_periods():
    assert WORK_PERIOD.search("measured in session 12") and WORK_PERIOD.search("Sessions 17-22")
    assert WORK_PERIOD.search("in session 9's run")
    assert not WORK_PERIOD.search("session = games.get(game_id)") and not WORK_PERIOD.search("new_session(body)")
    assert WORK_PERIOD_NAME.search("platform_speed_s12_paired.json") and WORK_PERIOD_NAME.search("bench_s14.json")
    assert not WORK_PERIOD_NAME.search("platform_speed_3ba33b1_paired.json")
    assert WORK_PERIOD_FILE.search("see benchmarks/results/bench_packed_s14.json")
    assert not WORK_PERIOD_FILE.search("benchmarks/results/bench_packed_00389c1.json")


def test_no_tracked_text_names_a_work_period():
    me = str(Path(__file__).resolve().relative_to(ROOT))
    found = []
    for name in tracked_files():
        if name == me:
            continue
        text = text_of(name)
        if text is None:
            continue
        for line_no, line in enumerate(text.splitlines(), 1):
            if WORK_PERIOD.search(line) or WORK_PERIOD_FILE.search(line):
                found.append(f"{name}:{line_no}: {line.strip()[:120]}")
    assert not found, "name a commit or a date instead:\n" + "\n".join(found)


def test_no_tracked_file_is_named_after_a_work_period():
    named = [name for name in tracked_files() if WORK_PERIOD_NAME.search(Path(name).name)]
    assert not named, f"name these after the commit that produced them: {named}"
