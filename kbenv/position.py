"""Scoring a position file: board (or sections), cards in play and each player's settlements."""

from __future__ import annotations

import json
from pathlib import Path

from .game import Game
from .setup import SetupError, standard_setup


def parse_position(position: dict) -> dict:
    """Keyword arguments for `Game.custom` from a position dict; SetupError names the field at fault."""
    if not isinstance(position, dict):
        raise SetupError("position: expected a JSON object")
    if "cards" not in position:
        raise SetupError("cards: missing")
    if "settlements" not in position:
        raise SetupError("settlements: missing")
    settlements = position["settlements"]
    if not isinstance(settlements, list) or not 2 <= len(settlements) <= 5:
        raise SetupError("settlements: expected one list of [row, col] per player (2 to 5 players)")
    n = len(settlements)
    if "board" in position:
        board = position["board"]
    elif "sections" in position:
        sections = position["sections"]
        if not isinstance(sections, list) or not all(isinstance(s, (list, tuple)) and len(s) == 2 for s in sections):
            raise SetupError('sections: expected 4 [name, turned] pairs, e.g. ["tavern", false]')
        board = standard_setup(n, 0, sections=sections, cards=position["cards"]).board
    else:
        raise SetupError("board: missing (give board or sections)")
    options = position.get("options", {})
    if not isinstance(options, dict):
        raise SetupError("options: expected an object")
    return {
        "board": board,
        "num_players": n,
        "cards": position["cards"],
        "settlements": settlements,
        "hands": [None] * n,
        "deck": [],
        "lords_count_zero": bool(options.get("lords_count_zero", False)),
    }


def score_position(position: dict, lords_count_zero: bool | None = None) -> list[dict]:
    """Per-player score breakdown of a position (see docs/api.md)."""
    kwargs = parse_position(position)
    if lords_count_zero is not None:
        kwargs["lords_count_zero"] = lords_count_zero
    return Game.custom(**kwargs).scores()


def load_position(path: str | Path) -> dict:
    try:
        return json.loads(Path(path).read_text())
    except json.JSONDecodeError as err:
        raise SetupError(f"{path}: not valid JSON ({err})") from None
