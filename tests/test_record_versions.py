"""A record's version must match its content: 1 is a base game, 2 a set-up with a ruleset (kbenv issue 19)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from kbenv import Game
from kbenv.setup import SetupError

GOLDEN = Path(__file__).parent / "data" / "golden_base.json.gz"


def _json(record: dict) -> dict:
    return json.loads(json.dumps(record))


def test_an_expansion_record_marked_version_1_is_refused():
    record = _json(Game.new(2, seed=3, expansions=["crossroads", "caves"]).to_record())
    assert record["version"] == 2
    record["version"] = 1
    with pytest.raises(SetupError, match=r"^version: 1 means a base game"):
        Game.from_record(record)


def test_a_rule_flag_alone_is_a_ruleset_too():
    record = _json(Game.new(2, seed=3, rules=["lords_count_zero"]).to_record())
    assert record["version"] == 2
    record["version"] = 1
    with pytest.raises(SetupError, match="version"):
        Game.from_record(record)


def test_a_base_record_marked_version_2_is_refused():
    record = _json(Game.new(3, seed=5).to_record())
    assert record["version"] == 1
    record["version"] = 2
    with pytest.raises(SetupError, match=r"^version: 2 means a set-up with a ruleset.*base game"):
        Game.from_record(record)


def test_matching_versions_still_load():
    base = Game.new(2, seed=4)
    crossroads = Game.new(2, seed=4, expansions=["caves", "crossroads"])
    for game in (base, crossroads):
        assert Game.from_record(_json(game.to_record())).state_key() == game.state_key()


def test_the_stored_golden_records_still_load():
    golden = json.loads(gzip.decompress(GOLDEN.read_bytes()))
    records = [g["record"] for g in golden["games"]][:5] + list(golden["batch"]["records"])[:5]
    assert records
    for record in records:
        assert record["version"] == 1
        assert list(Game.from_record(record).actions) == record["actions"]
