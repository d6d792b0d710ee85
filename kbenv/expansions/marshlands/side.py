"""Marshlands, as the generic Python code sees it (kbenv.expansions.registry)."""

from ...board.codes import CARD_LETTERS, SWAMP, TERRAIN_LETTERS
from ...engine import state as S
from ...engine.scoring import COL_PALACES
from ...safe_json import short_repr
from ..checks import ExpansionSetupError
from ..registry import ExpansionSide, ImageLayer, PositionCheck, ResumeCheck
from . import setup


def check_resume(resume: dict, check: ResumeCheck) -> dict:
    """The terrain the Scouts set-up removed (M-16) and the bonus tiles taken and used this turn, left."""
    out: dict = {}
    gone = resume.get("removed_terrain")
    if gone is not None:
        if not isinstance(gone, str) or gone.upper() not in CARD_LETTERS:
            raise ExpansionSetupError(f"removed_terrain: expected the letter of a terrain with cards "
                                      f"({' '.join(CARD_LETTERS)}; swamp is never removed, A-M10) or null, got "
                                      f"{short_repr(gone)}")
        out["removed_terrain"] = gone.upper()
    out.update(setup.validate_marsh_resume(resume, check.num_players, check.bits))
    return out


def apply_resume(st, resume: dict) -> None:
    if resume.get("removed_terrain") is not None:
        st[S.REMOVED_TERRAIN] = CARD_LETTERS.index(resume["removed_terrain"]) + 1
    setup.apply_marsh_resume(st, resume)


def resume_keys(st) -> dict:
    gone = int(st[S.REMOVED_TERRAIN]) - 1
    return {"removed_terrain": CARD_LETTERS[gone] if gone >= 0 else None}


def check_pieces(check) -> None:
    """The bonus tiles held and the Marshlands counters of a position, normalised in place."""
    setup.validate_marsh_pieces(check.out, check.num_players)


def apply_pieces(st, pieces: dict, this_round: int = 0, gone: tuple = ()) -> None:
    setup.apply_marsh_pieces(st, pieces)


def position_keys(game) -> dict:
    return setup.marsh_position(game.state)


def check_decision(decision: dict, bits: int) -> dict:
    """The terrain a swamp card's first build chose this turn (M-5), when one did."""
    chosen = decision.get("turn_terrain")
    if chosen is None:
        return {}
    if chosen not in (*CARD_LETTERS, TERRAIN_LETTERS[SWAMP]):
        raise ExpansionSetupError(f"decision.turn_terrain: expected a terrain letter of a swamp card, got "
                                  f"{short_repr(chosen)}")
    return {"turn_terrain": chosen}


def apply_decision(st, decision: dict) -> None:
    if decision.get("turn_terrain") is not None:
        st[S.TURN_TERRAIN] = TERRAIN_LETTERS.index(decision["turn_terrain"])


def decision_keys(st) -> dict:
    """The terrain a swamp card's first build chose (with terrain_fixed), else null."""
    return {"turn_terrain": TERRAIN_LETTERS[int(st[S.TURN_TERRAIN])] if st[S.TERRAIN_FIXED] else None}


KEEP_BONUS = "bonus_kept_after_tile_loss"  # the rule flag of A-M4 (a)


def check_position(check: PositionCheck) -> None:
    """Bonus tiles need two tiles of their type (A-M4, unless the flag keeps them); settlements, supply and the
    reserve at most 40."""
    setup.check_marsh_position(check.board, check.num_players, check.pieces, check.tiles, check.settlements,
                               check.supply, KEEP_BONUS in check.rules)


def score_keys(game, player: int, row) -> dict:
    """The gold of the Palace tiles (scoring.COL_PALACES)."""
    return {"palaces": int(row[COL_PALACES])}


SIDES = (ExpansionSide(
    "marshlands",
    setup_fields=setup.MARSH_PIECES,
    settlement_terrains="SM",  # swamp: the swamp cards (M-5, A16); mountain: a bonus tile (M-11)
    buildable_terrains="S",  # swamp (M-5)
    check_pieces=check_pieces,
    apply_pieces=apply_pieces,
    position_keys=position_keys,
    resume_fields=("removed_terrain", *setup.MARSH_RESUME),
    check_resume=check_resume,
    apply_resume=apply_resume,
    resume_keys=resume_keys,
    decision_fields=("turn_terrain",),
    reactions=True,  # M-8
    check_decision=check_decision,
    apply_decision=apply_decision,
    decision_keys=decision_keys,
    reserve_counts=True,
    check_position=check_position,
    swamp_cards=True,
    score_keys=score_keys,  # the 5 swamp cards (M-4: 30 terrain cards)
    image_board=ImageLayer(treasury_line=True),  # the picture's line of capitols, banked gold and nomad tiles
),)
