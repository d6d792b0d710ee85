"""Harvest, first part (issue 22): the opt-in for an expansion under construction, the catalogue rows and the
substitute sections. Expected values come from the rule text (EN 1227-1233, 1279) and the brief of issue 22."""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

import pytest

from kbenv import catalogue as CAT
from kbenv.board.sections import load_section
from kbenv.ruleset import Ruleset, RulesetError

ROOT = Path(__file__).resolve().parents[1]
HARVEST_TYPES = ("bazaar", "water_mill", "mountain_station", "scout_cabin", "cathedral", "watchtower", "university",
                 "palisade")  # EN 1295-1361, names of decision 8


def test_an_expansion_under_construction_is_refused_without_the_opt_in(an_expansion_under_construction, monkeypatch):
    with pytest.raises(RulesetError) as err:
        Ruleset(["island"])
    assert "expansions: 'island' is not implemented yet" in str(err.value)
    assert "KBENV_EXPERIMENTAL=island" in str(err.value)
    with pytest.raises(ValueError, match="KBENV_EXPERIMENTAL=island"):
        CAT.parse_expansions(["island"])
    monkeypatch.setenv(CAT.EXPERIMENTAL_ENV, "harvest")  # naming another expansion does not opt in
    with pytest.raises(RulesetError):
        Ruleset(["island"])
    monkeypatch.setenv(CAT.EXPERIMENTAL_ENV, "harvest,island")  # naming it does
    assert Ruleset(["island"]).expansions == ("island",)


def test_harvest_is_implemented_and_needs_no_opt_in(monkeypatch):
    monkeypatch.delenv(CAT.EXPERIMENTAL_ENV, raising=False)
    assert Ruleset(["harvest", "nomads"]).expansions == ("nomads", "harvest")
    assert CAT.parse_expansions(["harvest"]) == 1 << 5
    row = next(e for e in CAT.EXPANSIONS if e.name == "harvest")
    assert row.implemented and not row.under_construction


def test_the_harvest_rows():
    # EN 1231: farmland is buildable, the silo is not; decision 8 letters A and O
    farmland, silo = (CAT.TERRAINS[CAT.TERRAIN_CODE[n]] for n in ("farmland", "silo"))
    assert (farmland.letter, farmland.buildable_with, farmland.cards) == ("A", "harvest", 0)
    assert (silo.letter, silo.special, silo.buildable_with) == ("O", True, None)
    assert tuple(loc.name for loc in CAT.LOCATION_TYPES if loc.expansion == "harvest") == HARVEST_TYPES
    letters = [loc.letter for loc in CAT.LOCATION_TYPES]
    assert len(set(letters)) == len(letters) and all(ch.islower() and len(ch) == 1 for ch in letters)
    cards = {c.name: c for c in CAT.SCORING_CARDS if c.expansion == "harvest"}
    assert set(cards) == {"mayors", "rangers", "chainers", "travellers", "homesteaders", "rovers"}
    # decision 6 / A-H9: the amounts the rulebook text does not give are marked unverified
    assert {n for n, c in cards.items() if c.provenance.startswith("unverified")} == {
        "rangers", "chainers", "travellers", "homesteaders"}
    assert cards["mayors"].gold == 4 and cards["rovers"].scored == "play"  # EN 1377, EN 1395-1399
    assert CAT.POWER_NAMES[-1] == "farmland" and CAT.POWER_TRAIT["farmland"].timing == "once a turn"


def _script():
    spec = importlib.util.spec_from_file_location("make_substitute_sections",
                                                  ROOT / "scripts" / "make_substitute_sections.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_the_harvest_substitutes_are_what_the_seeded_procedure_gives(k):
    make = _script()
    committed = (ROOT / "kbenv" / "data" / "sections" / f"harvest-substitute-{k}.txt").read_text(encoding="utf-8")
    assert make.generate_harvest(k) == committed
    rows = load_section(f"harvest-substitute-{k}")
    letters = Counter("".join(rows))
    # one silo (EN 1279), farmland (EN 1231), one castle, two location hexes of two Harvest types (EN 1231)
    assert (letters["O"], letters["K"], letters["A"]) == (1, 1, 10)
    kinds = sorted(CAT.LOCATION_LETTERS_TO_NAMES[ch] for ch in "".join(rows) if ch in CAT.LOCATION_LETTERS_TO_NAMES)
    assert kinds == sorted(HARVEST_TYPES[2 * k - 2 : 2 * k])


def test_the_harvest_seed_matters():
    make = _script()
    assert make.generate_harvest(1, 23) != make.generate_harvest(1, 22)
