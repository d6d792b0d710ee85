"""Game set-up: the options of a game, random set-ups from a seed, and the initial state vector."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import lru_cache

import numpy as np

from .. import catalogue as CAT
from ..board.bitset import HEX_BIT, HEX_WORD, NEIGHBOUR_MASK, WORDS
from ..board.codes import (
    CARD_LETTERS,
    CARD_TEXT,
    LOCATION_NAMES,
    SWAMP_CARD_BASE,
    TERRAIN_NAMES,
    decode_hex_code,
    terrain_card_index,
)
from ..board.geometry import hex_id
from ..board.sections import assemble
from ..board.tables import TABLE_SECTIONS, board_arrays
from ..catalogue import CARD_NAMES as ALL_CARD_NAMES
from ..catalogue import section_name
from ..engine import state as S
from ..engine.deck import deck_off, pile_size, removed_off
from ..engine.init import (
    CARDS_PER_TERRAIN,
    DRAW_CARDS,
    DRAW_DECK,
    DRAW_SECTIONS,
    DRAW_START,
    DRAW_TURNED,
    NUM_DRAWS,
    TILES_PER_LOCATION,
    init_game,
    setup_draws,
)
from ..expansions.island.setup import (
    IslandSetupError,
    apply_island,
    extended_board,
    hex_label,
    location_info,
    location_slots,
    on_grid,
    set_tiles_left,
    side_option,
    validate_island,
)
from ..expansions.registry import PositionCheck, declaring, sides_of
from ..ruleset import LORDS_COUNT_ZERO, Ruleset, RulesetError
from ..safe_json import short_repr
from .pieces import (
    POSITION_PIECES,
    apply_pieces,
    apply_ruleset,
    check_nomad_counts,
    is_int,
    validate_pieces,
)
from .resume import apply_resume, resume_cards, validate_resume

PRESETS = {
    "first-game": {
        "sections": [("tavern", False), ("paddock", False), ("oasis", False), ("farm", False)],
        "cards": ["fishermen", "knights", "merchants"],
    }
}


# The fields of a hand-built position besides the expansions' pieces (make_setup's keywords), in Setup's order.
BASE_POSITION_FIELDS = ("settlements", "hands", "tiles", "tiles_left", "supply", "deck", "current_player", "resume")
POSITION_FIELDS = (*BASE_POSITION_FIELDS, *POSITION_PIECES)


class SetupError(ValueError):
    """A set-up option, position or record field is invalid; the message names the field."""


# Seeds are int64 in the kernels. The set-up generator has 32 bits of state: seeds that agree modulo
# 2**32 give the same game (use seeds below 2**32 for distinct games; docs/api.md).
MAX_SEED = 2**63 - 1
SEED_PERIOD = 2**32
# Terrains a settlement may stand on: the five buildable ones and water (reached with the Harbor); with
# Nomads also those of the Donation tiles (mountain: kbenv.catalogue.DONATION_TERRAINS).
SETTLEMENT_TERRAINS = "GCDFTW"


def settlement_terrains(expansion_bits: int) -> str:
    """The terrain letters a settlement may stand on under a ruleset: those of the base game and those the
    expansions in play add (each expansion's side: kbenv.expansions.registry)."""
    out = SETTLEMENT_TERRAINS
    for side in sides_of(expansion_bits):
        out += "".join(t for t in side.settlement_terrains if t not in out)
    return out


MIN_PLAYERS, MAX_PLAYERS = 2, S.MAX_PLAYERS


def check_num_players(value, name: str = "num_players") -> int:
    """The one check of a player count (2 to 5); SetupError naming the field."""
    if not is_int(value) or not MIN_PLAYERS <= value <= MAX_PLAYERS:
        raise SetupError(f"{name}: expected {MIN_PLAYERS} to {MAX_PLAYERS}, got {short_repr(value)}")
    return int(value)


def check_reward(scheme) -> str:
    """The one check of a reward scheme name."""
    from ..rewards import REWARD_SCHEMES

    if scheme not in REWARD_SCHEMES:
        raise SetupError(f"reward: unknown scheme {short_repr(scheme)}; expected one of {', '.join(REWARD_SCHEMES)}")
    return scheme


def resolve_preset(preset, sections, cards):
    """The one place presets are read: (sections, cards) with the preset's filling what is not given."""
    if preset is None:
        return sections, cards
    if preset not in PRESETS:
        raise SetupError(f"preset: unknown preset {short_repr(preset)}; known: {', '.join(PRESETS)}")
    return sections or PRESETS[preset]["sections"], cards or PRESETS[preset]["cards"]


def check_seed(seed, name: str = "seed") -> int:
    """A seed as int; SetupError naming the field unless 0 <= seed <= 2**63 - 1."""
    if not is_int(seed) or not 0 <= seed <= MAX_SEED:
        raise SetupError(f"{name}: expected an integer from 0 to {MAX_SEED}, got {short_repr(seed)}")
    return int(seed)


def ruleset_of(expansions=None, rules=None, lords_count_zero=False, ruleset=None) -> Ruleset:
    """The `Ruleset` of a set-up's options (`ruleset` or `expansions` and `rules`; `lords_count_zero=True` is
    the older keyword of that rule flag); SetupError naming the field at fault."""
    for name, value in (("expansions", expansions), ("rules", rules)):
        if isinstance(value, str):  # a name where a list belongs (Ruleset.parse reads strings of names)
            raise SetupError(f"{name}: expected a list of names, got {short_repr(value)}")
    try:
        if ruleset is not None:
            if expansions is not None or rules is not None:
                raise SetupError("ruleset: give either a ruleset or expansions and rules, not both")
            ruleset = Ruleset.coerce(ruleset)
            expansions, rules = ruleset.expansions, ruleset.rules
        return Ruleset.parse(expansions, rules, lords_count_zero)
    except RulesetError as err:
        raise SetupError(str(err)) from None


def check_flag(value, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise SetupError(f"{name}: expected true or false, got {short_repr(value)}")
    return bool(value)


def hand_letters(hand) -> tuple[str, ...]:
    """The letters of a validated hand entry: None, one letter, or a tuple of letters (Crossroads; its
    first entry may be None: no card beside the extra cards)."""
    if hand is None:
        return ()
    return (hand,) if isinstance(hand, str) else tuple(x for x in hand if x is not None)


def check_hand(hand, name: str, bits: int):
    """A hand entry: None, a terrain letter, or (with an expansion whose hands hold extra cards: Crossroads) a list
    of letters; SetupError names it."""
    if hand is None:
        return None
    if isinstance(hand, (list, tuple)):
        most = max((side.hand_cards for side in sides_of(bits)), default=1)
        if most == 1:
            raise SetupError(f"{name}: a hand of several cards needs the {short_repr(declaring('hand_cards'))} "
                             "expansion")
        if not 1 <= len(hand) <= most:
            raise SetupError(f"{name}: expected 1 to {most} terrain letters, got {len(hand)}")
        for k, h in enumerate(hand):
            if isinstance(h, (list, tuple)):
                raise SetupError(f"{name}[{k}]: expected a terrain letter or null, got {short_repr(h)}")
        letters = tuple(check_hand(h, f"{name}[{k}]", bits) for k, h in enumerate(hand))
        if any(x is None for x in letters[1:]) or letters == (None,):
            raise SetupError(f"{name}: expected terrain letters, got {short_repr(list(hand))}")
        return letters[0] if len(letters) == 1 else letters
    try:
        card = terrain_card_index(hand)
    except ValueError as err:
        raise SetupError(f"{name}: {err}") from None
    check_swamp_card(card, hand, name, bits)
    return hand.upper()


def swamp_cards_in_play(bits: int) -> bool:
    """Whether the deck holds the swamp cards under a ruleset (an expansion's side declares them: Marshlands)."""
    return any(side.swamp_cards for side in sides_of(bits))


def check_swamp_card(card: int, letter, name: str, bits: int) -> None:
    """SetupError unless a swamp card (a card index from SWAMP_CARD_BASE on) is in the ruleset's deck."""
    if card >= SWAMP_CARD_BASE and not swamp_cards_in_play(bits):
        owner = short_repr(declaring("swamp_cards"))
        raise SetupError(f"{name}: the swamp card {short_repr(letter)} needs the {owner} expansion")


def check_sections(sections) -> tuple[tuple[str, bool], ...]:
    """Four (name, turned) pairs, TL TR BL BR; SetupError naming the entry at fault."""
    if not isinstance(sections, (list, tuple)) or len(sections) != 4:
        raise SetupError('sections: expected 4 [name, turned] pairs (TL, TR, BL, BR), e.g. ["tavern", false]')
    out = []
    for k, pair in enumerate(sections):
        if not isinstance(pair, (list, tuple)) or len(pair) != 2 or not isinstance(pair[0], str):
            raise SetupError(f'sections[{k}]: expected a [name, turned] pair, e.g. ["tavern", false], got '
                             f'{short_repr(pair)}')
        out.append((section_name(pair[0]), check_flag(pair[1], f"sections[{k}].turned")))
        first = next(j for j, (name, _) in enumerate(out) if name == out[-1][0])
        if first != k:
            raise SetupError(f"sections[{k}]: the section {short_repr(out[-1][0])} is sections[{first}] already; a "
                             "board has each section once")
    return tuple(out)


@dataclass(frozen=True)
class Setup:
    """Everything that fixes a game before the first decision (a record's header)."""

    num_players: int
    board: tuple[str, ...]
    cards: tuple[str, ...]
    start_player: int
    seed: int
    sections: tuple[tuple[str, bool], ...] | None = None
    # A hand-built position (None = the standard start of a game).
    settlements: tuple[tuple[tuple[int, int], ...], ...] | None = None
    hands: tuple[str | None, ...] | None = None
    tiles: tuple[tuple[tuple[int, int], ...], ...] | None = None
    tiles_left: tuple[tuple[tuple[int, int], int], ...] | None = None
    supply: tuple[int, ...] | None = None
    deck: tuple[str, ...] | None = None
    current_player: int | None = None
    # The ruleset (None = the base game) and the expansion pieces of a hand-built position.
    expansions: tuple[str, ...] | None = None
    rules: tuple[str, ...] | None = None
    walls: tuple[tuple[int, int], ...] | None = None
    capitols: tuple[tuple[int, int], ...] | None = None
    caves: tuple[tuple[int, int], ...] | None = None
    nomad_spaces: tuple | None = None
    gold: tuple[int, ...] | None = None
    nomad_tiles: tuple[tuple[str, ...], ...] | None = None
    tasks: tuple[str, ...] | None = None
    warriors: tuple[tuple[tuple[int, int], ...], ...] | None = None
    wagons: tuple[tuple[int, int] | None, ...] | None = None
    ships: tuple[tuple[int, int] | None, ...] | None = None
    city_halls: tuple[tuple[int, int] | None, ...] | None = None
    bonus_tiles: tuple[tuple[str, ...], ...] | None = None
    # The per-seat counters of the powers (catalogue.PLAYER_COUNTERS), as (name, one count per player) pairs;
    # each is also read as an attribute of its name, and is a key of records and position files.
    counters: tuple[tuple[str, tuple[int, ...]], ...] | None = None
    # The full state of a position written by Game.to_position (kbenv.setup.resume; None: a turn begins).
    resume: dict | None = None
    # The Island (kbenv.expansions.island.setup): (side name, 5 rows of 4 codes); None without the island expansion.
    island: tuple | None = None

    @property
    def ruleset(self) -> Ruleset:
        """The expansions and rule flags of the game (kbenv.ruleset)."""
        return Ruleset(self.expansions, self.rules)

    @property
    def lords_count_zero(self) -> bool:
        """Whether the rule flag lords_count_zero is on (read-only; the flag is in `rules`)."""
        return LORDS_COUNT_ZERO in (self.rules or ())

    def __getattr__(self, name: str):
        """A counter by its name (catalogue.PLAYER_COUNTER_NAMES), None when the set-up has none."""
        if name in CAT.PLAYER_COUNTER_NAMES:
            return dict(self.__dict__.get("counters") or ()).get(name)
        raise AttributeError(f"{short_repr(type(self).__name__)} object has no attribute {short_repr(name)}")

    @property
    def standard_start(self) -> bool:
        """A new game (random expansion parts dealt) rather than a hand-built position."""
        return self.settlements is None and self.resume is None and all(
            getattr(self, f) is None for f in POSITION_PIECES)

    def to_dict(self) -> dict:
        """The set-up as a record header. It keeps the key "lords_count_zero" (a copy of that rule flag) where
        records always had it, after "sections", so that records stay byte for byte what they were."""
        d = {}
        for k, v in asdict(self).items():  # the counters in their place, each under its own key
            d.update({name: counts for name, counts in v} if k == "counters" and v else {k: v})
        d = {k: v for k, v in d.items() if v is not None}
        head = list(d)[: list(d).index("seed") + 1 + ("sections" in d)]
        return {**{k: d[k] for k in head}, LORDS_COUNT_ZERO: self.lords_count_zero,
                **{k: v for k, v in d.items() if k not in head}}

    @classmethod
    def from_dict(cls, d: dict) -> Setup:
        known = {*cls.__dataclass_fields__, *CAT.PLAYER_COUNTER_NAMES, LORDS_COUNT_ZERO} - {"counters"}
        unknown = set(d) - known
        if unknown:
            raise SetupError(f"setup: unknown field(s) {', '.join(sorted(unknown))}")
        for name in ("num_players", "board", "cards", "start_player", "seed"):
            if name not in d:
                raise SetupError(f"setup.{name}: missing")
        return make_setup(**d)


def _tuple2(pairs, name: str, island: bool = False) -> tuple[tuple[int, int], ...]:
    """(row, col) pairs; with `island` also the island's extended hexes (kbenv.expansions.island.setup)."""
    if not isinstance(pairs, (list, tuple)):
        raise SetupError(f"{name}: expected a list of [row, col] pairs, got {short_repr(pairs)}")
    out = []
    for rc in pairs:
        if not isinstance(rc, (list, tuple)) or len(rc) != 2 or not all(is_int(v) for v in rc):
            raise SetupError(f"{name}: expected [row, col] pairs of integers, got {short_repr(rc)}")
        r, c = int(rc[0]), int(rc[1])
        if not on_grid(r, c, island):
            raise SetupError(f"{name}: hex {[r, c]} is off the 20x20 board")
        out.append((r, c))
    return tuple(out)


def validate_board(board) -> tuple[str, ...]:
    """20 strings of 20 codes, or SetupError naming the row at fault."""
    if not isinstance(board, (list, tuple)) or len(board) != 20:
        raise SetupError("board: expected 20 rows of 20 codes")
    for r, row in enumerate(board):
        if not isinstance(row, str) or len(row) != 20:
            raise SetupError(f"board[{r}]: expected a string of 20 codes")
        for ch in row:
            try:
                decode_hex_code(ch)
            except ValueError as err:
                raise SetupError(f"board[{r}]: {err}") from None
    locations = sum(ch.islower() for row in board for ch in row)
    if locations > S.MAX_LOCATIONS:
        raise SetupError(f"board: {locations} location hexes, at most {S.MAX_LOCATIONS} are supported")
    return tuple(board)


def make_setup(
    num_players: int,
    board,
    cards,
    start_player: int,
    seed: int,
    sections=None,
    ruleset=None,
    expansions=None,
    rules=None,
    lords_count_zero: bool = False,  # the old keyword (and record key) of the rule flag
    island=None,
    **position,
) -> Setup:
    """A validated Setup; SetupError names the field at fault.

    The ruleset comes as a `ruleset` (kbenv.ruleset.Ruleset) or as `expansions` and `rules`; `lords_count_zero=True`
    is the rule flag of that name (the older keyword); `island` the Island's side and rows. A hand-built position
    comes as keywords of its fields (POSITION_FIELDS): the base game's (`settlements`, `hands`, `tiles`,
    `tiles_left`, `supply`, `deck`, `current_player`, `resume`: the full state mid-turn), banked `gold` and each
    expansion's (`walls`, `capitols`, `tasks`, `bonus_tiles`, ...: declared by the expansions' sides), the per-seat
    counters of the powers among them (catalogue.PLAYER_COUNTER_NAMES)."""
    unknown = sorted(set(position) - set(POSITION_FIELDS))
    if unknown:
        raise TypeError(f"make_setup() got an unexpected keyword argument {short_repr(unknown[0])}")
    settlements, hands, tiles, tiles_left, supply, deck, current_player, resume = (
        position.get(name) for name in BASE_POSITION_FIELDS)
    pieces = {name: position[name] for name in POSITION_PIECES if name in position}
    ruleset = ruleset_of(expansions, rules, lords_count_zero, ruleset)
    bits, rule_bits = ruleset.bits
    n = check_num_players(num_players)
    board = validate_board(board)
    if not isinstance(cards, (list, tuple)) or len(cards) != 3:
        raise SetupError("cards: expected 3 Kingdom Builder card names")
    card_ids = [card_id(c, bits) for c in cards]
    if len(set(card_ids)) != 3:
        raise SetupError("cards: the 3 cards must be different")
    for name, value in (("start_player", start_player), ("current_player", current_player)):
        if (value is not None or name == "start_player") and (not is_int(value) or not 0 <= value < n):
            raise SetupError(f"{name}: expected a seat 0..{n - 1}, got {short_repr(value)}")
    seed = check_seed(seed)
    if sections is not None:
        sections = check_sections(sections)
    try:
        island = validate_island(island, bits, seed)
    except IslandSetupError as err:
        raise SetupError(str(err)) from None
    on_island = island is not None
    grid = extended_board(board, island)  # the island's rows follow the board's (extended hexes)

    def per_player(value, name):
        if value is None:
            return None
        if not isinstance(value, (list, tuple)) or len(value) != n:
            raise SetupError(f"{name}: expected one entry per player ({n})")
        return value

    if per_player(settlements, "settlements") is not None:
        settlements = tuple(_tuple2(s, f"settlements[{i}]", on_island) for i, s in enumerate(settlements))
        seen: set[tuple[int, int]] = set()
        for i, own in enumerate(settlements):
            if len(own) > S.SETTLEMENTS_PER_PLAYER:
                raise SetupError(f"settlements[{i}]: more than {S.SETTLEMENTS_PER_PLAYER} settlements")
            for rc in own:
                if rc in seen:
                    raise SetupError(f"settlements[{i}]: hex {hex_label(rc)} already holds a settlement")
                code = grid[rc[0]][rc[1]]
                if code not in settlement_terrains(bits):
                    allowed = ", ".join(hex_name(t) for t in settlement_terrains(bits))
                    raise SetupError(f"settlements[{i}]: hex {hex_label(rc)} is {hex_name(code)}, where no "
                                     f"settlement can stand (only {allowed})")
                seen.add(rc)
    if per_player(hands, "hands") is not None:
        hands = tuple(check_hand(h, f"hands[{i}]", bits) for i, h in enumerate(hands))
    if per_player(tiles, "tiles") is not None:
        tiles = tuple(_tuple2(t, f"tiles[{i}]", on_island) for i, t in enumerate(tiles))
        for i, held in enumerate(tiles):
            for r, c in held:
                if not grid[r][c].islower():
                    raise SetupError(f"tiles[{i}]: hex {hex_label((r, c))} is not a location hex")
            if len(set(held)) != len(held):
                raise SetupError(f"tiles[{i}]: a player holds at most one tile of each location hex")
    if tiles_left is not None:
        items = tiles_left.items() if isinstance(tiles_left, dict) else tiles_left
        fixed = []
        for rc, k in items:
            (r, c), = _tuple2([rc], "tiles_left", on_island)
            if not grid[r][c].islower():
                raise SetupError(f"tiles_left: hex {[r, c]} is not a location hex")
            if not is_int(k) or not 0 <= k <= TILES_PER_LOCATION:
                raise SetupError(f"tiles_left: expected 0..{TILES_PER_LOCATION} tiles at {[r, c]}, got {short_repr(k)}")
            fixed.append(((r, c), int(k)))
        tiles_left = tuple(sorted(fixed))
    if per_player(supply, "supply") is not None:
        for i, k in enumerate(supply):
            on_board = 0 if settlements is None else len(settlements[i])
            limit = S.SETTLEMENTS_PER_PLAYER - on_board
            if not is_int(k) or not 0 <= k <= limit:
                raise SetupError(f"supply[{i}]: expected 0..{limit} ({S.SETTLEMENTS_PER_PLAYER} settlements in all, "
                                 f"{on_board} on the board), got {short_repr(k)}")
        supply = tuple(int(k) for k in supply)
    if tiles is not None or tiles_left is not None:
        check_tile_counts(tiles, tiles_left)
    if deck is not None:
        if not isinstance(deck, (list, tuple)):
            raise SetupError(f"deck: expected a list of terrain letters, got {short_repr(deck)}")
        for k, letter in enumerate(deck):
            try:
                card = terrain_card_index(letter)
            except ValueError as err:
                raise SetupError(f"deck[{k}]: {err}") from None
            check_swamp_card(card, letter, f"deck[{k}]", bits)
        if len(deck) > pile_size(bits):
            raise SetupError(f"deck: at most {pile_size(bits)} cards")
        deck = tuple(letter.upper() for letter in deck)
    first = start_player if current_player is None else current_player
    if resume is not None:
        try:
            resume = validate_resume(resume, grid if on_island else board, n, bits, tiles, first, start_player)
        except ValueError as err:
            raise SetupError(str(err)) from None
    gone = (resume or {}).get("removed_terrain")
    if gone is not None and deck is not None:
        for k, letter in enumerate(deck):
            if letter in (gone, f"S/{gone}"):
                raise SetupError(f"deck[{k}]: the {letter} card left the game with the removed terrain {gone} "
                                 "(Scouts set-up, M-16)")
    if deck is not None or resume is not None:
        held = [letter for h in (hands or ()) for letter in hand_letters(h)]
        cards = [*(deck or ()), *held, *resume_cards(resume or {})]
        piles = "deck, hands" + (", discard, removed and Fort card" if resume is not None else "")
        for letter in CARD_LETTERS:
            if cards.count(letter) > CARDS_PER_TERRAIN:
                raise SetupError(f"{'deck' if deck is not None else 'discard'}: more than {CARDS_PER_TERRAIN} {letter} "
                                 f"cards in {piles} (the game has {CARDS_PER_TERRAIN} of each terrain)")
        for name in CAT.SWAMP_CARD_NAMES:
            if [c.upper() for c in cards].count(name) > 1:
                raise SetupError(f"{'deck' if deck is not None else 'discard'}: more than one {name} card in {piles} "
                                 "(the game has one of each swamp card)")
    occupied = {rc for own in (settlements or ()) for rc in own}
    try:
        pieces = validate_pieces(grid, n, bits, {name: pieces.get(name) for name in POSITION_PIECES}, occupied)
        check = PositionCheck(grid, n, pieces, tiles, settlements, supply, sections, tuple(ruleset.rules or ()))
        for side in sides_of(bits):
            if side.check_position is not None:
                side.check_position(check)
        check_nomad_counts(grid, pieces, (resume or {}).get("nomad_tiles_gone", ()))
    except ValueError as err:
        raise SetupError(str(err)) from None
    return Setup(
        num_players=n,
        board=board,
        cards=tuple(ALL_CARD_NAMES[i] for i in card_ids),
        start_player=int(start_player),
        seed=int(seed),
        sections=sections,
        settlements=settlements,
        hands=hands,
        tiles=tiles,
        tiles_left=tiles_left,
        supply=supply,
        deck=deck,
        current_player=None if current_player is None else int(current_player),
        expansions=ruleset.expansions or None,
        rules=ruleset.rules or None,
        **{k: v for k, v in pieces.items() if k not in CAT.PLAYER_COUNTER_NAMES},
        counters=tuple((k, pieces[k]) for k in CAT.PLAYER_COUNTER_NAMES if pieces.get(k) is not None) or None,
        resume=resume,
        island=island,
    )


def card_id(name, expansion_bits: int) -> int:
    """Index of a Kingdom Builder card (an expansion's cards only with it); SetupError names it."""
    allowed = [c.name for c in CAT.SCORING_CARDS[: len(ALL_CARD_NAMES)]
               if c.expansion is None or expansion_bits & CAT.EXPANSION_BIT[c.expansion]]
    if isinstance(name, str) and name.lower() in ALL_CARD_NAMES:
        row = CAT.SCORING_CARDS[CAT.CARD_ID[name.lower()]]
        if row.expansion is None or expansion_bits & CAT.EXPANSION_BIT[row.expansion]:
            return ALL_CARD_NAMES.index(name.lower())
        raise SetupError(f"cards: {short_repr(name)} is a {row.expansion.capitalize()} card; it needs the "
                         f"{short_repr(row.expansion)} expansion")
    raise SetupError(f"cards: unknown Kingdom Builder card {short_repr(name)}; expected one of {', '.join(allowed)}")


def hex_name(code: str) -> str:
    """A readable name of a board code (for messages)."""
    terrain, location = decode_hex_code(code)
    return f"a {LOCATION_NAMES[location]} location" if location >= 0 else f"{TERRAIN_NAMES[terrain]}"


def check_tile_counts(tiles, tiles_left) -> None:
    """Per location hex: tiles held by the players plus tiles left are at most TILES_PER_LOCATION."""
    counts: dict[tuple[int, int], int] = {}
    for held in tiles or ():
        for rc in held:
            counts[rc] = counts.get(rc, 0) + 1
    left = dict(tiles_left or ())
    for rc in set(counts) | set(left):
        total = counts.get(rc, 0) + left.get(rc, max(0, TILES_PER_LOCATION - counts.get(rc, 0)))
        if total > TILES_PER_LOCATION:
            raise SetupError(f"tiles: location {list(rc)} would have {total} tiles (held plus left); "
                             f"each location hex has {TILES_PER_LOCATION}")


def seed_draws(seed: int, num_players: int, expansion_bits: int = 0) -> np.ndarray:
    """Every random choice of a set-up from the seed (layout: kbenv.engine.init.DRAW_*)."""
    draws = np.zeros(NUM_DRAWS, dtype=np.int64)
    setup_draws(seed, num_players, draws, expansion_bits)
    return draws


def standard_setup(
    num_players: int,
    seed: int = 0,
    preset: str | None = None,
    sections=None,
    cards=None,
    start_player: int | None = None,
    board=None,
    lords_count_zero: bool = False,
    expansions=None,
    rules=None,
    ruleset=None,
    island_side=None,
) -> Setup:
    """A set-up for a new game: random from the seed where sections, cards or start player are not given.
    `island_side`: with the island expansion, the shipped side (kbenv.expansions.island.setup; default a seeded choice).

    The ruleset: `ruleset` (a kbenv.ruleset.Ruleset or its dict) or `expansions` and `rules`;
    `lords_count_zero=True` is the older keyword of that rule flag."""
    check_num_players(num_players)
    seed = check_seed(seed)
    ruleset = ruleset_of(expansions, rules, lords_count_zero, ruleset)
    bits = ruleset.expansion_bits
    island = None
    if island_side is not None:
        try:
            island = side_option(island_side, bits)
        except IslandSetupError as err:
            raise SetupError(str(err)) from None
    draws = seed_draws(seed, int(num_players), bits)
    sections, cards = resolve_preset(preset, sections, cards)
    if board is None:
        if sections is None:
            sections = [
                (TABLE_SECTIONS[draws[DRAW_SECTIONS + k]], bool(draws[DRAW_TURNED + k])) for k in range(4)
            ]
        sections = check_sections(sections)
        try:
            board = assemble(list(sections))
        except (ValueError, TypeError) as err:
            raise SetupError(f"sections: {err}") from None
    return make_setup(
        num_players=num_players,
        board=board,
        cards=[ALL_CARD_NAMES[i] for i in draws[DRAW_CARDS : DRAW_CARDS + 3]] if cards is None else cards,
        start_player=int(draws[DRAW_START]) if start_player is None else start_player,
        seed=seed,
        sections=sections,
        expansions=ruleset.expansions,
        rules=ruleset.rules,
        island=island,
    )


def build_state(setup: Setup) -> np.ndarray:
    """The state vector at the start of the set-up (before the first player's turn begins)."""
    st = np.zeros(S.STATE_SIZE, dtype=np.int64)
    n = setup.num_players
    bits, rule_bits = setup.ruleset.bits
    draws = seed_draws(setup.seed, n, bits)
    for k, name in enumerate(setup.cards):
        draws[DRAW_CARDS + k] = ALL_CARD_NAMES.index(name)
    draws[DRAW_START] = setup.start_player
    codes, locations = cached_board_arrays(setup.board)
    init_game(st, n, draws, codes, locations)
    apply_ruleset(st, bits, rule_bits, setup.seed, setup.standard_start)
    if setup.island is not None:
        apply_island(st, setup.island)  # the island's hexes 400..419 (kbenv.expansions.island.setup)
    if setup.hands is None and setup.deck is None and setup.settlements is None and setup.supply is None \
            and setup.tiles is None and setup.tiles_left is None and setup.standard_start:
        return st
    location_bit = {h: bit for bit, h in location_slots(st)}
    full_deck = [int(c) for c in draws[DRAW_DECK : DRAW_DECK + S.DECK_SIZE]]  # shuffled, top first
    deck_at = int(deck_off(st))
    if swamp_cards_in_play(bits):  # the 30-card deck was dealt by deal_expansions: hands, then the pile top first
        pile = [int(c) for c in st[deck_at : deck_at + int(st[S.DECK_COUNT])]][::-1]
        full_deck = [int(st[S.HAND + p]) for p in range(n)] + pile
    if setup.hands is None:
        hands = full_deck[:n]
        rest = full_deck[n:]
    else:
        hands = [[terrain_card_index(x) for x in hand_letters(h)] for h in setup.hands]
        no_card = [isinstance(h, tuple) and h[0] is None for h in setup.hands]  # extra cards only
        rest = list(full_deck)
        for held in hands:
            for h in held:
                if h not in rest:
                    raise SetupError(f"hands: more than {CARDS_PER_TERRAIN} cards of terrain {CARD_TEXT[h]}"
                                     if h < SWAMP_CARD_BASE else f"hands: more than one {CARD_TEXT[h]} card")
                rest.remove(h)
    gone = (setup.resume or {}).get("removed_terrain")
    gone_cards = [] if gone is None else (
        [CARD_LETTERS.index(gone)] * CARDS_PER_TERRAIN + [terrain_card_index(f"S/{gone}")])
    if gone is not None:  # the Scouts set-up: the removed terrain's cards are out of the game (M-16)
        rest = [c for c in rest if c not in gone_cards]
    if setup.deck is not None:
        rest = [terrain_card_index(x) for x in setup.deck]
    for p in range(n):
        held = hands[p] if isinstance(hands[p], list) else [hands[p]]
        if setup.hands is not None and no_card[p]:
            held = [S.NO_CARD, *held]
        st[S.HAND + p] = held[0] if held else S.NO_CARD
        for k, card in enumerate(held[1:]):  # a Crossroads hand of several cards
            st[S.EXTRA_CARDS + p * S.MAX_EXTRA_CARDS + k] = card
        st[S.EXTRA_COUNT + p] = len(held[1:])
    st[deck_at : deck_at + pile_size(bits)] = 0
    for k, card in enumerate(reversed(rest)):
        st[deck_at + k] = card
    st[S.DECK_COUNT] = len(rest)

    for p in range(n):
        st[S.SUPPLY + p] = S.SETTLEMENTS_PER_PLAYER
    if setup.settlements is not None:
        for p, own in enumerate(setup.settlements):
            for r, c in own:
                h = hex_id(r, c)
                for off in (S.OCCUPIED, S.own_off(p)):
                    st[off + HEX_WORD[h]] |= HEX_BIT[h]
                st[S.adjacent_off(p) : S.adjacent_off(p) + WORDS] |= NEIGHBOUR_MASK[h]
            st[S.SUPPLY + p] = S.SETTLEMENTS_PER_PLAYER - len(own)
    if setup.supply is not None:
        for p, k in enumerate(setup.supply):
            st[S.SUPPLY + p] = k
    if setup.tiles is not None:
        for p, held in enumerate(setup.tiles):
            for r, c in held:
                i = location_bit[hex_id(r, c)]
                st[S.TILES_HELD + p] |= 1 << i
                set_tiles_left(st, i, max(0, location_info(st, i)[1] - 1))
    if setup.tiles_left is not None:
        for (r, c), k in setup.tiles_left:
            set_tiles_left(st, location_bit[hex_id(r, c)], k)
    resume = setup.resume or {}
    if bits:
        first = setup.start_player if setup.current_player is None else setup.current_player
        apply_pieces(st, setup_pieces(setup), first, setup.start_player, resume.get("turn"),
                     tuple(resume.get("nomad_tiles_gone", ())))
    if setup.supply is None:
        for p in range(n):
            st[S.SUPPLY + p] -= off_board_count(st, p)  # the default supply: 40 - on the board - set aside (A-M6)
    if any(st[S.SUPPLY + p] == 0 and not reserve_delays_end(st, p) for p in range(n)):
        st[S.ENDING] = 1
    if setup.resume is not None:
        st[S.CURRENT] = setup.start_player if setup.current_player is None else setup.current_player
        apply_resume(st, setup.resume)
        if gone is not None and "removed" not in setup.resume:
            off = int(removed_off(st))
            st[off : off + len(gone_cards)] = gone_cards
            st[S.REMOVED_COUNT] = len(gone_cards)
    return st


def setup_pieces(setup: Setup) -> dict:
    return {name: getattr(setup, name) for name in POSITION_PIECES if getattr(setup, name) is not None}


@lru_cache(maxsize=4096)
def cached_board_arrays(board: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Terrain codes and location types of a board (cached: boards repeat across games)."""
    return board_arrays(board)


def off_board_count(st: np.ndarray, p: int) -> int:
    """Player p's settlements set aside off the board (catalogue counters with `off_board`)."""
    return sum(int(st[S.COUNTER_AT[c.name] + p]) for c in CAT.PLAYER_COUNTERS if c.off_board)


def reserve_delays_end(st: np.ndarray, p: int) -> bool:
    """An empty supply does not end the game while a reserve is set aside, under CAT.RESERVE_DELAYS_END (A-M6)."""
    return bool(st[S.RULE_FLAGS] & CAT.RESERVE_DELAYS_END) and off_board_count(st, p) > 0
