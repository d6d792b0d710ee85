"""Harvest: scouts count as settlements during their owner's turn (H-9, A-H4 amended).

Written from the rule text only (the engine in kbenv/engine/ was not read). EN 1331 says the scouts "count as
settlements during the player's turn"; the note after it (EN 1333) takes them out of the gold of Mayors, Rovers,
Ambassadors, Families and Shepherds. So in their owner's turn scouts count for every rule that counts or joins the
player's settlements: the Fountain's "next to exactly one of your own settlements" (Marshlands), the Village's
"adjacent to at least 3 of your settlements" (Nomads), the Palisade's "same settlement area" and the Tavern's "line of
at least 3 of your own settlements". They leave the board at the end of that turn (EN 1331), so they count for nobody
in the other players' turns.

Boards are mountain-filled; player 0's card is forest with ``MAND_T`` = (18, 0) (18, 1) (18, 2) far away (nothing of
forest touches its pieces, so the mandatory action may start on any of the three); player 1 holds canyon with
``OPP_C`` = (16, 0) (16, 1) (16, 2). Scouts are placed with the Scout cabin in the turn (decisions ``scout_cabin``, a
hex, a second hex or ``done``: HA7). Odd-r neighbours (docs/api.md) worked out by hand:

* (10, 10) touches (10, 9) (10, 11) (9, 9) (9, 10) (11, 9) (11, 10);
* (9, 10) touches (8, 10) (8, 11) (9, 9) (9, 11) (10, 10) (10, 11);
* (9, 11) touches (8, 11) (8, 12) (9, 10) (9, 12) (10, 11) (10, 12);
* (10, 11) touches (10, 10) (10, 12) (9, 10) (9, 11) (11, 10) (11, 11);
* (11, 10) touches (10, 10) (10, 11) (11, 9) (11, 11) (12, 10) (12, 11);
* (11, 9) touches (10, 9) (10, 10) (11, 8) (11, 10) (12, 9) (12, 10);
* (10, 12) touches (10, 11) (10, 13) (9, 11) (9, 12) (11, 11) (11, 12).

Rule text quoted (the comments below name these):

SCOUT_CABIN (EN 1329), SCOUTS_COUNT (EN 1331), SCOUTS_NOTE (EN 1333): quoted in
    tests/rules/harvest/test_harvest_scout_cabin.py.
SCOUTS_DE (DE 1523-1528): "Sie zählen während des Zuges als Siedlungen, an denen angrenzend gebaut werden darf. ...
    Am Ende eines jeden Zuges werden sie wieder vom Spielplan entfernt und können vom nächsten Spieler mit der
    Späherhütte genutzt werden."
SCOUTS_NOTE_DE (DE 1530-1532): "Hinweis: Die Späher bringen keine Punkte für folgende Kingdom Builder-Karten:
    Bürgermeister & Vagabund aus Erweiterung 4 und Botschafter, Familien & Hirten aus Erweiterung 1."
FOUNTAIN (EN 1131): "Build one settlement next to exactly one of your own settlements and next to none of any
    opponent's settlements on any unoccupied hex suitable to be built upon."
VILLAGE (EN 706): "Build one additional settlement on an empty space eligible for building that is adjacent to at
    least 3 of your settlements."
PALISADE (EN 1361): "Move a settlement to a suitable terrain space connected to the same settlement area."
TAVERN (EN 417): "Build one settlement at one end of a line of at least 3 of your own settlements. The orientation
    of the line does not matter (horizontally or diagonally). The chosen hex must be suitable for building."
MAYORS (EN 1375): "If a player builds a settlement or moves one of their settlements in such a way that at least
    four of their settlements are arranged in a horizontal line, they mark this by placing a settlement from their
    supply next to that line outside of the game board."
SHEPHERDS (EN 634): "2 gold for each of your settlements not adjacent to an empty terrain space of the same kind on
    which this settlement was just built."
"""

import pytest

from tests.rules.harvest.helpers import DONE, game_hscores, hpos, mayor_lines, requires_harvest, scouts_on_board

pytestmark = requires_harvest


S = (10, 10)
SCOUT_HEX = (9, 10)  # a mountain touching S


# --------------------------------------------------------------------------- Fountain (Marshlands)


def fountain_position(kx, then=None):
    """S = (10, 10) holds the fountain tile of (10, 9) and the scout-cabin tile of (11, 9). Free grass: (10, 11)
    touches S (and the scout hex (9, 10)); (9, 11) touches only the scout hex; (11, 10) touches only S."""
    cells = {**kx.MAND_T, S: "G", (10, 11): "G", (9, 11): "G", (11, 10): "G"}
    return hpos(
        kx,
        cells,
        settlements=[[S], []],
        card="T",
        locations={(10, 9): "fountain", (11, 9): "scout_cabin"},
        tiles=[[(10, 9), (11, 9)], []],
        expansions=("harvest", "marshlands"),
        then=then,
    )


def test_H9_A_H4_the_fountain_counts_scouts_as_own_settlements(kx):
    # FOUNTAIN "next to exactly one of your own settlements" + SCOUTS_COUNT: without a scout the targets are the
    # hexes touching S alone: (10, 11) and (11, 10). With the scout on (9, 10), (10, 11) touches two own
    # "settlements" (S and the scout) and is out; (9, 11) touches exactly one (the scout) and is in.
    pos = fountain_position(kx)
    assert kx.legal(pos) == kx.MAND_T_HEXES | {"fountain", "scout_cabin"}
    assert kx.legal(kx.with_then(pos, ["fountain"])) == {(10, 11), (11, 10)}
    placed = ["scout_cabin", SCOUT_HEX, DONE]
    assert kx.legal(kx.with_then(pos, placed)) == kx.MAND_T_HEXES | {"fountain"}
    assert kx.legal(kx.with_then(pos, placed + ["fountain"])) == {(9, 11), (11, 10)}
    kx.then_error(fountain_position(kx, then=placed + ["fountain", (10, 11)]), 4)
    g = kx.game(kx.with_then(pos, placed + ["fountain", (9, 11)]))
    assert kx.settlements(g, 0) == {S, (9, 11)}
    assert scouts_on_board(g, 0) == {SCOUT_HEX}


def test_H9_A_H4_scouts_are_gone_in_the_next_players_turn(kx):
    # SCOUTS_COUNT / SCOUTS_DE "removed from the game board at the end of the player's turn": player 0's scout on
    # the grass (10, 11) would be an opponent's settlement next to (10, 12) for player 1's fountain; once player 0's
    # turn is over it is gone, so (10, 12) (touching player 1's (10, 13) and the empty (10, 11)) is player 1's only
    # fountain target. The freed (10, 11) touches player 0's S and is no target.
    p1 = (10, 13)  # touches (10, 12) (10, 14) (9, 12) (9, 13) (11, 12) (11, 13); (9, 13) the fountain hex
    cells = {**kx.MAND_T, S: "G", (10, 11): "G", (10, 12): "G", p1: "G"}
    pos = hpos(
        kx,
        cells,
        settlements=[[S], [p1]],
        card="T",
        locations={(11, 9): "scout_cabin", (9, 13): "fountain"},
        tiles=[[(11, 9)], [(9, 13)]],
        expansions=("harvest", "marshlands"),
    )
    turn = ["scout_cabin", (10, 11), DONE] + kx.MAND_T_BUILDS
    out = kx.answer(kx.with_then(pos, turn))
    assert out["player"] == 1 and out["legal"] == kx.OPP_C_HEXES | {"fountain"}
    assert scouts_on_board(kx.game(kx.with_then(pos, turn)), 0) == set()
    assert kx.legal(kx.with_then(pos, turn + ["fountain"])) == {(10, 12)}


# --------------------------------------------------------------------------- Village (Nomads)


def test_H9_A_H4_the_village_counts_scouts(kx):
    # VILLAGE "adjacent to at least 3 of your settlements" + SCOUTS_COUNT: (10, 11) touches own (10, 10) and
    # (10, 12): 2, the village has no target. The scout on the mountain (9, 11) (touching (10, 12)) is a third:
    # the village builds on (10, 11). Village hex (11, 12) touches (10, 12); scout-cabin hex (11, 10) touches (10, 10).
    own = [(10, 10), (10, 12)]
    cells = {**kx.MAND_T, (10, 10): "G", (10, 12): "G", (10, 11): "G"}
    pos = hpos(
        kx,
        cells,
        settlements=[own, []],
        card="T",
        locations={(11, 12): "village", (11, 10): "scout_cabin"},
        tiles=[[(11, 12), (11, 10)], []],
        expansions=("harvest", "nomads"),
    )
    assert kx.legal(pos) == kx.MAND_T_HEXES | {"scout_cabin"}
    placed = ["scout_cabin", (9, 11), DONE]
    assert kx.legal(kx.with_then(pos, placed)) == kx.MAND_T_HEXES | {"village"}
    assert kx.legal(kx.with_then(pos, placed + ["village"])) == {(10, 11)}
    g = kx.game(kx.with_then(pos, placed + ["village", (10, 11)]))
    assert kx.settlements(g, 0) == {*own, (10, 11)}
    assert g.supply(0) == 40 - 3


# --------------------------------------------------------------------------- Palisade


def test_H9_A_H4_a_scout_belongs_to_the_palisades_settlement_area(kx):
    # PALISADE "connected to the same settlement area" + SCOUTS_COUNT: S alone is a lone settlement, which the
    # Palisade cannot move (A-H6 a: nothing remains of its area). With the scout on (9, 10) the area is {S, scout}:
    # lifting S leaves the scout, so the targets are the free grass touching it, (9, 11) and (10, 11); (11, 10)
    # touches only the lifted S, the far (5, 5) nothing. The scout itself is no source (SCOUTS_COUNT "cannot be
    # relocated"). Palisade hex (10, 9) and scout-cabin hex (11, 9) touch S.
    cells = {**kx.MAND_T, S: "G", (9, 11): "G", (10, 11): "G", (11, 10): "G", (5, 5): "G"}
    pos = hpos(
        kx,
        cells,
        settlements=[[S], []],
        card="T",
        locations={(10, 9): "palisade", (11, 9): "scout_cabin"},
        tiles=[[(10, 9), (11, 9)], []],
    )
    assert kx.legal(pos) == kx.MAND_T_HEXES | {"scout_cabin"}
    placed = ["scout_cabin", SCOUT_HEX, DONE]
    assert kx.legal(kx.with_then(pos, placed)) == kx.MAND_T_HEXES | {"palisade"}
    out = kx.answer(kx.with_then(pos, placed + ["palisade"]))
    assert out["phase"] == "choose_source" and out["legal"] == {S}
    out = kx.answer(kx.with_then(pos, placed + ["palisade", S]))
    assert out["phase"] == "choose_target" and out["legal"] == {(9, 11), (10, 11)}
    g = kx.game(kx.with_then(pos, placed + ["palisade", S, (9, 11)]))
    assert kx.settlements(g, 0) == {(9, 11)} and g.supply(0) == 39


# --------------------------------------------------------------------------- Tavern

TAVERN_CASES = {
    # own settlements, scouts (placed in this order), grass cells besides the own ones, the Tavern's targets
    "scout-at-the-end": ([(10, 10), (10, 11)], [(10, 12)], [(10, 13)], {(10, 13)}),
    "scout-in-the-middle": ([(10, 10), (10, 12)], [(10, 11)], [(10, 9), (10, 13)], {(10, 9), (10, 13)}),
    "two-scouts": ([(10, 10)], [(10, 11), (10, 12)], [(10, 13)], {(10, 13)}),
}


@pytest.mark.parametrize("case", list(TAVERN_CASES))
def test_H9_A_H4_tavern_lines_count_scouts(kx, case):
    # TAVERN "a line of at least 3 of your own settlements" + SCOUTS_COUNT: row 10 holds own settlements and scouts
    # (on mountains) making a line of 3; its free grass ends are the targets (a mountain end is not suitable).
    # Without the scouts no line of 3 exists and the Tavern is not offered. Tavern hex (9, 10) and scout-cabin hex
    # (11, 9) touch (10, 10).
    own, scouts, grass, targets = TAVERN_CASES[case]
    cells = {**kx.MAND_T, **{h: "G" for h in own + grass}}
    pos = hpos(
        kx,
        cells,
        settlements=[own, []],
        card="T",
        locations={(9, 10): "tavern", (11, 9): "scout_cabin"},
        tiles=[[(9, 10), (11, 9)], []],
    )
    assert "tavern" not in kx.legal(pos)
    placed = ["scout_cabin", *scouts] + ([DONE] if len(scouts) == 1 else [])
    assert "tavern" in kx.legal(kx.with_then(pos, placed))
    assert kx.legal(kx.with_then(pos, placed + ["tavern"])) == targets
    target = sorted(targets)[-1]
    g = kx.game(kx.with_then(pos, placed + ["tavern", target]))
    assert kx.settlements(g, 0) == {*own, target}


# --------------------------------------------------------------------------- the cards of SCOUTS_NOTE


def test_H9_mayors_do_not_count_scouts(kx):
    # MAYORS + SCOUTS_NOTE "Mayor": row 10 ends the turn with the settlements (10, 13) (10, 14) and the mandatory
    # (10, 15), plus the scouts (10, 12) and (10, 11) (mountains; the second touches the first): 3 settlements + 2
    # scouts, so no mark. Forest (10, 15) touches (10, 14); (11, 15) touches (10, 15); (11, 16) touches (11, 15): the
    # mandatory action is forced along them (adjacent if possible). Scout-cabin hex (9, 13) touches (10, 13) (10, 14).
    # The same turn with a settlement on (10, 12) instead of the scouts marks row 10 (4 settlements).
    forest = {(10, 15): "T", (11, 15): "T", (11, 16): "T"}
    builds = [(10, 15), (11, 15), (11, 16)]
    cards = ["mayors", "fishermen", "knights"]
    cells = {**kx.MAND_T, **forest, (10, 13): "G", (10, 14): "G"}
    pos = hpos(
        kx,
        cells,
        settlements=[[(10, 13), (10, 14)], []],
        card="T",
        cards=cards,
        locations={(9, 13): "scout_cabin"},
        tiles=[[(9, 13)], []],
    )
    placed = ["scout_cabin", (10, 12), (10, 11)]
    assert kx.legal(kx.with_then(pos, placed)) == {(10, 15)}
    g = kx.game(kx.with_then(pos, placed + builds))
    assert g.current_player == 1
    assert mayor_lines(g) == {}
    assert game_hscores(g)[0]["cards"]["mayors"] == 0
    control = hpos(
        kx,
        {**cells, (10, 12): "G"},
        settlements=[[(10, 12), (10, 13), (10, 14)], []],
        card="T",
        cards=cards,
        then=builds,
    )
    g = kx.game(control)
    assert mayor_lines(g) == {10: 0}
    assert game_hscores(g)[0]["cards"]["mayors"] == 4


def test_H9_shepherds_do_not_count_scouts(kx):
    # SHEPHERDS + SCOUTS_NOTE "Shepherds": a scout on the grass (10, 11), whose neighbours hold no empty grass, earns
    # nothing; the last mandatory build (18, 2) (its forest neighbour (18, 1) is built, the rest mountains) earns 2,
    # (18, 0) and (18, 1) nothing (each has an empty forest neighbour when built): 2 gold for the turn, not 4.
    cells = {**kx.MAND_T, S: "G", (10, 11): "G"}
    pos = hpos(
        kx,
        cells,
        settlements=[[S], []],
        card="T",
        cards=["shepherds", "fishermen", "knights"],
        locations={(11, 9): "scout_cabin"},
        tiles=[[(11, 9)], []],
        expansions=("harvest", "nomads"),
    )
    placed = ["scout_cabin", (10, 11), DONE]
    g = kx.game(kx.with_then(pos, placed))
    assert scouts_on_board(g, 0) == {(10, 11)}
    assert game_hscores(g)[0]["gold"] == 0
    g = kx.game(kx.with_then(pos, placed + kx.MAND_T_BUILDS))
    assert g.current_player == 1
    assert game_hscores(g)[0]["gold"] == 2
