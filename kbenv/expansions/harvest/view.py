"""The public Harvest facts of a game (issue 22), read once for the renderers, PlayerView and
the browser page: the scouts on the board, the rows marked for Mayors, the number tiles, the Rovers sections of
this turn, the farm action taken and the silo phase in progress.

Everything here is public (decision 8: number tiles, Mayors marks and scouts are position keys every player sees);
`harvest_lines` writes the facts as the side text of kbenv.present.text and kbenv.present.image.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ... import catalogue as CAT
from ...board.bitset import WORDS, hexes_of
from ...board.colours import seat_name
from ...board.geometry import ROWS, hex_rc
from ...engine import state as S
from ..island.view import hex_words

MAYOR_MARK = "M"  # the text board: after a row marked for Mayors, followed by the seat's digit
SCOUT = next(k for k in CAT.PIECE_KINDS if k.turn_owner)  # the shared scouts (catalogue.PIECE_KINDS)
SILO_MODES = ("build, move or done", "building", "moving")  # state.SILO_MODE 0, 1, 2
SILO_STEPS = 3  # builds or moves at one silo (H-5, A-H2)


@dataclass(frozen=True)
class SiloStatus:
    """The silo phase in progress: the silo player, the silo being done (None before its first decision), the
    mode (SILO_MODES) and the builds or moves taken there."""

    seat: int
    at: tuple[int, int] | None
    mode: str
    steps: int


@dataclass(frozen=True)
class HarvestFacts:
    """Public Harvest facts: `scouts` are the turn owner's (`scout_owner`); `mayor_lines` maps a row to the seat
    it is marked for; `number_tiles` the value each seat holds; `rover_sections` the board quarters the turn owner
    built a new settlement in this turn; `farmland_used` the turn owner took the farm action."""

    scouts: tuple[tuple[int, int], ...]
    scout_owner: int
    mayor_lines: dict[int, int]
    number_tiles: tuple[int, ...]
    number_tiles_left: int
    rover_sections: tuple[int, ...]
    farmland_used: bool
    silo: SiloStatus | None

    @property
    def scouts_left(self) -> int:
        """Scout tiles beside the board (the shared pool less those on the board)."""
        return SCOUT.pool - len(self.scouts)


def harvest_facts(state: np.ndarray) -> HarvestFacts | None:
    """The Harvest facts of a game state (Game.state), or None when Harvest is not in play."""
    st = state
    if not int(st[S.EXPANSIONS]) & CAT.HARVEST:
        return None
    n = int(st[S.NUM_PLAYERS])
    owner = int(st[S.CURRENT])
    tiles = tuple(int(st[S.NUMBER_TILES + p]) for p in range(n))
    silo = None
    if int(st[S.PHASE]) == S.PHASE_SILO:
        at = int(st[S.SILO_AT]) - 1
        mode = int(st[S.SILO_MODE])
        silo = SiloStatus(int(st[S.DECIDER]), hex_rc(at) if at >= 0 else None,
                          SILO_MODES[mode] if 0 <= mode < len(SILO_MODES) else str(mode), int(st[S.SILO_STEPS]))
    running = int(st[S.PHASE]) != S.PHASE_OVER
    bits = int(st[S.ROVER_SECTIONS]) if running else 0
    return HarvestFacts(
        scouts=tuple(sorted(hex_rc(h) for h in hexes_of(st[S.SCOUTS : S.SCOUTS + WORDS]))),
        scout_owner=owner,
        mayor_lines={r: int(st[S.MAYOR_LINES + r]) - 1 for r in range(ROWS) if st[S.MAYOR_LINES + r] > 0},
        number_tiles=tiles,
        number_tiles_left=max(0, CAT.NUMBER_TILE_POOL - sum(tiles)),
        rover_sections=tuple(q for q in range(4) if bits >> q & 1),
        farmland_used=running and bool(st[S.FARMLAND_USED + owner]),
        silo=silo,
    )


def harvest_lines(facts: HarvestFacts | None, cards: tuple[str, ...] = (), per_seat: bool = True) -> list[str]:
    """The side text of the Harvest facts: number tiles (each seat's with `per_seat`, else the pool only), Mayors
    rows, Rovers sections, scouts, the silo phase."""
    if facts is None:
        return []
    pool = f"{facts.number_tiles_left} of {CAT.NUMBER_TILE_POOL} left"
    held = ", ".join(f"{seat_name(p)} {v}" for p, v in enumerate(facts.number_tiles))
    lines = [f"number tiles: {held} (pool: {pool})" if per_seat else f"number tiles pool: {pool}"]
    if facts.mayor_lines:
        rows = ", ".join(f"row {r} {seat_name(p)}" for r, p in sorted(facts.mayor_lines.items()))
        lines.append(f"mayors rows: {rows}")
    if "rovers" in cards or facts.rover_sections:
        quarters = ", ".join(str(q) for q in facts.rover_sections) or "none"
        lines.append(f"rovers sections this turn: {quarters}")
    if facts.scouts:
        where = " ".join(hex_words(rc) for rc in facts.scouts)
        lines.append(f"{SCOUT.plural}: {where} ({seat_name(facts.scout_owner)}'s, {facts.scouts_left} left)")
    if facts.silo is not None:
        at = f" at {facts.silo.at[0]},{facts.silo.at[1]}" if facts.silo.at else ""
        lines.append(f"silo phase: {seat_name(facts.silo.seat)}{at}, {facts.silo.mode}, "
                     f"{facts.silo.steps} of {SILO_STEPS} taken")
    return lines
