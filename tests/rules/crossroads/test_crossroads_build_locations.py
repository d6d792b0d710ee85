"""Crossroads building locations: Forester's lodge, Monastery, Fort (C-4, C-5, C-6, A-C9).

Positions are built on mountain-filled boards (conftest). Player 0 holds the location tile since before
this turn (``tiles``) through its settlement ``HOME`` = (10, 11) next to the location hex ``L`` = (10, 10).
Player 0's card is grass and ``MAND`` = (18, 0) (18, 1) (18, 2) is its mandatory area (no grass touches
its settlements, so the mandatory action may start on any of the three); player 1 holds desert and
``OPP_D`` = (16, 0) (16, 1) (16, 2) is its area.

Neighbours used below: (10, 11) touches (10, 10) (10, 12) (9, 10) (9, 11) (11, 10) (11, 11).

Rule text quoted (the comments below name these):

LODGE (EN 820-822): "Build one settlement on an empty forest space. You must build this settlement adjacent to one
    of your settlements, if possible. Forfeit this action if no empty forest spaces remain on the game board."
MONASTERY (EN 828-830): "Build one settlement on an empty canyon space. You must build this settlement adjacent to
    one of your settlements, if possible. Forfeit this action if no empty canyon spaces remain on the game board."
FORT (EN 836): "Draw a terrain card and build one settlement on an empty space of the terrain type the card shows.
    You must build this settlement adjacent to one of your settlements, if possible."
FORT_FAQ (FAQ, spec C-6): "The action includes both the terrain card draw and settlement placement ... Once the
    terrain card is drawn, the player cannot avoid placing the settlement (unless they have no settlements to place,
    or ... no empty spaces of that terrain exist). If the player has an Outpost ... she may decide whether or not to
    use [it] between terrain draw and placement."
A_C9 (spec A-C9): "The drawn card is discarded after use (R). A Fort draw reshuffles the discard pile if needed."
OUTPOST (EN 580): "When building settlements, whether during your mandatory action or any extra actions, you may use
    the outpost in order to disregard the adjacency requirement for one settlement."
"""

from collections import Counter

import pytest

from tests.rules.crossroads.helpers import MAND, MAND_G, cpos

L = (10, 10)
HOME = (10, 11)


# --------------------------------------------------------------------------- C-4 / C-5 lodge and monastery

BUILDERS = [("foresters_lodge", "e", "T"), ("monastery", "m", "C")]


def builder_position(kx, letter, terrain, adjacent=True, then=None):
    """Terrain hexes (10, 12) (11, 11) touch HOME (if ``adjacent``); (5, 5) (5, 7) are far away; (9, 11) is a
    flower field next to HOME (another buildable terrain)."""
    cells = {**MAND_G, L: letter, HOME: "D", (9, 11): "F", (5, 5): terrain, (5, 7): terrain}
    if adjacent:
        cells.update({(10, 12): terrain, (11, 11): terrain})
    return cpos(kx, cells, settlements=[[HOME], []], tiles=[[L], []], then=then)


@pytest.mark.parametrize("power,letter,terrain", BUILDERS, ids=["lodge", "monastery"])
def test_C4_C5_build_on_the_tile_terrain_adjacent_if_possible(kx, power, letter, terrain):
    pos = builder_position(kx, letter, terrain)
    assert kx.legal(pos) == MAND | {power}
    out = kx.answer(kx.with_then(pos, [power]))
    assert out["phase"] == "choose_target"
    assert out["legal"] == {(10, 12), (11, 11)}                  # not the far hexes, not the flower field
    built = kx.with_then(pos, [power, (10, 12)])
    assert kx.legal(built) == MAND                               # once per turn; the mandatory action is left
    g = kx.game(built)
    assert kx.settlements(g, 0) == {HOME, (10, 12)}
    assert g.supply(0) == 38
    # after the mandatory action, too; then nothing is left and the turn ends by itself
    after = kx.with_then(pos, sorted(MAND))
    assert kx.legal(after) == {power, "end_turn"}
    assert kx.answer(kx.with_then(pos, sorted(MAND) + [power, (11, 11)]))["player"] == 1


@pytest.mark.parametrize("target", [(5, 5), (9, 11), HOME, (10, 13)], ids=["far", "other-terrain", "occupied",
                                                                        "mountain"])
@pytest.mark.parametrize("power,letter,terrain", BUILDERS, ids=["lodge", "monastery"])
def test_C4_C5_illegal_targets_are_refused(kx, power, letter, terrain, target):
    kx.then_error(builder_position(kx, letter, terrain, then=[power, target]), 1)


@pytest.mark.parametrize("power,letter,terrain", BUILDERS, ids=["lodge", "monastery"])
def test_C4_C5_anywhere_when_no_terrain_hex_touches_own(kx, power, letter, terrain):
    pos = builder_position(kx, letter, terrain, adjacent=False)
    assert kx.legal(kx.with_then(pos, [power])) == {(5, 5), (5, 7)}


@pytest.mark.parametrize("power,letter,terrain", BUILDERS, ids=["lodge", "monastery"])
def test_C4_C5_forfeit_when_no_empty_terrain_hex_remains(kx, power, letter, terrain):
    # "Forfeit this action": the only hex of the terrain holds player 1's settlement -> not offered
    cells = {**MAND_G, L: letter, HOME: "D", (5, 5): terrain}
    pos = cpos(kx, cells, settlements=[[HOME], [(5, 5)]], tiles=[[L], []])
    assert kx.legal(pos) == MAND


# --------------------------------------------------------------------------- C-6 fort

FORT_CELLS = {**MAND_G, L: "r", HOME: "D", (10, 12): "F", (11, 11): "F", (5, 5): "F", (5, 7): "T", (5, 9): "T",
              (5, 11): "C"}   # the only canyon hex holds player 1's settlement


def fort_position(kx, deck, then=None, **kwargs):
    return cpos(kx, FORT_CELLS, settlements=[[HOME], [(5, 11)]], tiles=[[L], []], deck=deck, then=then, **kwargs)


@pytest.mark.parametrize("top,targets,build,idle_after", [
    # flower: (10, 12) and (11, 11) touch HOME
    ("F", {(10, 12), (11, 11)}, (10, 12), MAND),
    # forest: none touches own -> any free forest
    ("T", {(5, 7), (5, 9)}, (5, 9), MAND),
    # grass, the card of the turn: the mandatory area; afterwards the mandatory action must touch (18, 1)
    ("G", MAND, (18, 1), {(18, 0), (18, 2)}),
], ids=["flower-adjacent", "forest-anywhere", "grass"])
def test_C6_fort_draws_and_builds_on_the_drawn_terrain(kx, top, targets, build, idle_after):
    deck = [top, "C", "D", "T"]
    pos = fort_position(kx, deck)
    assert kx.legal(pos) == MAND | {"fort"}
    g0 = kx.game(pos)
    assert g0.deck_size() == 4
    drawn = kx.with_then(pos, ["fort"])
    out = kx.answer(drawn)
    assert out["phase"] == "choose_target" and out["legal"] == targets
    assert kx.game(drawn).deck_size() == 3                     # the card is drawn at activation
    built = kx.with_then(pos, ["fort", build])
    assert kx.legal(built) == idle_after                        # the fort is used for this turn
    g = kx.game(built)
    assert kx.settlements(g, 0) == {HOME, build}
    assert g.supply(0) == 38
    assert g.deck_size() == 3
    # A_C9: the drawn card goes to the discard pile (the card of the turn is still in play)
    assert Counter(g.discard_pile()) - Counter(g0.discard_pile()) == Counter({top: 1})


def test_C6_fort_builds_nothing_when_the_drawn_terrain_is_full(kx):
    # FORT_FAQ: the card is drawn (the player cannot know it), the only canyon hex is occupied -> no build
    pos = fort_position(kx, ["C", "F", "D", "T"])
    assert kx.legal(pos) == MAND | {"fort"}
    g0 = kx.game(pos)
    drawn = kx.with_then(pos, ["fort"])
    out = kx.answer(drawn)
    assert out["player"] == 0 and out["phase"] == "idle"
    assert out["legal"] == MAND                                 # the fort is spent
    g = kx.game(drawn)
    assert kx.settlements(g, 0) == {HOME}
    assert g.supply(0) == 39
    assert g.deck_size() == 3
    assert Counter(g.discard_pile()) - Counter(g0.discard_pile()) == Counter({"C": 1})


@pytest.mark.parametrize("target", [(5, 5), (5, 7), (10, 13)], ids=["far-flower", "forest", "mountain"])
def test_C6_fort_target_must_be_the_drawn_terrain_adjacent_if_possible(kx, target):
    kx.then_error(fort_position(kx, ["F", "C", "D", "T"], then=["fort", target]), 1)


def test_C6_outpost_between_fort_draw_and_build(kx):
    # FORT_FAQ / OUTPOST (A-N4 default: the Fort build is a settlement build, the Outpost applies)
    pos = fort_position(kx, ["F", "C", "D", "T"], expansions=("crossroads", "nomads"),
                        nomad_tiles=[["outpost"], []])
    assert kx.legal(pos) == MAND | {"fort", "outpost"}
    assert kx.legal(kx.with_then(pos, ["fort"])) == {(10, 12), (11, 11), "outpost"}
    # armed after the draw: any free flower field, adjacent or not; never another terrain
    assert kx.legal(kx.with_then(pos, ["fort", "outpost"])) == {(10, 12), (11, 11), (5, 5)}
    built = kx.with_then(pos, ["fort", "outpost", (5, 5)])
    assert kx.legal(built) == MAND                              # fort used, outpost used up
    assert kx.settlements(kx.game(built), 0) == {HOME, (5, 5)}
    # armed before the fort: the fort's settlement is the next one built, so it uses the waiver
    assert kx.legal(kx.with_then(pos, ["outpost", "fort"])) == {(10, 12), (11, 11), (5, 5)}
