"""Nomads, as the generic Python code sees it (kbenv.expansions.registry)."""

from ... import catalogue as CAT
from ...board.colours import NOMAD_TILE_LABELS, NOMAD_TILE_MARKS, WALL_MARK
from ...engine import state as S
from ..checks import ExpansionSetupError
from ..registry import ExpansionSide, ResumeCheck, TextLayer
from . import setup
from .draw import IMAGE_BOARD


def check_resume(resume: dict, check: ResumeCheck) -> dict:
    """`nomad_tiles_gone`: the tiles out of the game, each {"kind", "space"} (its round optional)."""
    if "nomad_tiles_gone" not in resume:
        return {}
    gone = resume["nomad_tiles_gone"]
    if not isinstance(gone, (list, tuple)):
        raise ExpansionSetupError('nomad_tiles_gone: expected a list of {"kind", "space"} objects')
    return {"nomad_tiles_gone": [setup.nomad_entry(e if isinstance(e, dict) else {"kind": e},
                                                   f"nomad_tiles_gone[{k}]", check.board, False)
                                 for k, e in enumerate(gone)]}


def resume_keys(st) -> dict:
    """The tiles out of the game (written into the state with the pieces: kbenv.setup.pieces.apply_pieces)."""
    return {"nomad_tiles_gone": [{"kind": CAT.NOMAD_KINDS[int(st[S.NOMAD_KIND + i])], "space": setup.space_of(st, i),
                                  "claimed_round": int(st[S.NOMAD_ROUND + i])}
                                 for i in range(int(st[S.NUM_NOMADS])) if st[S.NOMAD_OWNER + i] == S.NOMAD_GONE]}


def text_legend() -> list[str]:
    """The key to the nomad tiles lying on nomad spaces."""
    donation = NOMAD_TILE_MARKS["donation-G"]
    kinds = [f"{donation} donation (D-G .. D-M, by terrain)"]
    kinds += [f"{NOMAD_TILE_MARKS[k]} {k} ({NOMAD_TILE_LABELS[k]})" for k in NOMAD_TILE_MARKS if "-" not in k]
    return [f"nomad tiles on nomad spaces: {', '.join(kinds)}"]


def text_marks(game) -> dict:
    """The nomad tiles lying on their spaces and the stone walls."""
    marks = {rc: (NOMAD_TILE_MARKS[kind], None) for rc, kind in game.nomad_spaces().items() if kind is not None}
    marks.update({rc: (WALL_MARK, None) for rc in game.walls()})
    return marks


def text_lines(game) -> list[str]:
    tiles = sorted((rc, kind) for rc, kind in game.nomad_spaces().items() if kind is not None)
    if not tiles:
        return []
    return ["nomad tiles: " + ", ".join(f"{r},{c} {NOMAD_TILE_LABELS[kind]}" for (r, c), kind in tiles)]


SIDES = (ExpansionSide(
    "nomads",
    setup_fields=setup.NOMAD_FIELDS,
    settlement_terrains=CAT.DONATION_TERRAINS,  # a Donation tile's terrain (mountain)
    check_pieces=setup.check_pieces,
    apply_pieces=setup.apply_pieces,
    position_keys=setup.position_keys,
    text_pieces=(f"{WALL_MARK} stone wall",),
    text_legend=text_legend,
    text_board=TextLayer(marks=text_marks, lines=text_lines),
    image_board=IMAGE_BOARD,
    resume_fields=("nomad_tiles_gone",),
    check_resume=check_resume,
    resume_keys=resume_keys,
),)
