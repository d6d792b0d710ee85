"""`Game`: a friendly Python object over one game's state vector and the numba rules kernels."""

from __future__ import annotations

import numpy as np

from .. import catalogue as CAT
from ..board.bitset import HEX_BIT, HEX_WORD, WORDS, hexes_of
from ..board.codes import CARD_TEXT, LOCATION_NAMES, NUM_POWERS
from ..board.geometry import NUM_HEXES, hex_id, hex_rc
from ..engine import piece_table as PT
from ..engine import state as S
from ..engine.actions import apply_action
from ..engine.crossroads.tasks import task_gold
from ..engine.deck import deck_off, discard_off, removed_off
from ..engine.hidden import hidden_extra_seats_into, hidden_seats_into
from ..engine.legal import END_TURN, TILE_ACTION_BASE, legal_mask_into
from ..engine.pieces import pieces_into
from ..engine.scoring import SCORE_COLUMNS, score_table
from ..engine.turns import begin_turn, settle
from ..expansions.island.setup import location_info, location_slots, on_grid
from ..expansions.registry import sides_of
from ..layout import Layout, layout_for
from ..ruleset import Ruleset
from ..safe_json import short_repr
from ..setup import Setup, SetupError, build_state, make_setup, ruleset_of, standard_setup
from ..setup.pieces import RULESET_FIELDS, is_int
from .explain import explain_illegal

RECORD_FORMAT = "kbenv-record"
RECORD_VERSION = 1  # base games; games with expansions write version 2 (their set-up has a ruleset)
RECORD_VERSION_RULESET = 2
RECORD_VERSIONS = (RECORD_VERSION, RECORD_VERSION_RULESET)
RECORD_FIELDS = ("format", "version", "setup", "actions")  # a record's top level, in every version
TILE_ACTION = {name: TILE_ACTION_BASE + k for k, name in enumerate(LOCATION_NAMES[:NUM_POWERS])}


def record_version(setup: Setup | dict) -> int:
    """1 for base games (as always), 2 when the set-up carries a ruleset or expansion pieces.

    Of a record's setup dict: as written. Records of version 1 written before `lords_count_zero` became a rule
    flag say `"lords_count_zero": true` without `rules`: they stay version 1 (and load as that flag)."""
    d = setup.to_dict() if isinstance(setup, Setup) else setup
    return RECORD_VERSION_RULESET if any(k in d for k in RULESET_FIELDS) else RECORD_VERSION


class IllegalActionError(ValueError):
    """An action that is not legal now; the message names the action and the reason."""


def hex_action(row: int, col: int) -> int:
    """The action that chooses hex (row, col)."""
    if not (is_int(row) and is_int(col) and 0 <= row < 20 and 0 <= col < 20):
        raise ValueError(f"hex ({short_repr(row)}, {short_repr(col)}) is off the 20x20 board")
    return hex_id(row, col)


def describe_action(action: int) -> str:
    """A short human description of an action number (v1 layout, of which v0 is the prefix)."""
    if 0 <= action < NUM_HEXES:
        return f"hex {hex_rc(action)}"
    if TILE_ACTION_BASE <= action < END_TURN:
        return f"activate {LOCATION_NAMES[action - TILE_ACTION_BASE]}"
    if action == END_TURN:
        return "end turn"
    if END_TURN < action < CAT.ACTION_SIZE_V1:
        name = CAT.ACTION_NAMES[action]
        return name if name in ("done",) else f"activate {name}" if name in CAT.POWER_NAMES else name
    return "out of range"


class Game:
    """One game of Kingdom Builder: set-up, the state vector, and the decisions taken so far."""

    def __init__(self, setup: Setup, state: np.ndarray, actions: list[int] | None = None):
        self.setup = setup
        self.state = state
        self.actions: list[int] = [] if actions is None else actions
        self._replayable = True

    # ----- creation -------------------------------------------------------------------------
    @classmethod
    def from_setup(cls, setup: Setup) -> Game:
        st = build_state(setup)
        if setup.resume is None or "decision" not in setup.resume:  # else the decision in progress resumes
            first = setup.start_player if setup.current_player is None else setup.current_player
            begin_turn(st, first)
            settle(st)
        return cls(setup, st)

    @classmethod
    def new(
        cls,
        num_players: int = 2,
        seed: int = 0,
        preset: str | None = None,
        sections=None,
        cards=None,
        start_player: int | None = None,
        lords_count_zero: bool = False,
        expansions=None,
        rules=None,
        ruleset=None,
        island_side=None,
    ) -> Game:
        """A new game; whatever is not given (sections and turns, cards, start player) comes from the seed.
        `island_side`: with the island expansion, the island side (kbenv.expansions.island.setup; default a seeded
        choice).

        The ruleset: `ruleset` (a kbenv.ruleset.Ruleset or its dict), or `expansions` (kbenv.catalogue: nomads,
        capitol, caves, crossroads) and `rules` switching reading flags on ({"capitol_replaces_castle": True} or
        a list of names). `lords_count_zero=True` is the older keyword of that rule flag."""
        ruleset = ruleset_of(expansions, rules, lords_count_zero, ruleset)
        return cls.from_setup(standard_setup(num_players, seed, preset, sections, cards, start_player, ruleset=ruleset,
                                             island_side=island_side))

    @classmethod
    def custom(
        cls,
        board=None,
        num_players: int = 2,
        cards=("fishermen", "knights", "merchants"),
        settlements=None,
        hands=None,
        tiles=None,
        tiles_left=None,
        supply=None,
        deck=None,
        current_player: int = 0,
        start_player: int = 0,
        seed: int = 0,
        lords_count_zero: bool = False,
        sections=None,
        resume=None,
        ruleset=None,
        island=None,
        **expansion_fields,
    ) -> Game:
        """A hand-built position; the current player's turn begins (see docs/api.md).

        `expansion_fields`: expansions, rules, capitols, caves, nomad_spaces, gold, nomad_tiles, tasks, the
        Marshlands keys (kbenv.expansions.marshlands.setup.MARSH_PIECES) and the position keys of the piece kinds
        (catalogue.PIECE_KINDS). `resume`: the full-state
        keys of a position (discard, removed, rng, turn, ..., decision; kbenv.setup.resume): with a "decision"
        no turn begins. `ruleset` (a Ruleset) may stand for expansions and rules."""
        unknown = set(expansion_fields) - set(RULESET_FIELDS)
        if unknown:
            raise SetupError(f"{sorted(unknown)[0]}: unknown field")
        ruleset = ruleset_of(expansion_fields.pop("expansions", None), expansion_fields.pop("rules", None),
                             lords_count_zero, ruleset)
        expansion_fields.update(expansions=ruleset.expansions, rules=ruleset.rules)
        if board is None:
            if sections is None:
                raise SetupError("board: give either board (20 strings) or sections")
            board = standard_setup(num_players, seed, sections=sections, cards=cards,
                                   expansions=expansion_fields["expansions"]).board
        setup = make_setup(
            num_players=num_players,
            board=board,
            cards=cards,
            start_player=start_player,
            seed=seed,
            sections=sections,
            settlements=settlements,
            hands=hands,
            tiles=tiles,
            tiles_left=tiles_left,
            supply=supply,
            deck=deck,
            current_player=current_player,
            resume=resume,
            island=island,
            **expansion_fields,
        )
        return cls.from_setup(setup)

    @classmethod
    def from_record(cls, record: dict) -> Game:
        """Replay a record from `to_record()`; SetupError names a bad field.

        The version must match the set-up: 1 for a base game, 2 for one with a ruleset or expansion pieces."""
        if not isinstance(record, dict):
            raise SetupError("record: expected a JSON object")
        if record.get("format") != RECORD_FORMAT:
            raise SetupError(f"format: expected {short_repr(RECORD_FORMAT)}")
        if record.get("version") not in RECORD_VERSIONS:
            raise SetupError(f"version: expected one of {RECORD_VERSIONS}, got {short_repr(record.get('version'))}")
        unknown = sorted(map(str, set(record) - set(RECORD_FIELDS)))
        if unknown:
            raise SetupError(f"{short_repr(unknown[0])}: unknown field of a version {record['version']} record; "
                             f"expected {', '.join(RECORD_FIELDS)}")
        if not isinstance(record.get("setup"), dict):
            raise SetupError("setup: missing or not an object")
        actions = record.get("actions")
        if not isinstance(actions, list):
            raise SetupError("actions: missing or not a list")
        setup = Setup.from_dict(record["setup"])
        expected = record_version(record["setup"])
        if record["version"] != expected:
            meaning = "a base game" if record["version"] == RECORD_VERSION else "a set-up with a ruleset"
            holds = "a ruleset or expansion pieces" if expected == RECORD_VERSION_RULESET \
                else "a base game (no ruleset, no expansion pieces)"
            raise SetupError(f"version: {record['version']} means {meaning}, but the record's setup holds {holds} "
                             f"(version {expected})")
        game = cls.from_setup(setup)
        for k, a in enumerate(actions):
            try:
                game.step(a)
            except IllegalActionError as err:
                raise SetupError(f"actions[{k}]: {err}") from None
        return game

    def to_record(self) -> dict:
        """Set-up, seed and every decision: replays bit for bit with `Game.from_record`."""
        if not self._replayable:
            raise ValueError("a determinized game has no faithful record")
        return {
            "format": RECORD_FORMAT,
            "version": record_version(self.setup),
            "setup": self.setup.to_dict(),
            "actions": list(self.actions),
        }

    def to_position(self) -> dict:
        """A position file (a JSON-ready dict) of the whole state: reading it back (kbenv.positions.files) gives a
        game with the same legal decisions, scores and future; format: docs/api.md."""
        from .position import position_of

        return position_of(self)

    def clone(self) -> Game:
        g = Game(self.setup, self.state.copy(), list(self.actions))
        g._replayable = self._replayable
        return g

    # ----- queries -------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return int(self.state[S.NUM_PLAYERS])

    @property
    def current_player(self) -> int:
        return int(self.state[S.CURRENT])

    @property
    def start_player(self) -> int:
        return int(self.state[S.START_PLAYER])

    @property
    def phase(self) -> str:
        return S.PHASE_NAMES[int(self.state[S.PHASE])]

    @property
    def done(self) -> bool:
        return int(self.state[S.PHASE]) == S.PHASE_OVER

    @property
    def turn(self) -> int:
        return int(self.state[S.TURN])

    @property
    def cards(self) -> tuple[str, ...]:
        return self.setup.cards

    @property
    def board(self) -> tuple[str, ...]:
        return self.setup.board

    @property
    def action_size(self) -> int:
        """409 (layout v0) in base games, ACTION_SIZE_V1 with expansions (v0 is its prefix): kbenv.layout."""
        return self.layout.action_size

    @property
    def layout(self) -> Layout:
        """The action and observation layout of this game's ruleset (kbenv.layout: V0 or V1)."""
        return layout_for(self)

    @property
    def expansions(self) -> tuple[str, ...]:
        return CAT.expansion_names(int(self.state[S.EXPANSIONS]))

    @property
    def ruleset(self) -> Ruleset:
        """The expansions and rule flags this game is played with (kbenv.ruleset)."""
        return Ruleset.of_game(self)

    @property
    def decider(self) -> int:
        """The player who takes the next decision (in every implemented rule, the player whose turn it is)."""
        return int(self.state[S.DECIDER])

    def legal_mask(self) -> np.ndarray:
        mask = np.zeros(self.action_size, dtype=np.int8)
        legal_mask_into(self.state, mask)
        return mask

    def legal_actions(self) -> list[int]:
        return [int(a) for a in np.flatnonzero(self.legal_mask())]

    def step(self, action: int) -> None:
        """Apply one decision; IllegalActionError (state unchanged) if it is not legal now."""
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(f"action {short_repr(action)} is not an integer action number")
        action = int(action)
        if not 0 <= action < self.action_size:  # also keeps numbers beyond int64 away from the kernel
            raise IllegalActionError(f"action {action} is illegal: actions are 0..{self.action_size - 1}")
        if not apply_action(self.state, action):
            reason = explain_illegal(self, action)
            raise IllegalActionError(f"action {action} ({describe_action(action)}) is illegal: {reason}")
        self.actions.append(action)

    def _seat(self, player, name: str = "player") -> int:
        """`player` as a seat of this game; ValueError naming the argument and the seats otherwise."""
        if not is_int(player) or not 0 <= player < self.num_players:
            raise ValueError(f"{name}: expected a seat 0..{self.num_players - 1}, got {short_repr(player)}")
        return int(player)

    def _hex(self, row, col) -> int:
        """The hex id of (row, col) on this game's board (the island's extended rows with the island)."""
        island = self.setup.island is not None
        if not (is_int(row) and is_int(col) and on_grid(int(row), int(col), island)):
            where = "rows 0..19 and columns 0..19" + (", or island rows 20..24 and columns 0..3" if island else "")
            raise ValueError(f"(row, col): expected a hex of the board ({where}), got "
                             f"({short_repr(row)}, {short_repr(col)})")
        return hex_id(int(row), int(col))

    def _mask_hexes(self, off: int) -> set[tuple[int, int]]:
        return {hex_rc(h) for h in hexes_of(self.state[off : off + WORDS])}

    def settlements(self, player: int) -> set[tuple[int, int]]:
        """The player's settlements (without the hexes of their other owned piece kinds, catalogue.PIECE_KINDS)."""
        return self.own_hexes(player) - self._mask_hexes(S.meeples_off(self._seat(player)))

    def own_hexes(self, player: int) -> set[tuple[int, int]]:
        """Every hex that counts as the player's settlement: the hexes of every owned piece kind
        (catalogue.PIECE_KINDS: settlements and the Crossroads pieces, a city hall's 7 cells; C-8, C-9)."""
        return self._mask_hexes(S.own_off(self._seat(player)))

    def occupied(self) -> set[tuple[int, int]]:
        """Hexes holding a piece of any kind (catalogue.PIECE_KINDS) or a cave."""
        pieces = np.zeros(WORDS, dtype=np.int64)
        pieces_into(self.state, pieces)
        return {hex_rc(h) for h in hexes_of(pieces)}

    def closed(self) -> set[tuple[int, int]]:
        """Hexes closed to building and moving: occupied ones and, with Crossroads, warrior zones."""
        return self._mask_hexes(S.OCCUPIED)

    # ----- Crossroads ----------------------------------------------------------------------
    def tasks(self) -> tuple[str, ...]:
        """The Crossroads task cards in play (C-2)."""
        return tuple(CAT.TASK_NAMES[int(self.state[S.TASKS + k])] for k in range(int(self.state[S.NUM_TASKS])))

    def task_gold(self, player: int, task: str) -> int:
        """Gold a task card pays the player now (0 if not met)."""
        player = self._seat(player)
        if task not in CAT.TASK_NAMES:
            raise ValueError(f"task: expected a task card ({', '.join(CAT.TASK_NAMES)}), got {short_repr(task)}")
        return int(task_gold(self.state, player, CAT.TASK_NAMES.index(task)))

    def pieces(self, player: int) -> dict:
        """The player's pieces stored in slots (catalogue.PIECE_KINDS; the Crossroads pieces): a kind of several
        pieces under its plural, a sorted list of hexes ("warriors"); a single piece under its name, its hex or
        None in the supply ("wagon", "ship", "city_hall": the centre)."""
        player = self._seat(player)
        out: dict = {}
        for kind in PT.SLOT_PIECES:
            hexes = [None if h is None else hex_rc(h) for h in PT.slot_hexes(self.state, kind, player)]
            out[PT.player_key(kind)] = sorted(rc for rc in hexes if rc is not None) if kind.per_player > 1 \
                else hexes[0]
        return out

    def piece_cells(self) -> dict[tuple[int, int], tuple[int, str]]:
        """{(r, c): (owner, kind)} of every slot-stored piece on the board (the Crossroads pieces); kind is the
        kind's label ("warrior", "wagon", "ship", "city hall": its centre) or, for the other cells of a piece
        covering several, the label and " cell" ("city hall cell")."""
        out: dict[tuple[int, int], tuple[int, str]] = {}
        for p in range(self.num_players):
            for kind in PT.SLOT_PIECES:
                for h in PT.slot_hexes(self.state, kind, p):
                    if h is not None:
                        for cell in PT.covered(kind, h)[1:]:
                            out[hex_rc(cell)] = (p, f"{kind.label} cell")
                        out[hex_rc(h)] = (p, kind.label)
        return out

    def warrior_zone(self) -> set[tuple[int, int]]:
        """Hexes next to a warrior (C-12)."""
        return self._mask_hexes(S.ZONE)

    def hand_cards(self, player: int) -> list[str]:
        """Every card in the player's hand: the card of `hand` first, then Crossroads' extra cards."""
        player = self._seat(player)
        cards = [int(self.state[S.HAND + player])]
        cards += [int(c) for c in self.state[S.EXTRA_CARDS + player * S.MAX_EXTRA_CARDS:][
            : int(self.state[S.EXTRA_COUNT + player])]]
        return [CARD_TEXT[c] for c in cards if c != S.NO_CARD]

    def fort_card(self) -> str | None:
        """The card the Fort drew, while its settlement is still to be built."""
        card = int(self.state[S.FORT_CARD])
        return CARD_TEXT[card] if card >= 0 and self.state[S.EXPANSIONS] & CAT.CROSSROADS else None

    def owner_of(self, row: int, col: int) -> int | None:
        """The seat whose settlement (or other owned piece) stands on (row, col), None if nobody's."""
        h = self._hex(row, col)
        for p in range(self.num_players):
            if self.state[S.own_off(p) + HEX_WORD[h]] & HEX_BIT[h]:
                return p
        return None

    def supply(self, player: int) -> int:
        """Settlements the player has left to build."""
        return int(self.state[S.SUPPLY + self._seat(player)])

    def hand(self, player: int) -> str | None:
        """The player's terrain card (None: none in hand)."""
        card = int(self.state[S.HAND + self._seat(player)])
        return None if card == S.NO_CARD else CARD_TEXT[card]

    def location_hexes(self) -> list[tuple[int, int]]:
        """Every location hex (the island's last, as its extended (row, col): kbenv.expansions.island.setup)."""
        return [hex_rc(h) for _, h in location_slots(self.state)]

    def tiles(self, player: int) -> list[tuple[str, tuple[int, int]]]:
        """The location tiles the player holds: (type, location hex), sorted."""
        held = int(self.state[S.TILES_HELD + self._seat(player)])
        out = []
        for i, h in location_slots(self.state):
            if held >> i & 1:
                out.append((LOCATION_NAMES[location_info(self.state, i)[0]], hex_rc(h)))
        return sorted(out)

    def tile_status(self, player: int) -> list[dict]:
        """Each tile held: type, location, and whether it is fresh (taken this turn) or used this turn."""
        player = self._seat(player)
        held, fresh, used = (int(self.state[off + player]) for off in (S.TILES_HELD, S.TILES_FRESH, S.TILES_USED))
        out = []
        for i, h in location_slots(self.state):
            if held >> i & 1:
                name = LOCATION_NAMES[location_info(self.state, i)[0]]
                out.append({"type": name, "location": hex_rc(h), "fresh": bool(fresh >> i & 1),
                            "used": bool(used >> i & 1)})
        return out

    def tiles_left(self, rc: tuple[int, int]) -> int:
        """Tiles left at the location hex `rc` (row, col); ValueError if it is none."""
        if not isinstance(rc, (tuple, list)) or len(rc) != 2:
            raise ValueError(f"rc: expected a (row, col) pair, got {short_repr(rc)}")
        h = self._hex(*rc)
        for i, slot in location_slots(self.state):
            if slot == h:
                return location_info(self.state, i)[1]
        raise ValueError(f"{tuple(rc)} is not a location hex")

    @staticmethod
    def card_letter(card: int) -> str:
        """The letter of a terrain card id (G C D F T; a swamp card "S/G" .. "S/T")."""
        if not is_int(card) or not 0 <= card < len(CARD_TEXT):
            raise ValueError(f"card: expected a card id 0..{len(CARD_TEXT) - 1}, got {short_repr(card)}")
        return CARD_TEXT[int(card)]

    def walls(self) -> set[tuple[int, int]]:
        return self._mask_hexes(S.WALLS)

    def caves(self) -> set[tuple[int, int]]:
        return self._mask_hexes(S.CAVES)

    def capitols(self) -> set[tuple[int, int]]:
        return {hex_rc(int(self.state[S.CAPITOL_HEX + k])) for k in range(int(self.state[S.NUM_CAPITOLS]))}

    def gold(self, player: int) -> int:
        """Gold banked during play (Treasure, red cards)."""
        return int(self.state[S.GOLD + self._seat(player)])

    def nomad_spaces(self) -> dict[tuple[int, int], str | None]:
        """Each nomad space and the tile lying on it (None once taken or if it had none)."""
        out = {}
        for i in range(int(self.state[S.NUM_NOMADS])):
            h = int(self.state[S.NOMAD_HEX + i])
            if h >= 0:
                lying = self.state[S.NOMAD_OWNER + i] == S.NOMAD_ON_SPACE and self.state[S.NOMAD_KIND + i] >= 0
                out[hex_rc(h)] = CAT.NOMAD_KINDS[int(self.state[S.NOMAD_KIND + i])] if lying else None
        return out

    def nomad_tiles(self, player: int) -> list[dict]:
        """The nomad tiles a player holds: kind, the round claimed, and whether usable now."""
        from ..engine.nomads.rules import current_round

        player = self._seat(player)
        out = []
        for i in range(int(self.state[S.NUM_NOMADS])):
            if self.state[S.NOMAD_OWNER + i] == player:
                claimed = int(self.state[S.NOMAD_ROUND + i])
                out.append({"kind": CAT.NOMAD_KINDS[int(self.state[S.NOMAD_KIND + i])], "claimed_round": claimed,
                            "usable": claimed + 1 == current_round(self.state)})
        return out

    def _pile(self, off: int, count_off: int) -> list[str]:
        return [CARD_TEXT[int(c)] for c in self.state[off : off + int(self.state[count_off])]]

    def deck_size(self) -> int:
        return int(self.state[S.DECK_COUNT])

    def deck_cards(self) -> list[str]:
        """The draw pile, top card first (hidden information: for tests and analysis)."""
        return self._pile(int(deck_off(self.state)), S.DECK_COUNT)[::-1]

    def discard_pile(self) -> list[str]:
        return self._pile(int(discard_off(self.state)), S.DISCARD_COUNT)

    def removed_cards(self) -> list[str]:
        return self._pile(int(removed_off(self.state)), S.REMOVED_COUNT)

    def score_table(self) -> np.ndarray:
        """(num_players, 9) array: the three cards in play, castles, capitols, gold banked during play,
        Crossroads tasks, Marshlands palaces, total."""
        table = np.zeros((S.MAX_PLAYERS, SCORE_COLUMNS), dtype=np.int64)
        score_table(self.state, table)
        return table[: self.num_players]

    def scores(self, expansion_columns: bool | None = None) -> list[dict]:
        """Per player: {"cards": {name: gold}, "castles": gold, "total": gold}, with "capitols" and "gold"
        (banked during play) before "total" in expansion games, or always with `expansion_columns=True`."""
        if expansion_columns is None:
            expansion_columns = bool(self.state[S.EXPANSIONS])  # base games keep their three keys
        out = []
        for p, row in enumerate(self.score_table()):
            entry = {"cards": {name: int(row[k]) for k, name in enumerate(self.cards)}, "castles": int(row[3])}
            if expansion_columns:
                entry["capitols"] = int(row[4])
                entry["gold"] = int(row[5])
            for side in sides_of(int(self.state[S.EXPANSIONS])):
                entry.update(side.score_keys(self, p, row) if side.score_keys is not None else {})
            entry["total"] = int(row[-1])
            out.append(entry)
        return out

    def winners(self) -> list[int]:
        totals = self.score_table()[:, -1]
        return [int(p) for p in np.flatnonzero(totals == totals.max())]

    # ----- hidden information --------------------------------------------------------------
    def hidden_from(self, player: int) -> list[int]:
        """Seats whose hand card `player` cannot see (the player to move has played theirs; with a
        Crossroads hand, once the turn's terrain is chosen). Extra Crossroads cards: `hidden_extra_from`.
        The rule is kbenv.engine.hidden's, which the search's determinizations use too."""
        seats = np.empty(S.MAX_PLAYERS, dtype=np.int64)
        return [int(p) for p in seats[: hidden_seats_into(self.state, self._seat(player), seats)]]

    def hidden_extra_from(self, player: int) -> list[int]:
        """Seats whose extra Crossroads cards `player` cannot see (every other seat holding some)."""
        seats = np.empty(S.MAX_PLAYERS, dtype=np.int64)
        return [int(p) for p in seats[: hidden_extra_seats_into(self.state, self._seat(player), seats)]]

    def determinize(self, player: int, rng: np.random.Generator) -> Game:
        """A copy where everything `player` cannot see (other hands, deck order) is dealt anew.

        The copy has no seed, no decisions and no record (see `kbenv.game.view.PlayerView.determinize`).
        """
        from .view import PlayerView

        return PlayerView(self, self._seat(player)).determinize(rng)

    def state_key(self) -> bytes:
        """The state without scratch space: equal keys = equal games."""
        return self.state[: S.SCRATCH].tobytes() + self.state[S.SCRATCH_END :].tobytes()
