"""Readings of docs/rules-readings.md that had no test yet.

Each test quotes the reading (docs/rules-readings.md) and, where it exists, the rulebook sentence
(/work/shared/rules/bigbox-2nd-edition-en.txt) it rests on. Expected results are worked out by hand
from those texts on small boards (every hex mountain unless placed; see tests/rules/conftest.py).

Odd-r neighbours (docs/api.md): even r: (r, c+-1), (r-1, c-1), (r-1, c), (r+1, c-1), (r+1, c);
odd r: (r, c+-1), (r-1, c), (r-1, c+1), (r+1, c), (r+1, c+1). Paddock 2-step straight moves from
(r, c): (r, c+-2), (r-2, c-1), (r-2, c+1), (r+2, c-1), (r+2, c+1).
"""

import pytest

from kbenv.board.sections import NOMAD_SECTIONS, assemble, load_section, turn_section

# --------------------------------------------------------------------------- rule texts

SAFEGUARD = ("Safeguard: if 2 x players turns in a row build nothing, the game ends (unreachable with "
             "the standard boards; protects custom boards from endless games).")
NO_CARD = ("If no card at all can be drawn the mandatory action cannot be built and counts as done "
           "(custom boards only).")
NO_ELIGIBLE = ("No-eligible-hex exception: checked whenever the player still has to build the mandatory "
               "action: at the start of the turn and after every settlement built or moved before or "
               "during it. A card whose terrain has no free hex is removed from the game and the next "
               "card drawn (reshuffling the discard pile if needed).")
NOT_REPLACED = "Once the mandatory action is done, no card is replaced."
EXCEPTION = ("If the rare case should occur that there is no eligible hex at the beginning of a player's "
             "turn or during their turn, ... the player draws a new terrain card immediately. The "
             "useless terrain card is removed from the game.")
AUTO_END = "Automatic END_TURN: when END_TURN is the only legal decision the engine takes it."
RETAKE = ("A player who lost a tile may take a new one later from the same hex while tiles remain "
          "(\"one tile from a given location\" is read as \"at a time\").")
TILE_TAKEN = ("A tile is taken immediately when a settlement is built or moved next to a location hex "
              "with tiles left, unless the player already holds a tile of that hex.")
KEEP = ("If they move their last settlement away from such a location by using an extra action, they "
        "must discard this location tile and remove it from the game.")
NOT_OWN_START = ("\"Build adjacent if possible\" for Barn and Harbor is judged with the moved settlement "
                 "lifted. A move never ends on its own starting hex.")
OFFERED = "Powers are only offered when they can be carried out."
LOWEST = ("Each tile once per turn: two tiles of the same type (from two hexes) give two uses. When the "
          "player activates a type, the tile of the lowest-numbered location hex (board order) is used.")
NOMADS_SETUP = ("Nomads sections can be given explicitly; their four location types and nomad spaces are "
                "special hexes without powers until the Nomads rules are implemented.")
NOMAD_CODES = ("Nomads types c caravan, q quarry, v village, g garden are special hexes that give no tile "
               "in the base game (docs/api.md).")

FARM = (10, 10)


def _one_turn(kb, g):
    """Play exactly one turn (first legal hex, END_TURN when legal, never a power). Unlike
    kb.play_turn it stops when the turn number changes, also when the next turns are skipped and the
    same player is to move again."""
    turn = g.turn
    for _ in range(20):
        if g.done or g.turn != turn:
            return
        acts = kb.legal(g)
        hexes = sorted(a for a in acts if a < 400)
        g.step(hexes[0] if hexes else kb.END_TURN)
    raise AssertionError("turn did not end")


# --------------------------------------------------------------------------- 1. safeguard


def _stall_game(kb, num_players):
    """Nobody can ever hold a terrain card: every hand is desert, the board has no desert hex and
    the draw pile is empty (NO_CARD: the mandatory action counts as done). Each player holds a farm
    tile, so each turn they choose between building one grass settlement (farm) and building
    nothing (END_TURN). Players 0 and 1 touch the farm (10, 10), player 2 the farm (4, 4)."""
    cells = {FARM: "f", (10, 9): "C", (10, 11): "C", (4, 4): "f", (4, 5): "C"}
    cells.update({(16, c): "G" for c in range(20)})
    own = [[(10, 9)], [(10, 11)], [(4, 5)]][:num_players]
    held = [[FARM], [FARM], [(4, 4)]][:num_players]
    return kb.game(cells, num_players=num_players, hands=["D"] * num_players, settlements=own,
                   tiles=held, deck=[])


def _pass(kb, g):
    """A turn that builds nothing: the mandatory action is already done (no card), END_TURN."""
    player, turn = g.current_player, g.turn
    assert not g.done and g.phase == "idle"
    assert g.hand(player) is None
    assert kb.legal(g) == {kb.TILE["farm"], kb.END_TURN}
    g.step(kb.END_TURN)
    return player, turn


def _farm_build(kb, g):
    """A turn that builds one settlement (farm), then ends by itself (AUTO_END)."""
    player, turn = g.current_player, g.turn
    before = len(g.settlements(player))
    g.step(kb.TILE["farm"])
    g.step(min(kb.legal(g)))
    assert len(g.settlements(player)) == before + 1
    assert not g.done
    assert g.current_player == (player + 1) % g.num_players and g.turn == turn + 1


@pytest.mark.parametrize("num_players", [2, 3])
def test_safeguard_count_reset_by_a_build_then_game_ends_after_exactly_2n_empty_turns(kb, num_players):
    # SAFEGUARD: 2n - 1 empty turns, one build (resets the count), 2n - 1 empty turns: the game
    # goes on; the 2n-th empty turn in a row ends it.
    n = num_players
    g = _stall_game(kb, n)
    assert g.turn == 1 and g.current_player == 0
    assert g.removed_cards() == ["D"]           # EXCEPTION at the start of player 0's turn
    for k in range(2 * n - 1):
        player, turn = _pass(kb, g)
        assert not g.done, f"game ended after only {k + 1} empty turns"
        assert g.current_player == (player + 1) % n and g.turn == turn + 1
    _farm_build(kb, g)
    for k in range(2 * n - 1):
        player, turn = _pass(kb, g)
        assert not g.done, f"game ended after {k + 1} empty turns following a build"
        assert g.current_player == (player + 1) % n and g.turn == turn + 1
    assert g.turn == 4 * n
    _pass(kb, g)
    assert g.done and g.phase == "game_over"
    assert g.legal_actions() == []
    assert len(g.scores()) == n


@pytest.mark.parametrize("num_players", [2, 3])
def test_safeguard_ends_the_game_at_once_also_in_mid_round(kb, num_players):
    # SAFEGUARD "the game ends": start player 0 builds in turn 1, then 2n empty turns follow; the
    # 2n-th is played by seat 0 again (in the middle of a round). The game ends right after it; the
    # rest of the round is not played (unlike the normal end of the game, the safeguard says nothing
    # about completing the round).
    n = num_players
    g = _stall_game(kb, n)
    _farm_build(kb, g)
    for _ in range(2 * n - 1):
        _pass(kb, g)
        assert not g.done
    assert g.current_player == 0 and g.turn == 2 * n + 1
    _pass(kb, g)
    assert g.done and g.phase == "game_over"
    assert g.legal_actions() == []


def test_safeguard_not_triggered_while_one_player_keeps_building(kb):
    # SAFEGUARD "in a row": player 1 builds every turn, player 0 never; no 4 empty turns in a row.
    g = _stall_game(kb, 2)
    for _ in range(6):
        _pass(kb, g)
        _farm_build(kb, g)
    assert not g.done and g.turn == 13


# --------------------------------------------------------------------------- 2. no card can be drawn


def test_no_card_can_be_drawn_mandatory_counts_as_done(kb):
    # NO_CARD + NO_ELIGIBLE + EXCEPTION: player 0's desert card has no free hex (the only desert hex
    # (8, 8) holds player 1's settlement), draw pile and discard pile are empty.
    cells = {FARM: "f", (10, 9): "C", (8, 8): "D"}
    cells.update({(16, c): "G" for c in range(20)})
    g = kb.game(cells, hands=["D", "G"], settlements=[[(10, 9)], [(8, 8)]], tiles=[[FARM], []], deck=[])
    assert g.current_player == 0 and g.phase == "idle" and not g.done
    assert g.removed_cards() == ["D"]
    assert g.hand(0) is None
    assert g.deck_size() == 0 and g.discard_pile() == []
    # The mandatory action counts as done: no hex can be built for it, END_TURN (and the farm) is legal.
    assert kb.hexes(g) == set()
    assert kb.legal(g) == {kb.TILE["farm"], kb.END_TURN}
    # The farm still works (its terrain comes from the tile, not from a card).
    kb.use(g, "farm", (16, 0))
    assert g.settlements(0) == {(10, 9), (16, 0)}
    # Only END_TURN is left: the turn ended by itself (AUTO_END); nothing to discard, nothing to draw.
    assert g.current_player == 1 and not g.done
    assert g.hand(0) is None
    assert g.hand(1) == "G"
    assert g.discard_pile() == [] and g.removed_cards() == ["D"]
    # The game goes on: player 1 plays, discards G and draws it back (reshuffled discard pile).
    _one_turn(kb, g)
    assert len(g.settlements(1)) == 4
    assert g.current_player == 0 and not g.done
    assert g.hand(1) == "G" and g.hand(0) is None
    assert kb.legal(g) == {kb.TILE["farm"], kb.END_TURN}
    g.step(kb.END_TURN)
    assert g.current_player == 1 and not g.done
    _one_turn(kb, g)
    assert g.current_player == 0 and not g.done


def test_no_card_and_no_power_turn_ends_by_itself(kb):
    # NO_CARD + AUTO_END: player 0 has no power; with the mandatory action counted as done only
    # END_TURN is left, so player 0's turn ends at once and player 1 is to move.
    cells = {(8, 8): "D", (3, 3): "G", (3, 5): "G", (3, 7): "G", (3, 9): "G", (3, 11): "G",
             (3, 13): "G", (3, 15): "G"}
    g = kb.game(cells, hands=["D", "G"], settlements=[[], [(8, 8)]], deck=[])
    assert g.current_player == 1 and g.phase == "idle" and not g.done
    assert g.turn == 2
    assert g.settlements(0) == set() and g.supply(0) == 40
    assert g.hand(0) is None and g.removed_cards() == ["D"]
    assert g.discard_pile() == [] and g.deck_size() == 0
    _one_turn(kb, g)
    # Player 0 again has no card: their turn is skipped again, player 1 moves.
    assert g.current_player == 1 and not g.done and g.turn == 4
    assert g.hand(1) == "G" and g.hand(0) is None


def test_no_card_can_be_drawn_during_the_mandatory_action(kb):
    # NO_ELIGIBLE ("after every settlement built ... during it") + NO_CARD: after two grass builds
    # the grass card has no free hex; it is removed, no card can be drawn, so the mandatory action
    # counts as done with two settlements, and the turn ends by itself (AUTO_END).
    cells = {(12, 12): "G", (12, 13): "G"}
    cells.update({(15, c): "C" for c in range(0, 20, 2)})
    g = kb.game(cells, hands=["G", "C"], deck=[])
    kb.build(g, (12, 12), (12, 13))
    assert g.current_player == 1 and g.phase == "idle" and not g.done
    assert g.settlements(0) == {(12, 12), (12, 13)}
    assert g.supply(0) == 38
    assert g.removed_cards() == ["G"]
    assert g.hand(0) is None
    assert g.discard_pile() == [] and g.deck_size() == 0
    _one_turn(kb, g)
    assert len(g.settlements(1)) == 3
    # Player 1 drew their canyon card back; player 0's turn (no card, no power) ended by itself.
    assert g.current_player == 1 and not g.done
    assert g.hand(1) == "C" and g.hand(0) is None


# --------------------------------------------------------------------------- 3. re-taking a tile


def _retake_barn_game(kb, tiles_left):
    """Player 0: barn tile (2, 2) via (2, 3); farm tile (10, 10) via (10, 9), the only settlement
    next to the farm. Grass card. Canyon chain (10, 9)-(10, 8)-(10, 7) next to/away from the farm."""
    cells = {
        (2, 2): "b", (2, 3): "C", FARM: "f", (10, 9): "C", (10, 8): "C", (10, 7): "C",
        (15, 2): "G", (15, 3): "G", (15, 4): "G", (15, 5): "G", (17, 10): "G", (17, 12): "G",
        (18, 1): "D", (18, 3): "D", (18, 5): "D", (18, 7): "D", (18, 9): "D", (18, 11): "D",
    }
    return kb.game(cells, hands=["G", "D"], settlements=[[(2, 3), (10, 9)], []],
                   tiles=[[(2, 2), FARM], []], tiles_left=tiles_left, deck=["C", "D", "G", "D"])


@pytest.mark.parametrize("left", [1, 0])
def test_lost_tile_can_be_taken_again_later_while_tiles_remain(kb, left):
    # KEEP + RETAKE + TILE_TAKEN. left=1: one tile still lies on the farm; left=0: none ("while
    # tiles remain"; rulebook: "If there is no more location tile on a location, the player does
    # not receive any location tile").
    g = _retake_barn_game(kb, {FARM: left})
    assert g.tiles_left(FARM) == left
    # Turn 1: the barn moves (10, 9), the last settlement next to the farm, to grass; no other
    # settlement touches (2, 3)'s mountains, so any free grass hex.
    kb.use(g, "barn", (10, 9), (15, 2))
    assert kb.tiles(g, 0) == [("barn", (2, 2))]
    # The lost tile is out of the game: the count on the hex does not go back up.
    assert g.tiles_left(FARM) == left
    kb.build(g, (15, 3), (15, 4), (15, 5))
    assert g.current_player == 1
    _one_turn(kb, g)
    # Turn 3: canyon card; no canyon touches player 0's settlements, so any canyon hex.
    assert g.current_player == 0 and g.hand(0) == "C"
    assert kb.hexes(g) == {(10, 9), (10, 8), (10, 7)}
    kb.build(g, (10, 9))
    if left:
        assert kb.tiles(g, 0) == [("barn", (2, 2)), ("farm", FARM)]
    else:
        assert kb.tiles(g, 0) == [("barn", (2, 2))]
    assert g.tiles_left(FARM) == 0
    kb.build(g, (10, 8), (10, 7))
    # Barn: no free canyon hex left; the new farm tile is usable only from the next turn.
    assert g.current_player == 1
    assert g.tiles_left(FARM) == 0
    _one_turn(kb, g)
    assert g.current_player == 0
    if left:
        assert "farm" in kb.tile_actions(g)
    else:
        assert "farm" not in kb.tile_actions(g)


def test_lost_tile_retaken_later_in_the_same_turn(kb):
    # KEEP + RETAKE ("later" includes later in the same turn) + TILE_TAKEN. The paddock moves
    # (10, 9), the only settlement next to the farm, two hexes west to (10, 7): the farm tile is
    # lost. The mandatory action (canyon) must then build next to (10, 7) if possible: (10, 8) only;
    # next (10, 9) (touching (10, 8), and the farm again): a new farm tile; last (9, 8).
    cells = {(2, 2): "p", (2, 3): "C", FARM: "f", (10, 9): "C", (10, 8): "C", (10, 7): "C",
             (9, 8): "C", (18, 1): "D", (18, 3): "D", (18, 5): "D"}
    g = kb.game(cells, hands=["C", "D"], settlements=[[(2, 3), (10, 9)], []],
                tiles=[[(2, 2), FARM], []], deck=["C", "C", "C"])
    assert g.tiles_left(FARM) == 1
    g.step(kb.TILE["paddock"])
    assert kb.hexes(g) == {(10, 9)}
    kb.build(g, (10, 9))
    assert kb.hexes(g) == {(10, 7)}
    kb.build(g, (10, 7))
    assert kb.tiles(g, 0) == [("paddock", (2, 2))]
    assert g.tiles_left(FARM) == 1
    assert kb.hexes(g) == {(10, 8)}
    kb.build(g, (10, 8))
    assert kb.hexes(g) == {(10, 9), (9, 8)}
    kb.build(g, (10, 9))
    assert kb.tiles(g, 0) == [("farm", FARM), ("paddock", (2, 2))]
    assert g.tiles_left(FARM) == 0
    kb.build(g, (9, 8))
    # Paddock used, farm taken this turn: the turn ended by itself.
    assert g.current_player == 1 and g.hand(1) == "D"
    assert kb.tiles(g, 0) == [("farm", FARM), ("paddock", (2, 2))]


# --------------------------------------------------------------------------- 4. never own start

LOC, HOME = (2, 2), (2, 3)
A, B = (10, 10), (10, 11)       # B touches A and (10, 12); A's other neighbours are mountain
FAR = [(16, 4), (16, 6), (16, 8)]


@pytest.mark.parametrize("tile,terrain", [("barn", "G"), ("harbor", "W")])
@pytest.mark.parametrize("second_adjacent", [True, False])
def test_move_never_ends_on_its_own_start_hex(kb, tile, terrain, second_adjacent):
    # NOT_OWN_START. Player 0's settlement A stands on the power's terrain (grass for the barn with a
    # grass card, water for the harbor); lifted, A is a free hex of that terrain next to the other
    # settlement B, so it would "qualify" as an adjacent target.
    # second_adjacent: (10, 12), also next to B, is the only adjacent target -> {(10, 12)}.
    # Otherwise no target other than A touches B or (2, 3): adjacency is not possible and any free
    # hex of the terrain other than A is legal -> the far hexes.
    cells = {LOC: tile[0], HOME: "C", A: terrain, B: "T"}
    cells.update({rc: terrain for rc in FAR})
    if second_adjacent:
        cells[(10, 12)] = terrain
    if terrain != "G":
        cells.update({(18, 1): "G", (18, 3): "G", (18, 5): "G"})  # for the grass card
    g = kb.game(cells, hands=["G", "G"], settlements=[[HOME, A, B], []], tiles=[[LOC], []])
    g.step(kb.TILE[tile])
    assert g.phase == "choose_source"
    assert kb.legal(g) == {kb.H(*HOME), kb.H(*A), kb.H(*B)}
    kb.build(g, A)
    assert g.phase == "choose_target"
    expected = {(10, 12)} if second_adjacent else set(FAR)
    assert A not in kb.hexes(g)
    assert kb.hexes(g) == expected
    kb.assert_illegal(g, kb.H(*A))


def test_paddock_never_ends_on_its_own_start_hex(kb):
    # NOT_OWN_START for the paddock: the start hex S (grass, free once lifted) is never a target;
    # the targets are the free buildable hexes two steps away in a straight line.
    S = (10, 10)
    cells = {LOC: "p", HOME: "C", S: "G", (10, 12): "G", (8, 9): "C", (12, 11): "D", (10, 11): "G",
             (9, 10): "G", (16, 4): "G", (16, 6): "G"}
    g = kb.game(cells, hands=["G", "G"], settlements=[[HOME, S], []], tiles=[[LOC], []])
    g.step(kb.TILE["paddock"])
    assert kb.legal(g) == {kb.H(*S)}
    kb.build(g, S)
    assert S not in kb.hexes(g)
    assert kb.hexes(g) == {(10, 12), (8, 9), (12, 11)}
    kb.assert_illegal(g, kb.H(*S))


def test_harbor_not_offered_when_the_only_water_hex_is_the_start_hex(kb):
    # NOT_OWN_START + OFFERED: player 0's settlement A stands on the only water hex; moving it to
    # water would end on its own start hex, so the harbor has no completion and is not offered.
    cells = {LOC: "h", HOME: "C", A: "W", B: "T", (16, 4): "G", (16, 6): "G", (16, 8): "G"}
    g = kb.game(cells, hands=["G", "G"], settlements=[[HOME, A, B], []], tiles=[[LOC], []])
    assert kb.tile_actions(g) == set()
    kb.assert_illegal(g, kb.TILE["harbor"])
    assert kb.hexes(g) == set(FAR)


def test_harbor_target_is_the_other_free_water_hex_not_the_start(kb):
    # NOT_OWN_START + docs/api.md choose_source ("a hex holding one of the player's settlements that
    # has at least one legal destination"). Water hexes: A (player 0), (16, 4) (player 1) and the free
    # (16, 6), which touches no settlement. Every own settlement can move to (16, 6); from A that is
    # the only target (its own start hex A is not one, (16, 4) is occupied).
    cells = {LOC: "h", HOME: "C", A: "W", B: "T", (16, 4): "W", (16, 6): "W", (18, 1): "G",
             (18, 3): "G", (18, 5): "G"}
    g = kb.game(cells, hands=["G", "G"], settlements=[[HOME, A, B], [(16, 4)]], tiles=[[LOC], []])
    g.step(kb.TILE["harbor"])
    assert kb.legal(g) == {kb.H(*HOME), kb.H(*A), kb.H(*B)}
    kb.build(g, A)
    assert kb.hexes(g) == {(16, 6)}


# --------------------------------------------------------------------------- extras: card not replaced

GRASS3 = [(12, 12), (12, 13), (12, 14)]


def _last_grass_game(kb, with_barn):
    """Player 0: grass card, exactly three grass hexes on the board; oasis tile (6, 6) via (6, 7)
    (free desert exists), optionally barn tile (2, 2) via (2, 3). The next card is canyon, with free
    canyon hexes, so a replaced card would be visible (and would make the barn usable)."""
    cells = {(6, 6): "a", (6, 7): "C", (17, 2): "D", (17, 4): "D"}
    cells.update({rc: "G" for rc in GRASS3})
    cells.update({(15, c): "C" for c in range(0, 20, 2)})
    own, held = [(6, 7)], [(6, 6)]
    if with_barn:
        cells.update({LOC: "b", HOME: "C"})
        own, held = own + [HOME], held + [LOC]
    return kb.game(cells, hands=["G", "C"], settlements=[own, []], tiles=[held, []],
                   deck=["C", "C", "C"])


def test_no_card_replaced_once_mandatory_action_is_done(kb):
    # NOT_REPLACED: the mandatory action takes the last three grass hexes; the grass card now has no
    # free hex, but it is not removed or replaced: it stays played and goes to the discard pile.
    g = _last_grass_game(kb, with_barn=False)
    kb.build(g, *GRASS3)
    assert g.phase == "idle" and g.current_player == 0
    assert g.hand(0) == "G"
    assert g.removed_cards() == []
    assert g.deck_size() == 3
    assert kb.legal(g) == {kb.TILE["oasis"], kb.END_TURN}
    kb.use(g, "oasis", (17, 2))
    # Still no replacement after a settlement built after the mandatory action; turn ended by itself.
    assert g.current_player == 1
    assert g.removed_cards() == []
    assert g.discard_pile() == ["G"]
    assert g.hand(0) == "C"
    assert g.deck_size() == 2


def test_barn_after_mandatory_with_no_free_card_terrain_is_not_offered(kb):
    # NOT_REPLACED + NOT_OWN_START + OFFERED: after the mandatory action the played card is still grass
    # and every grass hex holds one of player 0's settlements. A barn move would have to end on a free
    # grass hex; the only one is the moved settlement's own starting hex, so the barn is not offered.
    g = _last_grass_game(kb, with_barn=True)
    assert kb.tile_actions(g) == {"oasis", "barn"}
    kb.build(g, *GRASS3)
    assert g.phase == "idle" and g.current_player == 0
    assert g.hand(0) == "G" and g.removed_cards() == []
    assert kb.legal(g) == {kb.TILE["oasis"], kb.END_TURN}
    kb.assert_illegal(g, kb.TILE["barn"])


@pytest.mark.parametrize("tile", ["oracle", "barn"])
def test_card_replaced_after_extra_action_before_the_mandatory_action(kb, tile):
    # NO_ELIGIBLE ("after every settlement built or moved before ... it") + EXCEPTION: the only free
    # grass hex (12, 12) is taken by an extra action before the mandatory action (the oracle builds
    # there with the grass card; the barn moves (8, 8), a forest hex, there). The grass card is then
    # removed and canyon drawn; the mandatory action is built on canyon.
    cells = {LOC: tile[0], HOME: "C", (8, 8): "T", (12, 12): "G",
             (15, 2): "C", (15, 4): "C", (15, 6): "C", (18, 1): "D", (18, 3): "D", (18, 5): "D"}
    g = kb.game(cells, hands=["G", "D"], settlements=[[HOME, (8, 8)], []], tiles=[[LOC], []],
                deck=["C", "C", "C"])
    if tile == "oracle":
        kb.use(g, "oracle", (12, 12))
        expected_own = {HOME, (8, 8), (12, 12)}
    else:
        kb.use(g, "barn", (8, 8), (12, 12))
        expected_own = {HOME, (12, 12)}
    assert g.settlements(0) == expected_own
    assert g.phase == "idle" and g.current_player == 0
    assert g.removed_cards() == ["G"]
    assert g.hand(0) == "C"
    assert g.deck_size() == 2
    assert kb.legal(g) == {kb.H(15, 2), kb.H(15, 4), kb.H(15, 6)}
    kb.build(g, (15, 2), (15, 4), (15, 6))
    assert g.current_player == 1 and g.hand(1) == "D"
    assert g.discard_pile() == ["C"] and g.removed_cards() == ["G"]


# --------------------------------------------------------------------------- extras: lowest tile used

F1, F2 = (5, 5), (12, 12)      # two farm hexes; F1 is the lower-numbered one (row 5 < row 12)


@pytest.mark.parametrize("move_away_from,farm_left", [(F1, True), (F2, False)])
def test_lowest_numbered_tile_is_used_first(kb, move_away_from, farm_left):
    # LOWEST + KEEP: player 0 holds farm tiles from F1 (via (5, 6)) and F2 (via (12, 13)) and a barn.
    # One farm use spends the tile of F1. Moving away from F1 then discards that used tile: the F2
    # tile is unused and the farm can be used again. Moving away from F2 discards the unused tile:
    # the farm is spent for this turn.
    cells = {LOC: "b", HOME: "C", F1: "f", (5, 6): "C", F2: "f", (12, 13): "C",
             (17, 2): "G", (17, 4): "G", (17, 6): "G", (17, 8): "G", (17, 10): "G"}
    g = kb.game(cells, hands=["G", "G"], settlements=[[HOME, (5, 6), (12, 13)], []],
                tiles=[[LOC, F1, F2], []])
    assert kb.tile_actions(g) == {"farm", "barn"}
    kb.use(g, "farm", (17, 2))
    assert kb.tile_actions(g) == {"farm", "barn"}
    source = (5, 6) if move_away_from == F1 else (12, 13)
    kb.use(g, "barn", source, (17, 6))
    kept = F2 if move_away_from == F1 else F1
    assert kb.tiles(g, 0) == [("barn", LOC), ("farm", kept)]
    if farm_left:
        assert kb.tile_actions(g) == {"farm"}
    else:
        assert kb.tile_actions(g) == set()
        kb.assert_illegal(g, kb.TILE["farm"])


# --------------------------------------------------------------------------- 5. Nomads sections

# The four Nomads sections as kb-data records them (shared/kb-data/sections/<name>.txt, copied here so the
# tests read no file outside the repository): the grid with L for a location hex and N for a nomad space,
# then the "# location: r,c type" and "# nomad: r,c" lines.
KB_DATA = {
    "caravan": {
        "grid": (
            "WWGGWWWFFF",
            "WGGTWWWFFF",
            "WWWGTWWDDF",
            "TTWNTWDMFF",
            "TTTWWWDDGG",
            "TTTTCDGGGG",
            "TTLCCCGGMG",
            "TCCCCGLDDG",
            "CMCCCFFFDD",
            "CCCFFFFDDD",
        ),
        "locations": {(6, 2): "caravan", (7, 6): "caravan"},
        "nomads": {(3, 3)},
    },
    "quarry": {
        "grid": (
            "GGGWWWMCCC",
            "GGWTDWWWCC",
            "GMWTLDDDWM",
            "FWTTCCDFFF",
            "FWGGCCDDMF",
            "FWNGCCDNFF",
            "FFWGCCCFFF",
            "DWGGCNTTFF",
            "DDWWGTTMTT",
            "DDDWWTMTTT",
        ),
        "locations": {(2, 4): "quarry"},
        "nomads": {(5, 2), (5, 7), (7, 5)},
    },
    "garden": {
        "grid": (
            "CCCWWWWDDD",
            "CCCWLFDDMD",
            "CCCCCCFDMD",
            "CGGCCMFMDD",
            "CGGGDMMFFF",
            "TFGLDDFFFF",
            "TTFFDMFGGF",
            "TTMFMTNGGG",
            "TMTTTTWWGG",
            "TTTTWWWGGG",
        ),
        "locations": {(1, 4): "garden", (5, 3): "garden"},
        "nomads": {(7, 6)},
    },
    "village": {
        "grid": (
            "DDDDDDDGGG",
            "DDDMDFFFGG",
            "DMDDDFWFGT",
            "CFWDNWFTTT",
            "CFFWWWFLCT",
            "CFFFWWFCCC",
            "CCCLTWWFMC",
            "GCGGTWFCCC",
            "GGGGTTTTCM",
            "GGGTTTTTMM",
        ),
        "locations": {(4, 7): "village", (6, 3): "village"},
        "nomads": {(3, 4)},
    },
}
TYPE_LETTER = {"caravan": "c", "quarry": "q", "village": "v", "garden": "g"}
BASE_FILL = ["tavern", "paddock", "oasis", "farm"]


def _kb_data(name):
    """(grid with L replaced by the location's type letter, locations {rc: type}, nomad spaces)
    from the kb-data section record (the reference)."""
    data = KB_DATA[name]
    grid, locations, nomads = data["grid"], data["locations"], data["nomads"]
    assert len(grid) == 10 and all(len(row) == 10 for row in grid)
    cells = [list(row) for row in grid]
    for (r, c), typ in locations.items():
        assert cells[r][c] == "L"
        cells[r][c] = TYPE_LETTER[typ]
    for r, c in nomads:
        assert cells[r][c] == "N"
    assert sum(row.count("L") for row in grid) == len(locations) and sum(row.count("N") for row in grid) == len(nomads)
    return ["".join(row) for row in cells], locations, nomads


def _expected_cell(name, turned, r, c):
    """kb-data README: "A turned section maps (r,c) -> (9-r, 9-c)"."""
    grid = _kb_data(name)[0]
    return grid[9 - r][9 - c] if turned else grid[r][c]


def test_nomad_sections_are_the_four_of_the_expansion():
    # Rulebook (Nomads): "4 game board sections"; location types quarry, caravan, village, garden.
    assert sorted(NOMAD_SECTIONS) == ["caravan", "garden", "quarry", "village"]


@pytest.mark.parametrize("name", ["caravan", "quarry", "garden", "village"])
def test_nomad_section_loads_as_10_rows_of_10_and_matches_kb_data(name):
    rows = load_section(name)
    assert len(rows) == 10 and all(len(row) == 10 for row in rows)
    expected, locations, nomads = _kb_data(name)
    for r in range(10):
        for c in range(10):
            assert rows[r][c] == expected[r][c], f"{name} ({r}, {c})"
    # Location hexes and nomad spaces where kb-data puts them, and nowhere else; no castles.
    assert {(r, c) for r in range(10) for c in range(10) if rows[r][c] in "cqvg"} == set(locations)
    assert {(r, c) for r in range(10) for c in range(10) if rows[r][c] == "N"} == nomads
    assert all(rows[r][c] == TYPE_LETTER[t] for (r, c), t in locations.items())
    assert not any("K" in row for row in rows)


@pytest.mark.parametrize("name", ["caravan", "quarry", "garden", "village"])
def test_nomad_section_turned_matches_kb_data(name):
    turned = turn_section(load_section(name))
    assert len(turned) == 10 and all(len(row) == 10 for row in turned)
    for r in range(10):
        for c in range(10):
            assert turned[r][c] == _expected_cell(name, True, r, c), f"{name} turned ({r}, {c})"
    _, locations, nomads = _kb_data(name)
    for (r, c), typ in locations.items():
        assert turned[9 - r][9 - c] == TYPE_LETTER[typ]
    for r, c in nomads:
        assert turned[9 - r][9 - c] == "N"


@pytest.mark.parametrize("name", ["caravan", "quarry", "garden", "village"])
@pytest.mark.parametrize("position", [0, 1, 2, 3])
@pytest.mark.parametrize("turned", [False, True])
def test_nomad_section_placed_on_the_board(kb, name, position, turned):
    # kb-data README "Assembly": section cell (r,c) goes to board cell (r + 10*b, c + 10*k), b = 1 for
    # the bottom pair, k = 1 for the right pair (order TL, TR, BL, BR); turned first: (9-r, 9-c).
    sections = [(s, False) for s in BASE_FILL]
    sections[position] = (name, turned)
    b, k = divmod(position, 2)
    boards = {
        "Game.new": list(kb.Game.new(num_players=2, seed=3, sections=sections).board),
        "Game.custom": list(kb.Game.custom(sections=sections, num_players=2, hands=["G", "C"],
                                           settlements=[[], []]).board),
        "assemble": assemble(sections),
    }
    for how, board in boards.items():
        assert len(board) == 20 and all(len(row) == 20 for row in board), how
        for r in range(10):
            for c in range(10):
                got = board[r + 10 * b][c + 10 * k]
                assert got == _expected_cell(name, turned, r, c), f"{how}: {name} ({r}, {c})"
    _, locations, nomads = _kb_data(name)
    board = boards["Game.new"]
    for (r, c), typ in locations.items():
        rr, cc = (9 - r, 9 - c) if turned else (r, c)
        assert board[rr + 10 * b][cc + 10 * k] == TYPE_LETTER[typ]
    for r, c in nomads:
        rr, cc = (9 - r, 9 - c) if turned else (r, c)
        assert board[rr + 10 * b][cc + 10 * k] == "N"


NOMAD_LAYOUT = [("caravan", False), ("quarry", True), ("garden", True), ("village", False)]


@pytest.mark.parametrize("card", list("GCDFT"))
def test_all_nomad_sections_first_settlement_on_any_free_hex_of_the_card(kb, card):
    # Building rules 1-3 on a board of the four Nomads sections: with no settlement on the board the
    # first settlement may go on any hex of the card's terrain; nomad spaces ("not suitable for being
    # built upon") and location hexes never. The expected set comes from the kb-data grids.
    g = kb.Game.custom(sections=NOMAD_LAYOUT, num_players=2, hands=[card, "G"], settlements=[[], []])
    expected = set()
    for pos, (name, turned) in enumerate(NOMAD_LAYOUT):
        b, k = divmod(pos, 2)
        for r in range(10):
            for c in range(10):
                if _expected_cell(name, turned, r, c) == card:
                    expected.add((r + 10 * b, c + 10 * k))
    assert kb.hexes(g) == expected


def test_building_next_to_a_nomad_location_gives_no_tile(kb):
    # NOMADS_SETUP + NOMAD_CODES: caravan (6, 2) of the unturned caravan section (top left); its
    # neighbour (6, 1) is forest (kb-data row 6 "TTLCCCGGMG"). Building there gives no tile.
    g = kb.Game.custom(sections=NOMAD_LAYOUT, num_players=2, hands=["T", "G"], settlements=[[], []])
    assert g.board[6][2] == "c" and g.board[6][1] == "T"
    kb.build(g, (6, 1))
    assert kb.tiles(g, 0) == []
    assert g.phase == "mandatory"
