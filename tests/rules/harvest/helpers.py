"""Every API assumption of the Harvest rule tests, in one place (tests/rules/harvest/test_harvest_*.py).

These tests were written before the Harvest engine existed (issue 22), by someone who did not read the engine.
They use the documented public API (docs/api.md: ``Game``, ``kbenv.positions.files``) extended the way
``../shared/design/EXPANSIONS.md`` decision 8 names things. Where decision 8 leaves a detail open, the choice made
here is the most natural extension of the existing position format; an engine that chooses otherwise adapts this
module only (HARVEST_TESTS.md lists every assumption, HA1..HA20):

* HA1  expansion name ``"harvest"`` (``EXPANSION``); ``requires_harvest`` skipped every Harvest module while the
       engine had no Harvest; now that its rules exist the modules run, opted into the expansion under
       construction by conftest.py's ``harvest_opt_in`` fixture.
* HA2  board letters ``A`` farmland (buildable), ``O`` silo (not buildable, a special hex); Harvest location hexes
       are ``L`` with ``"locations": {"r,c": type}`` (``hpos(locations=...)``), types ``HARVEST_TYPES``.
* HA3  decisions: the power names of ``HARVEST_TYPES`` and ``"farmland"`` (the farm action, ``FARM``), hexes
       ``[r, c]``, ``"done"``, ``"end_turn"``.
* HA4  position keys of decision 8: ``"farmland_used"`` (per player bool, this turn), ``"number_tiles"`` (per player:
       the total VALUE of Cathedral number tiles held, A-H5 a), ``"mayor_lines"`` (``{"row": seat}``, row 0..19 as a
       string), ``"scouts"`` (per player: list of [r, c] of scout tiles on the board this turn; only the player to
       move may have any). ``Game.to_position()`` writes all four (``state``), and ``"gold"``, ``"supply"``,
       ``"ending"``, ``"tiles_left"`` as docs/api.md says.
* HA5  the farm action: ``"farmland"`` in phase ``"idle"``, then ``"choose_target"`` with the farmland hexes.
* HA6  build powers (water_mill, mountain_station, watchtower, university, cathedral builds): ``"choose_target"``
       after the power name; move powers (palisade, silo moves): ``"choose_source"`` then ``"choose_target"``.
* HA7  Scout cabin: ``"scout_cabin"`` -> the first scout hex; then the second scout hex or ``"done"`` (keep one);
       no ``"done"`` before the first scout (as for the Resettlement tile: ``done`` only after a step).
* HA8  Cathedral: ``"cathedral"`` -> a mode choice ``{"take", "return"}`` (only the options that have a completion:
       ``take`` needs a tile in the pool, ``return`` a held value and a target); ``"return"`` -> hexes of the turn's
       terrain (adjacent if possible), one value per build, ``"done"`` after the first build, the power ends by
       itself when the value is spent; the cathedral is not offered when neither option has a completion.
* HA9  Bazaar: ``"bazaar"`` -> phase ``CHOOSE_POWER`` whose legal decisions are power names; the chosen power then
       runs as usual without using its own tile (spec 3.2).
* HA10 Silo phase: after the last turn of the game, phase ``SILO_PHASE`` = ``"silo"``, decided by the silo player
       (``legal_position``'s ``"player"``): ``"build"`` / ``"move"`` / ``"done"`` (pass) once per adjacent silo; a
       build is a hex, a move a source then a target (``"choose_source"`` / ``"choose_target"`` as for the other
       move powers); ``"done"`` after the first build or move; the third build or move closes that silo. Then
       ``"game_over"`` and ``Game.done``.
* HA11 score rows are those of docs/api.md (``cards``, ``castles``, ``capitols``, ``gold``, ``total``; no new column):
       Mayors marks inside ``cards["mayors"]``, Rovers gold inside ``"gold"`` (``cards["rovers"]`` is 0).
* HA12 card names ``NEW_CARDS``; unverified amounts ``CARD_GOLD`` (spec A-H9, decision 6), Mayors 4 per mark (T).
* HA13 rule flags (``"options"`` / ``rules=``), named after the alternative reading they switch on: ``FLAGS``.
* HA14 random set-ups: ``Game.new(n, seed=s, expansions=["harvest"], cards=[...])``; substitute sections are named
       ``harvest-substitute-1`` .. ``-4`` in ``g.setup.sections`` and shipped as
       ``kbenv/data/sections/harvest-substitute-<k>.txt`` with ``# location: r,c type`` header lines (the format of
       the Marshlands substitutes).
* HA15 ``Game.gold(p)`` (docs/api.md) holds the Rovers gold banked at the end of a turn.
* HA16 position validation: ``number_tiles`` above the pool (8 ones + 2 fives = 18 in all) is refused with a
       ``SetupError`` naming ``number_tiles``; scouts of a player who is not to move are refused (``scouts``); more
       than 2 scouts are refused (``scouts``); settlements may stand on farmland, never on a silo (``settlements``).

Test files import this module as ``tests.rules.harvest.helpers`` (tests/rules/ and its folders are packages).
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from tests.rules.positions import located_position, state, with_options  # noqa: F401 (re-exported)

EXPANSION = "harvest"
HARVEST_TYPES = ("bazaar", "water_mill", "mountain_station", "scout_cabin", "cathedral", "watchtower", "university",
                 "palisade")
FARM = "farmland"
SILO_PHASE = "silo"
CHOOSE_POWER = "choose_power"
BUILD, MOVE, DONE = "build", "move", "done"
TAKE, RETURN = "take", "return"
SUBSTITUTE_SECTIONS = [f"harvest-substitute-{k}" for k in range(1, 5)]
NEW_CARDS = ["mayors", "rangers", "chainers", "travellers", "homesteaders", "rovers"]
# spec A-H9 / TG, kb_prompt: gold per counted unit (unverified, decision 6)
CARD_GOLD = {"travellers": 1, "homesteaders": 1, "rangers": 2, "chainers": 1}
MAYOR_GOLD = 4          # EN 1377 "each marked line is worth 4 gold"
NUMBER_TILES = {1: 8, 5: 2}   # DE 1407 "2x 5er: 8x 1er"
POOL_VALUE = 8 * 1 + 2 * 5    # 18
FLAGS = {
    "A-H2": "silo_by_silo",                       # (b) silo by silo, each silo in turn order
    "A-H3": "bazaar_repeats_used_power_only",     # (b) only a power already used this turn
    "A-H3 pieces": "bazaar_keeps_pieces_in_place",  # the Scout cabin and City hall are not repeated to relocate
    "A-H6": "palisade_moves_lone_settlement",     # (b) a lone settlement may step to a free neighbour
    "A-H7": "mayors_contiguous",                  # (b) the 4 settlements must be contiguous in the row
    "A-X2": "silos_count_as_special",             # silos count for Workers and Merchants
}

REPO = Path(__file__).resolve().parents[3]


# Harvest is implemented (issue 22): the modules run by default and skip only where the catalogue has no Harvest row
# at all. KBENV_RUN_HARVEST_TESTS=1 (the switch used before the rules existed) is no longer needed.
def harvest_available() -> bool:
    """True where kbenv.catalogue.EXPANSIONS has a ``harvest`` row (implemented or under construction)."""
    from kbenv.catalogue import EXPANSIONS

    return any(e.name == EXPANSION for e in EXPANSIONS)


requires_harvest = pytest.mark.skipif(not harvest_available(), reason="issue 22: no Harvest in kbenv.catalogue")


def hpos(kx, cells=None, *, settlements, locations=None, farmland_used=None, number_tiles=None, mayor_lines=None,
         scouts=None, ending=None, expansions=(EXPANSION,), cards=None, **kwargs) -> dict:
    """``kx.position`` for Harvest: ``locations`` = {(r, c): type} for ``L`` hexes (HA2), the Harvest keys of
    decision 8 (HA4) and ``"ending"``. ``cells`` may hold the letters A and O. Player 0 holds ``card`` (default
    grass), the others canyon with ``OPP_C`` unless ``hands`` is given (conftest)."""
    pos = located_position(cells, locations=locations, settlements=settlements, expansions=tuple(expansions),
                           cards=cards, **kwargs)
    if farmland_used is not None:
        pos["farmland_used"] = [bool(x) for x in farmland_used]
    if number_tiles is not None:
        pos["number_tiles"] = [int(x) for x in number_tiles]
    if mayor_lines is not None:
        pos["mayor_lines"] = {str(int(row)): int(seat) for row, seat in mayor_lines.items()}
    if scouts is not None:
        pos["scouts"] = [[[int(r), int(c)] for r, c in s] for s in scouts]
    if ending is not None:
        pos["ending"] = bool(ending)
    return json.loads(json.dumps(pos))




def flag(reading: str) -> dict:
    """``{"<flag name>": True}`` for the alternative reading ``reading`` (a key of FLAGS)."""
    return {FLAGS[reading]: True}




def number_tiles(g, player: int) -> int:
    """The value of Cathedral number tiles ``player`` holds (HA4)."""
    return int(state(g).get("number_tiles", [0] * g.num_players)[player])


def scouts_on_board(g, player: int) -> set:
    """Scout tiles of ``player`` on the board (HA4)."""
    st = state(g).get("scouts", [[]] * g.num_players)
    return {tuple(h) for h in st[player]}


def mayor_lines(g) -> dict:
    """Marked rows: {row: seat} (HA4)."""
    return {int(row): int(seat) for row, seat in (state(g).get("mayor_lines") or {}).items()}


def farmland_used(g, player: int) -> bool:
    """The farm action was taken this turn by ``player`` (HA4)."""
    return bool(state(g).get("farmland_used", [False] * g.num_players)[player])


def hscores(pos: dict) -> list:
    """score_position rows, total = every column summed (HA11)."""
    from kbenv.positions.files import score_position

    out = score_position(copy.deepcopy(pos))
    for row in out:
        assert row["total"] == (sum(row["cards"].values()) + row["castles"] + row["capitols"] + row["gold"]
                                + row.get("palaces", 0) + sum(row.get("tasks", {}).values())), row
    return out


def game_hscores(g) -> list:
    """Game.scores() rows checked like ``hscores``."""
    out = g.scores()
    for row in out:
        assert row["total"] == (sum(row["cards"].values()) + row["castles"] + row["capitols"] + row["gold"]
                                + row.get("palaces", 0) + sum(row.get("tasks", {}).values())), row
    return out


def new_game(num_players: int, seed: int, cards=None, expansions=(EXPANSION,), **kwargs):
    """A random Harvest set-up (HA14)."""
    from kbenv import Game

    if cards is not None:
        kwargs["cards"] = list(cards)
    return Game.new(num_players, seed=seed, expansions=list(expansions), **kwargs)


def substitute_locations(name: str) -> dict:
    """{(r, c): type} of a shipped substitute section, from its ``# location: r,c type`` header lines (HA14)."""
    text = (REPO / "kbenv" / "data" / "sections" / f"{name}.txt").read_text()
    out = {}
    for m in re.finditer(r"^#\s*location:\s*(\d+)\s*,\s*(\d+)\s+(\w+)\s*$", text, flags=re.M):
        out[(int(m.group(1)), int(m.group(2)))] = m.group(3)
    return out
