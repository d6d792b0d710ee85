"""The full state in a position file: the keys that let a position resume any state reached in play.

`Game.to_position()` writes them with the older keys (kbenv.positions.files): the discard pile and the cards
out of the game, the in-game generator, the turn counter, the end-of-game flag, tiles taken or used this
turn, nomad tiles out of the game, and the decision in progress ("decision": the phase, the power being
resolved, its steps, the mandatory builds so far, the Fort's card, ...). Here they are validated into
`Setup.resume` (a dict of JSON values) and written into a state after the rest of the set-up. When
"decision" is given no turn begins: the state resumes exactly where it was written. Format: docs/api.md.
"""

from __future__ import annotations

import numpy as np

from .. import catalogue as CAT
from ..board.codes import CARD_TEXT
from ..board.geometry import hex_id, hex_rc
from ..engine import state as S
from ..engine.crossroads.rules import PIECE_STEPS
from ..engine.deck import discard_off, pile_size, removed_off
from ..engine.frames import SAVED
from ..engine.nomads.rules import DONATION_BUILDS, RESETTLEMENT_STEPS
from ..engine.rng import MASK32
from ..engine.turns import MANDATORY_BUILDS
from ..expansions.checks import ExpansionSetupError, card_letters, is_int
from ..expansions.island.setup import location_slots, on_grid
from ..expansions.registry import (
    ResumeCheck,
    all_sides,
    declaring,
    owners,
    sides_of,
)
from ..safe_json import short_repr

REACTION_POWER = CAT.REACTION_POWERS[0]  # the power of a reaction frame (decision 8 name)

BASE_RESUME = ("discard", "removed", "rng", "turn", "ending", "turns_without_build", "decisions", "tiles_fresh",
               "tiles_used")
# The full-state keys: the base game's, each expansion's (its side's resume_fields), the decision in progress.
RESUME_FIELDS = (*BASE_RESUME, *(field for side in all_sides() for field in side.resume_fields), "decision")
RESUME_OWNER = owners("resume_fields")
PHASE_OWNER = owners("decision_phases")
MAX_TURN = 100_000  # turns of a game: far more than any game has (under 200)
MAX_DECISIONS = 10_000_000
MAX_STEPS = max(RESETTLEMENT_STEPS, DONATION_BUILDS, PIECE_STEPS)
# The decision in progress: key -> (state offset, kind, value at the start of a turn).
FLAGS = {"mandatory_done": S.MANDATORY_DONE, "built_this_turn": S.BUILT_THIS_TURN, "outpost_armed": S.OUTPOST_ARMED,
         "cave_used": S.CAVE_USED, "terrain_fixed": S.TERRAIN_FIXED}
# With Marshlands a reserve set aside adds to the mandatory count (A-M6): up to 3 + 40.
MAX_MANDATORY = MANDATORY_BUILDS + S.SETTLEMENTS_PER_PLAYER
COUNTS = {"steps_left": (S.STEPS_LEFT, MAX_STEPS), "steps_taken": (S.STEPS_TAKEN, MAX_STEPS),
          "mandatory_built": (S.MANDATORY_BUILT, MAX_MANDATORY),
          "mandatory_target": (S.MANDATORY_TARGET, MAX_MANDATORY)}
# The counters of the turn owner kept in the decision (catalogue.COUNTERS; Marshlands: the reserve owed).
COUNTER_ROWS = tuple(c for c in CAT.COUNTERS if not c.per_player)
DECISION_COUNTERS = tuple(c.name for c in COUNTER_ROWS)
# The decision's keys: the base game's, then each expansion's (its side's decision_fields followed by the counters
# of its expansion), "frames" (the decisions a reaction interrupted) last.
DECISION_FIELDS = ("phase", "decider", "power", "source", "victim", *COUNTS, "mandatory_hexes", *FLAGS,
                   *(field for side in all_sides()
                     for field in (*side.decision_fields, *(c.name for c in COUNTER_ROWS if c.expansion == side.name))),
                   "frames")
assert sorted(DECISION_COUNTERS) == sorted(set(DECISION_FIELDS) & set(DECISION_COUNTERS)), "a side per counter"
DECISION_OWNER = {**owners("decision_fields"), **{c.name: c.expansion for c in COUNTER_ROWS if c.expansion}}

# "frames": the interrupted decisions under a Marshlands reaction, outermost first (kbenv.engine.frames):
# each one's saved context and the seats its reaction frame still has to ask ("decider" null: that frame asks
# its next seat when it resumes).
assert SAVED == (S.PHASE, S.POWER, S.SOURCE, S.STEPS_LEFT, S.STEPS_TAKEN, S.DECIDER, S.VICTIM, S.MANDATORY_BUILT)
FRAME_KEYS = ("phase", "decider", "power", "source", "steps_left", "steps_taken", "victim", "mandatory_built",
              "queue")
POWER_PHASES = ("choose_source", "choose_target", "step", "choose_power")  # choose_power: the Harvest repeat (A-H3)


def _err(message: str) -> ExpansionSetupError:
    return ExpansionSetupError(message)


def _count(value, name: str, low: int, high: int) -> int:
    if not is_int(value) or not low <= value <= high:
        raise _err(f"{name}: expected an integer {low}..{high}, got {short_repr(value)}")
    return int(value)


def _flag(value, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise _err(f"{name}: expected true or false, got {short_repr(value)}")
    return bool(value)


def _hex(value, name: str) -> list[int]:
    """[row, col] on the board, or an island hex in its extended form (kbenv.expansions.island.setup)."""
    if not isinstance(value, (list, tuple)) or len(value) != 2 or not all(is_int(v) for v in value) \
            or not on_grid(int(value[0]), int(value[1]), True):
        raise _err(f"{name}: expected [row, col] on the 20x20 board, got {short_repr(value)}")
    return [int(value[0]), int(value[1])]


def _seat(value, name: str, n: int, optional: bool = False):
    if value is None and optional:
        return None
    if not is_int(value) or not 0 <= value < n:
        raise _err(f"{name}: expected a seat 0..{n - 1}{' or null' if optional else ''}, got {short_repr(value)}")
    return int(value)


def validate_resume(resume: dict, board, n: int, bits: int, tiles, current: int, start: int) -> dict:
    """The full-state keys of a position, normalised to JSON values; ExpansionSetupError names the field."""
    if not isinstance(resume, dict):
        raise _err("resume: expected an object")
    unknown = sorted(set(resume) - set(RESUME_FIELDS))
    if unknown:
        raise _err(f"position: unknown field(s) {', '.join(map(repr, unknown))}")
    out: dict = {}
    for name in ("discard", "removed"):
        if name in resume:
            out[name] = card_letters(resume[name], name, pile_size(bits))
    for name in resume:
        owner = RESUME_OWNER.get(name)
        if owner is not None and resume[name] is not None and not bits & CAT.EXPANSION_BIT[owner]:
            raise _err(f"{name}: needs the {short_repr(owner)} expansion")
    phase = resume["decision"].get("phase") if isinstance(resume.get("decision"), dict) else None
    owner = PHASE_OWNER.get(phase) if isinstance(phase, str) else None  # any other value: validate_decision
    if owner is not None and not bits & CAT.EXPANSION_BIT[owner]:
        raise _err(f"decision.phase: {short_repr(phase)} needs the {short_repr(owner)} expansion")
    if "rng" in resume:
        out["rng"] = _count(resume["rng"], "rng", 1, MASK32)
    if "turn" in resume:
        turn = _count(resume["turn"], "turn", 1, MAX_TURN)
        if (turn - 1) % n != (current - start) % n:
            raise _err(f"turn: turn {turn} is played by seat {(start + turn - 1) % n} (rounds run from the start "
                       f"player {start}), not by the current player {current}")
        out["turn"] = turn
    if "ending" in resume:
        out["ending"] = _flag(resume["ending"], "ending")
    if "turns_without_build" in resume:
        out["turns_without_build"] = _count(resume["turns_without_build"], "turns_without_build", 0, 2 * n)
    if "decisions" in resume:
        out["decisions"] = _count(resume["decisions"], "decisions", 0, MAX_DECISIONS)
    held = [set(map(tuple, t)) for t in tiles] if tiles is not None else [set() for _ in range(n)]
    for name in ("tiles_fresh", "tiles_used"):
        if name in resume:
            value = resume[name]
            if not isinstance(value, (list, tuple)) or len(value) != n:
                raise _err(f"{name}: expected one list of location hexes per player ({n})")
            lists = []
            for p, hexes in enumerate(value):
                if not isinstance(hexes, (list, tuple)):
                    raise _err(f"{name}[{p}]: expected a list of [row, col] pairs, got {short_repr(hexes)}")
                own = [_hex(rc, f"{name}[{p}]") for rc in hexes]
                for rc in own:
                    if not board[rc[0]][rc[1]].islower():
                        raise _err(f"{name}[{p}]: hex {rc} is not a location hex")
                    if tuple(rc) not in held[p]:
                        raise _err(f"{name}[{p}]: player {p} holds no tile of location {rc} (see tiles)")
                lists.append(sorted(own))
            out[name] = lists
    check = ResumeCheck(n, bits, current, board)
    for side in sides_of(bits):
        if side.check_resume is not None:
            out.update(side.check_resume(resume, check))
    if "decision" in resume:
        out["decision"] = validate_decision(resume["decision"], n, bits, current)
    return out


def validate_decision(decision, n: int, bits: int, current: int) -> dict:
    """The "decision" object: the context of the decision in progress (defaults: the start of a turn)."""
    if not isinstance(decision, dict):
        raise _err("decision: expected an object")
    unknown = sorted(set(decision) - set(DECISION_FIELDS))
    if unknown:
        raise _err(f"decision: unknown key(s) {', '.join(map(repr, unknown))}; known: {', '.join(DECISION_FIELDS)}")
    out: dict = {}
    phase = decision.get("phase", "idle")
    if phase not in S.PHASE_NAMES:
        raise _err(f"decision.phase: expected one of {', '.join(S.PHASE_NAMES)}, got {short_repr(phase)}")
    out["phase"] = phase
    out["decider"] = _seat(decision.get("decider", current), "decision.decider", n)
    power = decision.get("power")
    if power is not None:
        if power not in CAT.POWER_NAMES:
            raise _err(f"decision.power: unknown power {short_repr(power)}; known: {', '.join(CAT.POWER_NAMES)}")
        needed = power_expansion(power)
        if needed and not bits & CAT.EXPANSION_BIT[needed]:
            raise _err(f"decision.power: {short_repr(power)} needs the {short_repr(needed)} expansion")
    if (power is None) == (phase in POWER_PHASES):
        raise _err(f"decision.power: phase {short_repr(phase)} " + ("needs the power being resolved" if power is None
                                                          else f"has no power being resolved, got {short_repr(power)}"))
    out["power"] = power
    out["source"] = None if decision.get("source") is None else _hex(decision["source"], "decision.source")
    out["victim"] = _seat(decision.get("victim"), "decision.victim", n, optional=True)
    for name, (_, high) in COUNTS.items():
        default = MANDATORY_BUILDS if name == "mandatory_target" else 0
        out[name] = _count(decision.get(name, default), f"decision.{name}", 0, mandatory_bound(high, bits))
    hexes = decision.get("mandatory_hexes", [])
    if not isinstance(hexes, (list, tuple)) or len(hexes) > min(MANDATORY_BUILDS, out["mandatory_built"]):
        raise _err(f"decision.mandatory_hexes: expected at most mandatory_built ({out['mandatory_built']}) "
                   f"[row, col] pairs, got {short_repr(hexes)}")
    out["mandatory_hexes"] = [_hex(rc, "decision.mandatory_hexes") for rc in hexes]
    for name in FLAGS:
        out[name] = _flag(decision.get(name, False), f"decision.{name}")
    for name, value in decision.items():
        owner = DECISION_OWNER.get(name)
        if owner is not None and value is not None and not (isinstance(value, list) and not value) \
                and not bits & CAT.EXPANSION_BIT[owner]:
            raise _err(f"decision.{name}: needs the {short_repr(owner)} expansion")
    for side in sides_of(bits):
        if side.check_decision is not None:
            out.update(side.check_decision(decision, bits))
    for c in COUNTER_ROWS:
        value = decision.get(c.name)
        if value is not None:  # its expansion is in play (DECISION_OWNER, above)
            value = _count(value, f"decision.{c.name}", 0, c.high)
        out[c.name] = value
    out["frames"] = validate_frames(decision.get("frames", []), n, bits)
    if (phase == "reaction" or out["power"] == REACTION_POWER) != bool(out["frames"]):
        raise _err(f"decision.frames: a {REACTION_POWER.capitalize()} reaction (phase 'reaction' or the power "
                   f"'{REACTION_POWER}') and frames go together")
    return out


def validate_frames(frames, n: int, bits: int) -> list[dict]:
    """The "frames" of a decision (Marshlands reactions)."""
    if not isinstance(frames, list) or len(frames) > S.MAX_FRAMES:
        raise _err(f"decision.frames: expected a list of at most {S.MAX_FRAMES} objects, got {short_repr(frames)}")
    out = []
    if frames and not any(side.reactions for side in sides_of(bits)):
        raise _err(f"decision.frames: needs the {short_repr(declaring('reactions'))} expansion")
    for k, frame in enumerate(frames):
        name = f"decision.frames[{k}]"
        if not isinstance(frame, dict) or sorted(frame) != sorted(FRAME_KEYS):
            raise _err(f"{name}: expected an object with the keys {', '.join(FRAME_KEYS)}, got {short_repr(frame)}")
        if frame["phase"] not in S.PHASE_NAMES:
            raise _err(f"{name}.phase: expected one of {', '.join(S.PHASE_NAMES)}, got {short_repr(frame['phase'])}")
        if frame["power"] is not None and frame["power"] not in CAT.POWER_NAMES:
            raise _err(f"{name}.power: unknown power {short_repr(frame['power'])}")
        queue = frame["queue"]
        if not isinstance(queue, list) or len(set(map(str, queue))) != len(queue):
            raise _err(f"{name}.queue: expected a list of distinct seats, got {short_repr(queue)}")
        out.append({
            "phase": frame["phase"], "power": frame["power"],
            "decider": _seat(frame["decider"], f"{name}.decider", n, optional=True),
            "source": None if frame["source"] is None else _hex(frame["source"], f"{name}.source"),
            "victim": _seat(frame["victim"], f"{name}.victim", n, optional=True),
            "steps_left": _count(frame["steps_left"], f"{name}.steps_left", 0, MAX_STEPS),
            "steps_taken": _count(frame["steps_taken"], f"{name}.steps_taken", 0, MAX_STEPS),
            "mandatory_built": _count(frame["mandatory_built"], f"{name}.mandatory_built", 0,
                                      mandatory_bound(MAX_MANDATORY, bits)),
            "queue": [_seat(s, f"{name}.queue", n) for s in queue],
        })
    return out


def mandatory_bound(high: int, bits: int) -> int:
    """The bound of a count: a mandatory count exceeds the 3 builds only with a reserve owed (Marshlands)."""
    reserve = any(side.reserve_counts for side in sides_of(bits))
    return MANDATORY_BUILDS if high == MAX_MANDATORY and not reserve else high


def power_expansion(power: str) -> str | None:
    """The expansion a power comes from (None: the base game)."""
    return CAT.POWER_EXPANSION[CAT.POWER_CODE[power]]


def resume_cards(resume: dict) -> list[str]:
    """The terrain cards the full-state keys hold (for the count of each terrain)."""
    fort = (resume.get("decision") or {}).get("fort_card")
    return [*resume.get("discard", ()), *resume.get("removed", ()), *([fort] if fort else [])]


def apply_resume(st: np.ndarray, resume: dict) -> None:
    """Write the full-state keys into a state built from the rest of the set-up."""
    for name, off, count_off in (("discard", discard_off(st), S.DISCARD_COUNT),
                                 ("removed", removed_off(st), S.REMOVED_COUNT)):
        if name in resume:
            cards = resume[name]
            st[off : off + len(cards)] = [CARD_TEXT.index(x) for x in cards]
            st[count_off] = len(cards)
    for name, off in (("rng", S.RNG), ("turns_without_build", S.TURNS_WITHOUT_BUILD), ("decisions", S.DECISIONS)):
        if name in resume:
            st[off] = resume[name]
    if "ending" in resume:
        st[S.ENDING] = int(resume["ending"])
    location_bit = {h: bit for bit, h in location_slots(st)}
    for name, off in (("tiles_fresh", S.TILES_FRESH), ("tiles_used", S.TILES_USED)):
        for p, hexes in enumerate(resume.get(name, ())):
            st[off + p] = sum(1 << location_bit[hex_id(r, c)] for r, c in hexes)
    for side in sides_of(int(st[S.EXPANSIONS])):
        if side.apply_resume is not None:
            side.apply_resume(st, resume)
    decision = resume.get("decision")
    if decision is None:
        if "turn" in resume:
            st[S.TURN] = resume["turn"] - 1  # begin_turn counts the current turn
        return
    st[S.TURN] = resume.get("turn", int(st[S.TURN]) + 1)
    st[S.PHASE] = S.PHASE_NAMES.index(decision["phase"])
    st[S.DECIDER] = decision["decider"]
    st[S.POWER] = -1 if decision["power"] is None else CAT.POWER_CODE[decision["power"]]
    st[S.SOURCE] = -1 if decision["source"] is None else hex_id(*decision["source"])
    st[S.VICTIM] = -1 if decision["victim"] is None else decision["victim"]
    for name, (off, _) in COUNTS.items():
        st[off] = decision[name]
    for k, rc in enumerate(decision["mandatory_hexes"]):
        st[S.MANDATORY_HEXES + k] = hex_id(*rc)
    for name, off in FLAGS.items():
        st[off] = int(decision[name])
    for side in sides_of(int(st[S.EXPANSIONS])):
        if side.apply_decision is not None:
            side.apply_decision(st, decision)
    for name in DECISION_COUNTERS:
        if decision[name] is not None:
            st[S.COUNTER_AT[name]] = decision[name]
    for d, frame in enumerate(decision["frames"]):
        base = S.FRAMES + d * S.FRAME_FIELDS
        st[base : base + S.FRAME_FIELDS] = [
            S.PHASE_NAMES.index(frame["phase"]), -1 if frame["power"] is None else CAT.POWER_CODE[frame["power"]],
            -1 if frame["source"] is None else hex_id(*frame["source"]), frame["steps_left"], frame["steps_taken"],
            -1 if frame["decider"] is None else frame["decider"], -1 if frame["victim"] is None else frame["victim"],
            frame["mandatory_built"]]
        st[S.REACT_QUEUE + d] = sum(1 << s for s in frame["queue"])
    st[S.FRAME_DEPTH] = len(decision["frames"])


def resume_of(st: np.ndarray) -> dict:
    """The full-state keys of a state (the inverse of `apply_resume`, with kbenv.positions.files's keys)."""
    n = int(st[S.NUM_PLAYERS])

    def pile(off: int, count_off: int) -> list[str]:
        return [CARD_TEXT[int(c)] for c in st[off : off + int(st[count_off])]]

    def rc(h: int) -> list[int]:
        return list(hex_rc(int(h)))

    slots = location_slots(st)

    def tile_hexes(off: int) -> list[list[list[int]]]:
        return [sorted(rc(h) for i, h in slots if st[off + p] >> i & 1) for p in range(n)]

    out: dict = {
        "discard": pile(int(discard_off(st)), S.DISCARD_COUNT),
        "removed": pile(int(removed_off(st)), S.REMOVED_COUNT),
        "rng": int(st[S.RNG]),
        "turn": int(st[S.TURN]),
        "ending": bool(st[S.ENDING]),
        "turns_without_build": int(st[S.TURNS_WITHOUT_BUILD]),
        "decisions": int(st[S.DECISIONS]),
        "tiles_fresh": tile_hexes(S.TILES_FRESH),
        "tiles_used": tile_hexes(S.TILES_USED),
    }
    for side in sides_of(int(st[S.EXPANSIONS])):
        if side.resume_keys is not None:
            out.update(side.resume_keys(st))
    power, source, victim = int(st[S.POWER]), int(st[S.SOURCE]), int(st[S.VICTIM])
    decision: dict = {
        "phase": S.PHASE_NAMES[int(st[S.PHASE])],
        "decider": int(st[S.DECIDER]),
        "power": None if power < 0 else CAT.POWER_NAMES[power],
        "source": None if source < 0 else rc(source),
        "victim": None if victim < 0 else victim,
        **{name: int(st[off]) for name, (off, _) in COUNTS.items()},
        "mandatory_hexes": [rc(st[S.MANDATORY_HEXES + k]) for k in range(min(3, int(st[S.MANDATORY_BUILT])))],
        **{name: bool(st[off]) for name, off in FLAGS.items()},
    }
    for side in sides_of(int(st[S.EXPANSIONS])):
        decision.update(side.decision_keys(st) if side.decision_keys is not None else {})
        decision.update({c.name: int(st[S.COUNTER_AT[c.name]]) for c in COUNTER_ROWS if c.expansion == side.name})
    if st[S.FRAME_DEPTH] > 0:
        decision["frames"] = [frame_of(st, d) for d in range(int(st[S.FRAME_DEPTH]))]
    out["decision"] = decision
    return out


def frame_of(st: np.ndarray, d: int) -> dict:
    """The saved context and reactor queue of frame d (the inverse of the "frames" entries of apply_resume)."""
    phase, power, source, steps_left, steps_taken, decider, victim, built = (
        int(x) for x in st[S.FRAMES + d * S.FRAME_FIELDS : S.FRAMES + (d + 1) * S.FRAME_FIELDS])
    queue = int(st[S.REACT_QUEUE + d])
    return {"phase": S.PHASE_NAMES[phase], "decider": None if decider < 0 else decider,
            "power": None if power < 0 else CAT.POWER_NAMES[power],
            "source": None if source < 0 else list(hex_rc(source)), "steps_left": steps_left,
            "steps_taken": steps_taken, "victim": None if victim < 0 else victim, "mandatory_built": built,
            "queue": [s for s in range(int(st[S.NUM_PLAYERS])) if queue >> s & 1]}
