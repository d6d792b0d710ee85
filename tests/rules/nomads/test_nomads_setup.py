"""Nomads set-up (N-1..N-3) through ``Game.new(num_players, seed=s, expansions=["nomads"])``.

The expected nomad spaces and location hexes of a set-up are read from the section files in
kbenv/data/sections (the kb-data grids), assembled with the kb-data rule: section cell (r, c) goes to
(r + 10 b, c + 10 k), and a turned section maps (r, c) to (9 - r, 9 - c) first.

Rule text quoted (the comments below name these):

POOL (EN 528): "Shuffle the 4 new game board sections with the 8 sections from the basic game, then select any 4 of
    the 12 sections and assemble them into a rectangular game board."
DEAL (EN 529): "Place the 15 nomad tiles on the table picture side up, shuffle them, then randomly draw and place 1
    tile for each nomad space on the game board, now with the pictogram side up."
TILES (EN 504): "15 nomad tiles ... 7x donation 2x resettlement 2x outpost 2x sword 2x treasure"
CARDS (EN 530): "Shuffle the 3 new Kingdom Builder cards with the 10 cards from the basic game, then randomly draw 3
    cards and place them face-up next to the game board."
LOCATION_TILES (EN 498): "14 location tiles ... 2x quarry 4x caravan 4x village 4x garden"
"""

from collections import Counter

import pytest

SEEDS = range(240)
NOMADS_LOCATION_CODES = {"c": "caravan", "q": "quarry", "v": "village", "g": "garden"}


@pytest.fixture(scope="module")
def games():
    from kbenv import Game

    return [(seed, Game.new(2 + seed % 4, seed=seed, expansions=["nomads"])) for seed in SEEDS]


def sections_of(g):
    return [(name, bool(turned)) for name, turned in g.setup.sections]


def test_N1_random_pool_has_12_sections(kx, games):
    seen = Counter()
    for seed, g in games:
        names = [name for name, _ in sections_of(g)]
        assert len(set(names)) == 4, (seed, names)
        assert set(names) <= set(kx.BASE_SECTIONS) | set(kx.NOMADS_SECTIONS), (seed, names)
        seen.update(names)
    assert set(seen) == set(kx.BASE_SECTIONS) | set(kx.NOMADS_SECTIONS)
    # each section is in about 1/3 of the games (4 of 12): 80 of 240 expected
    assert all(40 <= k <= 125 for k in seen.values()), seen


def test_N1_base_games_keep_the_base_pool(kx):
    from kbenv import Game

    for seed in range(120):
        g = Game.new(2 + seed % 4, seed=seed)
        assert {name for name, _ in g.setup.sections} <= set(kx.BASE_SECTIONS)
        assert set(g.cards) <= set(kx.BASE_CARDS)


def test_N2_one_nomad_tile_per_nomad_space(kx, games):
    kinds_seen = Counter()
    with_quarry = 0
    for seed, g in games:
        grid = kx.assemble(sections_of(g))
        expected = {(r, c) for r in range(20) for c in range(20) if grid[r][c] == "N"}
        spaces = {tuple(h): kind for h, kind in g.nomad_spaces().items()}
        assert set(spaces) == expected, (seed, sections_of(g))
        assert all(kind in kx.NOMAD_TILE_MULTISET for kind in spaces.values()), (seed, spaces)
        dealt = Counter(spaces.values())
        assert all(dealt[k] <= kx.NOMAD_TILE_MULTISET[k] for k in dealt), (seed, dealt)   # drawn from the 15
        kinds_seen.update(dealt)
        if any(name == "quarry" for name, _ in sections_of(g)):
            with_quarry += 1
            assert len(spaces) >= 3
        # LOCATION_TILES: 2 tiles on every Nomads location hex
        for r in range(20):
            for c in range(20):
                if grid[r][c] in NOMADS_LOCATION_CODES:
                    assert g.tiles_left((r, c)) == 2, (seed, (r, c))
    assert with_quarry > 0
    assert set(kinds_seen) == set(kx.NOMAD_TILE_MULTISET)
    # proportions follow the multiset: a sword (2 of 15) is dealt about twice as often as one donation (1 of 15)
    donations = sum(kinds_seen[f"donation-{t}"] for t in "GCDFTWM") / 7
    assert 1.3 <= (kinds_seen["sword"] + kinds_seen["outpost"]) / 2 / donations <= 3.0, kinds_seen


def test_N2_quarry_layout_deals_three_tiles(kx):
    from kbenv import Game

    sections = [("quarry", False), ("tavern", False), ("oasis", True), ("farm", False)]
    for seed in range(20):
        g = Game.new(3, seed=seed, sections=sections, expansions=["nomads"])
        spaces = {tuple(h): kind for h, kind in g.nomad_spaces().items()}
        assert set(spaces) == {(5, 2), (5, 7), (7, 5)}             # kb-data quarry.txt
        assert all(kind in kx.NOMAD_TILE_MULTISET for kind in spaces.values())
        assert g.tiles_left((2, 4)) == 2                            # the quarry hex


def test_N2_no_nomad_spaces_without_nomads_sections(kx, games):
    for seed, g in games:
        if not any(name in kx.NOMADS_SECTIONS for name, _ in sections_of(g)):
            assert g.nomad_spaces() == {}, seed


def test_N3_thirteen_card_deck(kx, games):
    seen = Counter()
    for seed, g in games:
        cards = list(g.cards)
        assert len(cards) == 3 and len(set(cards)) == 3, (seed, cards)
        assert set(cards) <= set(kx.BASE_CARDS) | set(kx.RED_CARDS), (seed, cards)
        seen.update(cards)
    assert set(seen) == set(kx.BASE_CARDS) | set(kx.RED_CARDS)


def test_N1_N2_N3_seeded_determinism(kx, games):
    from kbenv import Game

    distinct = set()
    for seed, g in games[:40]:
        again = Game.new(2 + seed % 4, seed=seed, expansions=["nomads"])
        assert sections_of(again) == sections_of(g)
        assert list(again.cards) == list(g.cards)
        assert again.nomad_spaces() == g.nomad_spaces()
        assert again.start_player == g.start_player
        distinct.add((tuple(sections_of(g)), tuple(g.cards), tuple(sorted(g.nomad_spaces().items()))))
    assert len(distinct) > 30
