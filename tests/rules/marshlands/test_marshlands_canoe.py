"""Marshlands Canoe reactions and Canoe bonus (M-8, M-9, A-M5).

A Canoe reaction happens in another player's turn; ``legal_position`` names the reacting player (decision 8).
The reaction's phase, decisions (``"canoe"`` / ``"pass"``) and target set are assumptions A7, A8 of
``marshlands_helpers``. Boards are mountain-filled.

The active player (player 0 unless a test says otherwise) holds grass and builds the grass row ``GRASS`` =
(12, 2) .. (12, 4) (with no settlement of its own the first build may go on any of them, then along the row).
``X`` = (12, 1), a location hex with one tile left, touches (12, 2) (and not (12, 3)), so the first build
takes its last tile. Player 1's canoe region: canoe hex (4, 4), settlement (4, 5), swamp (4, 6) and water (3, 5)
next to it, far swamp (8, 8) and far water (8, 10). Player 1 holds canyon with ``OPP_C``.

Neighbours used: (4, 5) touches (3, 4) (3, 5) (4, 4) (4, 6) (5, 4) (5, 5); (4, 6) touches (3, 5) (3, 6) (4, 5)
(4, 7) (5, 5) (5, 6); (12, 2) touches (12, 1) (12, 3) (11, 1) (11, 2) (13, 1) (13, 2).

Rule text quoted (the comments below name these):

CANOE (EN 1105): "Build one settlement on an unoccupied swamp or water hex, building adjacent to one of the player's
    own previously built settlements, if possible. However, this action can be performed only after any other player
    takes the last location tile from a location space."
CANOE_ORDER (EN 1107): "That player's turn is briefly interrupted for this action. If more than one player owns a
    canoe tile, they perform this extra action in player order, starting with the player to the left of the active
    player."
CANOE_EITHER (EN 1111): "Note: A player can pick swamp despite being adjacent to water and vice versa."
CANOE_EXAMPLE (EN 1115-1117): "Example: Ani (blue) builds next to the refuge and takes the last refuge tile. Frank
    (orange) now builds one settlement on a swamp or water hex immediately. He has seven options where to build."
CANOE_NOMADS (EN 1119): "Note: If playing with Kingdom Builder: Nomads, this extra action also takes place when an
    opponent takes the last nomad tile from a nomad space."
CANOE_DE (DE 1177-1181): "Zunächst wählt der Spieler Sumpf oder Wasser. Dann muss, wenn möglich, angrenzend gebaut
    werden. ... darf immer dann ausgeführt werden, wenn ein Spieler das letzte Ortsplättchen von einem Ortsfeld
    nimmt."
CANOE_BONUS (EN 1123): "Build one settlement on an unoccupied swamp or water hex. If possible, this must be built
    adjacent to one of the player's own previously built settlements. This bonus action may be performed before or
    after the player's mandatory action."
A_M5 (spec A-M5): "Trigger: a location hex's tile count reaches 0, or a nomad space's tile is taken (with Nomads),
    by any build, move or placement of player X, in anyone's turn. Eligible reactors: (a) (EN) every canoe holder
    except X; (b) (DE) also X. Default (a). A reactor needs a ready canoe tile (held since the end of their
    acquiring turn, not used since their last own turn ended), a settlement in supply, and a free swamp or water
    hex. Order: seats starting left of the active player. Each reactor may pass. A reactor with 2 ready canoe tiles
    reacts once per trigger (R); the second tile waits for the next trigger. Nested triggers (a reaction empties a
    location) interrupt again: TG gives the order '(B, (C, A), C)'. Default: a LIFO stack of trigger frames; each
    frame keeps its own reactor queue. The canoe tile cannot be used as an ordinary extra action (only the bonus
    can)."
RED_CARDS (EN 604): "The active player must check whether the conditions on red cards have been met after building
    each single new settlement."
RED_CARDS_DE (DE 698): "Der Spieler am Zug überprüft nach jedem Bau einer neuen Siedlung, ob die Bedingungen"
"""

import pytest

from tests.rules.marshlands.helpers import FLAGS, PASS, REACTION, flag, mpos, react

X = (12, 1)
GRASS = [(12, 2), (12, 3), (12, 4)]
CH1 = (4, 4)
P1 = (4, 5)


def canoe_cells(swamp=True, water=True):
    cells = {h: "G" for h in GRASS}
    cells.update({P1: "G", (8, 8): "S", (8, 10): "W"})
    if swamp:
        cells[(4, 6)] = "S"
    if water:
        cells[(3, 5)] = "W"
    return cells


def canoe_position(kx, then=None, swamp=True, water=True, x_tiles=1, supply=None, x_kind="refuge", **kwargs):
    return mpos(kx, canoe_cells(swamp, water), settlements=[[], [P1]], card="G",
                locations={X: x_kind, CH1: "canoe"}, tiles=[[], [CH1]], tiles_left={X: x_tiles}, supply=supply,
                then=then, **kwargs)


def test_M8_taking_the_last_tile_interrupts_for_the_canoe_holder(kx):
    # CANOE / CANOE_ORDER / A_M5
    pos = canoe_position(kx)
    assert kx.answer(pos) == {"player": 0, "phase": "idle", "legal": set(GRASS)}
    out = kx.answer(kx.with_then(pos, [(12, 2)]))
    assert out == {"player": 1, "phase": REACTION, "legal": {"canoe", PASS}}
    g = kx.game(kx.with_then(pos, [(12, 2)]))
    assert g.current_player == 0 and g.decider == 1                 # player 0's turn, player 1 decides
    assert g.tiles_left(X) == 0
    # swamp next to own: (4, 6); water next to own: (3, 5) (each option adjacent if possible on its own)
    out = kx.answer(kx.with_then(pos, [(12, 2), "canoe"]))
    assert out["player"] == 1 and out["phase"] == "choose_target" and out["legal"] == {(4, 6), (3, 5)}
    # after the reaction player 0's mandatory action goes on: 2 more grass builds
    built = kx.with_then(pos, [(12, 2), *react((3, 5))])
    out = kx.answer(built)
    assert out["player"] == 0 and out["phase"] == "mandatory" and out["legal"] == {(12, 3)}
    g = kx.game(built)
    assert kx.settlements(g, 1) == {P1, (3, 5)}
    assert g.supply(1) == 40 - 1 - 1
    assert kx.settlements(g, 0) == {(12, 2)}
    assert kx.legal(kx.with_then(pos, [(12, 2), *react((3, 5)), (12, 3)])) == {(12, 4)}
    # player 1's own turn: the canoe is no extra action of its own
    out = kx.answer(kx.with_then(pos, [(12, 2), *react((3, 5)), (12, 3), (12, 4)]))
    assert out["player"] == 1 and out["legal"] == kx.OPP_C_HEXES


def test_M8_the_reactor_may_pass(kx):
    pos = canoe_position(kx, then=[(12, 2), PASS])
    out = kx.answer(pos)
    assert out["player"] == 0 and out["phase"] == "mandatory" and out["legal"] == {(12, 3)}
    g = kx.game(pos)
    assert kx.settlements(g, 1) == {P1} and g.supply(1) == 39


@pytest.mark.parametrize("then,index", [
    ([(12, 2), (12, 3)], 1),                    # the active player cannot go on before the reaction is settled
    ([(12, 2), "canoe", (8, 8)], 2),            # a swamp not adjacent while (4, 6) is
    ([(12, 2), "canoe", (8, 10)], 2),           # a water hex not adjacent while (3, 5) is
    ([(12, 2), "canoe", (12, 3)], 2),           # grass is no canoe target
    ([(12, 2), "end_turn"], 1),
], ids=["active-player", "far-swamp", "far-water", "grass", "end-turn"])
def test_M8_illegal_decisions_during_a_reaction_are_refused(kx, then, index):
    kx.then_error(canoe_position(kx, then=then), index)


def test_M8_en1111_swamp_despite_adjacent_water(kx):
    # CANOE_EITHER / CANOE_DE "first choose swamp or water, then adjacent if possible": no swamp touches player 1,
    # so swamp means any free swamp ((8, 8)); water means the adjacent (3, 5). Not the far water (8, 10).
    pos = canoe_position(kx, swamp=False, then=[(12, 2), "canoe"])
    assert kx.legal(pos) == {(8, 8), (3, 5)}
    # and vice versa: no water touches player 1 -> any free water (8, 10), or the adjacent swamp (4, 6)
    pos = canoe_position(kx, water=False, then=[(12, 2), "canoe"])
    assert kx.legal(pos) == {(4, 6), (8, 10)}


def test_A_M5_no_reaction_while_a_tile_is_left(kx):
    # CANOE "takes the last location tile": with 2 tiles on X, (12, 2) takes one and leaves one
    pos = canoe_position(kx, x_tiles=2, then=[(12, 2)])
    out = kx.answer(pos)
    assert out["player"] == 0 and out["phase"] == "mandatory" and out["legal"] == {(12, 3)}


@pytest.mark.parametrize("case", ["no-supply", "no-free-swamp-or-water"])
def test_A_M5_a_holder_that_cannot_build_is_not_asked(kx, case):
    # A_M5 "a settlement in supply, and a free swamp or water hex"
    if case == "no-supply":
        pos = canoe_position(kx, supply=[40, 0], then=[(12, 2)])
    else:
        cells = {h: "G" for h in GRASS}
        cells[P1] = "G"
        pos = mpos(kx, cells, settlements=[[], [P1]], card="G", locations={X: "refuge", CH1: "canoe"},
                   tiles=[[], [CH1]], tiles_left={X: 1}, then=[(12, 2)])
    out = kx.answer(pos)
    assert out["player"] == 0 and out["legal"] == {(12, 3)}


def test_A_M5_the_taker_does_not_react_by_default(kx):
    # CANOE "only after any other player" (A_M5 (a)): player 0 takes the last tile and holds a canoe itself
    cells = canoe_cells()
    pos = mpos(kx, cells, settlements=[[P1], []], card="G", locations={X: "refuge", CH1: "canoe"},
               tiles=[[CH1], []], tiles_left={X: 1}, then=[(12, 2)])
    out = kx.answer(pos)
    assert out["player"] == 0 and out["phase"] == "mandatory" and out["legal"] == {(12, 3)}
    # A_M5 (b), DE 1181 "wenn ein Spieler das letzte Ortsplättchen ... nimmt": the flag lets the taker react
    assert FLAGS["A-M5"] == "canoe_taker_reacts"
    pos["options"] = flag("A-M5")
    out = kx.answer(pos)
    assert out == {"player": 0, "phase": REACTION, "legal": {"canoe", PASS}}
    # swamp (4, 6) and water (3, 5) touch (4, 5); the new (12, 2) touches neither
    assert kx.legal(kx.with_then(pos, [(12, 2), "canoe"])) == {(4, 6), (3, 5)}


def test_A_M5_a_reaction_triggered_by_a_move(kx):
    # A_M5 "by any build, move or placement": player 0 moves its settlement (12, 3) with the refuge (hex (10, 10),
    # through (10, 11)) to (12, 2), next to X: X's last tile is taken -> player 1 reacts; afterwards player 0 is
    # back before its mandatory action (the refuge is done).
    cells = {**canoe_cells(), **kx.MAND_T, (10, 11): "G"}
    pos = mpos(kx, cells, settlements=[[(12, 3), (10, 11)], [P1]], card="T",
               locations={X: "canoe", CH1: "canoe", (10, 10): "refuge"}, tiles=[[(10, 10)], [CH1]],
               tiles_left={X: 1})
    out = kx.answer(kx.with_then(pos, ["refuge", (12, 3), (12, 2)]))
    assert out == {"player": 1, "phase": REACTION, "legal": {"canoe", PASS}}
    out = kx.answer(kx.with_then(pos, ["refuge", (12, 3), (12, 2), PASS]))
    assert out["player"] == 0 and out["phase"] == "idle" and out["legal"] == kx.MAND_T_HEXES


# --------------------------------------------------------------------------- seat order (4 players)

# canoe regions of players 0, 2, 3: (canoe hex, settlement, adjacent swamp, adjacent water)
REGIONS = {0: ((2, 2), (2, 3), (2, 4), (3, 3)), 2: ((2, 8), (2, 9), (2, 10), (3, 9)),
           3: ((2, 14), (2, 15), (2, 16), (3, 15))}


def seat_order_position(kx, then=None):
    """4 players, player 1 active with grass; players 0, 2 and 3 hold a canoe tile each."""
    cells = {h: "G" for h in GRASS}
    locations = {X: "refuge"}
    settlements = [[], [], [], []]
    tiles = [[], [], [], []]
    for p, (hexe, own, swamp, water) in REGIONS.items():
        cells.update({own: "G", swamp: "S", water: "W"})
        locations[hexe] = "canoe"
        settlements[p].append(own)
        tiles[p].append(hexe)
    return mpos(kx, cells, settlements=settlements, hands=["C", "G", "C", "C"], current_player=1, start_player=0,
                locations=locations, tiles=tiles, tiles_left={X: 1}, opp_area=False, then=then)


def test_M8_reactions_in_seat_order_from_the_left_of_the_active_player(kx):
    # CANOE_ORDER: active player 1 -> players 2, 3, 0; each decides once; then player 1 goes on
    pos = seat_order_position(kx)
    assert kx.answer(pos)["player"] == 1
    steps = [((12, 2), 2), (PASS, 3), ("canoe", 3), ((2, 16), 0), ("canoe", 0), ((3, 3), 1)]
    then = []
    for decision, decider in steps:
        then.append(decision)
        out = kx.answer(kx.with_then(pos, then))
        assert out["player"] == decider, (then, out)
    assert kx.answer(kx.with_then(pos, then)) == {"player": 1, "phase": "mandatory", "legal": {(12, 3)}}
    g = kx.game(kx.with_then(pos, then))
    assert kx.settlements(g, 2) == {(2, 9)}
    assert kx.settlements(g, 3) == {(2, 15), (2, 16)}
    assert kx.settlements(g, 0) == {(2, 3), (3, 3)}


# --------------------------------------------------------------------------- at most once between own turns


def once_position(kx):
    """X1 = (12, 1) oasis, X2 = (11, 3) tower, X3 = (13, 5) oasis, one tile each: (12, 2), (12, 3) and (12, 5)
    take their last tiles. No desert and no grass at the board's edge, so those tiles give player 0 no action.
    Player 0's grass row: (12, 2) .. (12, 7). Player 1 also has the water (3, 6) next to (4, 6). Deck G, C."""
    cells = canoe_cells()
    cells.update({(12, 5): "G", (12, 6): "G", (12, 7): "G", (3, 6): "W"})
    return mpos(kx, cells, settlements=[[], [P1]], card="G",
                locations={X: "oasis", (11, 3): "tower", (13, 5): "oasis", CH1: "canoe"}, tiles=[[], [CH1]],
                tiles_left={X: 1, (11, 3): 1, (13, 5): 1}, deck=["G", "C"])


def test_A_M5_a_canoe_tile_reacts_at_most_once_between_its_owners_turns(kx):
    pos = once_position(kx)
    turn = [(12, 2), *react((4, 6))]
    assert kx.answer(kx.with_then(pos, turn))["player"] == 0
    # (12, 3) empties (11, 3): player 1's canoe tile was used since its last turn -> no reaction
    out = kx.answer(kx.with_then(pos, turn + [(12, 3)]))
    assert out["player"] == 0 and out["phase"] == "mandatory" and out["legal"] == {(12, 4)}
    turn += [(12, 3), (12, 4)]
    out = kx.answer(kx.with_then(pos, turn))
    assert out["player"] == 1 and out["legal"] == kx.OPP_C_HEXES        # no canoe in its own turn
    turn += sorted(kx.OPP_C_HEXES)
    out = kx.answer(kx.with_then(pos, turn))
    assert out == {"player": 0, "phase": "idle", "legal": {(12, 5)}}
    # player 1's turn has ended since: the tile reacts again. Swamp: no free swamp touches player 1 any more, so
    # (CANOE_EITHER, as in the EN 1111 test above) any free swamp: the far (8, 8); water next to (4, 5) / (4, 6):
    # (3, 5) and (3, 6)
    out = kx.answer(kx.with_then(pos, turn + [(12, 5)]))
    assert out == {"player": 1, "phase": REACTION, "legal": {"canoe", PASS}}
    assert kx.legal(kx.with_then(pos, turn + [(12, 5), "canoe"])) == {(3, 5), (3, 6), (8, 8)}


# --------------------------------------------------------------------------- nested triggers (A-M5)

Y = (6, 5)      # a temple hex with its last tile; (6, 4) touches it


def nested_position(kx, c_tiles=2):
    """3 players. A = player 0 (active, grass row, takes X's last tile), holds a canoe tile: canoe hex (2, 2),
    settlement (2, 3), swamp (2, 4), water (3, 3). B = player 1: canoe hex (6, 2), settlement (6, 3), swamp (6, 4)
    next to Y, water (7, 3). C = player 2: canoe hexes (2, 12) and (4, 12) with settlements (2, 13) and (4, 13),
    swamps (3, 13) (2, 14), water (4, 14); with ``c_tiles`` = 2 it holds both canoe tiles and the canoe bonus,
    with 1 only the tile of (2, 12) ((4, 12) is then a mountain)."""
    cells = {h: "G" for h in GRASS}
    cells.update({(2, 3): "G", (2, 4): "S", (3, 3): "W", (6, 3): "G", (6, 4): "S", (7, 3): "W",
                  (2, 13): "G", (4, 13): "G", (3, 13): "S", (2, 14): "S", (4, 14): "W"})
    locations = {X: "refuge", Y: "temple", (2, 2): "canoe", (6, 2): "canoe", (2, 12): "canoe"}
    c_hexes = [(2, 12)]
    if c_tiles == 2:
        locations[(4, 12)] = "canoe"
        c_hexes.append((4, 12))
    return mpos(kx, cells, settlements=[[(2, 3)], [(6, 3)], [(2, 13), (4, 13)]], hands=["G", "C", "C"],
                locations=locations, tiles=[[(2, 2)], [(6, 2)], c_hexes], tiles_left={X: 1, Y: 1},
                bonus_tiles=[[], [], ["canoe"] if c_tiles == 2 else []], opp_area=False)


def test_A_M5_nested_trigger_order_B_C_A_C(kx):
    # A_M5 / TG "(B, (C, A), C)": A's build empties X -> frame [B, C]. B's canoe build (6, 4) empties Y -> frame
    # [C, A] (left of the active player A, without the taker B). Then the first frame goes on with C, whose second
    # canoe tile is still ready. Then A's mandatory action goes on.
    pos = nested_position(kx)
    steps = [
        ((12, 2), 1, REACTION, {"canoe", PASS}),
        ("canoe", 1, "choose_target", {(6, 4), (7, 3)}),
        ((6, 4), 2, REACTION, {"canoe", PASS}),
        ("canoe", 2, "choose_target", {(3, 13), (2, 14), (4, 14)}),
        ((3, 13), 0, REACTION, {"canoe", PASS}),
        ("canoe", 0, "choose_target", {(2, 4), (3, 3)}),
        ((2, 4), 2, REACTION, {"canoe", PASS}),
        ("canoe", 2, "choose_target", {(2, 14), (4, 14)}),
        ((4, 14), 0, "mandatory", {(12, 3)}),
    ]
    then = []
    for decision, player, phase, legal in steps:
        then.append(decision)
        assert kx.answer(kx.with_then(pos, then)) == {"player": player, "phase": phase, "legal": legal}, then
    g = kx.game(kx.with_then(pos, then))
    assert kx.settlements(g, 0) == {(2, 3), (12, 2), (2, 4)}
    assert kx.settlements(g, 1) == {(6, 3), (6, 4)}
    assert kx.settlements(g, 2) == {(2, 13), (4, 13), (3, 13), (4, 14)}
    assert g.tiles_left(Y) == 0 and ("temple", Y) in kx.tiles(g, 1)


def test_A_M5_one_canoe_tile_reacts_once_even_with_nested_frames(kx):
    # C holds one canoe tile: used in the nested frame, C is skipped when the first frame goes on
    pos = nested_position(kx, c_tiles=1)
    then = [(12, 2), *react((6, 4)), *react((3, 13)), *react((2, 4))]
    assert kx.answer(kx.with_then(pos, then)) == {"player": 0, "phase": "mandatory", "legal": {(12, 3)}}


# --------------------------------------------------------------------------- Nomads trigger (EN 1119)


@pytest.mark.parametrize("kind,reacts", [("sword", True), (None, False)], ids=["tile", "empty-space"])
def test_M8_en1119_taking_a_nomad_tile_triggers_the_canoe(kx, kind, reacts):
    # CANOE_NOMADS: X is a nomad space instead of a location hex; building (12, 2) claims its tile
    cells = canoe_cells()
    cells[X] = "N"
    pos = mpos(kx, cells, settlements=[[], [P1]], card="G", locations={CH1: "canoe"}, tiles=[[], [CH1]],
               expansions=("marshlands", "nomads"), nomad_spaces={X: kind} if kind else {}, then=[(12, 2)])
    out = kx.answer(pos)
    if reacts:
        assert out == {"player": 1, "phase": REACTION, "legal": {"canoe", PASS}}
        assert kx.legal(kx.with_then(pos, [(12, 2), "canoe"])) == {(4, 6), (3, 5)}
    else:
        assert out["player"] == 0 and out["legal"] == {(12, 3)}


# --------------------------------------------------------------------------- M-9 canoe bonus


def canoe_bonus_position(kx, then=None):
    """Player 0 (forest card, MAND_T) holds the canoe tiles of (4, 4) and (4, 6) through (4, 5) and the canoe
    bonus. Swamp (5, 5) and water (3, 5) touch (4, 5); far swamp (8, 8), far water (8, 10)."""
    cells = {**kx.MAND_T, (4, 5): "G", (5, 5): "S", (3, 5): "W", (8, 8): "S", (8, 10): "W"}
    return mpos(kx, cells, settlements=[[(4, 5)], []], card="T", locations={(4, 4): "canoe", (4, 6): "canoe"},
                tiles=[[(4, 4), (4, 6)], []], bonus_tiles=[["canoe"], []], then=then)


def test_M9_canoe_bonus_in_the_own_turn_before_or_after_the_mandatory_action(kx):
    # CANOE_BONUS / A_M5 "The canoe tile cannot be used as an ordinary extra action (only the bonus can)"
    pos = canoe_bonus_position(kx)
    assert kx.legal(pos) == kx.MAND_T_HEXES | {"canoe_bonus"}
    assert kx.legal(kx.with_then(pos, ["canoe_bonus"])) == {(5, 5), (3, 5)}
    g = kx.game(kx.with_then(pos, ["canoe_bonus", (3, 5)]))
    assert kx.settlements(g, 0) == {(4, 5), (3, 5)} and g.supply(0) == 38
    assert kx.legal(kx.with_then(pos, ["canoe_bonus", (3, 5)])) == kx.MAND_T_HEXES     # once per turn
    after = kx.with_then(pos, kx.MAND_T_BUILDS)
    assert kx.legal(after) == {"canoe_bonus", "end_turn"}
    assert kx.legal(kx.with_then(pos, kx.MAND_T_BUILDS + ["canoe_bonus"])) == {(5, 5), (3, 5)}
    for target in [(8, 8), (8, 10), (18, 0)]:
        kx.then_error(canoe_bonus_position(kx, then=["canoe_bonus", target]), 1)


# --------------------------------------------------------------------------- red cards and a canoe build (A-N9)

AMBASSADORS = "1 gold for each of your settlements built adjacent to at least one settlement of another player."


@pytest.mark.parametrize("options,reactor_gold", [(None, 0), (flag("A-N9-canoe"), 1)], ids=["text", "flag"])
def test_A_N9_a_canoe_build_in_another_turn_scores_no_red_card(kx, options, reactor_gold):
    # RED_CARDS / RED_CARDS_DE: only the active player (player 0) checks the red cards. Player 1's canoe build on
    # the water (3, 5) touches player 0's settlement (3, 4): AMBASSADORS would pay it 1 in its own turn, but the
    # build is a reaction in player 0's turn. Flag red_cards_score_reactions: the reactor is paid too.
    cells = {**canoe_cells(), (3, 4): "G"}
    pos = mpos(kx, cells, settlements=[[(3, 4)], [P1]], card="G", locations={X: "refuge", CH1: "canoe"},
               tiles=[[], [CH1]], tiles_left={X: 1}, expansions=("marshlands", "nomads"),
               cards=["ambassadors", "fishermen", "knights"], then=[(12, 2), *react((3, 5))])
    if options:
        pos["options"] = options
    g = kx.game(pos)
    assert kx.settlements(g, 1) == {P1, (3, 5)}
    assert kx.gold(g, 1) == reactor_gold
