"""Harvest keys of position files (decision 8), read, validated and written: so far `farmland_used` (per player:
the farm action was already taken in this turn, H-4, A-H1). kbenv.setup.resume calls these; errors name the
key (`farmland_used` or `farmland_used[p]`). The keys of the cards, `mayor_lines` (decision 8) and `rovers_sections`,
are in kbenv.expansions.harvest.cards; those of the powers, `number_tiles` and `scouts` (decision 8), in
kbenv.expansions.harvest.powers.

`silo` (written only inside the silo end phase, H-5, A-H2, with `"decision": {"phase": "silo", ...}`): the silo
being done `"at"` [r, c], the `"mode"` chosen there (null before the choice, "build" or "move"), the `"steps"`
(builds or moves) taken at it, and the silos `"left"` to come: the silo player's (A-H2 a) or, with the rule flag
`silo_by_silo`, every silo not begun yet (b). The silo player is `decision.decider`, a move's chosen settlement
`decision.source`.

`repeat_cards` (Harvest with Crossroads, written there only): the terrain cards the player to move draws at the
end of this turn on top of one per Crossroads tile (C-7), one per repeat of the Crossroads tile's extra
action (A-H3, A-C8); 0..MAX_EXTRA_CARDS - 1.
"""

from __future__ import annotations

import numpy as np

from ... import catalogue as CAT
from ...board.bitset import WORDS, hexes_of, mask_of
from ...board.geometry import hex_id, hex_rc
from ...engine import state as S
from ...engine.harvest.silo import SILO_STEPS_MAX
from ...safe_json import short_repr
from ..checks import ExpansionSetupError, is_int
from .cards import CARD_KEYS, apply_card_keys, card_keys_of, validate_card_keys
from .powers import POWER_KEYS, apply_power_keys, power_keys_of, validate_power_keys

HARVEST_RESUME = ("farmland_used", "silo", "repeat_cards", *CARD_KEYS, *POWER_KEYS)
SILO_KEYS = ("at", "mode", "steps", "left")
SILO_MODES = (None, "build", "move")  # kbenv.engine.harvest.silo: MODE_CHOOSE, MODE_BUILD, MODE_MOVE
SILO_LETTER = CAT.TERRAINS[CAT.TERRAIN_CODE["silo"]].letter


def validate_harvest_resume(resume: dict, n: int, bits: int, current: int = 0, board=None) -> dict:
    """The Harvest full-state keys, normalised; ExpansionSetupError names the field (`current`: the player to move,
    the only one who may have scouts; `board`: the rows of letters, to check silo and scout hexes)."""
    out: dict = validate_power_keys(resume, n, bits, current, board)
    phase = (resume.get("decision") or {}).get("phase") if isinstance(resume.get("decision"), dict) else None
    if "silo" in resume or phase == "silo":
        out["silo"] = validate_silo(resume.get("silo"), bits, board, phase, resume["decision"].get("source")
                                    if phase == "silo" else None)
    if "farmland_used" in resume:
        if not bits & CAT.HARVEST:
            raise ExpansionSetupError("farmland_used: needs the 'harvest' expansion")
        value = resume["farmland_used"]
        if not isinstance(value, (list, tuple)) or len(value) != n:
            raise ExpansionSetupError(f"farmland_used: expected one true/false per player ({n})")
        for p, used in enumerate(value):
            if not isinstance(used, (bool, np.bool_)):
                raise ExpansionSetupError(f"farmland_used[{p}]: expected true or false, got {short_repr(used)}")
        out["farmland_used"] = [bool(x) for x in value]
    out.update(validate_card_keys(resume, n, bits))  # mayor_lines, rovers_sections (kbenv.expansions.harvest.cards)
    if "repeat_cards" in resume:
        if not bits & CAT.HARVEST or not bits & CAT.CROSSROADS:
            raise ExpansionSetupError("repeat_cards: needs the 'harvest' and 'crossroads' expansions")
        value = resume["repeat_cards"]
        if not is_int(value) or not 0 <= value < S.MAX_EXTRA_CARDS:
            raise ExpansionSetupError(f"repeat_cards: expected 0..{S.MAX_EXTRA_CARDS - 1} (cards owed by "
                                      f"repeats of the Crossroads tile this turn), got {short_repr(value)}")
        out["repeat_cards"] = int(value)
    return out


def validate_silo(value, bits: int, board, phase, source) -> dict:
    """The `silo` key: only inside the silo phase, and needed there."""
    if not bits & CAT.HARVEST:
        raise ExpansionSetupError("silo: needs the 'harvest' expansion")
    if phase != "silo":
        raise ExpansionSetupError("silo: only inside the silo phase (\"decision\": {\"phase\": \"silo\"})")
    if not isinstance(value, dict) or sorted(value) != sorted(SILO_KEYS):
        raise ExpansionSetupError(f"silo: the decision is in the silo phase: expected an object with the keys "
                                  f"{', '.join(SILO_KEYS)}, got {short_repr(value)}")

    def silo_hex(rc, name: str) -> list[int]:
        if not isinstance(rc, (list, tuple)) or len(rc) != 2 or not all(is_int(v) and 0 <= v < 20 for v in rc):
            raise ExpansionSetupError(f"{name}: expected [row, col] on the 20x20 board, got {short_repr(rc)}")
        if board is not None and board[rc[0]][rc[1]] != SILO_LETTER:
            raise ExpansionSetupError(f"{name}: hex {list(rc)} is not a silo")
        return [int(rc[0]), int(rc[1])]

    at = silo_hex(value["at"], "silo.at")
    if value["mode"] not in SILO_MODES:
        raise ExpansionSetupError(f"silo.mode: expected null, \"build\" or \"move\", got {short_repr(value['mode'])}")
    steps = value["steps"]
    if not is_int(steps) or not 0 <= steps < SILO_STEPS_MAX or (value["mode"] is None and steps != 0):
        raise ExpansionSetupError(f"silo.steps: expected 0..{SILO_STEPS_MAX - 1} (0 before the mode is chosen), "
                                  f"got {short_repr(steps)}")
    if source is not None and value["mode"] != "move":
        raise ExpansionSetupError("silo.mode: a chosen settlement (decision.source) needs the mode \"move\"")
    left = value["left"]
    if not isinstance(left, list):
        raise ExpansionSetupError(f"silo.left: expected a list of [row, col] silo hexes, got {short_repr(left)}")
    left = [silo_hex(rc, f"silo.left[{k}]") for k, rc in enumerate(left)]
    if at in left or len({tuple(rc) for rc in left}) != len(left):
        raise ExpansionSetupError("silo.left: expected distinct silos other than silo.at")
    return {"at": at, "mode": value["mode"], "steps": int(steps), "left": sorted(left)}


def apply_harvest_resume(st: np.ndarray, resume: dict) -> None:
    """The farm action taken this turn, per player; the cards owed by repeats; the silo phase's progress."""
    for p, used in enumerate(resume.get("farmland_used", ())):
        st[S.FARMLAND_USED + p] = int(used)
    st[S.REPEAT_CARDS] = resume.get("repeat_cards", 0)
    apply_card_keys(st, resume)
    apply_power_keys(st, resume)
    silo = resume.get("silo")
    if silo is not None:
        n = int(st[S.NUM_PLAYERS])
        st[S.SILO_SEAT] = (resume["decision"]["decider"] - int(st[S.START_PLAYER])) % n
        st[S.SILO_AT] = hex_id(*silo["at"]) + 1
        st[S.SILO_MODE] = SILO_MODES.index(silo["mode"])
        st[S.SILO_STEPS] = silo["steps"]
        left = mask_of([hex_id(*rc) for rc in silo["left"]])
        st[S.SILO_LEFT : S.SILO_LEFT + WORDS] = left


def harvest_position(st: np.ndarray) -> dict:
    """The Harvest keys of a state, as Game.to_position writes them."""
    n = int(st[S.NUM_PLAYERS])
    out: dict = {"farmland_used": [bool(st[S.FARMLAND_USED + p]) for p in range(n)], **card_keys_of(st),
                 **power_keys_of(st)}
    if st[S.EXPANSIONS] & CAT.CROSSROADS:
        out["repeat_cards"] = int(st[S.REPEAT_CARDS])
    if st[S.PHASE] == S.PHASE_SILO:
        out["silo"] = {"at": list(hex_rc(int(st[S.SILO_AT]) - 1)), "mode": SILO_MODES[int(st[S.SILO_MODE])],
                       "steps": int(st[S.SILO_STEPS]),
                       "left": sorted(list(hex_rc(h)) for h in hexes_of(st[S.SILO_LEFT : S.SILO_LEFT + WORDS]))}
    return out
