"""Scoring a position file: board (or sections), cards in play and each player's settlements."""

from __future__ import annotations

import json
from pathlib import Path

from .game import Game
from .setup import SetupError, check_flag, standard_setup

POSITION_FIELDS = ("board", "sections", "cards", "settlements", "options")
OPTION_FIELDS = ("lords_count_zero",)


def parse_position(position: dict) -> dict:
    """Keyword arguments for `Game.custom` from a position dict; SetupError names the field at fault."""
    if not isinstance(position, dict):
        raise SetupError("position: expected a JSON object")
    unknown = sorted(set(position) - set(POSITION_FIELDS))
    if unknown:
        raise SetupError(f"position: unknown field(s) {', '.join(map(repr, unknown))}; "
                         f"known: {', '.join(POSITION_FIELDS)}")
    if "cards" not in position:
        raise SetupError("cards: missing")
    if "settlements" not in position:
        raise SetupError("settlements: missing")
    settlements = position["settlements"]
    if not isinstance(settlements, list) or not 2 <= len(settlements) <= 5:
        raise SetupError("settlements: expected one list of [row, col] per player (2 to 5 players)")
    for i, own in enumerate(settlements):
        if not isinstance(own, list):
            raise SetupError(f"settlements[{i}]: expected a list of [row, col] pairs, got {own!r}")
    n = len(settlements)
    if "board" in position and "sections" in position:
        raise SetupError("board: give either board or sections, not both")
    if "board" in position:
        board = position["board"]
    elif "sections" in position:
        board = standard_setup(n, 0, sections=position["sections"], cards=position["cards"]).board
    else:
        raise SetupError("board: missing (give board or sections)")
    options = position.get("options", {})
    if not isinstance(options, dict):
        raise SetupError("options: expected an object")
    unknown = sorted(set(options) - set(OPTION_FIELDS))
    if unknown:
        raise SetupError(f"options: unknown field(s) {', '.join(map(repr, unknown))}; "
                         f"known: {', '.join(OPTION_FIELDS)}")
    return {
        "board": board,
        "num_players": n,
        "cards": position["cards"],
        "settlements": settlements,
        "hands": [None] * n,
        "deck": [],
        "lords_count_zero": check_flag(options.get("lords_count_zero", False), "options.lords_count_zero"),
    }


def score_position(position: dict, lords_count_zero: bool | None = None) -> list[dict]:
    """Per-player score breakdown of a position (see docs/api.md)."""
    kwargs = parse_position(position)
    if lords_count_zero is not None:
        kwargs["lords_count_zero"] = lords_count_zero
    return Game.custom(**kwargs).scores()


def load_position(path: str | Path) -> dict:
    """The JSON of a position file; SetupError naming the file if it cannot be read as JSON."""
    try:
        return json.loads(Path(path).read_text())
    except json.JSONDecodeError as err:
        raise SetupError(f"{path}: not valid JSON ({err})") from None
    except (OSError, UnicodeDecodeError) as err:
        raise SetupError(f"{path}: cannot read the file ({err.__class__.__name__}: {err})") from None
