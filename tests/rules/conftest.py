"""Board-building helpers for the rule tests: the ``kb`` fixture of the base rule tests (tests/rules/test_*.py),
the ``kx`` fixture of the expansion rule tests (tests/rules/<expansion>/, tests/rules/positions.py).

Positions are built with ``Game.custom`` on small, readable boards: by default every hex is
mountain ``M`` (never buildable) and only the hexes a test places deliberately are buildable, so
the expected legal sets can be worked out by hand from the rule text.

Coordinates are ``(row, col)``, odd-r (odd rows shifted half a hex to the right), see
docs/api.md and /work/shared/kb-data/README.md.
"""

from types import SimpleNamespace

import numpy as np
import pytest

from kbenv import ACTION_SIZE, END_TURN, TILE_ACTION, Game, IllegalActionError, hex_action
from tests.rules import positions
from tests.rules.positions import make_board, neighbours

SCORING_CARDS = ["fishermen", "knights", "merchants"]
TERRAINS = "GCDFT"
TILE_NAMES = ["oracle", "farm", "oasis", "tower", "tavern", "barn", "harbor", "paddock"]


def striped_board():
    """Every hex buildable: column c has terrain GCDFT[c % 5] (80 hexes of each terrain)."""
    return ["".join(TERRAINS[c % 5] for c in range(20)) for _ in range(20)]


def new_game(cells=None, *, board=None, fill="M", num_players=2, hands=None, settlements=None,
             **kwargs):
    """``Game.custom`` on ``make_board(cells, fill)`` (or an explicit ``board``)."""
    if board is None:
        board = make_board(cells, fill)
    if settlements is None:
        settlements = [[] for _ in range(num_players)]
    if hands is None:
        hands = ["G"] * num_players
    return Game.custom(
        board=board,
        num_players=num_players,
        cards=list(SCORING_CARDS),
        settlements=[list(s) for s in settlements],
        hands=list(hands),
        **kwargs,
    )


def legal(g):
    """Legal actions as a set, after checking that legal_mask and legal_actions agree."""
    mask = np.asarray(g.legal_mask())
    assert mask.shape == (ACTION_SIZE,)
    actions = list(g.legal_actions())
    assert actions == sorted(actions)
    assert actions == [int(a) for a in np.flatnonzero(mask)]
    return set(actions)


def legal_hexes(g):
    """The legal hex actions as a set of (row, col)."""
    return {(a // 20, a % 20) for a in legal(g) if a < 400}


def legal_tiles(g):
    """The legal tile actions as a set of tile names."""
    return {name for name, a in TILE_ACTION.items() if a in legal(g)}


def tiles(g, player):
    """g.tiles(player) normalised to a list of (name, (row, col))."""
    return [(name, tuple(rc)) for name, rc in g.tiles(player)]


def build(g, *hexes):
    """Step the given hexes one after the other."""
    for r, c in hexes:
        g.step(hex_action(r, c))


def use(g, tile, *hexes):
    """Activate a tile power, then step the given hexes (source/target)."""
    g.step(TILE_ACTION[tile])
    build(g, *hexes)


def play_turn(g):
    """Finish the current player's turn: first legal hex while one is legal, never a tile power,
    END_TURN when it is legal (the engine may also end the turn by itself)."""
    player = g.current_player
    for _ in range(20):
        if g.done or g.current_player != player:
            return
        acts = legal(g)
        hexes = sorted(a for a in acts if a < 400)
        if hexes:
            g.step(hexes[0])
        elif END_TURN in acts:
            g.step(END_TURN)
        else:
            raise AssertionError(f"player {player} stuck in phase {g.phase}: {sorted(acts)}")
    raise AssertionError("turn did not end")


def snapshot(g):
    """Everything an illegal step must leave unchanged."""
    n = g.num_players
    return {
        "mask": np.asarray(g.legal_mask()).tolist(),
        "phase": g.phase,
        "current": g.current_player,
        "done": g.done,
        "settlements": [set(g.settlements(p)) for p in range(n)],
        "supply": [g.supply(p) for p in range(n)],
        "hands": [g.hand(p) for p in range(n)],
        "tiles": [tiles(g, p) for p in range(n)],
        "deck": g.deck_size(),
        "discard": list(g.discard_pile()),
        "removed": list(g.removed_cards()),
    }


def assert_illegal(g, action):
    """Stepping ``action`` raises IllegalActionError naming the action; state unchanged."""
    before = snapshot(g)
    with pytest.raises(IllegalActionError) as info:
        g.step(action)
    assert isinstance(info.value, ValueError)
    assert str(action) in str(info.value)
    assert snapshot(g) == before


@pytest.fixture
def kb():
    """Helpers and constants for building positions (see the module docstring)."""
    return SimpleNamespace(
        board=make_board,
        striped_board=striped_board,
        neighbours=neighbours,
        game=new_game,
        legal=legal,
        hexes=legal_hexes,
        tile_actions=legal_tiles,
        tiles=tiles,
        build=build,
        use=use,
        play_turn=play_turn,
        snapshot=snapshot,
        assert_illegal=assert_illegal,
        H=hex_action,
        TILE=TILE_ACTION,
        END_TURN=END_TURN,
        ACTION_SIZE=ACTION_SIZE,
        Game=Game,
        IllegalActionError=IllegalActionError,
        TERRAINS=TERRAINS,
        TILE_NAMES=TILE_NAMES,
    )


@pytest.fixture
def kx():
    """Helpers and constants for the expansion tests (tests/rules/positions.py)."""
    return positions.namespace()
