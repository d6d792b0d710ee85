"""Every API assumption of the Marshlands rule tests, in one place (tests/rules/marshlands/test_marshlands_*.py).

These tests were written before the Marshlands engine existed, by someone who did not read the engine. They
use the documented public API (docs/api.md: ``Game``, ``kbenv.positions.files``, ``PlayerView``) extended the way
``../shared/design/EXPANSIONS.md`` decision 8 names things. Where decision 8 leaves a detail open, the choice
made here is the most natural extension of the existing position format; an engine that chooses otherwise
adapts this module only (MARSHLANDS_TESTS.md lists every assumption, A1..A17):

* A1  expansion name ``"marshlands"`` (``EXPANSION``) in ``"expansions"`` / ``Game.new(expansions=...)``.
* A2  board letters ``S`` swamp, ``P`` palace; Marshlands location hexes are ``L`` with
      ``"locations": {"r,c": "temple" | "refuge" | "canoe" | "fountain"}`` (``mpos(locations=...)``).
* A3  a swamp card is the string ``"S/G"`` .. ``"S/T"`` in ``"hands"``, ``"deck"``, ``Game.hand``,
      ``Game.removed_cards`` and ``to_position()`` (``swamp_card``).
* A4  ``"bonus_tiles"``: per player, the location types whose bonus tile is held and usable now;
      ``to_position()`` writes a bonus taken this turn under ``"bonus_tiles_fresh"`` (``BONUS_FRESH_KEY``).
      A position holding a bonus tile without two tiles of its type, or more than 2 bonus tiles of one type,
      is refused with a ``SetupError`` naming ``bonus_tiles``. Bonus tiles left = 2 per type minus those held.
* A5  ``"temple_reserve"``: per player, settlements set aside by the Temple (owed in this turn's mandatory
      action by the player to move); ``"supply"`` is then given explicitly (40 - board - reserve).
* A6  ``"removed_terrain"``: the letter removed by the Scouts set-up, or null.
* A7  decisions: power names ``canoe``, ``fountain``, ``temple``, ``refuge``, ``canoe_bonus``,
      ``refuge_bonus`` (the fountain and temple bonuses are passive: never a decision); ``"pass"`` declines a
      Canoe reaction.
* A8  a pending Canoe reaction: ``legal_position`` answers ``{"player": reactor, "phase": "reaction",
      "legal": ["canoe", "pass"]}`` (``REACTION``); after ``"canoe"`` the phase is ``"choose_target"`` with
      the union of the swamp and the water hexes, each adjacent-if-possible on its own (decision 8).
* A9  Temple, Refuge and Refuge bonus: ``"choose_source"`` (own settlements) then ``"choose_target"``.
* A10 ``score_position`` / ``Game.scores()`` rows have a ``"palaces"`` column;
      ``total = cards + castles + capitols + gold + palaces`` (``mscores``).
* A11 card names ``geologists``, ``messengers``, ``noblewomen``, ``vassals``, ``captains``, ``scouts``;
      their gold per unit is ``CARD_GOLD`` (spec A-M11, unverified amounts).
* A12 rule flags (``"options"``), named after the alternative reading they switch on: ``FLAGS``.
* A13 random set-ups: ``Game.new(n, seed=s, expansions=["marshlands"], cards=[...])``; the substitute sections
      are named ``marsh-substitute-1`` .. ``-4`` in ``g.setup.sections``.
* A14 ``Game.to_position()`` writes ``"hands"``, ``"deck"``, ``"removed"``, ``"removed_terrain"``,
      ``"temple_reserve"``, ``"bonus_tiles"``, ``"supply"``, ``"ending"`` and ``"tiles_left"`` as docs/api.md and
      decision 8 say; the tests read the Marshlands state through it (``state``).
* A15 ``Game.decider`` is the reactor during a reaction; ``Game.current_player`` stays the active player.
* A16 a settlement may stand on swamp in a position (not on a palace: ``SetupError`` naming
      ``settlements[p]``).
* A17 with Scouts, a position whose ``"deck"`` holds a card of the removed terrain is refused (``deck``).

Test files import this module as ``tests.rules.marshlands.helpers`` (tests/rules/ and its folders are packages).
"""

from __future__ import annotations

import copy
import json

from tests.rules.positions import located_position, state, with_options  # noqa: F401 (re-exported)

EXPANSION = "marshlands"
MARSH_TYPES = ("temple", "refuge", "canoe", "fountain")
MARSH_POWERS = {"canoe", "fountain", "temple", "refuge", "canoe_bonus", "refuge_bonus"}
REACTION = "reaction"
PASS = "pass"
BONUS_FRESH_KEY = "bonus_tiles_fresh"
SUBSTITUTE_SECTIONS = ["marsh-substitute-1", "marsh-substitute-2", "marsh-substitute-3", "marsh-substitute-4"]
NEW_CARDS = ["geologists", "messengers", "noblewomen", "vassals", "captains", "scouts"]
# spec A-M11 / TG: gold per counted unit (unverified, decision 6)
CARD_GOLD = {"geologists": 2, "messengers": 2, "noblewomen": 5, "vassals": 1, "captains": 1, "scouts": 1}
PALACE_GOLD = 5  # EN 1083
FLAGS = {
    "A-M4": "bonus_kept_after_tile_loss",      # (a) keep the bonus when one of the two tiles is lost
    "A-M5": "canoe_taker_reacts",              # (b) DE 1181: the player who took the last tile reacts too
    "A-M10": "scouts_keep_dealt_hands",        # (b) hands dealt before the reveal are kept
    "A-M11-vassals": "vassals_count_outer_edge",   # (b) every section-border hex, the outer edge included
    "A-M11-geologists": "geologists_count_hexes",  # (b) mountain hexes instead of mountain areas
    "A-M6-end": "temple_reserve_delays_end",   # a secondary source: the reserve set aside delays the game end
    "A-M5-round": "tiles_ready_next_round",    # DE 206: a tile is ready from the next round on
    "A-N9-canoe": "red_cards_score_reactions",  # red cards pay a Canoe reactor too
}


def swamp_card(terrain: str) -> str:
    """The swamp terrain card whose other terrain is ``terrain`` (A3)."""
    return f"S/{terrain}"


def full_deck() -> list[str]:
    """The 30 terrain cards with Marshlands (EN 1039-1051, M-4): 5 of each base terrain + 5 swamp cards."""
    return [t for t in "GCDFT" for _ in range(5)] + [swamp_card(t) for t in "GCDFT"]


def _hexes(hexes):
    return [[int(r), int(c)] for r, c in hexes]


def mpos(kx, cells=None, *, settlements, locations=None, bonus_tiles=None, temple_reserve=None,
         removed_terrain=None, expansions=(EXPANSION,), cards=None, **kwargs):
    """``kx.position`` for Marshlands: ``locations`` = {(r, c): type} for ``L`` hexes (A2), the Marshlands keys
    of decision 8 (A4-A6), ``"expansions"`` with ``marshlands``. ``cells`` may hold the letters S and P.
    Player 0 holds ``card`` (default grass), the others canyon with ``OPP_C`` unless ``hands`` is given."""
    pos = located_position(cells, locations=locations, settlements=settlements, expansions=tuple(expansions),
                           cards=cards, **kwargs)
    if bonus_tiles is not None:
        pos["bonus_tiles"] = [list(b) for b in bonus_tiles]
    if temple_reserve is not None:
        pos["temple_reserve"] = list(temple_reserve)
    if removed_terrain is not None:
        pos["removed_terrain"] = removed_terrain
    return json.loads(json.dumps(pos))




def flag(reading: str) -> dict:
    """``{"<flag name>": True}`` for the alternative reading ``reading`` (a key of FLAGS)."""
    return {FLAGS[reading]: True}




def reserve(g, player: int) -> int:
    """Settlements player ``player`` has set aside with the Temple (A5)."""
    return int(state(g).get("temple_reserve", [0] * g.num_players)[player])


def bonus_held(g, player: int) -> set[str]:
    """Bonus tiles held by ``player``, usable now or taken this turn (A4)."""
    st = state(g)
    held = set(st.get("bonus_tiles", [[]] * g.num_players)[player])
    fresh = st.get(BONUS_FRESH_KEY)
    if fresh is not None:
        held |= set(fresh[player])
    return held


def bonus_ready(g, player: int) -> set[str]:
    """Bonus tiles of ``player`` usable now (A4)."""
    return set(state(g).get("bonus_tiles", [[]] * g.num_players)[player])


def mscores(pos):
    """score_position rows; with Marshlands total = cards + castles + capitols + gold + palaces (A10)."""
    from kbenv.positions.files import score_position

    out = score_position(copy.deepcopy(pos))
    for row in out:
        assert "palaces" in row, row
        assert row["total"] == (sum(row["cards"].values()) + row["castles"] + row["capitols"] + row["gold"]
                                + row["palaces"] + sum(row.get("tasks", {}).values())), row
    return out


def game_mscores(g):
    """Game.scores() rows checked like ``mscores``."""
    out = g.scores()
    for row in out:
        assert "palaces" in row, row
        assert row["total"] == (sum(row["cards"].values()) + row["castles"] + row["capitols"] + row["gold"]
                                + row["palaces"] + sum(row.get("tasks", {}).values())), row
    return out


def react(target) -> list:
    """The decisions of a Canoe reaction that builds on ``target`` (A7, A8)."""
    return ["canoe", target]


def new_game(num_players: int, seed: int, cards=None, **kwargs):
    """A random Marshlands set-up (A13)."""
    from kbenv import Game

    if cards is not None:
        kwargs["cards"] = list(cards)
    return Game.new(num_players, seed=seed, expansions=[EXPANSION], **kwargs)
