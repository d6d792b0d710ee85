"""The one `Ruleset` object (kbenv issue 21): parsing, errors naming the field, printing, JSON, set comparison,
the kernels' bits, and `lords_count_zero` as a rule flag like the others (the old keyword and old files too).

Expected values come from kbenv.catalogue's declared rows: expansion bits nomads=1, capitol=2, caves=4,
crossroads=8; rule bits lords_count_zero=1, capitol_replaces_castle=2, caves_are_plain_mountain=4,
nomad_spaces_not_special=8, nomad_tile_next_turn=16, zone_blocks_settlements_only=32.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from kbenv.ruleset import Ruleset, RulesetError


def test_names_in_any_order_and_form_make_the_same_ruleset():
    a = Ruleset(["crossroads", "nomads"], ["zone_blocks_settlements_only"])
    b = Ruleset.parse("nomads+crossroads", {"zone_blocks_settlements_only": True, "lords_count_zero": False})
    c = Ruleset(("nomads", "crossroads", "nomads"), "zone_blocks_settlements_only")
    assert a == b == c and hash(a) == hash(b)
    assert a.expansions == ("nomads", "crossroads")  # catalogue order
    assert len({a, b, c}) == 1


def test_printing():
    assert str(Ruleset()) == "base game"
    assert str(Ruleset(["caves", "capitol", "nomads"])) == "nomads+capitol+caves"
    assert str(Ruleset(rules=["lords_count_zero"])) == "base game with rules lords_count_zero"
    assert Ruleset(["capitol"], ["capitol_replaces_castle", "lords_count_zero"]).text() == \
        "capitol with rules lords_count_zero+capitol_replaces_castle"


def test_bits_for_the_kernels():
    assert Ruleset().bits == (0, 0)
    assert Ruleset(["nomads", "crossroads"], ["zone_blocks_settlements_only"]).bits == (1 + 8, 32)
    assert Ruleset(["caves"], ["caves_are_plain_mountain", "lords_count_zero"]).bits == (4, 4 + 1)
    assert Ruleset.from_bits(1 + 2 + 4, 2 + 8) == Ruleset(["nomads", "capitol", "caves"],
                                                          ["capitol_replaces_castle", "nomad_spaces_not_special"])


@pytest.mark.parametrize("ruleset", [
    Ruleset(), Ruleset(rules=["lords_count_zero"]), Ruleset(["nomads", "capitol", "caves", "crossroads"],
                                                            ["nomad_tile_next_turn", "capitol_replaces_castle"])])
def test_json_round_trip(ruleset):
    text = ruleset.to_json()
    assert json.loads(text) == {"expansions": list(ruleset.expansions), "rules": list(ruleset.rules)}
    assert Ruleset.from_json(text) == ruleset
    assert Ruleset.from_dict(ruleset.to_dict()) == ruleset
    assert Ruleset.coerce(text) == Ruleset.coerce(ruleset.to_dict()) == Ruleset.coerce(ruleset) == ruleset


def test_compares_as_sets():
    base, nomads = Ruleset(), Ruleset(["nomads"])
    both = Ruleset(["nomads", "caves"], ["nomad_spaces_not_special"])
    assert base <= nomads <= both and base < both and both >= nomads and both > base
    assert not (both <= nomads)
    assert not (Ruleset(["caves"]) <= nomads) and not (nomads <= Ruleset(["caves"]))  # neither contains the other
    assert nomads | Ruleset(["caves"], ["caves_are_plain_mountain"]) == Ruleset(["caves", "nomads"],
                                                                                 ["caves_are_plain_mountain"])
    assert "nomads" in both and "nomad_spaces_not_special" in both and "caves_are_plain_mountain" not in both


@pytest.mark.parametrize("make, field", [
    (lambda: Ruleset(["atlantis"]), "expansions: unknown expansion 'atlantis'"),
    (lambda: Ruleset(7), "expansions: expected"),
    (lambda: Ruleset([], ["no_such_flag"]), "rules: unknown rule flag 'no_such_flag'"),
    (lambda: Ruleset([], {"capitol_replaces_castle": True}), "rules.capitol_replaces_castle: needs the 'capitol'"),
    (lambda: Ruleset([], {"lords_count_zero": "yes"}), "rules.lords_count_zero: expected true or false"),
    (lambda: Ruleset([], 3.5), "rules: expected"),
    (lambda: Ruleset.parse(lords_count_zero="yes"), "lords_count_zero: expected true or false"),
    (lambda: Ruleset.from_dict({"expansion": ["nomads"]}), "ruleset: unknown key(s) 'expansion'"),
    (lambda: Ruleset.from_json("{not json"), "ruleset: not JSON"),
    (lambda: Ruleset.coerce(12), "ruleset: expected"),
])
def test_errors_name_the_field(make, field):
    with pytest.raises(RulesetError) as err:
        make()
    assert str(err.value).startswith(field)
    assert isinstance(err.value, ValueError)


def test_lords_count_zero_is_a_flag_like_the_others():
    flag = Ruleset(rules=["lords_count_zero"])
    assert Ruleset.parse(lords_count_zero=True) == flag
    assert Ruleset.parse(lords_count_zero=np.bool_(True)) == flag
    assert Ruleset.parse(rules=["lords_count_zero"], lords_count_zero=True) == flag  # both ways: one flag
    assert Ruleset.parse(lords_count_zero=False) == Ruleset()
    # the key of older files (records, position options, configs)
    assert Ruleset.from_dict({"lords_count_zero": True}) == flag
    assert Ruleset.from_dict({"expansions": ["caves"], "lords_count_zero": True}) == Ruleset(["caves"], flag.rules)
    assert flag.bits == (0, 1)


def test_of_game_reads_the_state():
    from kbenv import Game

    game = Game.new(3, seed=2, expansions=["caves", "nomads"], rules={"nomad_spaces_not_special": True})
    assert Ruleset.of_game(game) == Ruleset(["nomads", "caves"], ["nomad_spaces_not_special"])
    assert Ruleset.of_game(Game.new(2, seed=2)) == Ruleset()
    assert Ruleset.of_game(Game.new(2, seed=2, lords_count_zero=True)) == Ruleset(rules=["lords_count_zero"])


def test_an_expansion_under_construction_is_refused_naming_the_field(an_expansion_under_construction):
    with pytest.raises(RulesetError, match="expansions: 'island' is not implemented yet"):
        Ruleset([an_expansion_under_construction])
