"""Harvest keys of position files (decision 8), read, validated and written: so far `farmland_used` (per player:
the farm action was already taken in this turn, H-4, A-H1). kbenv.position_state calls these; errors name the
key (`farmland_used` or `farmland_used[p]`). The keys of the cards, `mayor_lines` (decision 8) and `rovers_sections`,
are in kbenv.setup_harvest_cards. The other Harvest keys of decision 8 (`number_tiles`, `scouts`) come with the
rules they belong to (issue 22).
"""

from __future__ import annotations

import numpy as np

from . import catalogue as CAT
from .engine import state as S
from .setup_expansions import ExpansionSetupError
from .setup_harvest_cards import CARD_KEYS, apply_card_keys, card_keys_of, validate_card_keys

HARVEST_RESUME = ("farmland_used", *CARD_KEYS)


def validate_harvest_resume(resume: dict, n: int, bits: int) -> dict:
    """The Harvest full-state keys, normalised; ExpansionSetupError names the field."""
    out: dict = {}
    if "farmland_used" in resume:
        if not bits & CAT.HARVEST:
            raise ExpansionSetupError("farmland_used: needs the 'harvest' expansion")
        value = resume["farmland_used"]
        if not isinstance(value, (list, tuple)) or len(value) != n:
            raise ExpansionSetupError(f"farmland_used: expected one true/false per player ({n})")
        for p, used in enumerate(value):
            if not isinstance(used, (bool, np.bool_)):
                raise ExpansionSetupError(f"farmland_used[{p}]: expected true or false, got {used!r}")
        out["farmland_used"] = [bool(x) for x in value]
    out.update(validate_card_keys(resume, n, bits))  # mayor_lines, rovers_sections (kbenv.setup_harvest_cards)
    return out


def apply_harvest_resume(st: np.ndarray, resume: dict) -> None:
    """The farm action taken this turn, per player."""
    for p, used in enumerate(resume.get("farmland_used", ())):
        st[S.FARMLAND_USED + p] = int(used)
    apply_card_keys(st, resume)


def harvest_position(st: np.ndarray) -> dict:
    """The Harvest keys of a state, as Game.to_position writes them."""
    n = int(st[S.NUM_PLAYERS])
    return {"farmland_used": [bool(st[S.FARMLAND_USED + p]) for p in range(n)], **card_keys_of(st)}
