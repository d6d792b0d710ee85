"""The content catalogue: every table the engine uses is derived from its rows, and what the kernels
assume of the order of ids is what the rows say."""

from __future__ import annotations

from pathlib import Path

import kbenv.board.codes as codes
import kbenv.catalogue as CAT
from kbenv.engine import state as S
from kbenv.engine.powers import BUILD_POWER


def test_terrain_tables_come_from_the_rows():
    assert codes.TERRAIN_NAMES == tuple(t.name for t in CAT.TERRAINS)
    assert codes.TERRAIN_LETTERS == "GCDFTWMKNSAPO"  # the board characters of the kb-data grids
    assert codes.CARD_LETTERS == "GCDFT"
    # a terrain card is stored as its terrain's code
    for k, letter in enumerate(codes.CARD_LETTERS):
        assert codes.TERRAIN_LETTERS.index(letter) == k
    assert sum(t.cards for t in CAT.TERRAINS) == S.DECK_SIZE  # 5 cards of each of the 5 terrains


def test_named_constants_are_looked_up_by_name():
    assert codes.TERRAIN_NAMES[codes.FLOWER] == "flower field"
    assert codes.TERRAIN_NAMES[codes.CASTLE] == "castle"
    assert codes.TERRAIN_NAMES[codes.LOCATION] == "location"
    assert codes.LOCATION_NAMES[codes.TAVERN] == "tavern"
    assert codes.CARD_NAMES[codes.FARMERS] == "farmers"
    assert CAT.CARD_NAMES.index("ambassadors") == len(codes.CARD_NAMES) + 2


def test_location_rows():
    # appended, never reordered: the Marshlands types (decision 8 names) follow the Crossroads ones
    harvest = "ds\u00f0\u00e7\u00e6\u00f8\u00fe\u00df"  # issue 22: a-z are taken
    island = "\u00f1\u00fd"  # issue 23
    assert codes.LOCATION_LETTERS == "ofawtbhpcqvgemryknix" + "uzlj" + harvest + island
    assert CAT.LOCATION_NAMES[-22:-14] == ("foresters_lodge", "monastery", "fort", "city_hall", "barracks", "wagon",
                                           "lighthouse", "crossroads")
    assert CAT.LOCATION_NAMES[-14:-10] == ("canoe", "fountain", "temple", "refuge")
    assert CAT.LOCATION_NAMES[-2:] == ("rope_bridge", "tree_house")  # the Island (issue 23)
    assert CAT.LOCATION_NAMES[-10:-2] == ("bazaar", "water_mill", "mountain_station", "scout_cabin", "cathedral",
                                       "watchtower", "university", "palisade")  # Harvest (issue 22)
    assert CAT.LOCATION_ACTION["crossroads"] == -1  # passive: no decision of its own (C-7)
    assert CAT.BASE_POWERS == 8
    # "Relocate one of your previously built settlements" (Refuge, EN 1167)
    assert CAT.MOVE_LOCATIONS[:5] == ("barn", "harbor", "paddock", "caravan", "refuge")
    # "Move a settlement to a suitable terrain space connected to the same settlement area" (Palisade, EN 1361)
    assert CAT.MOVE_LOCATIONS[5:] == ("palisade", "rope_bridge", "tree_house")  # and the Island's (QI-3, QI-4)
    assert CAT.NOMAD_LOCATIONS == ("caravan", "quarry", "village", "garden")
    assert all(loc.tiles == 2 for loc in CAT.LOCATION_TYPES)


def test_build_powers_follow_the_rules_text():
    builds = {name for name, b in zip(CAT.POWER_NAMES, BUILD_POWER, strict=True) if b}
    # "build one settlement" powers (EN: oracle, farm, oasis, tower, tavern; village, garden; donations)
    assert builds == {"oracle", "farm", "oasis", "tower", "tavern", "village", "garden",
                      *(f"donation-{t}" for t in "GCDFTWM"),
                      "foresters_lodge", "monastery", "fort",  # "Build one settlement" (EN 820, 828, 836)
                      "canoe", "fountain",  # "Build one settlement" (EN 1105, 1131)
                      "canoe_bonus",  # "Build one settlement on an unoccupied swamp or water hex" (EN 1123)
                      # "Build one settlement" (EN 1317, 1323, 1349, 1355); the farm action (EN 1269)
                      "water_mill", "mountain_station", "watchtower", "university", "farmland",
                      # "return any number of tiles in order to build that same number of settlements" (EN 1343)
                      "cathedral"}


def test_nomad_tiles():
    assert sum(tile.count for tile in CAT.NOMAD_TILES) == 15  # EN 504
    assert CAT.NOMAD_USABLE_KINDS == CAT.NOMAD_KINDS[:-1] and CAT.NOMAD_KINDS[-1] == "treasure"


def test_scratch_slots_are_declared_and_each_one_is_used():
    assert len(set(S.SCRATCH_SLOTS)) == len(S.SCRATCH_SLOTS)
    assert S.SCRATCH_END == S.SCRATCH + len(S.SCRATCH_SLOTS) * 7  # the Harvest fields follow (issue 22)
    engine = Path(S.__file__).parent
    source = "".join(p.read_text() for p in engine.rglob("*.py") if p.name != "state.py")
    for slot in S.SCRATCH_SLOTS:
        assert f'scratch_off("{slot}")' in source, slot


def test_the_tables_in_the_api_docs_are_the_rows():
    doc = (Path(__file__).parents[1] / "docs" / "api.md").read_text()
    assert CAT.content_table() in doc
