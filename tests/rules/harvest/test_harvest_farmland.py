"""Harvest farmland and the farm action (H-4, A-H1, X-4).

Boards are mountain-filled (conftest). Player 0's card is forest with ``MAND_T`` = (18, 0) (18, 1) (18, 2) (no
forest touches its settlements, so the mandatory action may start on any of the three); player 1 holds canyon with
``OPP_C`` = (16, 0) (16, 1) (16, 2). Neighbours (odd-r, docs/api.md), worked out by hand and checked with a
throw-away script:

* (10, 10) touches (9, 9) (9, 10) (10, 9) (10, 11) (11, 9) (11, 10);
* (10, 14) touches (9, 13) (9, 14) (10, 13) (10, 15) (11, 13) (11, 14);
* (10, 11) touches (9, 10) (9, 11) (10, 10) (10, 12) (11, 10) (11, 11).

Rule text quoted (the comments below name these):

FARMLAND (EN 1269): "Each of the 4 new game board sections contains the new terrain type farmland, which is suitable
    to be built upon. Once per game round each player may perform one farm action by building a settlement on an
    adjacent farmland space. If there are more than one farmland spaces adjacent to a player's settlements, they may
    freely decide on which of these spaces they build their settlement upon. If no farmland spaces are adjacent to a
    player's settlements, they cannot perform the farm action. The farm action can be performed at any time before
    or after their mandatory action."
FARMLAND_NOTE (EN 1271): "Note: Settlements may be moved onto such a space by paddocks or may be built thereupon by
    taverns or towers."
FARMLAND_NOTE_DE (DE 1474): "Hinweis: Siedlungen können durch Koppeln auf dieses bewegt oder durch Tavernen und
    andere darauf gebaut werden."
FARMLAND_EXAMPLE (EN 1275): "Example: The orange player uses his farm action and builds a settlement on farmland. He
    now can build his 3 settlements of the mandatory action in a way that he connects to the palisade location."
A_H1 (spec A-H1): "The target must touch OWN[p] (scouts included during the turn; no fallback). Once per turn: 'once
    per game round' = once per own turn. Not in the middle of the mandatory action. Bazaar cannot repeat it. It is
    not an extra action of a tile: no fresh/used tile state, only a per-turn flag."
"""

from tests.rules.harvest.helpers import FARM, farmland_used, hpos, requires_harvest

pytestmark = requires_harvest


S1 = (10, 10)
S2 = (10, 14)
F1 = (10, 11)       # touches S1
F2 = (11, 14)       # touches S2
F_NEXT = (10, 12)   # touches F1 only (not S1, not S2)
F_FAR = (5, 5)      # touches nothing own
GRASS_2 = [(2, 0), (2, 1), (2, 2)]


def farm_position(kx, then=None, **kwargs):
    cells = {**kx.MAND_T, S1: "G", S2: "G", F1: "A", F2: "A", F_NEXT: "A", F_FAR: "A",
             **{h: "G" for h in GRASS_2}}
    return hpos(kx, cells, settlements=[[S1, S2], []], card="T", deck=["G", "C"], then=then, **kwargs)


def test_H4_farm_action_builds_on_farmland_touching_own(kx):
    # FARMLAND "building a settlement on an adjacent farmland space" / "they may freely decide": F1 and F2 touch own;
    # F_NEXT and F_FAR do not (A_H1: no fallback)
    pos = farm_position(kx)
    assert kx.legal(pos) == kx.MAND_T_HEXES | {FARM}
    out = kx.answer(kx.with_then(pos, [FARM]))
    assert out["player"] == 0 and out["phase"] == "choose_target"
    assert out["legal"] == {F1, F2}
    g = kx.game(kx.with_then(pos, [FARM, F1]))
    assert kx.settlements(g, 0) == {S1, S2, F1}
    assert g.supply(0) == 40 - 2 - 1                    # built from the supply: 37
    assert farmland_used(g, 0) is True


def test_H4_the_other_adjacent_farmland_may_be_chosen(kx):
    g = kx.game(farm_position(kx, then=[FARM, F2]))
    assert kx.settlements(g, 0) == {S1, S2, F2}


def test_H4_A_H1_illegal_farm_targets_are_refused(kx):
    # not touching own (no fallback), a grass hex touching own, occupied, mountain next to own
    for target in [F_NEXT, F_FAR, (2, 0), S1, (9, 10)]:
        kx.then_error(farm_position(kx, then=[FARM, target]), 1)


def test_H4_no_adjacent_farmland_no_farm_action(kx):
    # FARMLAND "If no farmland spaces are adjacent to a player's settlements, they cannot perform the farm action."
    cells = {**kx.MAND_T, (7, 7): "G", F1: "A", F_FAR: "A"}
    pos = hpos(kx, cells, settlements=[[(7, 7)], []], card="T")
    assert kx.legal(pos) == kx.MAND_T_HEXES
    kx.then_error(kx.with_then(pos, [FARM]), 0)


def test_H4_before_or_after_the_mandatory_action_never_inside_it(kx):
    # FARMLAND "at any time before or after their mandatory action" / A_H1 "Not in the middle of the mandatory action"
    pos = farm_position(kx)
    assert kx.legal(kx.with_then(pos, [(18, 0)])) == {(18, 1)}          # inside: only the next mandatory hex
    kx.then_error(kx.with_then(pos, [(18, 0), FARM]), 1)
    after = kx.with_then(pos, kx.MAND_T_BUILDS)
    assert kx.legal(after) == {FARM, "end_turn"}
    assert kx.legal(kx.with_then(pos, kx.MAND_T_BUILDS + [FARM])) == {F1, F2}
    # before: the farm build first, then the whole mandatory action
    before = kx.with_then(pos, [FARM, F1])
    assert kx.legal(before) == kx.MAND_T_HEXES
    g = kx.game(kx.with_then(pos, [FARM, F1] + kx.MAND_T_BUILDS))
    assert kx.settlements(g, 0) == {S1, S2, F1, *kx.MAND_T_HEXES}


def test_A_H1_once_per_turn(kx):
    # FARMLAND "Once per game round ... one farm action": after F1, F_NEXT touches own (F1) and F2 is still free, but
    # no second farm action is offered this turn; the turn ends by itself after the mandatory action
    pos = farm_position(kx, then=[FARM, F1])
    assert kx.legal(pos) == kx.MAND_T_HEXES
    kx.then_error(kx.with_then(pos, [FARM, F1, FARM]), 2)
    out = kx.answer(kx.with_then(pos, [FARM, F1] + kx.MAND_T_BUILDS))
    assert out["player"] == 1


def test_A_H1_the_farm_action_comes_back_next_turn(kx):
    # A_H1 "only a per-turn flag": player 0's next turn (grass card: GRASS_2 touches nothing own -> any of the 3)
    turn1 = [FARM, F1] + kx.MAND_T_BUILDS + sorted(kx.OPP_C_HEXES)
    pos = farm_position(kx, then=turn1)
    out = kx.answer(pos)
    assert out["player"] == 0
    assert out["legal"] == set(GRASS_2) | {FARM}
    g = kx.game(pos)
    assert farmland_used(g, 0) is False
    # F1 now touches F_NEXT: it is offered with F2
    assert kx.legal(kx.with_then(pos, turn1 + [FARM])) == {F2, F_NEXT}


def test_A_H1_farmland_used_position_key(kx):
    # decision 8 "farmland_used (per player: the farm action already taken this turn)"
    pos = farm_position(kx, farmland_used=[True, False])
    assert kx.legal(pos) == kx.MAND_T_HEXES
    g = kx.game(farm_position(kx))
    assert farmland_used(g, 0) is False


def test_H4_no_terrain_card_shows_farmland(kx):
    # FARMLAND_EXAMPLE: the mandatory action is played on the card's terrain; farmland is built only by the farm
    # action and the powers of FARMLAND_NOTE. A farmland hex touching own is never a mandatory hex.
    pos = farm_position(kx)
    assert not ({F1, F2, F_NEXT, F_FAR} & kx.hexes(kx.legal(pos)))


# --------------------------------------------------------------------------- EN 1271: tower, tavern, paddock


def test_H4_en1271_tower_builds_on_farmland(kx):
    # FARMLAND_NOTE "built thereupon by ... towers" / X-4 "The base Tower text ... grows to include swamp and farmland".
    # Own (1, 1) holds the tower tile of (2, 2). Edge hexes: (0, 1) farmland touches (1, 1); (5, 0) grass and the
    # MAND_T hex (18, 0) (column 0) do not. Adjacent if possible -> only (0, 1).
    cells = {**kx.MAND_T, (1, 1): "G", (0, 1): "A", (5, 0): "G"}
    pos = hpos(kx, cells, settlements=[[(1, 1)], []], card="T", locations={(2, 2): "tower"}, tiles=[[(2, 2)], []])
    assert kx.legal(pos) == kx.MAND_T_HEXES | {"tower", FARM}
    assert kx.legal(kx.with_then(pos, ["tower"])) == {(0, 1)}
    assert (0, 1) in kx.settlements(kx.game(kx.with_then(pos, ["tower", (0, 1)])), 0)


def test_H4_en1271_tavern_builds_on_farmland(kx):
    # FARMLAND_NOTE "built thereupon by taverns": the line (10, 10) (10, 11) (10, 12) ends at (10, 9) (mountain) and
    # (10, 13) (farmland); the tavern hex (9, 10) touches (10, 10) and (10, 11).
    cells = {**kx.MAND_T, (10, 10): "G", (10, 11): "G", (10, 12): "G", (10, 13): "A"}
    pos = hpos(kx, cells, settlements=[[(10, 10), (10, 11), (10, 12)], []], card="T",
               locations={(9, 10): "tavern"}, tiles=[[(9, 10)], []])
    assert kx.legal(pos) == kx.MAND_T_HEXES | {"tavern", FARM}
    assert kx.legal(kx.with_then(pos, ["tavern"])) == {(10, 13)}


def test_H4_en1271_paddock_moves_onto_farmland(kx):
    # FARMLAND_NOTE "moved onto such a space by paddocks": from (10, 10) two hexes in a straight line are (8, 9)
    # (8, 11) (10, 8) (10, 12) (12, 9) (12, 11); only (10, 12) is buildable (farmland). The paddock hex (9, 10)
    # touches (10, 10). (10, 12) does not touch (10, 10): no farm action before the move.
    cells = {**kx.MAND_T, (10, 10): "G", (10, 12): "A"}
    pos = hpos(kx, cells, settlements=[[(10, 10)], []], card="T", locations={(9, 10): "paddock"},
               tiles=[[(9, 10)], []])
    assert kx.legal(pos) == kx.MAND_T_HEXES | {"paddock"}
    assert kx.legal(kx.with_then(pos, ["paddock"])) == {(10, 10)}
    assert kx.legal(kx.with_then(pos, ["paddock", (10, 10)])) == {(10, 12)}
    g = kx.game(kx.with_then(pos, ["paddock", (10, 10), (10, 12)]))
    assert kx.settlements(g, 0) == {(10, 12)}


def test_X4_settlements_may_stand_on_farmland_not_on_a_silo(kx):
    # farmland is buildable; a silo "cannot be built upon" (EN 1231)
    cells = {**kx.MAND_T, (10, 10): "A", (12, 12): "O"}
    pos = hpos(kx, cells, settlements=[[(10, 10)], []], card="T")
    assert kx.settlements(kx.game(pos), 0) == {(10, 10)}
    kx.setup_error(hpos(kx, cells, settlements=[[(12, 12)], []], card="T"), "settlements[0]")
