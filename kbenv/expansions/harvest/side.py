"""Harvest, as the generic Python code sees it (kbenv.expansions.registry); its position keys are full-state
keys (kbenv.expansions.harvest.setup, read and written by kbenv.setup.resume)."""

import numpy as np

from ...engine import state as S
from ...safe_json import short_repr
from ..checks import ExpansionSetupError
from ..registry import ExpansionSide, ResumeCheck, TextLayer
from . import setup
from .draw import IMAGE_BOARD
from .view import MAYOR_MARK, SCOUT, harvest_facts, harvest_lines


def check_resume(resume: dict, check: ResumeCheck) -> dict:
    return setup.validate_harvest_resume(resume, check.num_players, check.bits, check.current, check.board)


def text_legend() -> list[str]:
    """The key to farmland, silos, the scouts and the rows marked for Mayors."""
    return [f"harvest: a farmland, o silo, 0{SCOUT.mark} {SCOUT.label} (the turn owner's digit, then "
            f"{SCOUT.mark}), {MAYOR_MARK}0 after a row: marked for Mayors by player_0"]


def check_decision(decision: dict, bits: int) -> dict:
    """Whether the number tiles' "return" was chosen (A-H5), when given."""
    returning = decision.get("number_tiles_returning")
    if returning is None:
        return {}
    if not isinstance(returning, (bool, np.bool_)):
        raise ExpansionSetupError(f"decision.number_tiles_returning: expected true or false, got "
                                  f"{short_repr(returning)}")
    return {"number_tiles_returning": bool(returning)}


def apply_decision(st, decision: dict) -> None:
    st[S.NUMBER_TILE_MODE] = int(bool(decision.get("number_tiles_returning")))


def decision_keys(st) -> dict:
    return {"number_tiles_returning": bool(st[S.NUMBER_TILE_MODE])}


def text_owned(game) -> dict:
    """The scouts, in the turn owner's digit."""
    facts = harvest_facts(game.state)
    return {rc: (facts.scout_owner, SCOUT.mark) for rc in facts.scouts}


def text_row_marks(game) -> dict:
    return dict(harvest_facts(game.state).mayor_lines)


TEXT_BOARD = TextLayer(owned=text_owned, row_marks=text_row_marks,
                       lines=lambda game: harvest_lines(harvest_facts(game.state), game.cards))


SIDES = (ExpansionSide(
    "harvest",
    settlement_terrains="A",  # farmland (EN 1231, X-4)
    buildable_terrains="A",  # EN 1231: "suitable for being built upon"
    text_legend=text_legend,
    text_board=TEXT_BOARD,
    image_board=IMAGE_BOARD,
    resume_fields=setup.HARVEST_RESUME,
    decision_phases=("silo",),
    public_facts=lambda game: harvest_facts(game.state),  # H-5: the silo phase after the last turn
    check_resume=check_resume,
    apply_resume=setup.apply_harvest_resume,
    resume_keys=setup.harvest_position,
    decision_fields=("number_tiles_returning",),
    check_decision=check_decision,
    apply_decision=apply_decision,
    decision_keys=decision_keys,
),)
