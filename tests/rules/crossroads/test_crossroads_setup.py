"""Crossroads set-up (C-1, C-2, C-3, A-C4) through ``Game.new(num_players, seed=s, expansions=["crossroads"])``.

The expected boards are the kb-data grids (``../shared/kb-data/sections``): the base and Nomads sections
through ``kx.load_section`` (kbenv/data/sections), the four Crossroads sections copied below with their
location hexes written as the contract's letters (foresters_lodge e, monastery m, fort r, city_hall y,
barracks k, wagon n, lighthouse i, crossroads x). A turned section maps (r, c) to (9 - r, 9 - c).

Accessors used (brief for the Crossroads engine): ``g.setup.sections``, ``g.board`` (20 strings with the
location letters), ``g.tasks()`` (tuple of task names, one per Crossroads section in play),
``g.pieces(p)`` ({"warriors": [hexes], "wagon": hex or None, "ship": hex or None, "city_hall": hex or None},
the pieces on the board), ``g.tiles_left(hex)``, ``g.supply(p)``, ``g.scores()`` (rows with "tasks").

Rule text quoted (the comments below name these):

POOL (EN 800): "Mix the 4 new game board sections with the 8 game board sections of the basic game and/or any
    expansion game board sections; then select any 4 sections and assemble them into a rectangular game board."
SUMMARY (EN 801): "If the game board contains one or more sections from this expansion, place the appropriate two
    location tile summary cards next to these sections."
TASK_DEAL (EN 802): "Shuffle the task cards, then draw one card at random for each game board section from this
    expansion. Place these cards next to the 3 Kingdom Builder cards."
TASK_NOTE (EN 804): "Thus, 0 - 4 task cards will be in a game, depending on the number of new sections that are part
    of the game board."
PIECES (EN 806): "Give each player 1 wagon, 1 ship, 2 warriors, and 1 city hall tile in his player color."
TILES (EN 732-760): "16 location tiles - Each location allows a new extra action. 2x lighthouse 2x forester's lodge
    2x barracks 2x crossroads 2x city hall 2x fort 2x monastery 2x wagon"
SECTIONS (EN 724): "4 game board sections - Each section includes two different location spaces and one castle
    space"
DECISION_4 (spec, Decisions taken 4): "Crossroads sections. They ship, enabled whenever Crossroads is enabled, with
    their provenance (single unverified source) recorded."
A_C4 (spec A-C4): "The pieces are given at set-up, so they do not touch the 40-settlement supply or the end
    trigger."
"""

from collections import Counter

import pytest

TASK_NAMES = {"home_country", "fortress", "road", "place_of_refuge", "advance", "compass_points"}
CROSSROADS_SECTIONS = ["barracks", "city_hall", "lighthouse", "monastery"]

# kb-data grids (torgoton/kbc, unverified, A-C11) with the location letters of the contract; Barracks (1,5) and
# (1,6) are forest, not kb-data's grass, as the first-edition Big Box rulebook's picture shows (issue 19)
CROSSROADS_GRIDS = {
    "barracks": (
        "GGTTWWTTGG",
        "GGTTWTTCGG",
        "GFFTTTTCCG",
        "FFFkDTTCCC",
        "FFFFFDTxMC",
        "FFFDDMCCCC",
        "FFFMDDDCCC",
        "FFDDKDDCMC",
        "GGDDDWWDGG",
        "GGDWWWDDGG",
    ),
    "city_hall": (
        "TTTTWWDDDD",
        "TTFFFGGDDD",
        "MMTFFyGMCD",
        "TTMMGGGCCM",
        "TTKFGMMCCC",
        "TTTFMMCCMC",
        "MMTFFFrCCC",
        "FFFMGGDWCM",
        "FFWGGGDDDD",
        "FGGGGGGDDD",
    ),
    "lighthouse": (
        "TTTTWWFFFF",
        "TTTTWDFFFF",
        "CTTTTWDKDM",
        "CCeTWDDDDW",
        "CCCCWWWWWW",
        "WWWWWWDDDW",
        "FFFFWGiDDD",
        "FMGWGGGGMC",
        "FGGWGGGCMC",
        "GGGWWWCCCC",
    ),
    "monastery": (
        "MDDDMWMGGG",
        "DDDMWFFFGG",
        "DDDDWFFmGW",
        "MCDDWFFGWW",
        "MCCDDWFWWW",
        "MCCGGWWCCC",
        "CCCKGTTTCC",
        "CFGGGTTTCM",
        "FFFGTTTTnM",
        "FFTTTTMMMM",
    ),
}
# section cell -> location type (kb-data headers); castles: barracks (7, 4), city_hall (4, 2), lighthouse (2, 7),
# monastery (6, 3)
CROSSROADS_LOCATIONS = {
    "barracks": {(3, 3): "barracks", (4, 7): "crossroads"},
    "city_hall": {(2, 5): "city_hall", (6, 6): "fort"},
    "lighthouse": {(3, 2): "foresters_lodge", (6, 6): "lighthouse"},
    "monastery": {(2, 7): "monastery", (8, 8): "wagon"},
}
CROSSROADS_CASTLES = {"barracks": (7, 4), "city_hall": (4, 2), "lighthouse": (2, 7), "monastery": (6, 3)}

SEEDS = range(240)


def sections_of(g):
    return [(name, bool(turned)) for name, turned in g.setup.sections]


def section_rows(kx, name):
    return CROSSROADS_GRIDS[name] if name in CROSSROADS_GRIDS else kx.load_section(name)


def expected_board(kx, sections):
    grid = [[None] * 20 for _ in range(20)]
    for q, (name, turned) in enumerate(sections):
        rows = section_rows(kx, name)
        r0, c0 = (q // 2) * 10, (q % 2) * 10
        for r in range(10):
            for c in range(10):
                sr, sc = (9 - r, 9 - c) if turned else (r, c)
                grid[r0 + r][c0 + c] = rows[sr][sc]
    return ["".join(row) for row in grid]


def crossroads_location_hexes(sections):
    """{board hex: location type} of the Crossroads sections in ``sections``."""
    out = {}
    for q, (name, turned) in enumerate(sections):
        for (r, c), kind in CROSSROADS_LOCATIONS.get(name, {}).items():
            sr, sc = (9 - r, 9 - c) if turned else (r, c)
            out[((q // 2) * 10 + sr, (q % 2) * 10 + sc)] = kind
    return out


def tasks_of(g):
    tasks = tuple(g.tasks())
    assert all(isinstance(t, str) for t in tasks), tasks
    return tasks


def norm_pieces(g, p):
    out = g.pieces(p)
    assert set(out) == {"warriors", "wagon", "ship", "city_hall"}, out

    def one(h):
        return None if h is None else tuple(h)

    return {"warriors": sorted(tuple(h) for h in out["warriors"]), "wagon": one(out["wagon"]),
            "ship": one(out["ship"]), "city_hall": one(out["city_hall"])}


@pytest.fixture(scope="module")
def games():
    from kbenv import Game

    return [(seed, Game.new(2 + seed % 4, seed=seed, expansions=["crossroads"])) for seed in SEEDS]


# --------------------------------------------------------------------------- C-1 section pool


def test_C1_random_pool_has_base_and_crossroads_sections(kx, games):
    # POOL / DECISION_4: with Crossroads on, 4 of the 12 sections (8 base + 4 Crossroads)
    seen = Counter()
    for seed, g in games:
        names = [name for name, _ in sections_of(g)]
        assert len(set(names)) == 4, (seed, names)
        assert set(names) <= set(kx.BASE_SECTIONS) | set(CROSSROADS_SECTIONS), (seed, names)
        seen.update(names)
    assert set(seen) == set(kx.BASE_SECTIONS) | set(CROSSROADS_SECTIONS)
    # each section is in about 1/3 of the games (4 of 12): 80 of 240 expected
    assert all(40 <= k <= 125 for k in seen.values()), seen


def test_C1_pool_with_nomads_and_crossroads_has_16_sections(kx):
    # X-1: the pool is the union of the enabled expansions' sections
    from kbenv import Game

    seen = Counter()
    for seed in range(240):
        g = Game.new(2 + seed % 4, seed=seed, expansions=["nomads", "crossroads"])
        names = [name for name, _ in sections_of(g)]
        assert len(set(names)) == 4
        seen.update(names)
    assert set(seen) == set(kx.BASE_SECTIONS) | set(kx.NOMADS_SECTIONS) | set(CROSSROADS_SECTIONS)
    # 4 of 16: 60 of 240 expected
    assert all(25 <= k <= 100 for k in seen.values()), seen


def test_C1_crossroads_sections_only_with_crossroads(kx):
    from kbenv import Game

    for seed in range(120):
        g = Game.new(2 + seed % 4, seed=seed, expansions=["nomads"])
        assert not {name for name, _ in sections_of(g)} & set(CROSSROADS_SECTIONS), seed


def test_C1_board_letters_and_two_tiles_per_crossroads_location(kx, games):
    # SECTIONS / TILES: each Crossroads section has two location hexes of different types and a castle;
    # 16 tiles = 2 per type = 2 on each location hex (one hex of each type per section)
    with_crossroads = 0
    for seed, g in games:
        sections = sections_of(g)
        assert list(g.board) == expected_board(kx, sections), (seed, sections)
        locations = crossroads_location_hexes(sections)
        for h in locations:
            assert g.tiles_left(h) == 2, (seed, h)
        if locations:
            with_crossroads += 1
    assert with_crossroads > 150


def test_C1_explicit_layout_with_all_four_crossroads_sections(kx):
    from kbenv import Game

    sections = [("barracks", False), ("city_hall", True), ("lighthouse", False), ("monastery", True)]
    g = Game.new(3, seed=5, sections=sections, expansions=["crossroads"])
    assert list(g.board) == expected_board(kx, sections)
    locations = crossroads_location_hexes(sections)
    assert sorted(locations.values()) == sorted(["barracks", "crossroads", "city_hall", "fort", "foresters_lodge",
                                                 "lighthouse", "monastery", "wagon"])
    # city_hall turned (TR): city hall (2, 5) -> (7, 4) -> board (7, 14); fort (6, 6) -> (3, 3) -> (3, 13)
    assert locations[(7, 14)] == "city_hall" and locations[(3, 13)] == "fort"
    # monastery turned (BR): wagon (8, 8) -> (1, 1) -> board (11, 11)
    assert locations[(11, 11)] == "wagon" and g.board[11][11] == "n"
    assert g.board[3][3] == "k" and g.board[4][7] == "x"
    assert all(g.tiles_left(h) == 2 for h in locations)
    # castles: barracks (7, 4); city_hall (4, 2) turned -> (5, 7) -> (5, 17); lighthouse (2, 7) -> (12, 7);
    # monastery (6, 3) turned -> (3, 6) -> (13, 16)
    assert all(g.board[r][c] == "K" for r, c in [(7, 4), (5, 17), (12, 7), (13, 16)])
    assert len(tasks_of(g)) == 4


# --------------------------------------------------------------------------- C-2 task cards


def test_C2_one_task_card_per_crossroads_section(games):
    # TASK_DEAL / TASK_NOTE: 0-4 task cards, drawn without replacement from the 6
    counts = Counter()
    seen = Counter()
    for seed, g in games:
        k = sum(name in CROSSROADS_SECTIONS for name, _ in sections_of(g))
        tasks = tasks_of(g)
        assert len(tasks) == k, (seed, sections_of(g), tasks)
        assert len(set(tasks)) == len(tasks), (seed, tasks)
        assert set(tasks) <= TASK_NAMES, (seed, tasks)
        counts[k] += 1
        seen.update(tasks)
    assert counts[0] > 0 and counts[1] > 0 and counts[2] > 0          # games without a task card exist
    assert set(seen) == TASK_NAMES
    # each task is dealt about equally often
    assert max(seen.values()) <= 3 * min(seen.values()), seen


@pytest.mark.parametrize("sections,n_tasks", [
    ([("barracks", False), ("tavern", False), ("oasis", True), ("farm", False)], 1),
    ([("barracks", False), ("city_hall", False), ("oasis", True), ("farm", False)], 2),
    ([("tavern", False), ("paddock", False), ("oasis", True), ("farm", False)], 0),
], ids=["one", "two", "none"])
def test_C2_task_count_follows_the_explicit_layout(sections, n_tasks):
    from kbenv import Game

    for seed in range(12):
        tasks = tasks_of(Game.new(2, seed=seed, sections=sections, expansions=["crossroads"]))
        assert len(tasks) == n_tasks and len(set(tasks)) == n_tasks and set(tasks) <= TASK_NAMES


def test_C2_score_rows_carry_the_tasks_in_play(games):
    # every row has a "tasks" column {name: gold}; at the start nobody meets a task; total includes it
    for seed, g in games[:60]:
        tasks = set(tasks_of(g))
        for row in g.scores():
            assert set(row["tasks"]) == tasks, (seed, row)
            assert all(v == 0 for v in row["tasks"].values()), (seed, row)
            assert row["total"] == (sum(row["cards"].values()) + row["castles"] + row["capitols"] + row["gold"]
                                    + sum(row["tasks"].values()))


def test_C1_C2_seeded_determinism(games):
    from kbenv import Game

    distinct = set()
    for seed, g in games[:40]:
        again = Game.new(2 + seed % 4, seed=seed, expansions=["crossroads"])
        assert sections_of(again) == sections_of(g)
        assert list(again.board) == list(g.board)
        assert tasks_of(again) == tasks_of(g)
        distinct.add((tuple(sections_of(g)), tasks_of(g)))
    assert len(distinct) > 30


# --------------------------------------------------------------------------- C-3 / A-C4 pieces


def test_C3_each_player_starts_with_all_pieces_in_supply(games):
    # PIECES / A_C4: nothing of the pieces is on the board; the 40 settlements are untouched
    for seed, g in games[:60]:
        for p in range(g.num_players):
            assert norm_pieces(g, p) == {"warriors": [], "wagon": None, "ship": None, "city_hall": None}, seed
            assert g.supply(p) == 40, (seed, p)


def test_C3_positions_default_to_pieces_in_supply(kx):
    # a position without "warriors"/"wagons"/"ships"/"city_halls" has every piece in supply
    pos = kx.position({(18, 0): "G", (18, 1): "G", (18, 2): "G"}, settlements=[[], []], card="G",
                      expansions=["crossroads"])
    g = kx.game(pos)
    for p in range(2):
        assert norm_pieces(g, p) == {"warriors": [], "wagon": None, "ship": None, "city_hall": None}
        assert g.supply(p) == 40
