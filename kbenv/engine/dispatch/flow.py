"""The decision flow's events (kbenv.engine.turns, legal and actions call them; see kbenv.engine.dispatch).

Callers check `st[EXPANSIONS] != 0` first, so base games never enter these ladders. Set-up:
`expansions_dealt(rng)`: the random parts of the expansions' set-ups, in this order, from one generator;
`island_dealt(side, seed)`: the island's, after the rest. Turns:
- `turn_begun(p)`: p's turn has begun and p holds a card; `mandatory_card_replaced()`: the mandatory action's
  card was replaced (the no-eligible-hex exception); `hand_has_free_hex(p)`: some option of p's hand has a free
  hex;
- `hand_discarded(p)` / `hand_drawn(p)`: around the end of a turn's draw (the turn's tiles become ready there);
  `turn_ended(p, last)`: the turn is over (`last`: the round's last seat); `game_ending()`: the game ends.

Legality: `option_pending()`, `tile_action_repeatable()`, `adjacency_waived(p)`, `usable_off_board_tile(ready,
power)`, `off_board_tile_types(tiles)` (the plain facts, such as `has_reactions`, are in kbenv.engine.dispatch.facts).

Actions: `hex_chosen(p, phase, h)` (before any chosen hex is applied); `mandatory_build_begins(p)` /
`mandatory_build_done(p, h)` / `mandatory_action_done(p)`; `power_build_done(p, h)`, `build_goes_on(p, power)`,
`piece_placed_by_power(p, power, h)` (True when an expansion placed the piece), `enters_choice(p, power)`,
`power_finished()`; `own_for_lines(p, own, out)`, `add_adjacency_of_pieces(p, mask)` (pieces that count as p's
settlements for a base power: Harvest's scouts).

Scoring: `extra_lines(p)`, `extra_best_line(p)` (lines off the board's 20 rows: the island's),
`off_board_fishermen(p)`, `expansion_card(p, card)`, `capitols(p)`, `tasks(p)`, `palaces(p)`.
"""

from __future__ import annotations

from numba import njit

from ...board.codes import SWAMP
from ...catalogue import CAPITOL, CAVES, CROSSROADS, HARVEST, ISLAND, MARSHLANDS, NOMADS
from ..crossroads.deal import deal_tasks
from ..crossroads.rules import card_at, choosing_terrain, discard_extra_cards, draw_extra_cards, fix_terrain
from ..crossroads.rules import hand_has_free_hex as crossroads_hand_has_free_hex
from ..crossroads.tasks import score_tasks
from ..deck import card_has_free_hex
from ..harvest import hooks as harvest
from ..harvest.powers import add_scout_neighbours, with_scouts
from ..harvest.scoring import FIRST_HARVEST_CARD, score_harvest_card
from ..island.deal import deal_island, side_of_seed
from ..island.rules import BOARD_TILES, island_best_line, island_lines, island_tile_types, usable_island_tile
from ..island.scoring import island_fishermen
from ..marshlands import hooks as marsh
from ..marshlands.deal import scouts_in_play, scouts_setup
from ..marshlands.scoring import FIRST_MARSH_CARD, score_marsh_card, score_palaces
from ..marshlands.swamp import PLAIN_BUILDS, SWAMP_BUILDS, hand_terrain
from ..nomads.deal import deal_nomad_tiles
from ..nomads.hooks import remember_mandatory_hex
from ..nomads.rules import end_of_round, families_after_mandatory
from ..queenies.deal import deal_capitols, deal_caves
from ..queenies.rules import score_capitols
from ..state import (
    BONUS_USED,
    CAVE_USED,
    EXPANSIONS,
    HAND,
    MANDATORY_BUILT,
    MANDATORY_TARGET,
    NO_CARD,
    NUM_CAPITOLS,
    NUM_TASKS,
    OUTPOST_ARMED,
    PHASE_IDLE,
    PHASE_MANDATORY,
    PHASE_TARGET,
    POWER,
    TERRAIN_FIXED,
    TILES_FRESH,
    TURN_TERRAIN,
)
from ..traits import POWER_FIXES_TERRAIN


# ----- set-up -------------------------------------------------------------------------------------------------
@njit(cache=True)
def expansions_dealt(st, rng) -> None:
    if st[EXPANSIONS] & NOMADS:
        deal_nomad_tiles(st, rng)
    if st[EXPANSIONS] & CAPITOL:
        deal_capitols(st, rng)
    if st[EXPANSIONS] & CAVES:
        deal_caves(st, rng)
    if st[EXPANSIONS] & CROSSROADS:
        deal_tasks(st, rng)
    if st[EXPANSIONS] & MARSHLANDS and scouts_in_play(st):
        scouts_setup(st, rng)


@njit(cache=True)
def island_dealt(st, side: int, seed: int) -> None:
    """The island's set-up, after the rest of the game's (kbenv.engine.island.deal): its side (`side`, or from
    the seed when negative) and its tiles."""
    if st[EXPANSIONS] & ISLAND:
        deal_island(st, side_of_seed(seed) if side < 0 else side)


# ----- turns --------------------------------------------------------------------------------------------------
@njit(cache=True)
def turn_begun(st, p: int) -> None:
    st[CAVE_USED] = 0
    st[OUTPOST_ARMED] = 0
    if st[EXPANSIONS] & MARSHLANDS:
        marsh.begin_turn(st, p)  # a reserve owed is built in this mandatory action, on top (M-12)


@njit(cache=True)
def mandatory_card_replaced(st) -> None:
    if st[EXPANSIONS] & MARSHLANDS:
        # a drawn card governs the rest of the action: a swamp card offers both options again, and the
        # count of 2 a swamp card's swamp gave goes back to 3 (the new card sets its own when fixed)
        if st[TERRAIN_FIXED] == 1 and st[TURN_TERRAIN] == SWAMP:
            st[MANDATORY_TARGET] += PLAIN_BUILDS - SWAMP_BUILDS
        st[TERRAIN_FIXED] = 0
        st[TURN_TERRAIN] = 0


@njit(cache=True)
def hand_has_free_hex(st, p: int) -> bool:
    """Some terrain p's hand offers has a free hex: an open hand's options (several Crossroads cards, a swamp
    card, A-C8, A-M2), else the terrain of p's card this turn."""
    if choosing_terrain(st, p):
        return crossroads_hand_has_free_hex(st, p)
    return st[HAND + p] != NO_CARD and card_has_free_hex(st, hand_terrain(st, p))


@njit(cache=True)
def hand_discarded(st, p: int) -> None:
    if st[EXPANSIONS] & CROSSROADS:
        discard_extra_cards(st, p)


@njit(cache=True)
def hand_drawn(st, p: int) -> None:
    if st[EXPANSIONS] & CROSSROADS:
        draw_extra_cards(st, p)
    if st[EXPANSIONS] & MARSHLANDS:
        st[TERRAIN_FIXED] = 0
        st[TURN_TERRAIN] = 0
    else:
        st[TILES_FRESH + p] = 0  # ready from the next turn on (EN 213); with Marshlands: turn_ended (A-M5)


@njit(cache=True)
def turn_ended(st, p: int, last: bool) -> None:
    st[OUTPOST_ARMED] = 0
    if st[EXPANSIONS] & MARSHLANDS:
        marsh.end_turn(st, p, last)  # and the tiles taken become ready (A-M5)
        st[BONUS_USED + p] = 0
    if st[EXPANSIONS] & HARVEST:
        harvest.end_turn(st, p)  # the farm action comes back next turn (A-H1)
    if last:
        end_of_round(st)


@njit(cache=True)
def game_ending(st) -> None:
    if st[EXPANSIONS] & HARVEST:
        harvest.game_end(st)  # the silo phase comes before the final scoring (H-5)


# ----- legality ---------------------------------------------------------------------------------------------
@njit(cache=True)
def option_pending(st) -> bool:
    """A choice of option-1 / option-2 comes before any hex (a number tile's take / return, HA8)."""
    return st[EXPANSIONS] & HARVEST != 0 and harvest.option_pending(st)


@njit(cache=True)
def tile_action_repeatable(st) -> bool:
    """A repeat (Harvest, A-H3) may run the Crossroads tile's extra action once more: Crossroads is in play and
    the flag of A-H3 b (only powers used this turn) is off."""
    return st[EXPANSIONS] & CROSSROADS != 0 and not harvest.repeats_used_only(st)


@njit(cache=True)
def adjacency_waived(st, p: int) -> bool:
    """The mandatory action's next build may ignore adjacency (a Marshlands bonus, M-13, A-M7)."""
    return st[EXPANSIONS] & MARSHLANDS != 0 and marsh.waives_adjacency(st, p)


@njit(cache=True)
def usable_off_board_tile(st, ready: int, power: int) -> int:
    """The bit of an off-board location's tile of this power among `ready` (the island's), or -1."""
    if st[EXPANSIONS] & ISLAND:
        return usable_island_tile(st, ready, power)
    return -1


@njit(cache=True)
def off_board_tile_types(st, tiles: int) -> tuple[int, int]:
    """(type bits of the off-board locations' tiles among `tiles`, the board's tiles of `tiles`)."""
    if st[EXPANSIONS] & ISLAND:
        return island_tile_types(st, tiles), tiles & BOARD_TILES
    return 0, tiles


# ----- actions ----------------------------------------------------------------------------------------------
@njit(cache=True)
def hex_chosen(st, p: int, phase: int, h: int) -> None:
    """An open hand (several Crossroads cards, a swamp card): the first hex chosen for the card's terrain fixes
    this turn's terrain (A-C8): the mandatory action's, or a power's with the `fixes_terrain` trait (Oracle, Barn,
    Quarry)."""
    if choosing_terrain(st, p) and (phase == PHASE_IDLE or phase == PHASE_MANDATORY
                                    or (phase == PHASE_TARGET and POWER_FIXES_TERRAIN[st[POWER]])):
        fix_terrain(st, p, card_at(st, h))


@njit(cache=True)
def mandatory_build_begins(st, p: int) -> None:
    if st[EXPANSIONS] & MARSHLANDS:
        marsh.before_mandatory_build(st, p)  # a reserve owed is built first (A-M6)


@njit(cache=True)
def mandatory_build_done(st, p: int, h: int) -> None:
    """A settlement of the mandatory action stands on h (MANDATORY_BUILT not counted up yet)."""
    if st[EXPANSIONS] & HARVEST:
        harvest.settlement_built(st, p, h)  # Rovers (H-19)
    if st[EXPANSIONS] & NOMADS:
        remember_mandatory_hex(st, h)


@njit(cache=True)
def mandatory_action_done(st, p: int) -> None:
    if st[EXPANSIONS] & NOMADS:
        families_after_mandatory(st, p, st[MANDATORY_BUILT])


@njit(cache=True)
def power_build_done(st, p: int, h: int) -> None:
    if st[EXPANSIONS] & HARVEST:
        harvest.settlement_built(st, p, h)  # Rovers (H-19)


@njit(cache=True)
def build_goes_on(st, p: int, power: int) -> bool:
    """The power builds again (a number tile's next build, A-H5), given supply and a target."""
    return st[EXPANSIONS] & HARVEST != 0 and harvest.build_goes_on(st, p, power)


@njit(cache=True)
def piece_placed_by_power(st, p: int, power: int, h: int) -> bool:
    """An expansion's power placed its piece on h (Harvest: scouts, A-H4); False: not one of theirs."""
    return st[EXPANSIONS] & HARVEST != 0 and harvest.place_piece(st, p, power, h)


@njit(cache=True)
def enters_choice(st, p: int, power: int) -> bool:
    """Activating this power opens a choice of the power to run (a Harvest repeat, A-H3) instead of its phase."""
    return st[EXPANSIONS] & HARVEST != 0 and harvest.enters_choice(st, p, power)


@njit(cache=True)
def power_finished(st) -> None:
    if st[EXPANSIONS] & HARVEST:
        harvest.power_finished(st)


@njit(cache=True)
def own_for_lines(st, p: int, own, out):
    """p's settlements as a base power's lines read them: with the turn owner's scouts (A-H4), else `own`."""
    if st[EXPANSIONS] & HARVEST:
        return with_scouts(st, p, own, out)
    return own


@njit(cache=True)
def add_adjacency_of_pieces(st, p: int, mask) -> None:
    """mask |= the hexes next to pieces that count for p's adjacency (the turn owner's scouts, H-9)."""
    if st[EXPANSIONS] & HARVEST:
        add_scout_neighbours(st, p, mask)


# ----- scoring ----------------------------------------------------------------------------------------------
@njit(cache=True)
def extra_lines(st, p: int) -> int:
    """Lines (Lords/Citizens' rows) beyond the board's 20 in which p has a settlement (the island's, QI-2)."""
    if st[EXPANSIONS] & ISLAND:
        return island_lines(st, p)
    return 0


@njit(cache=True)
def extra_best_line(st, p: int) -> int:
    """p's most settlements in one line beyond the board's 20 (the island's, QI-2, A-QI1)."""
    if st[EXPANSIONS] & ISLAND:
        return island_best_line(st, p)
    return 0


@njit(cache=True)
def off_board_fishermen(st, p: int) -> int:
    """Fishermen with off-board hexes: the island's coast counts as water (A-QI2)."""
    return island_fishermen(st, p)


@njit(cache=True)
def expansion_card(st, p: int, card: int) -> int:
    """The gold of an expansion's scoring card for p (Harvest's, Marshlands'); 0 for any other card."""
    if card >= FIRST_HARVEST_CARD:
        return score_harvest_card(st, p, card)
    if card >= FIRST_MARSH_CARD:
        return score_marsh_card(st, p, card)
    return 0


@njit(cache=True)
def capitols(st, p: int) -> int:
    """The capitols column (Capitol, A-Q1): 0 in games without capitols."""
    return score_capitols(st, p) if st[NUM_CAPITOLS] > 0 else 0


@njit(cache=True)
def tasks(st, p: int) -> int:
    """The tasks column (Crossroads, C-8): 0 in games without tasks."""
    return score_tasks(st, p) if st[NUM_TASKS] > 0 else 0


@njit(cache=True)
def palaces(st, p: int) -> int:
    """The palaces column (Marshlands, M-9); 0 in other games."""
    if st[EXPANSIONS] & MARSHLANDS:
        return score_palaces(st, p)
    return 0
