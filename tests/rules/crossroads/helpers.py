"""Shared helpers of the Crossroads acceptance tests (tests/rules/crossroads/test_crossroads_*.py).

The Crossroads tests build positions like the other expansion tests (the ``kx`` fixture of conftest,
mountain-filled boards), with two areas of their own:

* ``MAND_G``: three grass hexes ``(18, 0) (18, 1) (18, 2)`` in a row, player 0's mandatory area when its
  card is grass (``MAND`` = the three hexes).
* ``OPP_D``: three desert hexes ``(16, 0) (16, 1) (16, 2)`` for player 1, whose hand is desert by default
  in ``cpos`` (``OPP_D_HEXES`` = the three hexes), so its turn is three forced builds.

``cpos`` adds the Crossroads piece fields of the position contract (warriors, wagons, ships, city halls),
``cscores`` checks the Crossroads score rows (with "tasks"), ``piece`` reads one piece back from a game,
and ``READINGS`` parametrises a test over the two readings of the warrior zone (A-C1).

The test files import these as ``from tests.rules.crossroads.helpers import ...`` (tests/rules/ and its folders are
packages).
"""

import copy
import json

import pytest

MAND_G = {(18, 0): "G", (18, 1): "G", (18, 2): "G"}
MAND = set(MAND_G)
OPP_D = {(16, 0): "D", (16, 1): "D", (16, 2): "D"}
OPP_D_HEXES = set(OPP_D)

READINGS = [pytest.param(None, id="zone-blocks-all"),
            pytest.param({"zone_blocks_settlements_only": True}, id="zone-blocks-settlements-only")]


def cpos(kx, cells=None, *, settlements, card="G", hands=None, opp=True, warriors=None, wagons=None, ships=None,
         city_halls=None, expansions=("crossroads",), **kwargs):
    """``kx.position`` for Crossroads: player 1 holds desert with ``OPP_D`` (instead of canyon with OPP_C),
    plus the Crossroads piece fields of the contract."""
    board = dict(OPP_D) if opp else {}
    board.update(cells or {})
    if hands is None:
        hands = [card] + ["D"] * (len(settlements) - 1)
    pos = kx.position(board, settlements=settlements, hands=hands, expansions=expansions, opp_area=False, **kwargs)
    if warriors is not None:
        pos["warriors"] = [[[int(r), int(c)] for r, c in w] for w in warriors]
    for key, value in (("wagons", wagons), ("ships", ships), ("city_halls", city_halls)):
        if value is not None:
            pos[key] = [None if h is None else [int(h[0]), int(h[1])] for h in value]
    return json.loads(json.dumps(pos))


def cscores(pos):
    """score_position rows; in Crossroads games total = cards + castles + capitols + gold + tasks."""
    from kbenv.positions.files import score_position

    out = score_position(copy.deepcopy(pos))
    for row in out:
        assert "tasks" in row, row
        assert row["total"] == (sum(row["cards"].values()) + row["castles"] + row["capitols"] + row["gold"]
                                + sum(row["tasks"].values())), row
    return out


def piece(g, p, kind):
    """Player ``p``'s ``kind`` piece ("wagon", "ship" or "city_hall") on the board as a hex, or None."""
    h = g.pieces(p)[kind]
    return None if h is None else tuple(h)
