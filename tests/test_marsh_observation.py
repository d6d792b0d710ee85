"""Observation v1 in Marshlands games (issue 21): the appended planes and features, worked out from the rule
text and docs/api.md's table; nothing hidden is shown; packed observations equal the float ones.

The positions are hand-built on a seeded Marshlands set-up by writing the state fields the rules name
(tiles held, bonus tiles, the Temple reserve, the hand ...), so each expected number follows from the
feature's documented meaning, not from the code's output.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from kbenv import Game
from kbenv import catalogue as CAT
from kbenv.board.codes import CARD_TEXT, PALACE, SWAMP, SWAMP_CARD_BASE
from kbenv.board.geometry import NUM_HEXES
from kbenv.engine import observe_v1 as O
from kbenv.engine import state as S
from kbenv.engine.observe import CH_LEGAL, CH_OTHER_BLOCKED, F0
from kbenv.observation import observation_planes, observation_planes_v1
from kbenv.packed import PackedLayout, unpack
from kbenv.vector import VectorGames
from tests.observation_checks import features

MARSH = ["marshlands"]


def feature(obs: np.ndarray, name: str) -> np.ndarray:
    size = dict((n, k) for n, k, _ in O.V1_FEATURES)[name]
    return features(obs)[O.F1[name] : O.F1[name] + size]


def v0_feature(obs: np.ndarray, name: str) -> float:
    return float(obs[27].reshape(NUM_HEXES)[F0[name]])


@cache
def _base_game(players: int = 3, seed: int = 2) -> Game:
    return Game.new(players, seed=seed, expansions=MARSH, cards=["geologists", "captains", "scouts"])


def fresh(players: int = 3, seed: int = 2) -> Game:
    g = _base_game(players, seed)
    return Game(g.setup, g.state.copy(), list(g.actions))


def test_the_layout_is_appended_and_fits():
    """Channels 0..39 and the features before `marshlands` keep their places; 43 planes of 20x20 float32."""
    assert [name for name, _, _ in O.V1_CHANNELS][-10:-7] == ["swamp", "palace", "marsh_location"]
    assert O.V1_MARSHLANDS_CHANNELS == O.V1_CROSSROADS_CHANNELS + 3 == 43  # Harvest appends after these
    assert O.CH1["crossroads_location"] == 39 and O.CH1["swamp"] == 40
    assert O.F1["marshlands"] == O.F1["canoe"] + 2 == O.V1_CROSSROADS_FEATURES + 2
    assert O.NUM_FEATURES_V1 <= NUM_HEXES and 43 * 400 * 4 <= 70_000
    assert O.V1_PREFIX_FEATURES == {35: O.V1_BASE_FEATURES, 40: O.V1_CROSSROADS_FEATURES,
                                 43: O.V1_MARSHLANDS_FEATURES, 48: O.V1_HARVEST_FEATURES,
                                 50: O.NUM_FEATURES_V1}


def test_every_marshlands_power_has_a_power_slot():
    """fountain, temple, refuge, canoe_bonus, refuge_bonus were -1 before: every power code now has a slot."""
    for name in ("fountain", "temple", "refuge", "canoe_bonus", "refuge_bonus"):
        assert O.POWER_SLOT[CAT.POWER_CODE[name]] == O.F1["marsh_power"] + O.MARSH_POWER_NAMES.index(name)
    assert O.POWER_SLOT[CAT.POWER_CODE["canoe"]] == O.F1["canoe"] + 1
    # every power code has a slot of its own (Harvest's 9, issue 22: tests/test_harvest_observation.py; the
    # Island's two, issue 23: tests/test_island_observation.py)
    slots = O.POWER_SLOT
    assert (slots >= 0).all() and len(set(slots.tolist())) == len(slots)  # one slot each


def test_swamp_palace_and_marshlands_locations_have_planes():
    """Each substitute section has swamp, a palace and two location hexes of one Marshlands type (issue 21)."""
    g = fresh()
    st = g.state
    obs = observation_planes_v1(st, 0)

    def hexes_of(code):
        return {h for h in range(NUM_HEXES) if (st[S.TERRAIN_MASKS + code * 7 + h // 60] >> (h % 60)) & 1}

    swamp, palaces = hexes_of(SWAMP), hexes_of(PALACE)
    sections = sum(name.startswith("marsh-substitute") for name, _ in g.setup.sections)
    assert sections == 2 and swamp and len(palaces) == sections  # a palace per Marshlands section
    assert {h for h in range(NUM_HEXES) if obs[O.CH_SWAMP].flat[h]} == swamp
    assert {h for h in range(NUM_HEXES) if obs[O.CH_PALACE].flat[h]} == palaces
    assert all(obs[CH_OTHER_BLOCKED].flat[h] == 1.0 for h in swamp | palaces)  # v0 planes unchanged
    marsh = {}
    for i in range(st[S.NUM_LOCATIONS]):
        name = CAT.LOCATION_NAMES[st[S.LOC_TYPE + i]]
        if name in CAT.BONUS_TYPES:
            marsh[int(st[S.LOC_HEX + i])] = (CAT.BONUS_TYPES.index(name) + 1) / 4
    assert len(marsh) == 2 * sections  # 2 per section
    assert {h: float(obs[O.CH_MARSH_LOCATION].flat[h]) for h in marsh} == marsh
    assert np.count_nonzero(obs[O.CH_MARSH_LOCATION]) == 2 * sections


def test_set_up_features():
    """At the start: Marshlands in play, 2 bonus tiles of each type on the summary cards (EN 1004-1012), the
    dealt cards, the terrain the Scouts removed (M-16), the observer's seat owns the turn."""
    g = fresh()
    obs = observation_planes_v1(g.state, g.current_player)
    assert feature(obs, "marshlands").tolist() == [1.0]
    assert feature(obs, "bonus_left").tolist() == [1.0] * 4  # 2 / 2
    assert feature(obs, "marsh_cards").tolist() == [1, 0, 0, 0, 1, 1]  # geologists, captains, scouts
    removed = g.to_position()["removed_terrain"]
    expect = [0.0] * 5
    expect["GCDFT".index(removed)] = 1.0
    assert feature(obs, "removed_terrain").tolist() == expect
    assert feature(obs, "own_turn").tolist() == [1.0]
    other = observation_planes_v1(g.state, (g.current_player + 1) % 3)
    assert feature(other, "own_turn").tolist() == [0.0] and feature(other, "removed_terrain").tolist() == expect
    assert v0_feature(obs, "deck") <= 1.0  # the 30-card pile is counted / 30


def _location_of(st, name: str) -> int:
    return next(i for i in range(st[S.NUM_LOCATIONS]) if CAT.LOCATION_NAMES[st[S.LOC_TYPE + i]] == name)


def test_tiles_bonus_tiles_and_temple_reserves():
    g = fresh()
    st = g.state
    me = int(st[S.CURRENT])
    last = (me + 2) % 3
    kind = next(CAT.LOCATION_NAMES[st[S.LOC_TYPE + i]] for i in range(st[S.NUM_LOCATIONS])
                if CAT.LOCATION_NAMES[st[S.LOC_TYPE + i]] in CAT.BONUS_TYPES)
    t = CAT.BONUS_TYPES.index(kind)
    slot = [0.0] * 4
    slot[t] = 0.5
    temple = _location_of(st, kind)
    canoe = CAT.LOCATION_NAMES.index("canoe")
    temple_type = CAT.LOCATION_NAMES.index("temple")
    st[S.TILES_HELD + me] |= 1 << temple  # one tile of a Marshlands type, taken this turn: held, not ready
    st[S.TILES_FRESH + me] |= 1 << temple
    st[S.BONUS_HELD + me] = (1 << canoe) | (1 << temple_type)
    st[S.BONUS_FRESH + me] = 1 << temple_type  # the temple bonus taken this turn (A-M4): not ready
    st[S.BONUS_HELD + last] = 1 << canoe
    st[S.BONUS_LEFT + 0] = 0  # canoe bonus tiles both taken
    st[S.BONUS_LEFT + 2] = 1
    st[S.TEMPLE_RESERVE + me] = 1
    st[S.TEMPLE_RESERVE + last] = 2
    st[S.TEMPLE_OWED] = 1
    obs = observation_planes_v1(st, me)
    assert feature(obs, "own_marsh_tiles").tolist() == slot  # canoe fountain temple refuge / 2
    assert feature(obs, "own_marsh_ready").tolist() == [0, 0, 0, 0]
    assert feature(obs, "own_bonus_tiles").tolist() == [1, 0, 1, 0]
    assert feature(obs, "own_bonus_ready").tolist() == [1, 0, 0, 0]
    assert feature(obs, "others_bonus_tiles").tolist() == [0.5, 0, 0, 0]
    assert feature(obs, "bonus_left").tolist() == [0, 1, 0.5, 1]
    assert feature(obs, "temple_reserve").tolist() == [0.25, 0, 0.5, 0, 0]  # self, next, last, absent seats (/ 4)
    assert feature(obs, "temple_owed").tolist() == [0.25]
    theirs = observation_planes_v1(st, last)
    assert feature(theirs, "others_marsh_tiles").tolist() == [x / 4 for x in slot]  # / 8
    assert feature(theirs, "own_bonus_tiles").tolist() == [1, 0, 0, 0]
    assert feature(theirs, "others_bonus_tiles").tolist() == [0.5, 0, 0.5, 0]  # mine, fresh or not
    assert feature(theirs, "temple_reserve").tolist() == [0.5, 0.25, 0, 0, 0]  # last, me, next


def test_swamp_card_turn_terrain_mandatory_count_and_discard():
    g = fresh()
    st = g.state
    me = int(st[S.CURRENT])
    other = (me + 1) % 3
    st[S.HAND + me] = SWAMP_CARD_BASE + 2  # S/D
    obs = observation_planes_v1(st, me)
    assert CARD_TEXT[SWAMP_CARD_BASE + 2] == "S/D"
    assert feature(obs, "own_swamp_card").tolist() == [1.0]
    assert obs[27].flat[F0["own_card"] : F0["own_card"] + 5].tolist() == [0, 0, 1, 0, 0]  # its other terrain
    assert feature(obs, "turn_terrain").tolist() == [0] * 6  # not chosen yet (decision 8: the lazy choice)
    seen = observation_planes_v1(st, other)  # the played card of the player to move is public (v0)
    assert feature(seen, "mover_swamp_card").tolist() == [1.0] and feature(seen, "own_swamp_card").tolist() == [0.0]
    st[S.TERRAIN_FIXED] = 1  # the first build went on swamp: 2 settlements (M-5, EN 1071)
    st[S.TURN_TERRAIN] = SWAMP
    st[S.MANDATORY_TARGET] = 2 + 1  # a Temple reserve of 1 owed on top (A-M6)
    st[S.MANDATORY_BUILT] = 1
    obs = observation_planes_v1(st, me)
    assert feature(obs, "turn_terrain").tolist() == [0, 0, 0, 0, 0, 1]
    assert feature(obs, "mandatory_count").tolist() == [3 / 8, 1 / 8]
    st[S.MANDATORY_BUILT] = 4
    assert v0_feature(observation_planes_v1(st, me), "mandatory_built") == 1.0  # at most 1
    discard = S.MARSH_DISCARD
    st[discard] = SWAMP_CARD_BASE + 4  # S/T
    st[discard + 1] = 0  # a plain G
    st[S.DISCARD_COUNT] = 2
    obs = observation_planes_v1(st, me)
    assert feature(obs, "discard_swamp_cards").tolist() == [0, 0, 0, 0, 1]
    assert obs[27].flat[F0["discard"]] == pytest.approx(0.2)


@pytest.mark.parametrize("power", ["fountain", "temple", "refuge", "canoe_bonus", "refuge_bonus"])
def test_the_power_being_resolved(power):
    g = fresh()
    st = g.state
    st[S.POWER] = CAT.POWER_CODE[power]
    st[S.PHASE] = S.PHASE_TARGET
    expect = [0.0] * 5
    expect[O.MARSH_POWER_NAMES.index(power)] = 1.0
    assert feature(observation_planes_v1(st, 0), "marsh_power").tolist() == expect
    assert feature(observation_planes_v1(st, 0), "power").sum() == 0  # no base/Nomads slot


def test_twin_games_differing_in_hidden_cards_look_the_same():
    """Other players' hands and the order of the draw pile are hidden: swapping them changes nothing."""
    g = fresh()
    st = g.state
    me = int(st[S.CURRENT])
    twin = st.copy()
    other = (me + 1) % 3
    count = int(twin[S.DECK_COUNT])
    deck = twin[S.MARSH_DECK : S.MARSH_DECK + count].copy()
    assert len(set(deck.tolist())) > 1
    twin[S.MARSH_DECK : S.MARSH_DECK + count] = deck[::-1]
    hand = int(twin[S.HAND + other])
    twin[S.HAND + other] = SWAMP_CARD_BASE + (hand + 1) % 5 if hand < SWAMP_CARD_BASE else (hand + 1) % 5
    assert not np.array_equal(twin, st)
    assert np.array_equal(observation_planes_v1(twin, me), observation_planes_v1(st, me))
    third = (me + 2) % 3  # a player who is not the mover sees neither the other hand nor the deck
    assert np.array_equal(observation_planes_v1(twin, third), observation_planes_v1(st, third))


def test_a_canoe_reaction_shows_the_reactor_to_move():
    """During a reaction the reactor decides (A15): its observation has to_move, the legal plane and the
    reaction flag; the turn owner's has own_turn but neither to_move nor a legal plane."""
    from tests.ruleset_games import reaction_game

    g, _ = reaction_game()
    reactor, owner = g.decider, g.current_player
    assert reactor != owner and g.phase == "reaction"
    mine = observation_planes_v1(g.state, reactor)
    theirs = observation_planes_v1(g.state, owner)
    assert v0_feature(mine, "to_move") == 1.0 and feature(mine, "own_turn").tolist() == [0.0]
    assert feature(mine, "canoe").tolist() == [1.0, 0.0]
    assert v0_feature(theirs, "to_move") == 0.0 and feature(theirs, "own_turn").tolist() == [1.0]
    assert not theirs[CH_LEGAL].any()
    g.step(CAT.ACTION_ID["canoe"])  # then a hex: the legal plane is the reactor's targets
    mine = observation_planes_v1(g.state, reactor)
    assert feature(mine, "canoe").tolist() == [0.0, 1.0]
    legal = {a for a in g.legal_actions() if a < NUM_HEXES}
    assert legal and {h for h in range(NUM_HEXES) if mine[CH_LEGAL].flat[h]} == legal
    assert not observation_planes_v1(g.state, owner)[CH_LEGAL].any()


@pytest.mark.parametrize("expansions", [None, ["marshlands"]])
def test_the_discard_feature_is_a_fifth_per_card_of_each_terrain_up_to_a_whole_pile(expansions):
    """F_DISCARD + t: 0.2 per card of terrain t in the discard pile (summed card by card), swamp cards not
    counted there; checked up to every card of the pile on one terrain, in the float planes and packed."""
    g = Game.new(2, seed=4, expansions=expansions)
    st = g.state.copy()
    discard, pile = (S.MARSH_DISCARD, S.MARSH_PILE_SIZE) if expansions else (S.DISCARD, S.DECK_SIZE)
    me = int(st[S.CURRENT])
    layout = PackedLayout("v1" if expansions else "v0")
    for cards in ([0] * pile, [1, 3, 3, 4, 0, 1, 3], [SWAMP_CARD_BASE + 1, 2, SWAMP_CARD_BASE + 2, 2], []):
        st[discard : discard + pile] = -1
        st[discard : discard + len(cards)] = cards
        st[S.DISCARD_COUNT] = len(cards)
        planes = observation_planes_v1(st, me) if expansions else observation_planes(st, me)
        expected = []
        for t in range(5):
            share = 0.0
            for card in cards:
                if card == t:
                    share += 0.2
            expected.append(np.float32(share))
        first = F0["discard"]
        assert planes[27].flat[first : first + 5].tolist() == expected, cards
        packed = VectorGames(1, expansions=expansions, packed=True)
        packed.states[0] = st
        assert np.array_equal(unpack(packed.observations(players=np.array([me]))[0], layout), planes)
