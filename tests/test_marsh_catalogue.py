"""Marshlands rows of the catalogue (issue 21): data only, appended after the existing rows, nothing turned on.

EN = bigbox-2nd-edition-en.txt. Expected values come from the rule text and spec decision 8 (names).
"""

from __future__ import annotations

import pytest

import kbenv.catalogue as CAT
from kbenv import Game, SetupError
from kbenv.board.codes import LOCATION_LETTERS, PALACE, SWAMP, decode_hex_code


def test_swamp_is_buildable_with_marshlands_and_the_palace_is_special():
    # EN 984: "a new terrain type ... that is suitable for being built upon: swamp"; "the palace, which replaces
    # the castle spaces" (special, like a castle: nobody builds on it)
    swamp, palace = CAT.TERRAINS[SWAMP], CAT.TERRAINS[PALACE]
    assert (swamp.letter, swamp.buildable_with, swamp.special) == ("S", "marshlands", False)
    assert (palace.letter, palace.special, palace.buildable_with) == ("P", True, None)
    # `buildable` means buildable in every ruleset: swamp only with Marshlands (kbenv.engine.init adds it to the
    # buildable mask of Marshlands games); base, Nomads and Crossroads games are unchanged
    assert not swamp.buildable and not palace.buildable
    assert [t.name for t in CAT.TERRAINS if t.special] == ["castle", "nomad space", "palace", "silo", "location"]


def test_the_four_location_types_with_their_letters():
    # decision 8 names; EN 990-996: 4 tiles of each (2 per location hex)
    rows = {loc.name: loc for loc in CAT.LOCATION_TYPES if loc.expansion == "marshlands"}
    assert list(rows) == ["canoe", "fountain", "temple", "refuge"]
    assert {name: loc.letter for name, loc in rows.items()} == {"canoe": "u", "fountain": "z", "temple": "l",
                                                                "refuge": "j"}
    # "Build one settlement" (Canoe EN 1105, Fountain EN 1131), "Remove one of your own settlements" (EN 1148),
    # "Relocate one of your previously built settlements" (EN 1167)
    assert {name: loc.power for name, loc in rows.items()} == {"canoe": "build", "fountain": "build",
                                                               "temple": "remove", "refuge": "move"}
    assert all(loc.tiles == 2 for loc in rows.values())
    # letters are unique and distinct from the terrain letters; a board character decodes to its type
    assert len(set(LOCATION_LETTERS)) == len(LOCATION_LETTERS)
    assert decode_hex_code("l")[1] == CAT.LOCATION_NAMES.index("temple")


def test_the_action_layouts_do_not_move():
    # v0 is a prefix of v1 and the v1 ids were reserved for these powers before they had rows
    assert CAT.ACTION_SIZE_V0 == 409 and CAT.END_TURN == 408
    assert [CAT.LOCATION_ACTION[n] for n in ("canoe", "fountain", "temple", "refuge")] == [
        CAT.ACTION_ID[n] for n in ("canoe", "fountain", "temple", "refuge")]
    assert CAT.ACTION_NAMES[400:409] == (*CAT.LOCATION_NAMES[:8], "end_turn")
    assert CAT.ACTION_ID["canoe"] == 420 and CAT.ACTION_ID["done"] == 457
    # the Island's 20 hexes follow done (issue 23): 458..477
    assert CAT.ISLAND_ACTION_BASE == 458 and CAT.ACTION_SIZE_V1 == 458 + 20


def test_the_six_cards_are_appended_unverified_with_their_amounts():
    names = ["geologists", "messengers", "noblewomen", "vassals", "captains", "scouts"]
    # card ids 13..18 (spec R5: 0-9 base, 10-12 Nomads, 13-18 Marshlands)
    assert [CAT.CARD_ID[n] for n in names] == list(range(13, 19))
    rows = [card for card in CAT.SCORING_CARDS if card.expansion == "marshlands"]
    assert [card.name for card in rows] == names
    assert all(card.provenance.startswith("unverified: ") and card.scored == "end" for card in rows)
    assert [card.gold for card in rows] == [2, 2, 5, 1, 1, 1]  # A-M11, kb-data cards.md section 4
    # base and Nomads cards keep their ids and carry no configurable amount
    # (Harvest's six, issue 22, are appended after them: ids 19..24)
    assert CAT.CARD_NAMES[:19] == CAT.BASE_CARD_NAMES + CAT.RED_CARDS + tuple(names) and len(CAT.CARD_NAMES) == 25
    assert all(card.provenance == "rulebook" and card.gold is None for card in CAT.SCORING_CARDS[:13])


def test_the_cards_are_dealt_and_accepted_only_with_marshlands():
    # M-3 (EN 1060): the six cards join the Kingdom Builder cards of Marshlands games, and only those
    marsh = next(e for e in CAT.EXPANSIONS if e.name == "marshlands")
    assert marsh.implemented and CAT.parse_expansions(["marshlands"]) == CAT.MARSHLANDS
    with pytest.raises(SetupError, match="cards: 'geologists' is a Marshlands card; it needs the 'marshlands'"):
        Game.custom(board=["G" * 20] * 20, num_players=2, cards=["geologists", "knights", "lords"],
                    settlements=[[], []], hands=["G", "G"])
    for seed in range(30):  # random set-ups without Marshlands never deal one
        assert not set(Game.new(2, seed=seed, expansions=["nomads"]).setup.cards) & set(CAT.CARD_GOLD)


def test_swamp_cards_make_a_deck_of_30():
    # EN 1039-1051: swamp/grass, swamp/canyon, swamp/desert, swamp/flower field, swamp/forest; M-4: deck of 30
    assert CAT.SWAMP_CARD_NAMES == ("S/G", "S/C", "S/D", "S/F", "S/T")
    assert all(card.copies == 1 and card.expansion == "marshlands" for card in CAT.SWAMP_CARDS)
    assert CAT.MARSHLANDS_DECK_SIZE == 30
    assert CAT.PALACE_GOLD == 5  # EN 1083
