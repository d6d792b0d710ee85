"""Hidden information: what a seat's view holds, and that built-in policies never read hidden cards.

Hidden from a player: the hands of the other players (except the played card of the player to move),
the order of the draw pile and the in-game generator that reshuffles it. Two games that differ only
in those must look the same from the seat and make every built-in policy decide the same: checked for 2 to 5
players in every ruleset (base, Nomads, Capitol, Caves, Crossroads with hands of several cards, all expansions).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents import make_agent
from agents.evaluation.play import agent_inputs
from kbenv import Game, hex_action
from kbenv.engine import state as S
from kbenv.game.view import PlayerView
from kbenv.observation import action_mask, observation_planes
from kbenv.policies.greedy import greedy_values
from kbenv.policies.lookahead import lookahead_values

from .game_checks import played_game

POLICIES = ("greedy", "lookahead", "mcts:sims=12,rollout=greedy")
RULESETS = {
    "base": None,
    "nomads": ["nomads"],
    "capitol": ["capitol"],
    "caves": ["caves"],
    "crossroads": ["crossroads"],
    "all": ["nomads", "capitol", "caves", "crossroads"],
}


def variant(game: Game, player: int, seed: int) -> Game:
    """The same game with everything hidden from `player` dealt anew (other hands, deck order, generator)."""
    return game.determinize(player, np.random.default_rng(seed))


def values(kernel, state: np.ndarray, size: int = 409) -> np.ndarray:
    out = np.empty(size, dtype=np.float64)
    kernel(state.copy(), out)
    return out


def decisions(game: Game, player: int) -> dict:
    """Everything a seat's policies derive from a game, for comparison between variants: the observation and
    mask of the ruleset (what agents are given), the view's scores and hands, and for the seat that decides
    next the greedy and lookahead values and the choice of every built-in policy."""
    observation, mask, view = agent_inputs(game, player)
    out = {
        "observation": observation,
        "mask": mask,
        "scores": view.scores(),
        "hands": [view.hand_cards(p) if p not in game.hidden_from(player) else None for p in range(game.num_players)],
        "unseen": view.unseen_cards(),
    }
    if not game.expansions:  # the hint planes and the v0 view exist for base games only
        out["hints_greedy"] = observation_planes(game.state, player, "greedy")
        out["hints_lookahead"] = observation_planes(game.state, player, "lookahead")
        out["view_observation"] = view.observation("lookahead")
    else:
        out["view_observation"] = view.observation_v1()
    if game.decider == player and not game.done:
        out["greedy_values"] = values(greedy_values, game.state, game.action_size)
        out["lookahead_values"] = values(lookahead_values, game.state, game.action_size)
        for spec in POLICIES:
            agent = make_agent(spec, seed=7)
            out[spec] = agent.act(observation, mask, view)
            assert mask[out[spec]], spec
    return out


def assert_same(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for key in a:
        if isinstance(a[key], np.ndarray):
            np.testing.assert_array_equal(a[key], b[key], err_msg=key)
        else:
            assert a[key] == b[key], key


def hidden_part(game: Game, player: int) -> tuple:
    """What `player` cannot see: the other players' hands and the draw pile."""
    return (tuple(tuple(game.hand_cards(p)) for p in game.hidden_from(player)),
            game.state[S.DECK : S.DECK + S.DECK_SIZE].tobytes())


def assert_twins_look_the_same(game: Game, redeal: int) -> int:
    """For every seat: a twin re-dealt in what that seat cannot see gives it the same decisions.
    Returns how many twins really differ in hidden cards (the check is empty for the others)."""
    differing = 0
    for player in range(game.num_players):
        other = variant(game, player, redeal + player)
        differing += hidden_part(other, player) != hidden_part(game, player)
        assert_same(decisions(game, player), decisions(other, player))
    return differing


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 200), redeal=st.integers(0, 1000))
def test_policies_decide_the_same_when_only_hidden_cards_differ(ruleset, players, seed, steps, redeal):
    game = played_game(seed, steps, players, RULESETS[ruleset])
    assert game.expansions == tuple(RULESETS[ruleset] or ())
    assert_twins_look_the_same(game, redeal)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_re_dealt_twins_really_differ_in_every_ruleset(ruleset):
    """The property test above would be empty if re-dealing never changed a hidden card."""
    differing = sum(assert_twins_look_the_same(played_game(seed, 30, players, RULESETS[ruleset]), seed)
                    for seed, players in ((1, 2), (2, 3), (3, 4), (4, 5)))
    assert differing >= 10  # of the 2 + 3 + 4 + 5 = 14 twins


# (players, seed, steps) where a seat that does not decide holds two terrain cards, found by random play
SEVERAL_CARDS = [("crossroads", 2, 8, 14), ("crossroads", 3, 8, 36), ("crossroads", 4, 8, 12), ("crossroads", 5, 1, 24),
                 ("all", 2, 8, 126), ("all", 5, 8, 13)]


@pytest.mark.parametrize("ruleset, players, seed, steps", SEVERAL_CARDS)
def test_crossroads_hands_of_several_cards_stay_hidden(ruleset, players, seed, steps):
    """Crossroads hands hold several cards: re-dealing a hidden hand of two changes nothing the others see."""
    game = played_game(seed, steps, players, RULESETS[ruleset])
    decider = game.decider
    big = [p for p in game.hidden_from(decider) if len(game.hand_cards(p)) >= 2]
    assert big, [game.hand_cards(p) for p in range(players)]  # the position really has such a hand
    re_dealt = 0
    for k in range(6):
        other = variant(game, decider, k)
        re_dealt += any(sorted(other.hand_cards(p)) != sorted(game.hand_cards(p)) for p in big)
        assert [len(other.hand_cards(p)) for p in range(players)] == [len(game.hand_cards(p)) for p in range(players)]
        assert other.hand_cards(decider) == game.hand_cards(decider)
        assert_same(decisions(game, decider), decisions(other, decider))
    assert re_dealt >= 1  # some re-deal changed a hidden hand of several cards
    assert_twins_look_the_same(game, seed)


def test_a_re_dealt_variant_really_differs_in_hidden_cards():
    """The property test above would be empty if re-dealing never changed anything."""
    game = played_game(3, 20)
    changed = 0
    for k in range(10):
        other = variant(game, game.current_player, k)
        changed += not np.array_equal(other.state[S.DECK : S.DECK + S.DECK_SIZE],
                                      game.state[S.DECK : S.DECK + S.DECK_SIZE])
    assert changed >= 8


def redraw_position(deck: list[str], other_hand: str) -> Game:
    """Player 0 holds grass with one free grass hex; building it forces the no-eligible-hex redraw.

    Canyon hexes run from that grass hex to a castle, desert hexes lie far away: after the redraw,
    the rest of the turn is worth more with a canyon card than with a desert card.
    """
    grid = [["M"] * 20 for _ in range(20)]
    grid[10][9] = "G"
    grid[10][10] = grid[10][11] = "C"
    grid[10][12] = "K"
    grid[2][2] = grid[2][3] = grid[2][4] = "D"
    grid[16][2] = grid[16][3] = "F"
    grid[16][6] = grid[16][7] = "T"
    return Game.custom(board=["".join(r) for r in grid], num_players=2, cards=["fishermen", "knights", "merchants"],
                       settlements=[[], []], hands=["G", other_hand], deck=deck, current_player=0)


def test_lookahead_does_not_simulate_past_a_redraw_from_the_hidden_deck():
    """Issue 11 item 8: the lookahead hint planes moved when only the deck order changed."""
    canyon_first = redraw_position(["C", "D", "F"], "T")
    desert_first = redraw_position(["D", "C", "F"], "T")
    swapped_hand = redraw_position(["T", "C", "F"], "D")
    g = hex_action(10, 9)
    assert canyon_first.legal_actions() == [g]
    planes = [observation_planes(x.state, 0, "lookahead") for x in (canyon_first, desert_first, swapped_hand)]
    for other in planes[1:]:
        np.testing.assert_array_equal(planes[0], other)
    looked = [values(lookahead_values, x.state)[g] for x in (canyon_first, desert_first, swapped_hand)]
    greedy = values(greedy_values, canyon_first.state)[g]
    assert looked[0] == looked[1] == looked[2] == greedy  # the turn is not simulated past the redraw
    # The redraw really happens and the next card matters: canyon builds toward the castle.
    canyon_first.step(g)
    desert_first.step(g)
    assert canyon_first.hand(0) == "C" and desert_first.hand(0) == "D"
    assert canyon_first.removed_cards() == ["G"]


def test_determinized_game_carries_no_seed_history_or_record():
    game = played_game(12345, 30)
    world = PlayerView(game, 1).determinize(np.random.default_rng(0))
    assert world.setup.seed == 0
    assert world.actions == []
    with pytest.raises(ValueError, match="no faithful record"):
        world.to_record()
    same_public = Game.from_setup(world.setup)
    assert same_public.state_key() != game.state_key()


def test_determinized_custom_game_drops_the_hand_built_hands_and_deck():
    game = redraw_position(["C", "D", "F"], "T")
    world = game.determinize(1, np.random.default_rng(0))
    assert world.setup.hands is None and world.setup.deck is None and world.setup.seed == 0


@pytest.mark.parametrize("steps", [0, 25, 90])
def test_a_view_holds_nothing_hidden(steps):
    """Every slot of a view is equal for two games that differ only in hidden cards: no route to them."""
    game = played_game(77, steps, num_players=4)
    for player in range(4):
        a, b = PlayerView(game, player), PlayerView(variant(game, player, 5), player)
        for slot in PlayerView.__slots__:
            x, y = getattr(a, slot), getattr(b, slot)
            if isinstance(x, Game):
                np.testing.assert_array_equal(x.state, y.state)
                assert x.setup == y.setup and x.actions == y.actions == []
            else:
                assert x == y, slot
        for hints in ("none", "greedy", "lookahead"):  # the redacted copy observes like the true game
            np.testing.assert_array_equal(a.observation(hints), observation_planes(game.state, player, hints))
        np.testing.assert_array_equal(a.legal_mask(), action_mask(game.state, player))
        assert a.scores() == game.scores()
        hidden = game.hidden_from(player)
        assert all(a.hand(p) is None for p in hidden)
        assert a.hand(player) == game.hand(player)
        assert sorted(a.unseen_cards(), key="GCDFT".index) == a.unseen_cards()  # card order, not deal order
        assert len(a.unseen_cards()) == game.deck_size() + sum(game.hand(p) is not None for p in hidden)


def test_view_of_a_seat_that_does_not_exist_is_refused():
    game = Game.new(2, seed=0)
    for bad in (2, -1, True, "0"):
        with pytest.raises(ValueError, match="player"):
            PlayerView(game, bad)
