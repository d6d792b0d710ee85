"""Marshlands, as the generic Python code sees it (kbenv.expansions.registry)."""

from ..registry import ExpansionSide
from . import setup


def check_pieces(check) -> None:
    """The bonus tiles held and the Marshlands counters of a position, normalised in place."""
    setup.validate_marsh_pieces(check.out, check.num_players)


def apply_pieces(st, pieces: dict, this_round: int = 0, gone: tuple = ()) -> None:
    setup.apply_marsh_pieces(st, pieces)


def position_keys(game) -> dict:
    return setup.marsh_position(game.state)


SIDES = (ExpansionSide(
    "marshlands",
    setup_fields=setup.MARSH_PIECES,
    settlement_terrains="SM",  # swamp: the swamp cards (M-5, A16); mountain: a bonus tile (M-11)
    buildable_terrains="S",  # swamp (M-5)
    check_pieces=check_pieces,
    apply_pieces=apply_pieces,
    position_keys=position_keys,
),)
