"""Harvest set-up (H-1, H-2, H-3), the substitute sections (decision 5) and the cards (X-1).

Random set-ups go through ``Game.new(n, seed=s, expansions=["harvest"], cards=[...])`` and are read through
``g.setup.sections``, ``g.setup.cards``, ``g.board`` and the full-state position (``state``; HA4, HA14 of
``harvest_helpers``). No Harvest section layout is known (spec section 2); the shipped boards are substitutes named
``harvest-substitute-1`` .. ``-4`` (EXPANSIONS.md decision 5, issue 22).

Rule text quoted (the comments below name these):

COMPONENTS (EN 1231): "This expansion introduces a new terrain type found on all 4 game board sections that is
    suitable for being built upon: Farmland. In addition, all 4 sections contain a new terrain type that cannot be
    built upon: Silo. Finally, there are 8 new types of locations, two on each section."
TILES (EN 1233): "16 location tiles"
TILES_DE (DE 1405-1409): "2x Bazar 2x Wassermühle 2x Bergstation 2x Späherhütte ... 2x Dom 2x Wachtturm 2x
    Universität 2x Palisade"
SILO_EACH (EN 1279): "Each of the 4 new game board sections contains a silo."
POOL (EN 1257): "Shuffle the 4 new game board sections with the 8 game board sections of the basic game, then select
    any 4 of the 12 sections and assemble them into a rectangular game board."
H_2 (EN 1258): "If the cathedral is included in the game, put the number tiles next to the game board. If the scout
    cabin is included in the game, put the scout tiles next to the game board."
CARDS (EN 1259): "Shuffle the 6 new Kingdom Builder cards with those of the basic game, and then randomly draw 3
    cards. Place these cards face up next to the game board."
COMBINE (EN 1261): "Note: You may combine all Kingdom Builder expansions any way you want."
DECISION_5 (spec, Decisions taken 5): "the project also ships substitute sections, named as such everywhere (e.g.
    marsh-substitute-1), made by a documented seeded procedure that follows the printed component counts (the
    expansion's terrain, palace or silo hexes, two location hexes of each type per section)"
"""

from collections import Counter

import pytest

from tests.rules.harvest.helpers import (
    HARVEST_TYPES,
    NEW_CARDS,
    SUBSTITUTE_SECTIONS,
    new_game,
    requires_harvest,
    state,
    substitute_locations,
)
from tests.rules.positions import (
    BASE_SECTIONS,
    assert_the_new_cards_join_the_kingdom_builder_cards,
    assert_the_pool_has_the_base_and_the_substitute_sections,
    substitute_sections_dealt,
)

pytestmark = requires_harvest


MARSH_SUBSTITUTES = ["marsh-substitute-1", "marsh-substitute-2", "marsh-substitute-3", "marsh-substitute-4"]


def quadrant_cells(q):
    r0, c0 = (q // 2) * 10, (q % 2) * 10
    return [(r0 + r, c0 + c) for r in range(10) for c in range(10)]


def test_H1_the_pool_has_the_8_base_and_4_harvest_sections():
    # POOL: 4 of 12 sections; decision 5: the Harvest ones are the substitutes
    assert_the_pool_has_the_base_and_the_substitute_sections(new_game, SUBSTITUTE_SECTIONS)


@pytest.mark.parametrize("name", SUBSTITUTE_SECTIONS)
def test_decision5_each_substitute_has_farmland_a_silo_and_two_location_hexes(kx, name):
    # COMPONENTS / SILO_EACH: farmland, one silo, "two [locations] on each section"; TILES / TILES_DE: 16 tiles, 2 of
    # each of the 8 types, 2 per location hex -> one hex of each of two types per section
    rows = kx.load_section(name)
    letters = Counter("".join(rows))
    assert letters["A"] > 0 and letters["O"] == 1, letters
    locations = substitute_locations(name)
    assert len(locations) == 2, locations
    assert len(set(locations.values())) == 2 and set(locations.values()) <= set(HARVEST_TYPES), locations


def test_decision5_the_four_substitutes_hold_each_harvest_type_once():
    # TILES_DE "2x" of each type = one location hex of 2 tiles per type over the 4 sections
    types = Counter()
    for name in SUBSTITUTE_SECTIONS:
        types.update(substitute_locations(name).values())
    assert types == Counter({t: 1 for t in HARVEST_TYPES})


def test_decision5_random_boards_use_the_substitutes_with_two_tiles_per_location_hex():
    checked = 0
    for seed, g, tiles_left, q, name in substitute_sections_dealt(new_game, 60, SUBSTITUTE_SECTIONS):
        checked += 1
        cells = quadrant_cells(q)
        letters = Counter(g.board[r][c] for r, c in cells)
        assert letters["A"] > 0 and letters["O"] == 1, (seed, name, letters)
        assert sum(1 for h in cells if h in tiles_left) == 2, (seed, name)
    assert checked > 0


def test_H2_nobody_holds_number_tiles_or_scouts_at_the_start():
    # H_2: the number tiles and the scout tiles lie next to the board
    for seed in range(10):
        g = new_game(2 + seed % 4, seed)
        st = state(g)
        assert st.get("number_tiles", [0] * g.num_players) == [0] * g.num_players
        assert all(not s for s in st.get("scouts", [[]] * g.num_players))
        assert not st.get("mayor_lines")
        assert st.get("farmland_used", [False] * g.num_players) == [False] * g.num_players


def test_H3_the_six_new_cards_join_the_kingdom_builder_cards():
    # CARDS: 3 of the 16 (10 base + 6 Harvest), 3 distinct per game; each new card appears
    assert_the_new_cards_join_the_kingdom_builder_cards(new_game, NEW_CARDS)


def test_H4_no_terrain_card_shows_farmland():
    # publisher text (spec H-4): the terrain deck stays the 25 base cards, 5 of each of G C D F T
    for seed in range(10):
        g = new_game(2 + seed % 4, seed)
        st = state(g)
        cards = [c for c in st["hands"] if c is not None] + list(st["deck"]) + list(st.get("discard", []))
        assert Counter(cards) == Counter({t: 5 for t in "GCDFT"}), seed


def test_X1_with_marshlands_the_pool_has_16_sections():
    # COMBINE / X-1 "the random section pool is the union of the enabled expansions' sections"
    seen = set()
    for seed in range(150):
        g = new_game(2 + seed % 4, seed, expansions=("marshlands", "harvest"))
        seen.update(name for name, _ in g.setup.sections)
    assert seen == set(BASE_SECTIONS) | set(SUBSTITUTE_SECTIONS) | set(MARSH_SUBSTITUTES)
