"""The Queenie mini-expansions Capitol and Caves: the position fields of their pieces (the capitols on their
castles, the caves on their mountains), checked with the field named and written into a state."""

from __future__ import annotations

import numpy as np

from ...board.geometry import hex_id, hex_rc
from ...engine import state as S
from ...engine.queenies.deal import place_cave
from ..checks import ExpansionSetupError, hexes


def check_capitols(check) -> None:
    """Capitols (QC-1): at most the state's slots, each on a castle hex."""
    if "capitols" not in check.out:
        return
    capitols = hexes(check.out["capitols"], "capitols")
    if len(capitols) > S.MAX_CAPITOLS:
        raise ExpansionSetupError(f"capitols: at most {S.MAX_CAPITOLS}")
    for r, c in capitols:
        if check.board[r][c] != "K":
            raise ExpansionSetupError(f"capitols: hex {[r, c]} is not a castle")
    check.out["capitols"] = capitols


def check_caves(check) -> None:
    """Caves: each on a mountain hex."""
    if "caves" not in check.out:
        return
    caves = hexes(check.out["caves"], "caves")
    for r, c in caves:
        if check.board[r][c] != "M":
            raise ExpansionSetupError(f"caves: hex {[r, c]} is not a mountain")
    check.out["caves"] = caves


def apply_capitols(st: np.ndarray, pieces: dict, this_round: int, gone: tuple = ()) -> None:
    for k, (r, c) in enumerate(pieces.get("capitols", ())):
        st[S.CAPITOL_HEX + k] = hex_id(r, c)
        st[S.NUM_CAPITOLS] = k + 1


def apply_caves(st: np.ndarray, pieces: dict, this_round: int, gone: tuple = ()) -> None:
    for r, c in pieces.get("caves", ()):
        place_cave(st, hex_id(r, c))


def capitol_keys(game) -> dict:
    """The capitols in placement order (the state's slots)."""
    st = game.state
    return {"capitols": [list(hex_rc(int(st[S.CAPITOL_HEX + k]))) for k in range(int(st[S.NUM_CAPITOLS]))]}


def cave_keys(game) -> dict:
    return {"caves": sorted(list(x) for x in game.caves())}
