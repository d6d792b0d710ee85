"""The soak (benchmarks/soak.py, kbenv.soak): each invariant catches the fault it names in a hand-broken state,
short soaks of every ruleset family find nothing, a soaked game replays from its seed, and every reachable state
of every family (rule flags and the Scouts card included) round-trips through a position file."""

from __future__ import annotations

import json
from functools import partial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks import soak as soak_script
from kbenv import Game
from kbenv import catalogue as CAT
from kbenv.board.bitset import HEX_BIT, HEX_WORD
from kbenv.board.codes import CARD_LETTERS, SWAMP_CARD_BASE
from kbenv.board.geometry import hex_id
from kbenv.engine import state as S
from kbenv.soak import invariants as I
from kbenv.soak.families import families, flags_for
from kbenv.soak.games import soak_games
from kbenv.vector import forced_options
from tests import roundtrip_checks
from tests.roundtrip_checks import play, reread
from tests.ruleset_games import canonical

FAMILIES = families()
assert_same_future = partial(roundtrip_checks.assert_same_future, canonical=canonical)


def cards_of(game: Game) -> np.ndarray:
    counts = np.zeros(I.NUM_CARD_IDS, dtype=np.int64)
    I.card_counts_into(game.state, counts)
    return counts


def check(game: Game, start=None, tiles=None) -> int:
    """first_violation of a game's state, against the card counts `start` (default: those it holds now) and the
    location tiles `tiles` of the decision before (default: 2 each); a state that is fine gives 0."""
    start = cards_of(game) if start is None else start
    last = np.full(S.MAX_LOCATIONS + 1, 2, dtype=np.int64) if tiles is None else tiles
    return I.first_violation(game.state, start, last, np.zeros(I.NUM_CARD_IDS, dtype=np.int64))


def mid_game(expansions, decisions: int = 60, seed: int = 3, players: int = 3) -> Game:
    game = Game.new(players, seed=seed, expansions=expansions)
    return play(game, np.random.default_rng(seed), decisions)


def bit(h: int) -> tuple[int, int]:
    return HEX_WORD[h], HEX_BIT[h]


def a_settlement(game: Game, p: int) -> int:
    return hex_id(*sorted(game.settlements(p))[0])


def test_every_family_has_its_flags_on_and_off():
    assert len(FAMILIES) == 18
    assert FAMILIES["all+flags"].rules == flags_for(FAMILIES["all"].expansions)
    assert set(FAMILIES["all+flags"].rules) == {f.name for f in CAT.RULE_FLAGS}
    assert not FAMILIES["harvest"].rules and "silo_by_silo" in FAMILIES["harvest+flags"].rules
    assert "silo_by_silo" not in FAMILIES["marshlands+flags"].rules  # a Harvest flag is not a Marshlands one


def test_a_state_in_play_breaks_no_invariant():
    for expansions in ([], ["nomads", "crossroads"], list(FAMILIES["all"].expansions)):
        assert check(mid_game(expansions)) == I.OK


@pytest.mark.parametrize("fault, expected", [
    ("supply", I.SETTLEMENTS),
    ("two owners", I.ONE_PIECE),
    ("wall on a settlement", I.ONE_PIECE),
    ("not occupied", I.CLOSED),
    ("on a castle", I.SPECIAL),
    ("stray meeple", I.OTHER_PIECES),
    ("walls left", I.WALL_COUNT),
    ("three scouts", I.SCOUT_COUNT),
    ("tile back", I.LOCATION_TILES),
    ("third tile", I.LOCATION_TILES),
    ("bonus tile", I.BONUS_TILES),
    ("number tiles", I.NUMBER_TILE_COUNT),
    ("card copied", I.CARDS),
    ("removed terrain back", I.REMOVED_CARDS),
    ("gold", I.GOLD_SIGN),
    ("seat", I.SEATS),
])
def test_each_invariant_catches_its_fault(fault, expected):
    game = mid_game(list(FAMILIES["all"].expansions))
    st_ = game.state
    start, tiles = cards_of(game), None
    h = a_settlement(game, 0)
    w, b = bit(h)
    if fault == "supply":
        st_[S.SUPPLY + 1] -= 1
    elif fault == "two owners":
        st_[S.own_off(1) + w] |= b
        st_[S.SUPPLY + 1] -= 1  # (the settlement count still adds up)
    elif fault == "wall on a settlement":
        st_[S.WALLS + w] |= b
        st_[S.WALLS_LEFT] -= 1
    elif fault == "not occupied":
        st_[S.OCCUPIED + w] &= ~b
    elif fault == "on a castle":
        castle = next(hex_id(r, c) for r, row in enumerate(game.board) for c, ch in enumerate(row) if ch == "K")
        cw, cb = bit(castle)
        st_[S.own_off(0) + cw] |= cb
        st_[S.OCCUPIED + cw] |= cb
        st_[S.SUPPLY] -= 1
    elif fault == "stray meeple":
        st_[S.meeples_off(0) + w] |= b  # a settlement marked as a warrior with no slot for it
        st_[S.SUPPLY] += 1  # (the settlement count still adds up)
    elif fault == "walls left":
        st_[S.WALLS_LEFT] += 1
    elif fault == "three scouts":
        closed = st_[S.OCCUPIED : S.OCCUPIED + 7] | st_[S.SPECIAL_MASK : S.SPECIAL_MASK + 7]
        free = [f for f in range(400) if not closed[HEX_WORD[f]] & HEX_BIT[f]][:3]
        for f in free:
            st_[S.SCOUTS + HEX_WORD[f]] |= HEX_BIT[f]
            st_[S.OCCUPIED + HEX_WORD[f]] |= HEX_BIT[f]
    elif fault == "tile back":
        tiles = np.full(S.MAX_LOCATIONS + 1, 2, dtype=np.int64)
        i = next(i for i in range(int(st_[S.NUM_LOCATIONS])) if st_[S.LOC_TILES + i] > 0)
        tiles[i] = st_[S.LOC_TILES + i] - 1  # one decision ago the location had one tile fewer
    elif fault == "third tile":
        st_[S.LOC_TILES] = 2
        st_[S.TILES_HELD + 0] |= 1
        st_[S.TILES_HELD + 1] |= 1
    elif fault == "bonus tile":
        st_[S.BONUS_LEFT] = 2
        st_[S.BONUS_HELD + 2] |= 1
    elif fault == "number tiles":
        st_[S.NUMBER_TILES + 1] = 19
    elif fault == "card copied":
        st_[S.HAND + 1] = st_[S.HAND]
    elif fault == "removed terrain back":  # the terrain of the draw pile's top card, as if it had been removed
        top = int(st_[S.MARSH_DECK + st_[S.DECK_COUNT] - 1])
        st_[S.REMOVED_TERRAIN] = top % SWAMP_CARD_BASE + 1
    elif fault == "gold":
        st_[S.GOLD + 2] = -1
    elif fault == "seat":
        st_[S.CURRENT] = 3
    found = check(game, start, tiles)
    assert found == expected, I.INVARIANTS[found]


def test_the_card_check_compares_with_the_start():
    game = mid_game([])
    start = np.zeros(I.NUM_CARD_IDS, dtype=np.int64)
    I.card_counts_into(game.state, start)
    assert start.sum() == 25 and start[: len(CARD_LETTERS)].tolist() == [5] * len(CARD_LETTERS)
    game.state[S.HAND] = (game.state[S.HAND] + 1) % len(CARD_LETTERS)  # one card becomes another
    last = np.full(S.MAX_LOCATIONS + 1, 2, dtype=np.int64)
    assert I.first_violation(game.state, start, last, np.zeros_like(start)) == I.CARDS


def test_the_totals_check_reads_the_score_table():
    game = play(Game.new(2, seed=4), np.random.default_rng(4), 10_000)
    assert game.done and I.totals_violation(game.state) == I.OK


@pytest.mark.parametrize("name", list(FAMILIES))
def test_a_short_soak_of_each_family_finds_nothing(name):
    expansions, rules = FAMILIES[name].bits
    seeds = np.arange(900, 908, dtype=np.int64)
    players = 2 + seeds % 4
    codes = np.full(len(seeds), -1, dtype=np.int64)
    decisions = np.zeros(len(seeds), dtype=np.int64)
    soak_games.serial(seeds, players, forced_options(expansions=expansions, rules=rules), 20_000, codes, decisions)
    assert codes.tolist() == [I.OK] * len(seeds), [I.INVARIANTS[c] for c in codes]
    assert decisions.min() > 50


def test_a_soaked_game_replays_from_its_seed(tmp_path, capsys):
    path = tmp_path / "game.json"
    assert soak_script.main(["--replay", "all+flags:17:3", "--record", str(path)]) == 0
    out = capsys.readouterr().out
    assert "no violation" in out
    game = Game.from_record(json.loads(path.read_text()))
    assert game.done and game.num_players == 3 and set(game.expansions) == set(FAMILIES["all"].expansions)


def test_a_piece_on_the_island_is_one_of_its_owners_pieces(capsys):
    # all:523:5: player 4's wagon goes onto island hex (0, 2) at decision 96 (hex id 402: the island's ids follow the
    # board's 400); the first soak counted only board ids as places for pieces and called this a violation
    assert soak_script.main(["--replay", "all:523:5"]) == 0
    assert "no violation" in capsys.readouterr().out


def test_the_soak_writes_its_table_and_resumes(tmp_path, capsys):
    out = tmp_path / "soak.json"
    assert soak_script.main(["--games", "3", "--rulesets", "base,nomads", "--out", str(out), "--seed", "5"]) == 0
    first = json.loads(out.read_text())
    assert [r["games"] for r in first["rows"]] == [3, 3] and first["total"]["violations"] == 0
    assert soak_script.main(["--games", "5", "--rulesets", "base,nomads", "--out", str(out), "--seed", "5"]) == 0
    again = json.loads(out.read_text())
    assert [r["games"] for r in again["rows"]] == [5, 5]
    assert again["rows"][0]["decisions"] > first["rows"][0]["decisions"]
    assert (tmp_path / "soak.csv").read_text().splitlines()[0].startswith("ruleset,expansions")
    assert soak_script.main(["--rulesets", "nope", "--out", str(out)]) == 2


# ----- the Scouts card's removed terrain (M-16) with the hands kept --------------------------------------------
def kept_removed_card_game(seed: int) -> Game | None:
    """A Marshlands game with the Scouts card and flag scouts_keep_dealt_hands whose dealt hands keep a card of the
    removed terrain (None if this seed's hands hold none)."""
    game = Game.new(2, seed=seed, expansions=["marshlands"], rules=["scouts_keep_dealt_hands"],
                    cards=["scouts", "fishermen", "knights"])
    gone = int(game.state[S.REMOVED_TERRAIN]) - 1
    hands = [int(game.state[S.HAND + p]) for p in range(2)]
    return game if gone >= 0 and any(c in (gone, SWAMP_CARD_BASE + gone) for c in hands) else None


def test_M16_a_kept_card_of_the_removed_terrain_leaves_the_game_when_played():
    # EN 1211-1213: "remove all terrain cards of this type from the game"; with the dealt hands kept, the kept card
    # is played once and then leaves the game with the rest of its terrain: it never returns to the draw pile
    games = [g for g in map(kept_removed_card_game, range(60)) if g is not None]
    assert len(games) >= 3
    rng = np.random.default_rng(0)
    for game in games:
        gone = int(game.state[S.REMOVED_TERRAIN]) - 1
        removed_cards = (gone, SWAMP_CARD_BASE + gone)
        before = len(game.removed_cards())
        while not game.done and any(int(game.state[S.HAND + p]) in removed_cards for p in range(2)):
            game.step(int(rng.choice(game.legal_actions())))
        assert len(game.removed_cards()) == before + 1
        letter = CARD_LETTERS[gone]
        assert letter not in game.discard_pile() and letter not in game.deck_cards()
        play(game, rng, 400)  # through reshuffles: the card never comes back
        assert letter not in game.discard_pile() and letter not in game.deck_cards()
        rebuilt = reread(game)
        np.testing.assert_array_equal(rebuilt.legal_mask(), game.legal_mask())


# ----- every reachable state round-trips, in every family -----------------------------------------------------
SCOUTS_CARDS = ["scouts", "fishermen", "knights"]


@settings(max_examples=40, deadline=None, derandomize=True)
@given(name=st.sampled_from(sorted(FAMILIES)), seed=st.integers(0, 2**31), fraction=st.floats(0, 1),
       players=st.integers(2, 5), scouts=st.booleans())
def test_any_decision_of_every_family_round_trips(name, seed, fraction, players, scouts):
    ruleset = FAMILIES[name]
    cards = SCOUTS_CARDS if scouts and "marshlands" in ruleset.expansions else None

    def new() -> Game:
        return Game.new(players, seed=seed, ruleset=ruleset, cards=cards)

    length = len(play(new(), np.random.default_rng(seed), 10_000).actions)
    original = play(new(), np.random.default_rng(seed), int(fraction * length))
    rebuilt = reread(original)
    np.testing.assert_array_equal(rebuilt.legal_mask(), original.legal_mask())
    assert (rebuilt.decider, rebuilt.phase) == (original.decider, original.phase)
    np.testing.assert_array_equal(rebuilt.score_table(), original.score_table())
    assert_same_future(original, rebuilt, np.random.default_rng(seed + 1))
