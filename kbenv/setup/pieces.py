"""The expansion parts of a set-up: the ruleset (expansions and rule flags) and the pieces a hand-built position
may hold, validated with the field named and written into a state after the base set-up. Each expansion checks
and writes its own fields (kbenv.expansions.<expansion>.setup, through its side: kbenv.expansions.registry);
banked gold, which every expansion's scoring may leave, is checked here."""

from __future__ import annotations

import numpy as np

from .. import catalogue as CAT
from ..engine import state as S
from ..engine.init import deal_expansions, init_ruleset
from ..expansions.checks import ExpansionSetupError, buildable_letters, is_int
from ..expansions.crossroads.setup import CROSSROADS_PIECES
from ..expansions.nomads.setup import WALLS_KEY, check_nomad_counts, nomad_entry, put_nomad
from ..expansions.registry import PieceCheck, all_sides, owners, sides_of
from ..safe_json import short_repr

POSITION_PIECES = ("gold", *(field for side in all_sides() for field in side.setup_fields))
RULESET_FIELDS = ("expansions", "rules", *POSITION_PIECES)  # what makes a set-up more than a base game
# Gold banked during play: a bound far beyond any game (a few hundred at most) and far from int64 overflow
# when the scores are summed.
MAX_GOLD = 1_000_000
NEEDS = owners("setup_fields")  # each expansion field's expansion

__all__ = ["CROSSROADS_PIECES", "MAX_GOLD", "NEEDS", "POSITION_PIECES", "RULESET_FIELDS", "WALLS_KEY",
           "ExpansionSetupError", "apply_pieces", "apply_ruleset", "buildable_letters", "check_nomad_counts",
           "is_int", "nomad_entry", "put_nomad", "ruleset_bits", "validate_pieces"]


def ruleset_bits(expansions, rules) -> tuple[int, int]:
    """(expansion bits, rule bits); ValueError naming the field."""
    bits = CAT.parse_expansions(expansions)
    return bits, CAT.parse_rules(rules, bits)


def validate_pieces(board, n: int, bits: int, fields: dict, occupied: set) -> dict:
    """Normalised expansion pieces of a position; ExpansionSetupError names the field at fault."""
    out: dict = {}
    for name, value in fields.items():
        if value is None:
            continue
        needed = NEEDS.get(name)
        if needed and not bits & CAT.EXPANSION_BIT[needed]:
            raise ExpansionSetupError(f"{name}: needs the {short_repr(needed)} expansion")
        out[name] = value
    if "gold" in out:
        out["gold"] = check_gold(out["gold"], n)
    check = PieceCheck(board, n, bits, occupied, out)
    for side in sides_of(bits):
        if side.check_pieces is not None:
            side.check_pieces(check)
    check_nomad_counts(board, out)
    return out


def check_gold(gold, n: int) -> tuple[int, ...]:
    """Banked gold: one integer 0..MAX_GOLD per player."""
    if not isinstance(gold, (list, tuple)) or len(gold) != n:
        raise ExpansionSetupError(f"gold: expected {n} integers 0..{MAX_GOLD} (one per player), got "
                                  f"{short_repr(gold)}")
    for p, g in enumerate(gold):
        if not is_int(g) or not 0 <= g <= MAX_GOLD:
            raise ExpansionSetupError(f"gold[{p}]: expected an integer 0..{MAX_GOLD}, got {short_repr(g)}")
    return tuple(int(g) for g in gold)


def apply_ruleset(st: np.ndarray, bits: int, rules: int, seed: int, standard_start: bool) -> None:
    """Write the ruleset into a base state; a standard start also deals the random expansion parts."""
    if not bits and not rules:
        return
    init_ruleset(st, bits, rules)
    if standard_start:
        deal_expansions(st, seed)


def apply_pieces(st: np.ndarray, pieces: dict, current_player: int, start_player: int, turn: int | None = None,
                 gone: tuple = ()) -> None:
    """The hand-built expansion pieces of a position; `turn` (the turn counter, see kbenv.setup.resume)
    fixes the round, `gone` lists the nomad tiles out of the game."""
    for p, g in enumerate(pieces.get("gold", ())):
        st[S.GOLD + p] = g
    n = int(st[S.NUM_PLAYERS])
    # Rounds run from the start player: without a turn counter the position is in round 0, at
    # current_player's turn (TURN counts the turns begun; begin_turn adds the current one).
    st[S.TURN] = (current_player - start_player) % n if turn is None else turn - 1
    this_round = int(st[S.TURN]) // n
    for side in sides_of(int(st[S.EXPANSIONS])):
        if side.apply_pieces is not None:
            side.apply_pieces(st, pieces, this_round, gone)
