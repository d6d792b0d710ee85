"""Marshlands set-up (M-1, M-2, M-3) and the Scouts card's set-up (M-16, A-M10).

Random set-ups go through ``Game.new(n, seed=s, expansions=["marshlands"], cards=[...])`` and are read through
``g.setup.sections`` and the full-state position (``state``): ``"hands"``, ``"deck"``, ``"removed"``,
``"removed_terrain"`` (assumptions A3, A6, A13, A14 of ``marshlands_helpers``). No Marshlands section layout is
known (spec section 2); the shipped boards are substitutes named ``marsh-substitute-1`` .. ``-4``
(EXPANSIONS.md decision 5).

Rule text quoted (the comments below name these):

POOL (EN 1057): "Shuffle the 4 new game board sections with the 8 game board sections of the basic game, then select
    any 4 of the 12 sections and assemble them into a rectangular game board."
TILES (EN 1059): "Stack two location tiles on each corresponding location space, and place the bonus action tiles on
    the appropriate summary cards."
CARDS (EN 1060): "Shuffle the 6 new Kingdom Builder cards with those of the basic game, then randomly draw 3 cards.
    Place these cards face up next to the game board."
SECTIONS (EN 984): "all 4 sections contain a new terrain type that cannot be built upon: the palace, which replaces
    the castle spaces. Finally, there are 4 new types of locations, one on each section."
SCOUTS (EN 1211-1213): "Important: Prior to the first player's turn, reveal the top terrain card from the deck, then
    remove all terrain cards of this type from the game (including the one with swamp on it). If the revealed card
    shows a swamp, then you remove that card and all cards showing the other type of terrain. Shuffle the terrain
    deck once again. During the game, players can build on hexes of the removed terrain type only by using extra
    actions."
SCOUTS_DE_CROSSROADS (DE 1369): "Hinweis: Wird mit der Sonderaktion Kreuzung aus der zweiten Erweiterung gespielt
    und ein Spieler zieht zweimal die gleiche Geländeart, darf er auch die entfernte Geländeart wählen."
A_M10 (A-M10): "The hands are dealt before the reveal (base set-up order). (a) Hand cards of the removed terrain are
    also removed and replaced. (b) Hands are kept. Default (a). A revealed swamp/X card removes X (5 plain + 1
    swamp/X = 6 cards). Swamp is never the removed terrain. No-eligible-hex draws skip removed cards."
"""

from collections import Counter

import numpy as np
import pytest

from tests.rules.marshlands.helpers import (
    FLAGS,
    NEW_CARDS,
    SUBSTITUTE_SECTIONS,
    flag,
    full_deck,
    mpos,
    new_game,
    state,
    swamp_card,
)
from tests.rules.positions import (
    assert_the_new_cards_join_the_kingdom_builder_cards,
    assert_the_pool_has_the_base_and_the_substitute_sections,
    substitute_sections_dealt,
)

SCOUT_CARDS = ["scouts", "fishermen", "knights"]


def cards_in_play(st):
    return [c for c in st["hands"] if c is not None] + list(st["deck"]) + list(st.get("discard", []))


# --------------------------------------------------------------------------- M-1 .. M-3


def test_M1_the_pool_has_the_8_base_and_4_marshlands_sections():
    # POOL: 4 of 12 sections; decision 5: the Marshlands ones are the substitutes
    assert_the_pool_has_the_base_and_the_substitute_sections(new_game, SUBSTITUTE_SECTIONS)


def test_M1_M2_substitute_sections_have_swamp_a_palace_no_castle_and_two_full_location_hexes():
    # SECTIONS / TILES / decision 5 ("the expansion's terrain, palace ..., two location hexes ... per section")
    checked = 0
    for seed, g, tiles_left, q, name in substitute_sections_dealt(new_game, 80, SUBSTITUTE_SECTIONS):
        checked += 1
        r0, c0 = (q // 2) * 10, (q % 2) * 10
        cells = [(r0 + r, c0 + c) for r in range(10) for c in range(10)]
        letters = Counter(g.board[r][c] for r, c in cells)
        assert letters["S"] > 0 and letters["P"] >= 1 and letters["K"] == 0, (seed, name, letters)
        assert sum(1 for h in cells if h in tiles_left) == 2, (seed, name)
    assert checked > 0


def test_M3_the_six_new_cards_join_the_kingdom_builder_cards():
    # CARDS: 3 of the 16 (10 base + 6 Marshlands), 3 distinct per game; each new card appears
    assert_the_new_cards_join_the_kingdom_builder_cards(new_game, NEW_CARDS)


# --------------------------------------------------------------------------- M-16 Scouts set-up


@pytest.fixture(scope="module")
def scout_games():
    return [(seed, new_game(2 + seed % 4, seed, cards=SCOUT_CARDS)) for seed in range(60)]


def test_M16_scouts_remove_the_six_cards_of_one_terrain(scout_games):
    # SCOUTS / A_M10: the removed terrain X is a base terrain; its 5 cards and the swamp/X card leave the game;
    # the other 4 swamp cards stay; 24 cards remain (hands + deck)
    removed_seen = set()
    for seed, g in scout_games:
        st = state(g)
        x = st["removed_terrain"]
        assert x in "GCDFT" and len(x) == 1, (seed, x)
        removed_seen.add(x)
        assert Counter(g.removed_cards()) == Counter({x: 5, swamp_card(x): 1}), seed
        remaining = cards_in_play(st)
        assert len(remaining) == 30 - 6, seed
        assert Counter(remaining) == Counter(full_deck()) - Counter({x: 5, swamp_card(x): 1}), seed
        assert sorted(c for c in remaining if c.startswith("S/")) == sorted(swamp_card(t) for t in "GCDFT" if t != x)
    assert removed_seen == set("GCDFT")        # each terrain is removed in 1/5 of the games


def test_M16_A_M10_no_hand_holds_a_removed_card(scout_games):
    # A_M10 (a): hands dealt before the reveal lose their removed cards and get replacements
    for seed, g in scout_games:
        st = state(g)
        x = st["removed_terrain"]
        assert all(h not in (x, swamp_card(x)) for h in st["hands"]), (seed, st["hands"])
        assert len([h for h in st["hands"] if h is not None]) == g.num_players


def test_A_M10_flag_keeps_the_dealt_hands():
    # A_M10 (b): the dealt hands stay; over 60 games some hand holds a card of the removed terrain (each of the
    # n hands was dealt before the reveal: a hand holds one of the 6 removed cards with probability about 1/5)
    assert FLAGS["A-M10"] == "scouts_keep_dealt_hands"
    kept = 0
    for seed in range(60):
        g = new_game(2 + seed % 4, seed, cards=SCOUT_CARDS, rules=flag("A-M10"))
        st = state(g)
        x = st["removed_terrain"]
        kept += sum(1 for h in st["hands"] if h in (x, swamp_card(x)))
        assert all(c not in (x, swamp_card(x)) for c in st["deck"]), seed
    assert kept > 0


def test_M16_without_scouts_nothing_is_removed():
    for seed in range(10):
        st = state(new_game(2 + seed % 4, seed, cards=["fishermen", "knights", "merchants"]))
        assert st.get("removed_terrain") is None
        assert len(cards_in_play(st)) == 30


def test_M16_the_removed_terrain_is_never_the_turns_terrain(scout_games):
    # SCOUTS "players can build on hexes of the removed terrain type only by using extra actions": play 30 random
    # decisions per game; the card of the player to move never shows the removed terrain
    for seed, g in scout_games[:12]:
        g = g.clone()
        x = state(g)["removed_terrain"]
        rng = np.random.default_rng(seed)
        for _ in range(30):
            if g.done:
                break
            card = g.hand(g.current_player)
            assert card not in (x, swamp_card(x)), (seed, card)
            g.step(int(rng.choice(g.legal_actions())))


def test_M16_extra_actions_may_build_on_the_removed_terrain(kx):
    # SCOUTS "only by using extra actions": grass is removed; the farm (build on grass) still builds there.
    # Player 0 holds forest (MAND_T) and the farm tile of (10, 10) through (10, 11); grass (10, 12) touches it.
    cells = {**kx.MAND_T, (10, 11): "D", (10, 12): "G", (5, 5): "G"}
    pos = mpos(kx, cells, settlements=[[(10, 11)], []], card="T", locations={(10, 10): "farm"},
               tiles=[[(10, 10)], []], cards=SCOUT_CARDS, removed_terrain="G", deck=["T", "C"])
    assert kx.legal(pos) == kx.MAND_T_HEXES | {"farm"}
    assert kx.legal(kx.with_then(pos, ["farm"])) == {(10, 12)}


def test_A_M10_a_deck_with_a_removed_card_is_refused(kx):
    # A17: with grass removed no grass card may be in the deck
    pos = mpos(kx, {**kx.MAND_T}, settlements=[[], []], card="T", cards=SCOUT_CARDS, removed_terrain="G",
               deck=["G", "C"])
    kx.setup_error(pos, "deck")
    pos = mpos(kx, {**kx.MAND_T}, settlements=[[], []], card="T", cards=SCOUT_CARDS, removed_terrain="S")
    kx.setup_error(pos, "removed_terrain")          # A_M10 "Swamp is never the removed terrain"


def test_M16_de1369_with_crossroads_two_equal_cards_may_choose_the_removed_terrain(kx):
    # SCOUTS_DE_CROSSROADS (DE only; the English text has no such note): desert is removed; player 0 holds a
    # Crossroads hand of two grass cards -> it may build on grass or on desert. Grass (12, 0) (12, 1) (12, 2),
    # desert (14, 0) (14, 1) (14, 2); the crossroads hex (3, 3) gives the tile through (3, 4).
    cells = {(3, 4): "F", **{(12, c): "G" for c in range(3)}, **{(14, c): "D" for c in range(3)}}
    pos = mpos(kx, cells, settlements=[[(3, 4)], []], hands=[["G", "G"], "C"], locations={(3, 3): "crossroads"},
               tiles=[[(3, 3)], []], cards=SCOUT_CARDS, removed_terrain="D", expansions=("marshlands", "crossroads"),
               deck=["T", "C"])
    assert kx.legal(pos) == {(12, 0), (12, 1), (12, 2), (14, 0), (14, 1), (14, 2)}
    # a grass and a flower card: no equal pair, no desert
    pos2 = mpos(kx, {**cells, (3, 5): "F"}, settlements=[[(3, 4)], []], hands=[["G", "F"], "C"],
                locations={(3, 3): "crossroads"}, tiles=[[(3, 3)], []], cards=SCOUT_CARDS, removed_terrain="D",
                expansions=("marshlands", "crossroads"), deck=["T", "C"])
    assert kx.legal(pos2) == {(12, 0), (12, 1), (12, 2), (3, 5)}
