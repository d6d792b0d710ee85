"""Marshlands Temple and Temple bonus (M-12, M-13, A-M6, A-M7).

Player 0's temple tile comes from the temple hex ``TH`` = (10, 10) through its settlement ``T1`` = (10, 11)
(held since before this turn). Player 1 holds canyon with ``OPP_C`` = (16, 0) (16, 1) (16, 2) (and, where a
test needs a second turn, (16, 3) (16, 4) (16, 5)). Multi-turn tests give an explicit deck: player 0 draws the
first card at the end of its turn, player 1 the second.

The temple reserve and the supply are read from the game's full-state position (``reserve``, ``state`` in
``marshlands_helpers``; A5 and A14 there).

Rule text quoted (the comments below name these):

TEMPLE (EN 1148): "Remove one of your own settlements from the game board; you must build this settlement during the
    mandatory action on your next turn in addition to your other required builds."
TEMPLE_TERRAIN (EN 1150): "Note: This settlement must be built on the terrain type indicated on the card you play
    next turn."
TEMPLE_REMINDER (EN 1152): "Note: Place the removed settlement on the temple tile as a reminder that you must build
    it next turn."
TEMPLE_BONUS (EN 1158): "During each of your turns, you may build the first settlement of your mandatory action in a
    hex not adjacent to one of your previously built settlements."
EXAMPLE_1161 (EN 1161): "Example: Because of his 2 temple location tiles, Frank (orange) has 2 more settlements to
    build during his mandatory action. Thanks to his temple bonus, he builds the first settlement next to the
    fountain location hex to take that last tile. He must build his 4 other settlements adjacent to his previously
    built settlements."
A_M6 (spec A-M6): "The removed settlement goes to TEMPLE_RESERVE[p], not to the supply. Next turn the mandatory
    count = (3 or 2 swamp) + reserve. The reserve settlements are built first from the reserve, then the rest from
    the supply (R). All building rules apply, on the turn's terrain. Settlements set aside stay owed even if the
    temple tile is lost (TG, D). Game end: ENDING triggers when supply = 0 and reserve = 0 after a build [amended:
    GAME_END wins; this is the flag temple_reserve_delays_end]. Tile loss applies when the removal orphans a tile."
A_M7 (spec A-M7): "Temple bonus. This is a passive modifier on the first mandatory build of each turn (no
    activation; 'may'). It gives the Outpost effect (ignore adjacency) on the card terrain."
GAME_END (EN 298): "The game ends when one player has built the last settlement from their personal supply. However,
    the current game round is still completed"
GAME_END_DE (DE 312): "Das Spiel endet, sobald ein Spieler die letzte Siedlung aus seinem Vorrat gebaut hat."
"""

from tests.rules.marshlands.helpers import flag, mpos, reserve, state, with_options

TH = (10, 10)
T1 = (10, 11)
X = (5, 5)
FOREST = {(18, 0): "T", (18, 1): "T", (18, 2): "T"}
DESERT_ROW = [(14, 0), (14, 1), (14, 2), (14, 3)]
OPP_C2 = {(16, 3): "C", (16, 4): "C", (16, 5): "C"}  # player 1's second turn (the module docstring)


def temple_position(kx, then=None, **kwargs):
    """Player 0: forest card, settlements T1 (temple tile) and X; next card desert (4 desert hexes in row 14).
    Player 1 has canyon for two turns (OPP_C, then OPP_C2)."""
    cells = {**FOREST, T1: "G", X: "G", **{h: "D" for h in DESERT_ROW}, **OPP_C2}
    return mpos(kx, cells, settlements=[[T1, X], []], card="T", locations={TH: "temple"}, tiles=[[TH], []],
                deck=["D", "C"], then=then, **kwargs)


def test_M12_temple_removes_an_own_settlement_into_the_reserve(kx):
    # TEMPLE / TEMPLE_REMINDER / A_M6 "goes to TEMPLE_RESERVE, not to the supply"
    pos = temple_position(kx)
    assert kx.legal(pos) == kx.MAND_T_HEXES | {"temple"}
    out = kx.answer(kx.with_then(pos, ["temple"]))
    assert out["phase"] == "choose_source" and out["legal"] == {T1, X}
    g = kx.game(kx.with_then(pos, ["temple", X]))
    assert kx.settlements(g, 0) == {T1}
    assert reserve(g, 0) == 1
    assert g.supply(0) == 40 - 2                                    # unchanged: the reserve is not the supply
    assert kx.legal(kx.with_then(pos, ["temple", X])) == kx.MAND_T_HEXES   # the tile is used for this turn


def test_M12_next_turn_builds_one_more_on_the_next_card_terrain(kx):
    # TEMPLE "in addition to your other required builds" / TEMPLE_TERRAIN: next card desert -> 3 + 1 = 4 desert
    # builds. No desert touches own, so the first goes anywhere, then along row 14.
    turn1 = ["temple", X] + kx.MAND_T_BUILDS
    pos = temple_position(kx, then=turn1)
    out = kx.answer(pos)
    assert out["player"] == 1                                       # temple used, mandatory done: turn over
    turn2 = turn1 + sorted(kx.OPP_C_HEXES)
    out = kx.answer(kx.with_then(pos, turn2))
    assert out["player"] == 0 and out["legal"] == set(DESERT_ROW) | {"temple"}
    g = kx.game(kx.with_then(pos, turn2))
    assert reserve(g, 0) == 1 and g.supply(0) == 40 - 2 - 3        # 35
    # A_M6 "built first from the reserve": after the first build the reserve is empty, the supply unchanged
    g = kx.game(kx.with_then(pos, turn2 + [(14, 0)]))
    assert reserve(g, 0) == 0 and g.supply(0) == 35
    out = kx.answer(kx.with_then(pos, turn2 + DESERT_ROW[:3]))
    assert out["phase"] == "mandatory" and out["legal"] == {(14, 3)}   # the 4th build is still owed
    out = kx.answer(kx.with_then(pos, turn2 + DESERT_ROW))
    assert out["player"] == 0 and out["legal"] == {"temple", "end_turn"}
    g = kx.game(kx.with_then(pos, turn2 + DESERT_ROW))
    # conservation: board 1 + 3 + 4 = 8, supply 35 - 3 = 32, reserve 0 -> 40
    assert len(kx.settlements(g, 0)) == 8 and g.supply(0) == 32 and reserve(g, 0) == 0


def test_M12_the_reserve_is_owed_after_the_tile_is_lost(kx):
    # A_M6 "stay owed even if the temple tile is lost" / "Tile loss applies when the removal orphans a tile":
    # removing T1 (the only settlement next to TH) loses the temple tile; next turn 4 builds are still owed.
    turn1 = ["temple", T1] + kx.MAND_T_BUILDS
    pos = temple_position(kx)
    g = kx.game(kx.with_then(pos, ["temple", T1]))
    assert kx.tiles(g, 0) == [] and reserve(g, 0) == 1
    turn2 = turn1 + sorted(kx.OPP_C_HEXES)
    out = kx.answer(kx.with_then(pos, turn2))
    assert out["player"] == 0 and out["legal"] == set(DESERT_ROW)   # no temple any more
    assert kx.answer(kx.with_then(pos, turn2 + DESERT_ROW[:3]))["legal"] == {(14, 3)}
    assert kx.answer(kx.with_then(pos, turn2 + DESERT_ROW))["player"] == 1


def test_M12_temple_takes_only_own_settlements(kx):
    cells = {**FOREST, T1: "G", X: "G", (7, 7): "G"}
    pos = mpos(kx, cells, settlements=[[T1, X], [(7, 7)]], card="T", locations={TH: "temple"}, tiles=[[TH], []],
               then=["temple", (7, 7)])
    kx.then_error(pos, 1)


TURN_1 = ["temple", X, (18, 0), (18, 1)]


def reserve_end_position(kx, options=None):
    """Player 0 has 2 settlements in the supply. TURN_1: temple X (reserve 1), then 2 forest builds empty the
    supply (the mandatory action ends there: nothing left to build)."""
    cells = {**FOREST, T1: "G", X: "G", (16, 3): "C", (16, 4): "C", (16, 5): "C"}
    pos = mpos(kx, cells, settlements=[[T1, X], []], card="T", locations={TH: "temple"}, tiles=[[TH], []],
               supply=[2, 37], deck=["T", "C"], start_player=0)
    return with_options(pos, options) if options else pos


def test_A_M6_the_last_settlement_from_the_supply_ends_the_game_with_a_reserve_set_aside(kx):
    # GAME_END / GAME_END_DE: the supply is empty after TURN_1; the reserve stands on the temple tile, not in the
    # supply (TEMPLE_REMINDER), so the end triggers at once: player 1 completes the round and the game is over
    # before the reserve is built.
    pos = reserve_end_position(kx)
    g = kx.game(kx.with_then(pos, TURN_1))
    assert g.supply(0) == 0 and reserve(g, 0) == 1
    assert state(g)["ending"] is True
    assert kx.answer(kx.with_then(pos, TURN_1))["player"] == 1
    assert kx.game(kx.with_then(pos, [*TURN_1, (16, 0), (16, 1), (16, 2)])).done


def test_A_M6_flag_the_reserve_delays_the_end_of_the_game(kx):
    # the secondary-source reading (flag temple_reserve_delays_end): ENDING when supply = 0 and reserve = 0 after a
    # build. Turn 2 (forest): the reserve settlement is built on (18, 2) -> supply 0, reserve 0 -> ending; the round
    # is finished by player 1 and the game is over.
    pos = reserve_end_position(kx, flag("A-M6-end"))
    assert kx.answer(kx.with_then(pos, TURN_1))["player"] == 1
    g = kx.game(kx.with_then(pos, TURN_1))
    assert g.supply(0) == 0 and reserve(g, 0) == 1
    assert state(g)["ending"] is False
    turn2 = TURN_1 + [(16, 0), (16, 1), (16, 2)]
    out = kx.answer(kx.with_then(pos, turn2))
    assert out["player"] == 0 and out["legal"] == {(18, 2), "temple"}
    g = kx.game(kx.with_then(pos, turn2 + [(18, 2)]))
    assert reserve(g, 0) == 0 and g.supply(0) == 0
    assert state(g)["ending"] is True
    g = kx.game(kx.with_then(pos, turn2 + [(18, 2), "end_turn", (16, 3), (16, 4), (16, 5)]))
    assert g.done


def test_A_M6_a_position_without_supply_counts_the_reserve_set_aside(kx):
    # 40 settlements in all: with 2 on the board and 1 set aside (TEMPLE) the supply left out of a position is 37,
    # not 38 (38 + 2 + 1 would be 41, and the file was refused)
    cells = {**FOREST, T1: "G", X: "G"}
    pos = mpos(kx, cells, settlements=[[T1, X], []], card="T", locations={TH: "temple"}, tiles=[[TH], []],
               temple_reserve=[1, 0])
    g = kx.game(pos)
    assert g.supply(0) == 37 and reserve(g, 0) == 1 and g.supply(1) == 40


# --------------------------------------------------------------------------- M-13 temple bonus (EN 1161)

TH2 = (4, 4)
T2 = (4, 5)
GRASS_ROW = [(10, 12), (10, 13), (10, 14), (10, 15), (10, 16)]
FH = (15, 15)       # a fountain hex with its last tile; (15, 16) touches it
FG = (15, 16)


def example_1161(kx, bonus=True, then=None):
    """Player 0 owes 2 settlements (reserve 2) and holds grass. Grass row east of T1: (10, 12) .. (10, 16); the far
    grass FG = (15, 16) touches the fountain hex FH with 1 tile left; a far desert (12, 12) (not the card)."""
    cells = {T1: "G", **{h: "G" for h in GRASS_ROW}, FG: "G", (12, 12): "D"}
    locations = {TH: "temple", FH: "fountain"}
    own, tiles = [T1], [TH]
    if bonus:
        cells[T2] = "G"
        locations[TH2] = "temple"
        own.append(T2)
        tiles.append(TH2)
    supply = 40 - len(own) - 2
    return mpos(kx, cells, settlements=[own, []], card="G", locations=locations, tiles=[tiles, []],
                tiles_left={FH: 1}, bonus_tiles=[["temple"] if bonus else [], []], temple_reserve=[2, 0],
                supply=[supply, 40], then=then)


def test_M13_en1161_first_build_anywhere_then_adjacent(kx):
    # EXAMPLE_1161 / TEMPLE_BONUS / A_M7: 3 + 2 = 5 grass builds; the first may go to any free grass hex (adjacent
    # ones stay legal: "may"), never to another terrain; the other 4 adjacent to own settlements.
    pos = example_1161(kx)
    out = kx.answer(pos)
    assert out["player"] == 0 and out["phase"] == "idle"
    assert out["legal"] == set(GRASS_ROW) | {FG, "temple"}
    g = kx.game(kx.with_then(pos, [FG]))
    assert ("fountain", FH) in kx.tiles(g, 0) and g.tiles_left(FH) == 0      # "to take that last tile"
    assert reserve(g, 0) == 1 and g.supply(0) == 36                         # built from the reserve first
    # FG touches FH, (15, 17), (14, 16), (14, 17), (16, 16), (16, 17): no grass; so (10, 12) (next to T1) only
    out = kx.answer(kx.with_then(pos, [FG]))
    assert out["phase"] == "mandatory" and out["legal"] == {(10, 12)}
    kx.then_error(example_1161(kx, then=[FG, (10, 16)]), 1)                 # not adjacent: refused
    builds = [FG, (10, 12), (10, 13), (10, 14), (10, 15)]
    assert kx.legal(kx.with_then(pos, builds[:4])) == {(10, 15)}            # the 5th is still owed
    out = kx.answer(kx.with_then(pos, builds))
    assert out["legal"] == {"temple", "end_turn"}
    g = kx.game(kx.with_then(pos, builds))
    assert reserve(g, 0) == 0 and g.supply(0) == 36 - 3


def test_M13_without_the_bonus_the_first_build_is_adjacent(kx):
    # control: one temple tile, no bonus, the same 2 owed settlements -> the first build must touch T1
    pos = example_1161(kx, bonus=False)
    assert kx.legal(pos) == {(10, 12), "temple"}
    kx.then_error(example_1161(kx, bonus=False, then=[FG]), 0)


def test_M13_temple_bonus_works_every_turn_only_for_the_first_build(kx):
    # TEMPLE_BONUS "During each of your turns": a plain turn (no reserve), 3 grass builds. Grass: (10, 12) touches
    # T1, (10, 13) touches (10, 12), FG = (15, 16) and (15, 17) touch each other, (2, 0) stands alone.
    cells = {T1: "G", T2: "G", (10, 12): "G", (10, 13): "G", FG: "G", (15, 17): "G", (2, 0): "G"}
    pos = mpos(kx, cells, settlements=[[T1, T2], []], card="G", locations={TH: "temple", TH2: "temple"},
               tiles=[[TH, TH2], []], bonus_tiles=[["temple"], []])
    assert kx.legal(pos) == {(10, 12), (10, 13), FG, (15, 17), (2, 0), "temple"}
    # after FG the waiver is spent: grass touching own = (15, 17) (next to FG) and (10, 12) (next to T1)
    assert kx.legal(kx.with_then(pos, [FG])) == {(15, 17), (10, 12)}
    kx.then_error(mpos(kx, cells, settlements=[[T1, T2], []], card="G", locations={TH: "temple", TH2: "temple"},
                       tiles=[[TH, TH2], []], bonus_tiles=[["temple"], []], then=[FG, (2, 0)]), 1)
    assert kx.legal(kx.with_then(pos, [FG, (15, 17)])) == {(10, 12)}
