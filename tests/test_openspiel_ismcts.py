"""OpenSpiel's imperfect-information search on `python_kingdom_builder`: `resample_from_infostate`,
OpenSpiel's Python ISMCTSBot, and the forms the `expansions` parameter takes.

Skipped without the optional `open_spiel` package.
"""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms.ismcts import ISMCTSBot  # noqa: E402
from open_spiel.python.algorithms.mcts import RandomRolloutEvaluator  # noqa: E402

import kbenv.openspiel as kos  # noqa: E402
from kbenv.engine import state as S  # noqa: E402

RULESETS = {"base": "", "crossroads": "crossroads", "all": "nomads,capitol,caves,crossroads"}


def dealt(game: pyspiel.Game, seed: int) -> pyspiel.State:
    state = game.new_initial_state()
    for outcome in kos.seed_actions(seed):
        state.apply_action(outcome)
    return state


def random_step(state: pyspiel.State, rng: np.random.Generator) -> None:
    legal = state.legal_actions()
    state.apply_action(legal[rng.integers(len(legal))])


def hidden_cards(state: pyspiel.State, player: int) -> tuple:
    """The cards `player` cannot see in a state: other players' hidden hands and extras, and the deck order."""
    game = state.kbenv_game
    st = game.state
    hands = tuple(int(st[S.HAND + q]) for q in game.hidden_from(player))
    extras = tuple(int(st[S.EXTRA_CARDS + q * S.MAX_EXTRA_CARDS + k])
                   for q in game.hidden_extra_from(player) for k in range(int(st[S.EXTRA_COUNT + q])))
    deck = tuple(int(c) for c in st[S.DECK : S.DECK + int(st[S.DECK_COUNT])])
    return hands, extras, deck


@pytest.mark.parametrize("ruleset", RULESETS)
def test_resampled_state_keeps_what_the_player_knows(ruleset):
    """OpenSpiel's own contract (basic_tests ResampleInfostateTest): same information state and current
    player; and here also the same observation, and for the player to move the same legal actions."""
    game = kos.load_game(3, RULESETS[ruleset])
    rng = np.random.default_rng(1)
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)
    state = dealt(game, 11)
    differed = 0
    checks = 0
    while not state.is_terminal():
        if rng.random() < 0.15:
            for player in range(3):
                before = str(state)
                other = state.resample_from_infostate(player, sampler)
                assert str(state) == before  # the state itself is untouched
                assert isinstance(other, kos.KingdomBuilderState)
                assert other.current_player() == state.current_player()
                assert other.information_state_string(player) == state.information_state_string(player)
                assert other.observation_string(player) == state.observation_string(player)
                assert other.observation_tensor(player) == state.observation_tensor(player)
                if player == state.current_player():
                    assert other.legal_actions() == state.legal_actions()
                # the unseen cards are a re-deal of the same cards
                mine, theirs = hidden_cards(state, player), hidden_cards(other, player)
                assert sorted(sum(mine, ())) == sorted(sum(theirs, ()))
                differed += mine != theirs
                checks += 1
        random_step(state, rng)
    assert checks >= 10
    assert differed >= checks // 2  # the hidden cards are dealt anew (the deck alone has many orders)


def test_resampled_states_play_on_to_the_end():
    game = kos.load_game(2, "nomads,crossroads")
    rng = np.random.default_rng(3)
    state = dealt(game, 5)
    for _ in range(40):
        random_step(state, rng)
    other = state.resample_from_infostate(state.current_player(), pyspiel.UniformProbabilitySampler(1, 0.0, 1.0))
    while not other.is_terminal():
        random_step(other, rng)
    assert sum(other.returns()) == pytest.approx(0.0)
    assert other.kbenv_game.done


def test_resampling_is_reproducible_from_the_sampler():
    game = kos.load_game(2)
    rng = np.random.default_rng(4)
    state = dealt(game, 9)
    for _ in range(25):
        random_step(state, rng)

    def key(seed: int) -> bytes:
        sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
        return state.resample_from_infostate(0, sampler).kbenv_game.state_key()

    assert key(1) == key(1)
    assert len({key(seed) for seed in range(5)}) == 5

    # any callable returning floats in [0, 1) will do; the same draws give the same deal
    assert state.resample_from_infostate(0, lambda: 0.25).kbenv_game.state_key() == \
        state.resample_from_infostate(0, lambda: 0.25).kbenv_game.state_key()


def test_resampled_history_hides_the_cards_the_player_never_saw():
    """A resampled world's past holds only what the resampling player saw: another seat's information
    state there shows '?' wherever the resampling player saw '?' (no true hidden card survives)."""
    game = kos.load_game(2)
    rng = np.random.default_rng(8)
    state = dealt(game, 21)
    for _ in range(30):
        random_step(state, rng)
    other = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(2, 0.0, 1.0))
    seen_by_0 = state.information_state_string(0).splitlines()
    seen_by_1_there = other.information_state_string(1).splitlines()
    assert len(seen_by_0) == len(seen_by_1_there) > 10
    hidden = 0
    # after "player p" and the public set-up line
    for mine, theirs in zip(seen_by_0[2:], seen_by_1_there[2:], strict=True):
        if " hands " not in mine:
            continue  # the board lines of the public set-up
        hand_of_1 = mine.split(" hands ")[1].split()[1]
        if hand_of_1 == "?":
            hidden += 1
            assert theirs.split(" hands ")[1].split()[1] == "?"
    assert hidden > 5
    # the true state's own history is untouched
    assert state.information_state_string(1) != other.information_state_string(1)


def test_resampling_at_the_deal():
    game = kos.load_game(2)
    sampler = pyspiel.UniformProbabilitySampler(3, 0.0, 1.0)
    fresh = game.new_initial_state()
    other = fresh.resample_from_infostate(0, sampler)
    assert other.is_chance_node() and other.information_state_string(0) == fresh.information_state_string(0)
    fresh.apply_action(123)
    other = fresh.resample_from_infostate(1, sampler)
    assert other.is_chance_node() and len(other.chance_outcomes()) == 1 << 16
    assert other.information_state_string(1) == fresh.information_state_string(1)


def test_resample_refuses_bad_arguments():
    state = dealt(kos.load_game(2), 1)
    before = str(state)
    sampler = pyspiel.UniformProbabilitySampler(0, 0.0, 1.0)
    for bad in (2, -1, True, "0"):
        with pytest.raises(ValueError, match="player_id"):
            state.resample_from_infostate(bad, sampler)
    with pytest.raises(ValueError, match="probability_sampler"):
        state.resample_from_infostate(0, lambda: 1.5)
    assert str(state) == before


def ismcts_game(expansions: str, seed: int) -> tuple[list[int], pyspiel.State]:
    """A whole 2-player game of OpenSpiel's Python ISMCTSBot against itself (few simulations, short rollouts)."""
    game = kos.load_game(2, expansions)
    bots = []
    for player in range(2):
        evaluator = RandomRolloutEvaluator(1, np.random.RandomState(player), max_length=4)
        bot = ISMCTSBot(game, evaluator, 2.0, 4, random_state=np.random.RandomState(10 + player))
        bot.set_resampler(kos.seeded_resampler(player))
        bots.append(bot)
    state = dealt(game, seed)
    actions = []
    while not state.is_terminal():
        action = int(bots[state.current_player()].step(state))
        assert action in state.legal_actions()
        actions.append(action)
        state.apply_action(action)
    return actions, state


@pytest.mark.parametrize("expansions", ["", "nomads,crossroads"])
def test_ismcts_bot_plays_whole_games(expansions):
    actions, state = ismcts_game(expansions, 3)
    assert state.is_terminal() and len(actions) > 40
    assert sorted(state.returns()) == [-1.0, 1.0] or state.returns() == [0.0, 0.0]


def test_ismcts_bot_is_reproducible_with_a_seeded_resampler():
    assert ismcts_game("", 6)[0] == ismcts_game("", 6)[0]


def test_ismcts_bot_default_resampler_runs():
    """Without set_resampler the bot calls state.resample_from_infostate itself (the reported failure)."""
    game = kos.load_game(2)
    state = dealt(game, 2)
    bot = ISMCTSBot(game, RandomRolloutEvaluator(1, np.random.RandomState(0), max_length=4), 2.0, 4,
                    random_state=np.random.RandomState(0))
    for _ in range(3):
        action = int(bot.step(state))
        assert action in state.legal_actions()
        state.apply_action(action)


@pytest.mark.parametrize("expansions", [["nomads", "crossroads"], ("crossroads", "nomads"), "nomads+crossroads",
                                        "nomads,crossroads"])
def test_expansions_as_list_tuple_or_string(expansions):
    game = kos.load_game(2, expansions)
    assert game.ruleset.expansions == ("nomads", "crossroads")
    assert game.get_parameters()["expansions"] == "nomads+crossroads"
    assert kos.KingdomBuilderGame({"players": 2, "expansions": expansions}).ruleset == game.ruleset


@pytest.mark.parametrize("expansions", [5, ["nomads", 3], {"nomads": True}, ["nomad"]])
def test_bad_expansions_name_the_expected_form(expansions):
    with pytest.raises(ValueError, match="expansions: "):
        kos.load_game(2, expansions)
    with pytest.raises(ValueError, match="expansions: "):
        kos.KingdomBuilderGame({"players": 2, "expansions": expansions})


def test_seeded_resampler_checks_its_seed():
    with pytest.raises(ValueError, match="seed"):
        kos.seeded_resampler(-1)


def test_ismcts_agent_plays_a_kbenv_game():
    """`openspiel:bot=ismcts` through the registry: a whole 2-player game against greedy, legal throughout."""
    from agents import GreedyAgent, make_agent
    from agents.evaluation.play import play_game

    agent = make_agent("openspiel:bot=ismcts,sims=4,max_rollout=4", seed=2)
    assert agent.name == "openspiel:bot=ismcts,sims=4,rollouts=1"
    result = play_game(0, 7, ["openspiel", "greedy"], [agent, GreedyAgent(seed=0)],
                       expansions=["nomads", "crossroads"])
    assert result.decisions > 20 and len(result.gold) == 2  # act() raises if the bot picks an illegal action
