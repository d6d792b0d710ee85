"""Hidden information with Crossroads hands (C-7) and the Fort's draw (C-6).

Other players' extra cards are hidden (their number is not); the player to move shows the card used
only once it is chosen. A view re-dealt with other hidden cards gives the same observation and the
same legal decisions, and determinize keeps every hand's size. The Fort's card is not known before it
is drawn: greedy values the activation the same whatever the deck order.

Rule text quoted (the comments below name these):

C7 (EN 845-847): "Draw one additional terrain card at the end of each of your turns. During your turn, you choose
    which of your two terrain cards you will use"
C6 (EN 836): "Draw a terrain card and build one settlement on an empty space of the terrain type the card shows."
"""

from __future__ import annotations

import numpy as np
import pytest

from kbenv import Game
from kbenv.engine import state as S
from kbenv.game.view import PlayerView
from kbenv.observation import observation_planes, observation_planes_v1


def game_with_hands(seed: int = 3) -> Game:
    """A 3-player Crossroads game in which every seat holds extra cards (written into the state)."""
    g = Game.new(3, seed=seed, expansions=["crossroads"])
    st = g.state
    for p in range(3):
        for k in range(2):
            st[S.EXTRA_CARDS + p * S.MAX_EXTRA_CARDS + k] = st[S.DECK + int(st[S.DECK_COUNT]) - 1]
            st[S.DECK_COUNT] -= 1
        st[S.EXTRA_COUNT + p] = 2
    g._replayable = False
    return g


def redeal(g: Game, rng: np.random.Generator, keep: int) -> Game:
    """The same game with every card `keep` cannot see dealt anew (other hands, extras, deck)."""
    other = g.clone()
    st = other.state
    slots = [S.HAND + p for p in other.hidden_from(keep)]
    slots += [S.EXTRA_CARDS + p * S.MAX_EXTRA_CARDS + k for p in other.hidden_extra_from(keep)
              for k in range(int(st[S.EXTRA_COUNT + p]))]
    slots += [S.DECK + k for k in range(int(st[S.DECK_COUNT]))]
    cards = [int(st[s]) for s in slots]
    for s, c in zip(slots, rng.permutation(cards), strict=False):
        st[s] = c
    return other


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_redealt_hidden_cards_give_the_same_observation_and_decisions(seat):
    g = game_with_hands()
    rng = np.random.default_rng(seat)
    for _ in range(5):
        other = redeal(g, rng, seat)
        assert other.state_key() != g.state_key() or not g.hidden_extra_from(seat)
        a, b = PlayerView(g, seat), PlayerView(other, seat)
        np.testing.assert_array_equal(a.observation_v1(), b.observation_v1())
        np.testing.assert_array_equal(observation_planes_v1(g.state, seat), observation_planes_v1(other.state, seat))
        np.testing.assert_array_equal(observation_planes(g.state, seat), observation_planes(other.state, seat))
        np.testing.assert_array_equal(a.legal_mask(), b.legal_mask())
        assert a.unseen_cards() == b.unseen_cards()
        assert [a.hand_size(p) for p in range(3)] == [b.hand_size(p) for p in range(3)] == [3, 3, 3]


def test_the_movers_cards_stay_hidden_until_one_is_chosen():
    g = game_with_hands()
    mover = g.current_player
    watcher = (mover + 1) % 3
    assert mover in g.hidden_from(watcher)  # several cards, none chosen: which one is used is not known yet
    assert PlayerView(g, watcher).hand(mover) is None
    assert PlayerView(g, mover).hand_cards(mover) == g.hand_cards(mover)
    hexes = [a for a in g.legal_actions() if a < 400]
    g.step(hexes[0])  # the first mandatory hex fixes the terrain
    assert mover not in g.hidden_from(watcher)
    assert PlayerView(g, watcher).hand(mover) == g.hand(mover)
    assert len(PlayerView(g, watcher).hand_cards(mover)) == 1  # the other cards stay hidden


def test_determinize_keeps_hand_sizes_and_hides_nothing_it_should_not():
    g = game_with_hands()
    for seat in range(3):
        d = g.determinize(seat, np.random.default_rng(9))
        assert [len(d.hand_cards(p)) for p in range(3)] == [len(g.hand_cards(p)) for p in range(3)]
        assert d.hand_cards(seat) == g.hand_cards(seat)
        all_cards = sorted(d.hand_cards(0) + d.hand_cards(1) + d.hand_cards(2) + d.deck_cards())
        assert all_cards == sorted(g.hand_cards(0) + g.hand_cards(1) + g.hand_cards(2) + g.deck_cards())


def fort_position(deck):
    """Player 0 holds a fort tile; forest and canyon hexes are free; the deck decides the Fort's card."""
    board = ["M" * 20 for _ in range(20)]
    rows = [list(r) for r in board]
    rows[5][5] = "r"
    rows[5][4] = "G"
    for c in range(2, 5):
        rows[10][c] = "T"
        rows[12][c] = "C"
        rows[18][c] = "G"
        rows[16][c] = "D"
    board = ["".join(r) for r in rows]
    return Game.custom(board=board, settlements=[[(5, 4)], [(16, 2)]], hands=["G", "D"], tiles=[[(5, 5)], []],
                       deck=deck, expansions=["crossroads"])


def test_greedy_values_the_fort_the_same_whatever_the_deck_order():
    """C-6: the card is drawn when the Fort is used, so its value may not depend on the unseen deck."""
    from kbenv.catalogue import ACTION_ID
    from kbenv.policies.greedy import greedy_values

    fort = ACTION_ID["fort"]
    values = []
    for deck in (["T", "C", "G"], ["C", "T", "G"], ["F", "T", "C"]):  # F: no free flower field, no build
        g = fort_position(deck)
        assert fort in g.legal_actions()
        v = np.full(g.action_size, -np.inf)
        greedy_values(g.state, v)
        values.append(v[fort])
    assert values[0] == values[1] == values[2]


def test_the_fort_card_is_public_once_drawn():
    from kbenv.catalogue import ACTION_ID

    g = fort_position(["T", "C"])
    assert g.fort_card() is None
    g.step(ACTION_ID["fort"])
    assert g.fort_card() == "T" and g.deck_size() == 1
    assert PlayerView(g, 1).fort_card() == "T"
    assert {a for a in g.legal_actions() if a < 400} == {10 * 20 + c for c in range(2, 5)}
