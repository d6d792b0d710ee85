"""Harvest, as the generic Python code sees it (kbenv.expansions.registry); its position keys are full-state
keys (kbenv.expansions.harvest.setup, read and written by kbenv.setup.resume)."""

from ..registry import ExpansionSide, ResumeCheck
from . import setup
from .view import MAYOR_MARK, SCOUT


def check_resume(resume: dict, check: ResumeCheck) -> dict:
    return setup.validate_harvest_resume(resume, check.num_players, check.bits, check.current, check.board)


def text_legend() -> list[str]:
    """The key to farmland, silos, the scouts and the rows marked for Mayors."""
    return [f"harvest: a farmland, o silo, 0{SCOUT.mark} {SCOUT.label} (the turn owner's digit, then "
            f"{SCOUT.mark}), {MAYOR_MARK}0 after a row: marked for Mayors by player_0"]


SIDES = (ExpansionSide(
    "harvest",
    settlement_terrains="A",  # farmland (EN 1231, X-4)
    buildable_terrains="A",  # EN 1231: "suitable for being built upon"
    text_legend=text_legend,
    resume_fields=setup.HARVEST_RESUME,
    decision_phases=("silo",),  # H-5: the silo phase after the last turn
    check_resume=check_resume,
    apply_resume=setup.apply_harvest_resume,
    resume_keys=setup.harvest_position,
),)
