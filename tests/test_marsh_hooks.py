"""The Marshlands tables that generic code reads instead of naming the powers (issue 21, a power's footprint):
the counters of the Temple, the reaction power, the rule codes handed to kbenv.engine.marshlands.hooks, the power
texts in the catalogue rows. Expected values come from decision 8 (names) and the stored layout."""

from __future__ import annotations

from kbenv import catalogue as CAT
from kbenv import position_state as PS
from kbenv import words
from kbenv.engine import observe_v1 as O
from kbenv.engine import state as S
from kbenv.engine.marshlands import hooks as H


def test_the_temple_counters_keep_their_names_and_state_fields():
    # decision 8: `temple_reserve` (per player, a position key) and `temple_owed` (a key of the decision)
    assert [(c.name, c.per_player) for c in CAT.COUNTERS] == [("temple_reserve", True), ("temple_owed", False)]
    # the reserve has one field per seat, the owed count one, right after it; both before the bonus tiles
    assert S.COUNTER_AT["temple_owed"] == S.COUNTER_AT["temple_reserve"] + S.MAX_PLAYERS
    assert S.BONUS_HELD == S.COUNTER_AT["temple_owed"] + 1
    assert (S.TEMPLE_RESERVE, S.TEMPLE_OWED) == (S.COUNTER_AT["temple_reserve"], S.COUNTER_AT["temple_owed"])


def test_the_decision_keeps_temple_owed_between_turn_terrain_and_frames():
    fields = PS.DECISION_FIELDS
    assert fields[fields.index("turn_terrain") + 1] == "temple_owed"
    assert fields[-1] == "frames"


def test_counter_features_sit_where_the_v1_layout_put_them():
    sizes = {name: size for name, size, _ in O.V1_FEATURES}
    assert (sizes["temple_reserve"], sizes["temple_owed"]) == (5, 1)  # per seat relative to self; the owner's
    assert O.F1["temple_owed"] == O.F1["temple_reserve"] + 5
    assert list(O.COUNTER_FEATURE) == [O.F1["temple_reserve"], O.F1["temple_owed"]]


def test_the_reaction_power_is_the_canoe():
    # M-8: the Canoe is used in other players' turns; its v1 feature is named after it
    assert CAT.REACTION_POWERS == ("canoe",) and CAT.REACTION_POWER == CAT.POWER_CODE["canoe"]
    assert CAT.MARSH_V1_FEATURES[0][:2] == ("canoe", 2)


def test_marsh_power_slots_keep_their_order():
    # the v1 "marsh_power" feature: fountain, temple, refuge, canoe_bonus, refuge_bonus (observation v1 order)
    assert O.MARSH_POWER_NAMES == ("fountain", "temple", "refuge", "canoe_bonus", "refuge_bonus")


def test_only_marshlands_rule_codes_go_to_the_hook():
    handed = {CAT.POWER_RULES[r] for r, own in enumerate(H.OWN_RULE) if own}
    assert handed == {"fountain", "temple", "ray", "canoe"}  # "step" is shared with the Resettlement


def test_every_location_type_has_its_text_and_each_marshlands_type_a_bonus_text():
    assert set(words.LOCATION_TEXT) == set(CAT.LOCATION_NAMES)
    assert all(text for text in words.LOCATION_TEXT.values())
    assert set(words.BONUS_TILE_TEXT) == {"canoe", "fountain", "temple", "refuge"}
    assert words.LOCATION_TEXT["farm"] == "build one settlement on grass, next to your own if possible"
