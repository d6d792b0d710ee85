"""The expansion parts of a set-up: the ruleset (expansions and rule flags) and the pieces a hand-built
position may hold (walls, capitols, caves, nomad tiles, banked gold), validated with the field named,
and written into a state after the base set-up."""

from __future__ import annotations

import numpy as np

from .. import catalogue as CAT
from ..board.bitset import HEX_BIT, HEX_WORD, NEIGHBOUR_MASK, WORDS
from ..board.geometry import hex_id, hex_rc
from ..engine import piece_table as PT
from ..engine import state as S
from ..engine.crossroads.rules import update_zone
from ..engine.init import deal_expansions, init_ruleset
from ..engine.nomads.rules import place_wall
from ..engine.queenies.deal import place_cave
from ..expansions.marshlands.setup import MARSH_PIECES, apply_marsh_pieces, validate_marsh_pieces
from ..safe_json import short_repr

CROSSROADS_PIECES = ("tasks", *(kind.key for kind in PT.SLOT_PIECES if kind.expansion == "crossroads"))
WALLS_KEY = PT.PIECE_KIND["wall"].key
POSITION_PIECES = (WALLS_KEY, "capitols", "caves", "nomad_spaces", "gold", "nomad_tiles", *CROSSROADS_PIECES,
                   *MARSH_PIECES)
RULESET_FIELDS = ("expansions", "rules", *POSITION_PIECES)  # what makes a set-up more than a base game
# Gold banked during play: a bound far beyond any game (a few hundred at most) and far from int64 overflow
# when the scores are summed.
MAX_GOLD = 1_000_000
MAX_ROUND = 100_000  # rounds of a game (a game has fewer than 200 turns in all)
NEEDS = {"nomad_spaces": "nomads", "nomad_tiles": "nomads", "capitols": "capitol", "caves": "caves",
         "tasks": "crossroads", **{kind.key: kind.expansion for kind in PT.PIECE_KINDS if kind.expansion},
         **{name: "marshlands" for name in MARSH_PIECES}}


class ExpansionSetupError(ValueError):
    """Raised as kbenv.setup.SetupError by the caller (kept apart to avoid an import cycle)."""


def ruleset_bits(expansions, rules) -> tuple[int, int]:
    """(expansion bits, rule bits); ValueError naming the field."""
    bits = CAT.parse_expansions(expansions)
    return bits, CAT.parse_rules(rules, bits)


def is_int(value) -> bool:
    """An integer that is not a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _hexes(value, name: str) -> tuple[tuple[int, int], ...]:
    if not isinstance(value, (list, tuple)):
        raise ExpansionSetupError(f"{name}: expected a list of [row, col] pairs, got {short_repr(value)}")
    out = []
    for rc in value:
        if not isinstance(rc, (list, tuple)) or len(rc) != 2 or not all(is_int(v) for v in rc) \
                or not (all(0 <= v < 20 for v in rc) or (20 <= rc[0] < 25 and 0 <= rc[1] < 4)):  # or the island's
            raise ExpansionSetupError(f"{name}: expected [row, col] pairs on the 20x20 board, got {short_repr(rc)}")
        out.append((int(rc[0]), int(rc[1])))
    if len(set(out)) != len(out):
        raise ExpansionSetupError(f"{name}: a hex is listed twice")
    return tuple(out)


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
    if "walls" in out:
        walls = _hexes(out["walls"], "walls")
        if len(walls) > CAT.WALLS_IN_GAME:
            raise ExpansionSetupError(f"walls: at most {CAT.WALLS_IN_GAME} walls, got {len(walls)}")
        for r, c in walls:
            if board[r][c] not in buildable_letters(bits):
                raise ExpansionSetupError(f"walls: hex {[r, c]} is not a buildable terrain hex")
            if (r, c) in occupied:
                raise ExpansionSetupError(f"walls: hex {[r, c]} already holds a settlement")
        out["walls"] = walls
    if "capitols" in out:
        capitols = _hexes(out["capitols"], "capitols")
        if len(capitols) > S.MAX_CAPITOLS:
            raise ExpansionSetupError(f"capitols: at most {S.MAX_CAPITOLS}")
        for r, c in capitols:
            if board[r][c] != "K":
                raise ExpansionSetupError(f"capitols: hex {[r, c]} is not a castle")
        out["capitols"] = capitols
    if "caves" in out:
        caves = _hexes(out["caves"], "caves")
        for r, c in caves:
            if board[r][c] != "M":
                raise ExpansionSetupError(f"caves: hex {[r, c]} is not a mountain")
        out["caves"] = caves
    if "nomad_spaces" in out:
        out["nomad_spaces"] = _nomad_spaces(board, out["nomad_spaces"])
    if "gold" in out:
        gold = out["gold"]
        if not isinstance(gold, (list, tuple)) or len(gold) != n:
            raise ExpansionSetupError(f"gold: expected {n} integers 0..{MAX_GOLD} (one per player), got "
                                      f"{short_repr(gold)}")
        for p, g in enumerate(gold):
            if not is_int(g) or not 0 <= g <= MAX_GOLD:
                raise ExpansionSetupError(f"gold[{p}]: expected an integer 0..{MAX_GOLD}, got {short_repr(g)}")
        out["gold"] = tuple(int(g) for g in gold)
    if "nomad_tiles" in out:
        out["nomad_tiles"] = _nomad_tiles(out["nomad_tiles"], n, board)
    validate_crossroads(board, n, out, occupied, bits)
    validate_marsh_pieces(out, n)
    check_nomad_counts(board, out)
    return out


def _per_player(value, n: int, name: str) -> list:
    if not isinstance(value, (list, tuple)) or len(value) != n:
        raise ExpansionSetupError(f"{name}: expected one entry per player ({n})")
    return list(value)


def _one_hex(value, name: str):
    """None or one [row, col] pair."""
    if value is None:
        return None
    return _hexes([value], name)[0]


def validate_crossroads(board, n: int, out: dict, occupied: set, bits: int = 0) -> None:
    """Tasks and the Crossroads pieces of a position (C-2, C-3); normalised into `out` in place. With Marshlands
    swamp, with Harvest farmland is buildable ground for warriors, wagons and city halls too (the engine's
    buildable mask)."""
    ground = buildable_letters(bits)
    if "tasks" in out:
        tasks = out["tasks"]
        if not isinstance(tasks, (list, tuple)) or len(tasks) > S.MAX_TASKS:
            raise ExpansionSetupError(f"tasks: expected a list of at most {S.MAX_TASKS} task names")
        for name in tasks:
            if name not in CAT.TASK_NAMES:
                raise ExpansionSetupError(f"tasks: unknown task {short_repr(name)}; known: {', '.join(CAT.TASK_NAMES)}")
        if len(set(tasks)) != len(tasks):
            raise ExpansionSetupError("tasks: a task is listed twice")
        out["tasks"] = tuple(tasks)
    taken = set(occupied) | set(out.get("walls", ())) | set(out.get("caves", ()))

    def claim(rc, name: str, allowed: str) -> None:
        r, c = rc
        if board[r][c] not in allowed:
            raise ExpansionSetupError(f"{name}: hex {[r, c]} is not {piece_ground(allowed, ground)}")
        if rc in taken:
            raise ExpansionSetupError(f"{name}: hex {[r, c]} already holds a piece")
        taken.add(rc)

    for kind in PT.SLOT_PIECES:
        if kind.key in out:
            out[kind.key] = _slot_pieces(kind, out[kind.key], n, ground, claim)


def _slot_pieces(kind: CAT.PieceKind, value, n: int, ground: str, claim) -> tuple:
    """One player entry per seat of a slot-stored piece kind (catalogue.PIECE_KINDS): for a kind of several
    pieces a list of [row, col] pairs (null keeps an empty slot in its place), for a single piece a pair or
    null; each hex claimed on the kind's ground (a city hall: its centre and all 6 neighbours, C-8)."""
    allowed = {"buildable": ground, "buildable or mountain": ground + "M", "water": "W"}[kind.ground]
    out = []
    for p, entry in enumerate(_per_player(value, n, kind.key)):
        name = f"{kind.key}[{p}]"
        if kind.per_player > 1:
            if not isinstance(entry, (list, tuple)):
                raise ExpansionSetupError(f"{name}: expected a list of [row, col] pairs, got {short_repr(entry)}")
            if len(entry) > kind.per_player:
                raise ExpansionSetupError(f"{name}: at most {kind.per_player} {kind.plural}")
            placed = _hexes([rc for rc in entry if rc is not None], name)
            pairs = iter(placed)
            out.append(tuple(None if rc is None else next(pairs) for rc in entry))
        else:
            placed = () if entry is None else (_one_hex(entry, name),)
            out.append(placed[0] if placed else None)
        for rc in placed:
            cells = [hex_rc(h) for h in PT.covered(kind, hex_id(*rc))]
            if len(cells) != kind.cells:
                raise ExpansionSetupError(f"{name}: hex {list(rc)} is on the board edge; a {kind.label} covers its "
                                          f"centre and all {kind.cells - 1} neighbours")
            for cell in cells:
                claim(cell, name, allowed)
    return tuple(out)


def buildable_letters(bits: int) -> str:
    """The terrain letters of buildable hexes under a ruleset: the five card terrains, swamp with Marshlands
    (M-5; walls of a Quarry on a swamp turn, Crossroads pieces) and farmland with Harvest (EN 1231 "suitable for
    being built upon": the engine's buildable mask, so a warrior or wagon may stand there)."""
    return "GCDFT" + ("S" if bits & CAT.MARSHLANDS else "") + ("A" if bits & CAT.HARVEST else "")


def piece_ground(allowed: str, ground: str) -> str:
    """The words for the hexes a piece may stand on (error messages)."""
    if allowed == "W":
        return "a water hex"
    return "a buildable terrain or mountain hex" if allowed == ground + "M" else "a buildable terrain hex"


def _nomad_spaces(board, value) -> tuple:
    if isinstance(value, dict):
        pairs = list(value.items())
    elif isinstance(value, (list, tuple)) and all(isinstance(x, (list, tuple)) and len(x) == 2 for x in value):
        pairs = list(value)  # [[r, c], kind] pairs, as a record's set-up stores them
    else:
        raise ExpansionSetupError(f"nomad_spaces: expected an object {{\"r,c\": kind}}, got {short_repr(value)}")
    out = []
    for key, kind in pairs:
        rc = _parse_rc(key, "nomad_spaces")
        if board[rc[0]][rc[1]] != "N":
            raise ExpansionSetupError(f"nomad_spaces: hex {list(rc)} is not a nomad space")
        if kind is not None and kind not in CAT.NOMAD_KINDS:
            raise ExpansionSetupError(f"nomad_spaces: unknown nomad tile {short_repr(kind)}; known: "
                                      f"{', '.join(CAT.NOMAD_KINDS)}")
        out.append((rc, kind))
    return tuple(sorted(out))


def _nomad_tiles(value, n: int, board) -> tuple:
    """Per player: kinds held since the previous round (usable now), or objects {"kind", "claimed_round",
    "space"} giving the round the tile was claimed in and the nomad space it came from."""
    if not isinstance(value, (list, tuple)) or len(value) != n:
        raise ExpansionSetupError(f"nomad_tiles: expected one list of tile kinds per player ({n})")
    out = []
    for p, kinds in enumerate(value):
        if not isinstance(kinds, (list, tuple)):
            raise ExpansionSetupError(f"nomad_tiles[{p}]: expected a list of tile kinds, got {short_repr(kinds)}")
        entries = []
        for k, entry in enumerate(kinds):
            kind = entry.get("kind") if isinstance(entry, dict) else entry
            if kind not in CAT.NOMAD_USABLE_KINDS:
                raise ExpansionSetupError(f"nomad_tiles[{p}]: unknown nomad tile {short_repr(kind)}; "
                                          f"known: {', '.join(CAT.NOMAD_USABLE_KINDS)}")
            if isinstance(entry, dict):
                entries.append(nomad_entry(entry, f"nomad_tiles[{p}][{k}]", board, True))
            else:
                entries.append(kind)
        out.append(tuple(entries))
    return tuple(out)


def nomad_entry(entry: dict, name: str, board, held: bool) -> dict:
    """A nomad tile given as an object: {"kind", "claimed_round", "space"}; "claimed_round" (the round the
    tile was claimed in) is required for a held tile, "space" (the nomad space it came from) is optional."""
    keys = ("kind", "claimed_round", "space")
    unknown = sorted(set(entry) - set(keys))
    if unknown:
        raise ExpansionSetupError(f"{name}: unknown key(s) {', '.join(map(short_repr, unknown))}; known: "
                                  f"{', '.join(keys)}")
    if entry.get("kind") not in CAT.NOMAD_KINDS:
        raise ExpansionSetupError(f"{name}.kind: unknown nomad tile {short_repr(entry.get('kind'))}; "
                                  f"known: {', '.join(CAT.NOMAD_KINDS)}")
    out = {"kind": entry["kind"]}
    if held or "claimed_round" in entry:
        r = entry.get("claimed_round")
        if not is_int(r) or not -1 <= r <= MAX_ROUND:
            raise ExpansionSetupError(f"{name}.claimed_round: expected an integer -1..{MAX_ROUND}, got {short_repr(r)}")
        out["claimed_round"] = int(r)
    space = entry.get("space")
    if space is not None:
        rc = _parse_rc(space, f"{name}.space")
        if board[rc[0]][rc[1]] != "N":
            raise ExpansionSetupError(f"{name}.space: hex {list(rc)} is not a nomad space")
        space = f"{rc[0]},{rc[1]}"
    out["space"] = space
    return out


def check_nomad_counts(board, pieces: dict, gone: tuple = ()) -> None:
    """Tiles lying on spaces, held and gone: at most the game's tiles of each kind (catalogue), each space
    the source of one tile, and slots for the spaces and the tiles that came from no space."""
    spaces = sum(1 for row in board for ch in row if ch == "N")
    loose = sum(1 for held in pieces.get("nomad_tiles", ()) for e in held if isinstance(e, str) or e["space"] is None)
    loose += sum(1 for e in gone if e["space"] is None)
    if spaces + loose > S.MAX_NOMADS:
        raise ExpansionSetupError(f"nomad_tiles: {spaces} nomad spaces and {loose} tiles from no space; at most "
                                  f"{S.MAX_NOMADS} in all")
    kinds = [kind for _, kind in pieces.get("nomad_spaces", ()) if kind is not None]
    kinds += [e if isinstance(e, str) else e["kind"] for held in pieces.get("nomad_tiles", ()) for e in held]
    kinds += [e["kind"] for e in gone]
    for kind, count in CAT.NOMAD_TILE_COUNTS.items():
        if kinds.count(kind) > count:
            raise ExpansionSetupError(f"nomad_tiles: {kinds.count(kind)} {kind} tiles on spaces, held and gone; "
                                      f"the game has {count}")
    spaces = [e["space"] for held in pieces.get("nomad_tiles", ()) for e in held if isinstance(e, dict)]
    spaces += [e["space"] for e in gone]
    spaces = [s for s in spaces if s is not None]
    lying = {f"{r},{c}" for (r, c), kind in pieces.get("nomad_spaces", ()) if kind is not None}
    for s in spaces:
        if s in lying:
            raise ExpansionSetupError(f"nomad_tiles: space {short_repr(s)} still has a tile lying on it")
        if spaces.count(s) > 1:
            raise ExpansionSetupError(f"nomad_tiles: space {short_repr(s)} is the space of two tiles")


def _parse_rc(key, name: str) -> tuple[int, int]:
    """A hex from "r,c" (JSON object keys) or an (r, c) pair."""
    if isinstance(key, str):
        parts = key.split(",")
        if len(parts) == 2 and all(p.strip().lstrip("-").isdigit() for p in parts):
            key = (int(parts[0]), int(parts[1]))
    if isinstance(key, (list, tuple)) and len(key) == 2 and all(is_int(v) for v in key) \
            and all(0 <= v < 20 for v in key):
        return int(key[0]), int(key[1])
    raise ExpansionSetupError(f"{name}: expected hexes as \"row,col\", got {short_repr(key)}")


def apply_ruleset(st: np.ndarray, bits: int, rules: int, seed: int, standard_start: bool) -> None:
    """Write the ruleset into a base state; a standard start also deals the random expansion parts."""
    if not bits and not rules:
        return
    init_ruleset(st, bits, rules)
    if standard_start:
        deal_expansions(st, seed)


def apply_pieces(st: np.ndarray, pieces: dict, current_player: int, start_player: int, turn: int | None = None,
                 gone: tuple = ()) -> None:
    """The hand-built expansion pieces of a position; `turn` (the turn counter, see kbenv.positions.state)
    fixes the round, `gone` lists the nomad tiles out of the game."""
    for r, c in pieces.get("walls", ()):
        place_wall(st, hex_id(r, c))
    for k, (r, c) in enumerate(pieces.get("capitols", ())):
        st[S.CAPITOL_HEX + k] = hex_id(r, c)
        st[S.NUM_CAPITOLS] = k + 1
    for r, c in pieces.get("caves", ()):
        place_cave(st, hex_id(r, c))
    for (r, c), kind in pieces.get("nomad_spaces", ()):
        h = hex_id(r, c)
        for i in range(int(st[S.NUM_NOMADS])):
            if st[S.NOMAD_HEX + i] == h:
                st[S.NOMAD_KIND + i] = -1 if kind is None else CAT.NOMAD_KINDS.index(kind)
    for p, g in enumerate(pieces.get("gold", ())):
        st[S.GOLD + p] = g
    n = int(st[S.NUM_PLAYERS])
    # Rounds run from the start player: without a turn counter the position is in round 0, at
    # current_player's turn (TURN counts the turns begun; begin_turn adds the current one).
    st[S.TURN] = (current_player - start_player) % n if turn is None else turn - 1
    this_round = int(st[S.TURN]) // n
    for p, entries in enumerate(pieces.get("nomad_tiles", ())):
        for entry in entries:  # a kind alone: held since the previous round, usable now
            held = {"kind": entry, "space": None} if isinstance(entry, str) else entry
            put_nomad(st, held, p, held.get("claimed_round", this_round - 1))
    for entry in gone:
        put_nomad(st, entry, S.NOMAD_GONE, entry.get("claimed_round", 0))
    apply_crossroads(st, pieces)
    if st[S.EXPANSIONS] & CAT.EXPANSION_BIT["marshlands"]:
        apply_marsh_pieces(st, pieces)


def put_nomad(st: np.ndarray, entry: dict, owner: int, claimed_round: int) -> None:
    """A nomad tile off its space: back in the slot of the space it came from, or in a new slot."""
    i = int(st[S.NUM_NOMADS])
    if entry["space"] is not None:
        r, c = map(int, entry["space"].split(","))
        i = next(k for k in range(int(st[S.NUM_NOMADS])) if st[S.NOMAD_HEX + k] == hex_id(r, c))
    else:
        st[S.NOMAD_HEX + i] = -1
        st[S.NUM_NOMADS] = i + 1
    st[S.NOMAD_KIND + i] = CAT.NOMAD_KINDS.index(entry["kind"])
    st[S.NOMAD_OWNER + i] = owner
    st[S.NOMAD_ROUND + i] = claimed_round


def apply_crossroads(st: np.ndarray, pieces: dict) -> None:
    """Tasks and Crossroads pieces of a hand-built position (tiles come from the position's "tiles")."""
    tasks = pieces.get("tasks", ())
    for k, name in enumerate(tasks):
        st[S.TASKS + k] = CAT.TASK_NAMES.index(name)
    st[S.NUM_TASKS] = len(tasks)

    def put(p: int, h: int) -> None:
        for off in (S.OCCUPIED, S.own_off(p), S.meeples_off(p)):
            st[off + HEX_WORD[h]] |= HEX_BIT[h]
        st[S.adjacent_off(p) : S.adjacent_off(p) + WORDS] |= NEIGHBOUR_MASK[h]

    for kind in PT.SLOT_PIECES:
        for p, entry in enumerate(pieces.get(kind.key, ())):
            for k, rc in enumerate(entry if kind.per_player > 1 else (entry,)):
                if rc is not None:
                    PT.write_slot(st, kind, p, k, hex_id(*rc))
                    for h in PT.covered(kind, hex_id(*rc)):
                        put(p, h)
    if st[S.EXPANSIONS] & CAT.CROSSROADS:
        update_zone(st)
