"""Position files: a hand-built game state as JSON, scored (`kbenv score`) or asked for its legal
decisions (`kbenv legal`), optionally after a list of decisions ("then"); `position_of` writes the whole
state of a game as one (`Game.to_position`, `kbenv position`). Format: docs/api.md."""

from __future__ import annotations

from pathlib import Path

from .. import catalogue as CAT
from ..board.codes import LOCATION_LETTERS, LOCATION_NAMES
from ..board.geometry import NUM_HEXES, ROWS, hex_id, hex_rc
from ..catalogue import ACTION_ID, ACTION_NAMES, POWER_NAMES, RULE_FLAGS
from ..engine import piece_table as PT
from ..expansions.crossroads.setup import piece_entry  # noqa: F401  (its old home)
from ..expansions.island.setup import IslandSetupError, hex_out, on_grid, position_in
from ..expansions.marshlands.setup import MARSH_PIECES
from ..game import Game, IllegalActionError
from ..game.position import hand_entry, position_of  # noqa: F401  (position_of: Game.to_position; kept here too)
from ..safe_json import JSONInputError, read_json, short_repr
from ..setup import SetupError, check_flag, standard_setup
from ..setup.resume import RESUME_FIELDS

# The names of the two phase-dependent options (OPTION_1, OPTION_2) per phase (decision 8): Harvest's silo phase
# (H-5) and the number tiles' "take" / "return" (HA8).
# option-1 / option-2 by phase: the silo's modes, the number tiles' choice, and in a repeat's choose_power the
# Crossroads tile's extra action once more (A-H3, A-C8; option-2 has no use there).
OPTION_NAMES = {"silo": ("build", "move"), "choose_target": ("take", "return"), "choose_power": ("crossroads",)}
DECISION_IDS = {**{name: ACTION_ID[name] for name in POWER_NAMES if name in ACTION_ID}, "done": ACTION_ID["done"],
                "pass": ACTION_ID["done"], "end_turn": ACTION_ID["end_turn"],  # "pass": DONE of a reaction
                **{name: ACTION_ID[f"option-{k + 1}"] for names in OPTION_NAMES.values()
                   for k, name in enumerate(names)}}

# The position keys of the piece kinds stored in slots (catalogue.PIECE_KINDS: the Crossroads pieces).
SLOT_PIECE_KEYS = tuple(kind.key for kind in PT.SLOT_PIECES)
WALLS_KEY = PT.PIECE_KIND["wall"].key
POSITION_FIELDS = ("board", "sections", "locations", "cards", "settlements", "options", "expansions", WALLS_KEY,
                   "capitols", "caves", "nomad_spaces", "gold", "current_player", "start_player", "hands", "deck",
                   "supply", "tiles", "tiles_left", "nomad_tiles", "tasks", *SLOT_PIECE_KEYS, *MARSH_PIECES,
                   "seed", "island", *RESUME_FIELDS, "then")
OPTION_FIELDS = tuple(f.name for f in RULE_FLAGS)
PASSED_THROUGH = (WALLS_KEY, "capitols", "caves", "nomad_spaces", "gold", "nomad_tiles", "tasks", *SLOT_PIECE_KEYS,
                  "current_player", "start_player", "supply", "tiles", "seed", *MARSH_PIECES)


def parse_position(position: dict) -> dict:
    """Keyword arguments for `Game.custom` from a position dict; SetupError names the field at fault."""
    if not isinstance(position, dict):
        raise SetupError("position: expected a JSON object")
    position = island_hexes_in(position)
    unknown = sorted(set(position) - set(POSITION_FIELDS))
    if unknown:
        raise SetupError(f"position: unknown field(s) {', '.join(map(short_repr, unknown))}; "
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
            raise SetupError(f"settlements[{i}]: expected a list of [row, col] pairs, got {short_repr(own)}")
    n = len(settlements)
    if "board" in position and "sections" in position:
        raise SetupError("board: give either board or sections, not both")
    expansions = position.get("expansions")
    if "board" in position:
        board = with_locations(position["board"], position.get("locations"))
    elif "sections" in position:
        if "locations" in position:
            raise SetupError("locations: only with a board of letters (sections carry their own)")
        board = standard_setup(n, 0, sections=position["sections"], cards=position["cards"],
                               expansions=expansions).board
    else:
        raise SetupError("board: missing (give board or sections)")
    options = position.get("options", {})
    if not isinstance(options, dict):
        raise SetupError("options: expected an object")
    unknown = sorted(set(options) - set(OPTION_FIELDS))
    if unknown:
        raise SetupError(f"options: unknown field(s) {', '.join(map(short_repr, unknown))}; "
                         f"known: {', '.join(OPTION_FIELDS)}")
    for name, value in options.items():
        check_flag(value, f"options.{name}")
    kwargs = {
        "board": board,
        "num_players": n,
        "cards": position["cards"],
        "settlements": settlements,
        # No hands and no deck: both are dealt from the seed. Hands without a deck: an empty draw pile;
        # a deck without hands: each player draws at the start of their turn (as always).
        "hands": position.get("hands", None if "deck" not in position else [None] * n),
        "deck": position.get("deck", None if "hands" not in position else []),
        "expansions": expansions,
        "rules": options or None,  # every rule flag, lords_count_zero included
    }
    if "sections" in position:
        kwargs["sections"] = position["sections"]
    if "island" in position:
        kwargs["island"] = position["island"]  # kbenv.expansions.island.setup validates it (IA2, IA13)
    for name in PASSED_THROUGH:
        if name in position:
            kwargs[name] = position[name]
    if "tiles_left" in position:
        kwargs["tiles_left"] = tiles_left_pairs(position["tiles_left"])
    resume = {name: position[name] for name in RESUME_FIELDS if name in position}
    if resume:
        kwargs["resume"] = resume
    return kwargs


def with_locations(board, locations) -> list[str]:
    """Board strings where `L` marks a location hex whose type is given in {"r,c": type name}."""
    if locations is None:
        return board
    if not isinstance(locations, dict):
        raise SetupError('locations: expected an object {"r,c": location type}')
    if not isinstance(board, list) or not all(isinstance(row, str) for row in board):
        return board  # validate_board names the problem
    grid = [list(row) for row in board]
    for key, name in locations.items():
        r, c = parse_rc(key, "locations")
        if name not in LOCATION_NAMES:
            raise SetupError(f"locations: unknown location type {short_repr(name)}; known: {', '.join(LOCATION_NAMES)}")
        if r >= len(grid) or c >= len(grid[r]) or grid[r][c] != "L":
            raise SetupError(f"locations: hex {short_repr(key)} is not marked L on the board")
        grid[r][c] = LOCATION_LETTERS[LOCATION_NAMES.index(name)]
    if any("L" in row for row in grid):
        raise SetupError("locations: every L on the board needs a type in locations")
    return ["".join(row) for row in grid]


def parse_rc(key, name: str) -> tuple[int, int]:
    parts = key.split(",") if isinstance(key, str) else []
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise SetupError(f"{name}: expected hexes as \"row,col\", got {short_repr(key)}")
    r, c = int(parts[0]), int(parts[1])
    if not on_grid(r, c, name == "tiles_left"):  # tiles_left: island keys come in their extended form
        raise SetupError(f"{name}: hex {short_repr(key)} is off the 20x20 board")
    return r, c


def tiles_left_pairs(value) -> list:
    if not isinstance(value, dict):
        raise SetupError('tiles_left: expected an object {"r,c": tiles}')
    return [(parse_rc(key, "tiles_left"), k) for key, k in value.items()]


def decision_id(decision, k: int) -> int:
    """The action id of a decision named in a position file: [r, c], a power name, "done", "end_turn"."""
    if isinstance(decision, list) and len(decision) == 2 and all(type(v) is int for v in decision):
        r, c = decision
        if r >= ROWS and on_grid(r, c, True):  # an island hex (extended form: position_in)
            return CAT.ISLAND_ACTION_BASE + hex_id(r, c) - NUM_HEXES
        if not (0 <= r < 20 and 0 <= c < 20):
            raise SetupError(f"then[{k}]: hex {decision} is off the board")
        return r * 20 + c
    if isinstance(decision, str) and decision in DECISION_IDS:
        return DECISION_IDS[decision]
    raise SetupError(f"then[{k}]: unknown decision {short_repr(decision)}; expected [row, col], a power name "
                     f"({', '.join(POWER_NAMES)}), \"build\" / \"move\" (a silo), \"take\" / \"return\" (number "
                     f"tiles), \"done\", \"pass\" or \"end_turn\"")


def decision_name(action: int, phase: str = ""):
    """The position-file name of an action id (the inverse of `decision_id`); DONE is "pass" in a
    reaction (`phase` "reaction"); OPTION_1 / OPTION_2 are "build" / "move" in the silo phase, "take" / "return"
    for the number tiles (choose_target), OPTION_1 "crossroads" in a repeat's choose_power (OPTION_NAMES)."""
    if action < NUM_HEXES:
        return [action // 20, action % 20]
    if action >= CAT.ISLAND_ACTION_BASE:  # an island hex (IA5)
        return hex_out(list(hex_rc(action - CAT.ISLAND_ACTION_BASE + NUM_HEXES)))
    if phase == "reaction" and action == ACTION_ID["done"]:
        return "pass"
    k = action - ACTION_ID["option-1"]
    if phase in OPTION_NAMES and 0 <= k < len(OPTION_NAMES[phase]):
        return OPTION_NAMES[phase][k]
    return ACTION_NAMES[action]


def island_hexes_in(position: dict) -> dict:
    """The position with its ["island", r, c] hexes in kbenv's extended form (kbenv.expansions.island.setup)."""
    try:
        return position_in(position)
    except IslandSetupError as err:
        raise SetupError(str(err)) from None


def game_from_position(position: dict) -> Game:
    """The game of a position file, after its "then" decisions; SetupError names the field at fault."""
    kwargs = parse_position(position)
    game = Game.custom(**kwargs)
    then = island_hexes_in(position).get("then", [])
    if not isinstance(then, list):
        raise SetupError("then: expected a list of decisions")
    for k, decision in enumerate(then):
        action = decision_id(decision, k)
        try:
            game.step(action)
        except IllegalActionError as err:
            raise SetupError(f"then[{k}]: {err}") from None
    return game


def legal_position(position: dict) -> dict:
    """{"player": who decides, "phase": ..., "legal": [[r, c], power names, "done" / "pass", "end_turn"]}."""
    game = game_from_position(position)
    return {"player": game.decider, "phase": game.phase,
            "legal": [decision_name(a, game.phase) for a in game.legal_actions()]}


def score_position(position: dict, lords_count_zero: bool | None = None) -> list[dict]:
    """Per-player score breakdown of a position (see docs/api.md), after its "then" decisions."""
    if lords_count_zero is not None:
        position = {**position, "options": {**position.get("options", {}), "lords_count_zero": lords_count_zero}}
    return game_from_position(position).scores(expansion_columns=True)


def load_position(path: str | Path) -> dict:
    """The JSON of a position or record file (kbenv.safe_json: bounded size and depth, no key twice); SetupError
    naming the file and the problem if it cannot be read as such JSON."""
    try:
        return read_json(path)
    except JSONInputError as err:
        raise SetupError(f"{path}: {err}") from None
    except OSError as err:
        raise SetupError(f"{path}: cannot read the file ({err.__class__.__name__}: {err})") from None


def record_position(record, at: int | None = None) -> dict:
    """The position after the first `at` decisions of a game record (all of them when None)."""
    if not isinstance(record, dict) or not isinstance(record.get("actions"), list):
        raise SetupError("record: expected a kbenv record (an object with a list of actions)")
    total = len(record["actions"])
    if at is not None and (isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= total):
        raise SetupError(f"--at: expected a number of decisions 0..{total}, got {short_repr(at)}")
    actions = record["actions"] if at is None else record["actions"][:at]
    return Game.from_record({**record, "actions": actions}).to_position()
