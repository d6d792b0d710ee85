"""The Barracks section (Crossroads) against the first-edition Big Box rulebook's picture (kbenv issue 19).

The picture shows all 100 hexes of Barracks and agrees with the shipped grid, in the shipped orientation
(row 0 at the top, odd rows shifted right), on every hex but (1,5) and (1,6): the picture has forest
there, the torgoton/kbc transcription had grass. Section coordinates are (row, col), as in kb-data.
"""

from __future__ import annotations

from collections import Counter

from kbenv.board.sections import assemble, load_section
from kbenv.catalogue import SECTIONS

FOREST, GRASS = "T", "G"


def test_barracks_row_1_has_forest_at_columns_5_and_6():
    rows = load_section("barracks")
    assert rows[1][5] == FOREST and rows[1][6] == FOREST
    # the rest of row 1 as transcribed: G G T T W . . C G G
    assert rows[1] == "GGTTWTTCGG"


def test_barracks_terrain_counts_after_the_correction():
    # kb-data counts G=20 T=13 for the transcription; two grass hexes become forest
    counts = Counter("".join(load_section("barracks")))
    assert counts[GRASS] == 18 and counts[FOREST] == 15
    assert sum(counts.values()) == 100


def test_the_corrected_hexes_on_an_assembled_board():
    # top right, not turned: (1, 5) -> board (1, 15); bottom left, turned: (r, c) -> (19 - r, 9 - c) = (18, 4)
    board = assemble([("tavern", False), ("barracks", False), ("barracks", True), ("oasis", False)])
    assert board[1][15] == FOREST and board[1][16] == FOREST
    assert board[18][4] == FOREST and board[18][3] == FOREST


def test_barracks_provenance_records_the_check():
    (barracks,) = [sec for sec in SECTIONS if sec.name == "barracks"]
    assert not barracks.provenance.startswith("UNVERIFIED")
    assert "rulebook" in barracks.provenance and "all 100 hexes" in barracks.provenance
    for sec in SECTIONS:
        if sec.name in ("city_hall", "lighthouse", "monastery"):
            assert sec.provenance.startswith("UNVERIFIED") and "about half" in sec.provenance
