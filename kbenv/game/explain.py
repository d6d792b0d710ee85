"""Human-readable reasons why an action is illegal (used only on the error path). An island hex's action
(`island r,c`) is explained as a hex and named so; the tiles a player holds include the island's location tile."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .. import catalogue as CAT
from ..board.bitset import BITS_PER_WORD, WORDS
from ..board.codes import CARD_TEXT, LOCATION_NAMES, NUM_POWERS, NUM_TERRAIN_CODES, SWAMP_CARD_BASE, TERRAIN_NAMES
from ..board.colours import seat_name
from ..board.geometry import ISLAND_COLS, NUM_HEXES, NUM_ISLAND_HEXES, ROWS, hex_rc
from ..engine import state as S
from ..engine.legal import END_TURN, TILE_ACTION_BASE, legal_mask_into, usable_tile
from ..engine.powers import power_has_completion
from ..expansions.island.setup import location_info, location_slots
from ..safe_json import short_repr
from .actions import action_hex, is_island_action

if TYPE_CHECKING:
    from . import Game


def explain_illegal(game: Game, action: int) -> str:
    st = game.state.copy()  # the explanation must not touch the game, scratch space included
    mask = np.zeros(game.action_size, dtype=np.int8)
    legal_mask_into(st, mask)
    phase = S.PHASE_NAMES[int(st[S.PHASE])]
    p = int(st[S.CURRENT])
    if action < 0 or action >= game.action_size:
        return f"actions are 0..{game.action_size - 1}"
    if phase == "game_over":
        return "the game is over"
    if phase == "silo":
        return explain_silo(st, action)
    if action > END_TURN and not is_island_action(action):
        return explain_expansion_action(game, st, action, phase, p)
    if action == END_TURN:
        if phase != "idle":
            return (f"cannot end the turn in phase {short_repr(phase)}: the current build or power must be "
                    "finished first")
        return "the mandatory action (3 settlements) is not done yet"
    if TILE_ACTION_BASE <= action < END_TURN:
        power = action - TILE_ACTION_BASE
        name = LOCATION_NAMES[power]
        if phase != "idle":
            return f"powers can only be activated between actions, not in phase {short_repr(phase)}"
        held = [int(st[S.LOC_TYPE + i]) for i in range(int(st[S.NUM_LOCATIONS])) if st[S.TILES_HELD + p] >> i & 1]
        if power not in held:
            return f"{seat_name(p)} holds no {name} tile"
        if usable_tile(st, p, power) < 0:
            of_type = [i for i in range(int(st[S.NUM_LOCATIONS])) if st[S.LOC_TYPE + i] == power]
            fresh = [i for i in of_type if st[S.TILES_FRESH + p] >> i & 1]
            used = [i for i in of_type if st[S.TILES_USED + p] >> i & 1]
            if fresh and not used:
                return f"the {name} tile was taken this turn and can be used from the next turn on"
            return f"every {name} tile of {seat_name(p)} was already used this turn"
        tmp = np.zeros(WORDS, dtype=np.int64)
        if not power_has_completion(st, p, power, tmp):
            if power < 5 and st[S.SUPPLY + p] == 0:
                return f"{seat_name(p)} has no settlement left in supply"
            return f"the {name} power has no legal destination now"
        return "not legal now"
    if is_island_action(action) and not st[S.EXPANSIONS] & CAT.ISLAND:
        return f"{CAT.ACTION_NAMES[action]} needs the 'island' expansion, which is not in play"
    h = action_hex(action)  # an island hex's action `island r,c` is hex 400 + 4r + c (kbenv.expansions.island.view)
    rc = hex_rc(h)
    at = f"island {rc[0] - ROWS},{rc[1]}" if rc[0] >= ROWS else f"{rc}"
    if phase == "idle" and st[S.MANDATORY_DONE] == 1:
        return "the mandatory action is done; choose a power or end the turn"
    occupied = bool(st[S.OCCUPIED + h // 60] >> (h % 60) & 1)
    terrain = TERRAIN_NAMES[terrain_of(st, h)]
    if phase == "choose_source":
        if not (st[S.own_off(p) + h // 60] >> (h % 60) & 1):
            return f"hex {at} holds no settlement of {seat_name(p)} to move"
        return f"the settlement on {at} has no legal destination"
    if occupied:
        return f"hex {at} is already occupied"
    if phase in ("idle", "mandatory"):
        card = int(st[S.HAND + p])
        if card >= SWAMP_CARD_BASE:  # a swamp card: the option its first build chose, or either (M-5)
            other = TERRAIN_NAMES[card - SWAMP_CARD_BASE]
            chosen = int(st[S.TURN_TERRAIN]) if st[S.TERRAIN_FIXED] else -1
            want = TERRAIN_NAMES[chosen] if chosen >= 0 else f"swamp or {other} (swamp card {CARD_TEXT[card]})"
        else:
            want = TERRAIN_NAMES[card] if card >= 0 else "?"
        if terrain != want and not (card >= SWAMP_CARD_BASE and terrain in want.split(" (")[0].split(" or ")):
            return f"hex {at} is {terrain}, but the played terrain card is {want}"
        return f"hex {at} is not adjacent to {seat_name(p)}'s settlements, and building adjacent is possible"
    power = int(st[S.POWER])
    name = (LOCATION_NAMES[power] if 0 <= power < NUM_POWERS
            else CAT.POWER_NAMES[power] if 0 <= power < CAT.NUM_POWER_CODES else "power")
    legal = [hex_rc(h) for h in range(NUM_HEXES) if mask[h]]
    legal += [f"island {k // ISLAND_COLS},{k % ISLAND_COLS}" for k in range(NUM_ISLAND_HEXES)
              if CAT.ISLAND_ACTION_BASE + k < len(mask) and mask[CAT.ISLAND_ACTION_BASE + k]]
    more = "..." if len(legal) > 12 else ""
    return f"hex {at} ({terrain}) is not a legal {name} destination; legal: {legal[:12]}{more}"


# Why a Harvest choice between option-1 and option-2 (named by phase: kbenv.positions.files.OPTION_NAMES) is closed.
OPTION_REASONS = {
    ("silo", "option-1"): "build: no free hex at this silo touches your settlements, your supply is empty, or the "
                          "mode is already chosen",
    ("silo", "option-2"): "move: none of your settlements can move next to this silo, or the mode is already chosen",
    ("choose_target", "option-1"): "take: no number tile is left in the pool (18 in value)",
    ("choose_target", "option-2"): "return: you hold no number tiles, your supply is empty or no hex of the turn's "
                                   "terrain is free",
    ("choose_power", "option-1"): "crossroads: you hold no Crossroads tile taken before this turn, or the cards owed "
                                  "at the end of the turn already fill the hand (3 extra cards at most)",
}


def option_reason(name: str, phase: str) -> str:
    """Why option-1 / option-2 is not legal in `phase`."""
    if (phase, name) in OPTION_REASONS:
        return OPTION_REASONS[phase, name]
    return (f"{name} is a Harvest choice (a silo's build / move, the number tiles' take / return, a repeat's "
            f"crossroads), and none is open in phase {short_repr(phase)}")


def explain_expansion_action(game: Game, st: np.ndarray, action: int, phase: str, p: int) -> str:
    """Why an action of layout v1 beyond END_TURN (a power of an expansion, "done") is illegal now."""
    from ..setup.resume import power_expansion

    name = CAT.ACTION_NAMES[action]
    power = int(st[S.POWER])
    if name == "done":
        if power < 0:
            return "done ends a multi-step power, and none is being resolved"
        return (f"the {CAT.POWER_NAMES[power]} power cannot stop here (phase {short_repr(phase)}): its next step "
                "must be taken")
    if name in ("option-1", "option-2"):
        return option_reason(name, phase)
    if name not in CAT.POWER_CODE:
        return f"the {short_repr(name)} action belongs to a rule not implemented in this game"
    needed = power_expansion(name)
    if needed and needed not in CAT.playable_expansions():
        return f"the {name} power belongs to the {short_repr(needed)} expansion, whose rules are not implemented yet"
    if needed and not st[S.EXPANSIONS] & CAT.EXPANSION_BIT[needed]:
        return f"the {name} power needs the {short_repr(needed)} expansion, which is not in play"
    if phase != "idle":
        return f"powers can only be activated between actions, not in phase {short_repr(phase)}"
    if name in CAT.NOMAD_USABLE_KINDS:
        held = [t for t in game.nomad_tiles(p) if t["kind"] == name]
        if not held:
            return f"player {p} holds no {name} tile"
        if not any(t["usable"] for t in held):
            return f"the {name} tile is usable only in the round after it was claimed"
    elif name == "cave":
        if st[S.CAVE_USED]:
            return "the cave move was already used this turn"
    elif name in CAT.BONUS_POWERS:
        bit = 1 << CAT.LOCATION_NAMES.index(name[: -len("_bonus")])
        if not st[S.BONUS_HELD + p] & bit:
            return f"player {p} holds no {name.replace('_', ' ')} tile"
        if st[S.BONUS_FRESH + p] & bit:
            return f"the {name.replace('_', ' ')} tile is usable from the turn after it was taken"
        if st[S.BONUS_USED + p] & bit:
            return f"the {name.replace('_', ' ')} tile was already used this turn"
    else:
        code = CAT.POWER_CODE[name]  # the tiles held: the board's location slots and the island's (island.setup)
        held = [i for i, _ in location_slots(st) if st[S.TILES_HELD + p] >> i & 1 and location_info(st, i)[0] == code]
        if not held:
            return f"player {p} holds no {name} tile"
        if usable_tile(st, p, code) < 0:
            return f"every {name} tile of player {p} was taken this turn or already used this turn"
    return f"the {name} power has no legal use now"


def explain_silo(st: np.ndarray, action: int) -> str:
    """Why a decision of Harvest's silo end phase is illegal now (H-5, A-H2; kbenv.engine.harvest.silo)."""
    p = int(st[S.DECIDER])
    who = seat_name(p)
    mode = ("", "build", "move")[int(st[S.SILO_MODE])]
    at = hex_rc(int(st[S.SILO_AT]) - 1)
    chosen = int(st[S.SOURCE])
    name = CAT.ACTION_NAMES[action] if action >= NUM_HEXES else ""
    if name in ("option-1", "option-2"):
        wanted = "build" if name == "option-1" else "move"
        if mode:
            return (f"the silo at {at} is being used to {mode}: builds and moves are not mixed at one silo (H-5); "
                    "finish it with done")
        if wanted == "build":
            return f"{who} has no settlement left in supply to build (A-H2)"
        return f"{who} has no settlement on the board to move"
    if name == "done":
        if chosen >= 0:
            return f"choose where the settlement on {hex_rc(chosen)} moves first"
        return f"done stops the silo at {at} only after its first {mode}; choose a hex"
    if action >= NUM_HEXES:
        return f"the game is in the silo phase: {who} chooses build, move or done for the silo at {at}"
    r, c = hex_rc(action)
    if not mode:
        return f"{who} first chooses build, move or done for the silo at {at}"
    occupied = bool(st[S.OCCUPIED + action // BITS_PER_WORD] >> (action % BITS_PER_WORD) & 1)
    own = bool(st[S.own_off(p) + action // BITS_PER_WORD] >> (action % BITS_PER_WORD) & 1)
    if mode == "move" and chosen < 0:
        if not own:
            return f"hex {(r, c)} holds no settlement of {who} to move"
        return f"the settlement on {(r, c)} has no free hex touching {who}'s other settlements to move to"
    if occupied:
        return f"hex {(r, c)} is already occupied"
    if not st[S.BUILDABLE_MASK + action // BITS_PER_WORD] >> (action % BITS_PER_WORD) & 1:
        return f"hex {(r, c)} is {TERRAIN_NAMES[terrain_of(st, action)]}: nothing may be built on it"
    lifted = " with the moved settlement lifted" if mode == "move" else ""
    return f"hex {(r, c)} does not touch {who}'s settlements{lifted} (a silo {mode} has no fallback, A-H2)"


def terrain_of(st: np.ndarray, hex_: int) -> int:
    """Terrain code id of a hex, read from the per-terrain masks."""
    word, bit = hex_ // BITS_PER_WORD, 1 << (hex_ % BITS_PER_WORD)
    for code in range(NUM_TERRAIN_CODES):
        if st[S.terrain_off(code) + word] & bit:
            return code
    raise ValueError(f"hex {hex_} has no terrain")
