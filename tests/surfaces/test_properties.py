"""The property suite of every ruleset (issue 49: tests by surface, as PettingZoo tests every environment with one
API test): over the rulesets of tests/ruleset_games.RULESETS (the base game, Nomads + Capitol + Caves, Crossroads,
Marshlands, Harvest and the Island alone, the Island with each expansion its rules meet, all five, six and seven
expansions) the legal mask is what the engine accepts (every legal action applies; an illegal one raises naming the
action and leaves the state unchanged; full sweeps of every action id), the batch engine is the single game,
compiled kernels are pure Python, a record replays to the same game, the same seed plays the same game, pieces and
tiles are conserved (settlements on the board and the island + supply + Temple reserve + Mayors marks = 40 per
player, location / bonus / nomad tiles never come back, scouts, number tiles, the terrain cards;
tests/ruleset_games.check_conservation), every game ends, and each expansion's own decisions really occur over
these games (tests/ruleset_games' tallies: the Marshlands powers and reactions, the Harvest farm action, powers,
silo phase and cards, the Island's builds, moves, tile and scoring lines).

Each ruleset's random games keep the variations its old per-expansion suite drew (sections, cards, rule flags,
island sides) and their number of examples; tests/SURFACES.md maps the old tests to these.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kbenv import ACTION_SIZE, Game, IllegalActionError
from kbenv import catalogue as CAT
from kbenv.catalogue import ACTION_SIZE_V1
from kbenv.engine import state as S
from tests import property_checks
from tests import ruleset_games as RG
from tests.property_checks import assert_batch_engine_equals_single_games, assert_mask_is_accepted
from tests.ruleset_games import (
    ALL5,
    ALL6,
    ALL7,
    BY_ID,
    HARVEST,
    HARVEST_CARDS,
    HARVEST_FLAGS,
    HARVEST_TYPES,
    ISLAND,
    ISLAND_CARDS,
    ISLAND_FLAGS,
    ISLAND_HARVEST_CARDS,
    ISLAND_WITH,
    MARSH,
    RULESETS,
    SIDES,
    SIX,
    check_base_invariants,
    check_conservation,
    check_targets,
    focus_of,
    new_game,
    pick,
)

MAX_DECISIONS = 2000  # far above any real game (about 100-300 decisions)
TALLIES = {focus: tally() for focus, tally in RG.TALLIES.items()}  # test_decisions_really_occur reads them
game_params = st.tuples(st.integers(0, 2**31 - 1), st.integers(2, 5))


def play_checked(game: Game, seed: int, check_illegal: bool = True, bias: float = 0.6) -> Game:
    """Play a biased random game, checking the invariants after every decision (and the island's build targets in
    games of the Island alone); record it in its ruleset's tally."""
    extra = check_targets if game.expansions == ("island",) else None
    return property_checks.play_checked(game, seed, pick=pick, tally=TALLIES[focus_of(game.expansions)],
                                        conservation=check_conservation, check_illegal=check_illegal, bias=bias,
                                        extra=extra)


# ----- the base game: many uniform random games --------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1))
def test_base_random_games_keep_invariants_and_end(players, seed):
    """1,000 random base games in all (250 per player count), checked after every decision: one illegal action
    refused without a trace, and the base game's conservation (check_base_invariants)."""
    game = Game.new(players, seed=seed)
    rng = np.random.default_rng(seed)
    history: dict = {}
    for _ in range(MAX_DECISIONS):
        if game.done:
            break
        mask = game.legal_mask()
        legal = np.flatnonzero(mask)
        assert len(legal) > 0, "a running game always offers a decision"
        bad = int(rng.choice(np.flatnonzero(mask == 0)))
        before = game.state_key()
        with pytest.raises(IllegalActionError) as err:
            game.step(bad)
        assert str(bad) in str(err.value)
        assert game.state_key() == before
        game.step(int(rng.choice(legal)))
        check_base_invariants(game, history)
    assert game.done, "every game ends"
    assert any(game.supply(p) == 0 for p in range(players)) or game.state[S.TURNS_WITHOUT_BUILD] > 0
    assert game.legal_mask().sum() == 0


@settings(max_examples=60, deadline=None)
@given(game_params, st.integers(0, 300))
def test_base_mask_equals_accepted_exhaustively(params, stop_at):
    """At a random point of a random base game, every one of the 409 actions is accepted iff masked legal."""
    seed, players = params
    game = Game.new(players, seed=seed)
    rng = np.random.default_rng(seed + 1)
    for _ in range(stop_at):
        if game.done:
            break
        game.step(int(rng.choice(game.legal_actions())))
    assert game.action_size == ACTION_SIZE
    assert_mask_is_accepted(game)


@settings(max_examples=100, deadline=None)
@given(game_params)
def test_base_replay_from_record_is_identical(params):
    seed, players = params
    game = Game.new(players, seed=seed)
    rng = np.random.default_rng(seed)
    while not game.done:
        game.step(int(rng.choice(game.legal_actions())))
    replay = Game.from_record(game.to_record())
    assert replay.state_key() == game.state_key()
    assert replay.scores() == game.scores()


# ----- every ruleset ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("ruleset", RULESETS, ids=RG.ids(RULESETS))
def test_random_games_keep_invariants_end_and_replay(ruleset):
    """`ruleset.examples` biased random games (its sections, cards, rule flags and island sides drawn), checked at
    every decision; the record (through JSON) replays to the same state, scores and location hexes."""

    @settings(max_examples=ruleset.examples, deadline=None, derandomize=True)
    @given(seed=st.integers(0, 2**31 - 1), players=st.integers(2, 5), sections=st.integers(0, 5),
           cards=st.integers(0, 6), rules=st.integers(0, 5), side=st.integers(0, 2))
    def check(seed, players, sections, cards, rules, side):
        game = ruleset.game(players, seed, sections, cards, rules, side)
        play_checked(game, seed)
        replay = Game.from_record(json.loads(json.dumps(game.to_record())))
        assert replay.state_key() == game.state_key()
        assert replay.scores() == game.scores()
        assert replay.location_hexes() == game.location_hexes()

    check()


@pytest.mark.parametrize("ruleset", RULESETS, ids=RG.ids(RULESETS))
def test_same_seed_same_game(ruleset):
    """Two games of the same set-up and the same random decisions stay equal state by state."""
    for seed in (11, 2**31 - 5):
        a, b = ruleset.game(3, seed), ruleset.game(3, seed)
        assert a.state_key() == b.state_key()
        ra, rb = np.random.default_rng(7), np.random.default_rng(7)
        while not a.done:
            a.step(pick(a, ra, 0.6))
            b.step(pick(b, rb, 0.6))
            assert a.state_key() == b.state_key()
        assert b.done


@settings(max_examples=50, deadline=None)
@given(game_params)
def test_base_same_seed_same_game(params):
    seed, players = params
    a, b = Game.new(players, seed=seed), Game.new(players, seed=seed)
    assert a.state_key() == b.state_key()
    ra, rb = np.random.default_rng(7), np.random.default_rng(7)
    while not a.done:
        a.step(int(ra.choice(a.legal_actions())))
        b.step(int(rb.choice(b.legal_actions())))
        assert a.state_key() == b.state_key()
    assert b.done


@pytest.mark.parametrize("ruleset", RULESETS, ids=RG.ids(RULESETS))
def test_different_seeds_give_different_setups(ruleset):
    boards = {Game.new(3, seed=s, expansions=list(ruleset.expansions)).board for s in range(20)}
    assert len(boards) > 10


@pytest.mark.parametrize("ruleset", [r for r in RULESETS if not r.id.startswith("island+")],
                         ids=RG.ids(r for r in RULESETS if not r.id.startswith("island+")))
def test_batch_engine_equals_single_games(ruleset):
    assert_batch_engine_equals_single_games(list(ruleset.expansions))


# ----- full sweeps of every action id -------------------------------------------------------------------------
HARVEST_PHASES = ("silo", "choose_power", "step", "reaction")
ISLAND_POWER_CODES = (CAT.POWER_CODE["rope_bridge"], CAT.POWER_CODE["tree_house"])


def harvest_kind(game: Game) -> str:
    """The silo phase, the Bazaar's choice, a multi-step power, a Cathedral's open take/return, or another."""
    mask = game.legal_mask()
    choice = mask[CAT.ACTION_ID["option-1"]] or mask[CAT.ACTION_ID["option-2"]]
    return game.phase if game.phase in HARVEST_PHASES else "option" if choice else "other"


def island_kind(game: Game) -> str:
    """Which island situation the decision is in: a Rope bridge / Tree house source or target, an island hex on
    offer (in which phase), an island power offered, or another."""
    mask = game.legal_mask()
    if game.phase in ("choose_source", "choose_target") and game.state[S.POWER] in ISLAND_POWER_CODES:
        return game.phase
    if mask[CAT.ISLAND_ACTION_BASE : CAT.ISLAND_ACTION_BASE + 20].any():
        return "island hex " + game.phase
    if mask[[RG.ROPE_BRIDGE, RG.TREE_HOUSE]].any():
        return "island power offered"
    return "other"


def cards_for(expansions, k: int):
    choices = ISLAND_HARVEST_CARDS if "harvest" in expansions else ISLAND_CARDS
    return choices[k % len(choices)]


@dataclass(frozen=True)
class Sweep:
    """Where a ruleset's action-id sweeps happen: games of `seeds` (made by `game`) until every `wanted` kind was
    swept; a decision is swept when its kind is not "other" (at most `per_game` of a kind a game) or at every
    `every`-th decision; at least `min_sweeps` sweeps in all."""

    game: Callable[[tuple, int], Game]
    seeds: range
    every: int
    kind: Callable[[Game], str] = lambda game: "other"
    wanted: frozenset = frozenset()
    per_game: int = 10**9
    min_sweeps: int = 1
    bias: float = 0.7


SWEEPS = {
    # the Queenies and Crossroads: one game, every tenth decision
    "base": Sweep(lambda exp, seed: new_game(exp, 3, seed), range(11, 12), every=10, min_sweeps=5),
    # one game, every third decision and every Canoe reaction
    "marshlands": Sweep(lambda exp, seed: new_game(exp, 3, seed, "marsh" if exp == tuple(MARSH) else "marsh-all"),
                        range(11, 12), every=3, kind=lambda g: g.phase if g.phase == "reaction" else "other",
                        min_sweeps=31, bias=0.6),
    # every fifth decision, and every decision of the silo phase, the Bazaar's choice, a multi-step power and a
    # Cathedral's open take/return (games until each was met, 12 at most)
    "harvest": Sweep(lambda exp, seed: new_game(exp, 3 + seed % 2, seed, "harvest" if exp == tuple(HARVEST)
                                                else "harvest-all", HARVEST_CARDS[0]),
                     range(11, 23), every=5, kind=harvest_kind,
                     wanted=frozenset({"silo", "choose_power", "step", "option", "other"})),
    # every tenth decision, and every decision that offers an island hex (the mandatory action and a power's
    # target) or an island power, or is a Rope bridge / Tree house source or target (games until each was met, 10
    # at most; at most 4 sweeps of a kind a game)
    "island": Sweep(lambda exp, seed: new_game(exp, 3 + seed % 2, seed, cards=cards_for(exp, seed),
                                               side=SIDES[seed % 2]),
                    range(31, 41), every=10, kind=island_kind, per_game=4,
                    wanted=frozenset({"choose_source", "choose_target", "island hex mandatory", "island hex idle",
                                      "island power offered"})),
}
SWEPT = [BY_ID[name] for name in ("nomads+capitol+caves", "crossroads", "marshlands", "all5", "harvest", "all6",
                                  "island", "all7")]


@pytest.mark.parametrize("ruleset", SWEPT, ids=RG.ids(SWEPT))
def test_mask_equals_accepted_for_every_action_id(ruleset):
    """At the decisions its Sweep names, each action id is accepted iff the mask has it (a refused one names the
    action and changes nothing); expansion games have the v1 action ids (0..477)."""
    sweep = SWEEPS[ruleset.focus]
    tally = TALLIES[ruleset.focus]
    asked: dict = {}
    for seed in sweep.seeds:
        game = sweep.game(ruleset.expansions, seed)
        rng = np.random.default_rng(seed)
        per_game: dict = {}
        while not game.done:
            kind = sweep.kind(game)
            if (kind != "other" and per_game.get(kind, 0) < sweep.per_game) or len(game.actions) % sweep.every == 0:
                per_game[kind] = per_game.get(kind, 0) + 1
                asked[kind] = asked.get(kind, 0) + 1
                assert_mask_is_accepted(game)
            tally.step(game, pick(game, rng, sweep.bias))
        if ruleset.focus != "base":
            assert game.action_size == ACTION_SIZE_V1 == 478
        if sweep.wanted <= set(asked):
            break
    assert sweep.wanted <= set(asked), asked
    assert sum(asked.values()) >= sweep.min_sweeps, asked


# ----- compiled = interpreted ---------------------------------------------------------------------------------
SCRIPT = textwrap.dedent(
    """
    import hashlib, json, sys
    import numpy as np
    from tests.ruleset_games import new_game, pick
    out = []
    for expansions, seed, players, sections, cards, rules, side in json.loads(sys.argv[1]):
        game = new_game(expansions, players, seed, sections, cards, rules, side)
        rng = np.random.default_rng(seed)
        while not game.done:
            game.step(pick(game, rng, 0.6))
        out.append({"key": hashlib.sha256(game.state_key()).hexdigest(), "scores": game.scores(),
                    "decisions": len(game.actions), "island": sum(1 for p in range(players)
                                                                  for r, _ in game.settlements(p) if r >= 20)})
    print(json.dumps(out))
    """
)
# (expansions, seed, players, sections, cards, rules, island side): Marshlands alone and all five expansions,
# Harvest alone and all six, the Island alone on each side and all seven
COMPILED_GAMES = [
    [MARSH, 3, 4, "marsh", None, None, None], [ALL5, 5, 3, "marsh-all", None, None, None],
    [HARVEST, 3, 4, "harvest", HARVEST_CARDS[0], None, None], [ALL6, 5, 3, "harvest-all", HARVEST_CARDS[2], None, None],
    [ISLAND, 3, 4, None, ISLAND_CARDS[0], None, SIDES[0]],
    [ISLAND, 4, 2, None, ISLAND_CARDS[1], ["no_island_knights"], SIDES[1]],
    [ALL7, 5, 3, None, ISLAND_HARVEST_CARDS[0], ["island_coast_not_water"], None],
]


def test_compiled_kernels_equal_pure_python():
    """Seven biased games run compiled and with NUMBA_DISABLE_JIT=1: the same states, scores and lengths, with
    settlements on the island in the Island's games."""
    results = []
    for jit in (True, False):
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.getcwd(), os.environ.get("PYTHONPATH", "")]))
        if not jit:
            env["NUMBA_DISABLE_JIT"] = "1"
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        proc = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(COMPILED_GAMES)], env=env,
                              capture_output=True, text=True, check=True, cwd=root)
        results.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    assert results[0] == results[1]
    assert all(r["decisions"] > 50 for r in results[0])
    assert all(r["island"] > 0 for r, game in zip(results[0], COMPILED_GAMES, strict=True) if "island" in game[0])


# ----- each expansion's decisions really occur ------------------------------------------------------------------
EXPECTED = {
    "marshlands": ["swamp 2-build", "canoe reaction asked", "canoe reaction taken", "pass", "fountain", "temple",
                   "temple reserve built", "refuge", "refuge_bonus", "canoe_bonus", "bonus tile taken",
                   "palace scored", *(f"{card} scored" for card in SIX), "scouts set-up"],
    "harvest": ["farmland", *HARVEST_TYPES, "cathedral take", "cathedral return", "cathedral return build",
                "silo build", "silo move", "silo hex", "silo done", "bazaar choose_power", "scout placed",
                "number tile taken", "mayors mark", "mayors scored", "rovers gold"],
    "island": ["island hex action", "island build", "rope_bridge", "tree_house", "move onto the island",
               "move off the island", "move within the island", "island tile taken", "discoverers island lines",
               "knights island line", "knights island line ignored", "mayors island mark",
               "farmers ignore the island", "fishermen on the island", "miners on the island",
               "workers on the island", "areas on the island"],
}


def top_up_games(focus: str):
    """(seed, game) of the games that top a tally up: each of the six Marshlands cards dealt; Harvest alone or
    all six with its cards and flags; the Island alone or with Harvest (Mayors)."""
    if focus == "marshlands":
        for k, card in enumerate(SIX * 2):
            yield 500 + k, new_game(MARSH if k % 2 else ALL5, 2 + k % 4, 500 + k, "marsh" if k % 2 else "marsh-all",
                                    [card, "fishermen", "knights"])
    elif focus == "harvest":
        for k in range(12):
            yield 500 + k, new_game(HARVEST if k % 2 else ALL6, 2 + k % 4, 500 + k,
                                    "harvest" if k % 2 else "harvest-all2", HARVEST_CARDS[k % 3],
                                    HARVEST_FLAGS[k % len(HARVEST_FLAGS)])
    else:
        for k in range(16):
            cards = ISLAND_CARDS[k // 2 % 4] if k % 2 == 0 else ["mayors", "knights", "lords"]
            yield 900 + k, new_game([ISLAND, ISLAND_WITH["harvest"]][k % 2], 2 + k % 4, 900 + k, cards=cards,
                                    rules=ISLAND_FLAGS[(k // 2) % 4], side=SIDES[k % 3])


@pytest.mark.parametrize("focus", list(EXPECTED))
def test_decisions_really_occur(focus):
    """Over this file's games of the expansion's rulesets (and a few more if needed), every one of its decisions
    and events occurs at least once. Runs after the tests above in file order; tops up with its own games."""
    seen = TALLIES[focus].seen
    for seed, game in top_up_games(focus):
        if all(seen[name] for name in EXPECTED[focus]):
            break
        play_checked(game, seed, check_illegal=False, bias=0.8)
    missing = [name for name in EXPECTED[focus] if not seen[name]]
    assert not missing, f"never occurred: {missing}; seen {dict(seen)}"
