"""Nomads, as the generic Python code sees it (kbenv.expansions.registry)."""

from ... import catalogue as CAT
from ...board.colours import NOMAD_TILE_LABELS, NOMAD_TILE_MARKS, WALL_MARK
from ..registry import ExpansionSide
from . import setup


def text_legend() -> list[str]:
    """The key to the nomad tiles lying on nomad spaces."""
    donation = NOMAD_TILE_MARKS["donation-G"]
    kinds = [f"{donation} donation (D-G .. D-M, by terrain)"]
    kinds += [f"{NOMAD_TILE_MARKS[k]} {k} ({NOMAD_TILE_LABELS[k]})" for k in NOMAD_TILE_MARKS if "-" not in k]
    return [f"nomad tiles on nomad spaces: {', '.join(kinds)}"]


SIDES = (ExpansionSide(
    "nomads",
    setup_fields=setup.NOMAD_FIELDS,
    settlement_terrains=CAT.DONATION_TERRAINS,  # a Donation tile's terrain (mountain)
    check_pieces=setup.check_pieces,
    apply_pieces=setup.apply_pieces,
    position_keys=setup.position_keys,
    text_pieces=(f"{WALL_MARK} stone wall",),
    text_legend=text_legend,
),)
