"""The footprint of a power (issue 21: "adding each Marshlands power names at most 3 non-test files"),
measured by scripts/power_footprint.py on this repository."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "power_footprint.py"


def load():
    spec = importlib.util.spec_from_file_location("power_footprint", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("the Temple removes", True),
        ("st[TEMPLE_RESERVE + p]", True),
        ("RULE_TEMPLE = 7", True),
        ("temple_owed", True),
        ("two temples", True),
        ("class TempleHook:", True),
        ("isTemple()", True),
        ("contemplate the temperature", False),
        ("templet", False),
    ],
)
def test_a_name_is_a_whole_word_where_underscore_separates(text, named):
    pf = load()
    assert pf.names(text, pf.name_pattern("temple")) is named


def test_names_of_several_words_match_with_any_separator():
    pf = load()
    pattern = pf.name_pattern("foresters_lodge")
    assert all(pf.names(t, pattern) for t in ("Forester's Lodge", "FORESTERS_LODGE", "foresterslodge"))
    assert not pf.names("foresters lodged", pattern)


def test_every_location_type_of_the_catalogue_is_measured():
    # 8 base, 4 Nomads, 8 Crossroads (with its passive crossroads), 4 Marshlands, 8 Harvest location types (EN 1295),
    # 2 of the Island (EN 1435-1439)
    rows = load().powers(ROOT)
    assert len(rows) == 34
    assert [name for name, exp in rows if exp == "island"] == ["rope_bridge", "tree_house"]
    assert [name for name, exp in rows if exp == "marshlands"] == ["canoe", "fountain", "temple", "refuge"]
    assert [name for name, exp in rows if exp == "harvest"] == [
        "bazaar", "water_mill", "mountain_station", "scout_cabin", "cathedral", "watchtower", "university", "palisade"]


def test_json_output_lists_files_per_power():
    out = subprocess.run([sys.executable, str(SCRIPT), "--json"], capture_output=True, text=True, check=True)
    result = json.loads(out.stdout)
    assert result["oracle"]["expansion"] is None
    assert "kbenv/catalogue.py" in result["oracle"]["files"]  # the catalogue row itself names it
    listed = {f for row in result.values() for f in row["files"]}
    assert not any(f.startswith("tests/") or f.endswith("power_footprint.py") for f in listed)


@pytest.mark.parametrize("power", ["fountain", "refuge", "temple", "canoe", "bazaar", "water_mill", "mountain_station",
                                   "scout_cabin", "cathedral", "watchtower", "university", "palisade"])
def test_each_marshlands_power_names_at_most_3_non_test_files(power):
    files = load().footprint(ROOT)[power]["files"]
    assert len(files) <= 3, f"{power} is named in {len(files)} files: {files}"


def test_a_task_card_holding_a_power_name_does_not_name_the_power():
    # the Crossroads task "Place of Refuge" (C-18) is not the Marshlands Refuge
    pf = load()
    tasks = pf.task_names(ROOT)
    assert "place_of_refuge" in tasks
    refuge = pf.name_pattern("refuge")
    assert not pf.names(pf.blank_tasks("PLACE_OF_REFUGE = 3; place_of_refuge_met(st)", tasks), refuge)
    assert pf.names(pf.blank_tasks("place_of_refuge and the refuge", tasks), pf.name_pattern("refuge"))
