"""The whole-box candidate network (agents/candidates/imitate_lookahead_bigbox_2p_1m.pt, on its way to
trained:bigbox-2p) plays whole legal games in 20 random rulesets, each within its training."""

import random
import warnings
from pathlib import Path

import pytest

from agents import make_agent
from agents.evaluation.play import play_game
from kbenv.ruleset import Ruleset

ROOT = Path(__file__).resolve().parents[1]
CANDIDATE = ROOT / "agents" / "candidates" / "imitate_lookahead_bigbox_2p_1m.pt"
SEVEN = ["nomads", "capitol", "caves", "crossroads", "marshlands", "harvest", "island"]


def drawn_rulesets(count: int, seed: int) -> list[list[str]]:
    """`count` subsets of the seven expansions, each expansion in with probability one half."""
    draw = random.Random(seed)
    return [[name for name in SEVEN if draw.random() < 0.5] for _ in range(count)]


def test_the_card_says_any_subset_of_the_seven():
    agent = make_agent(f"aznet:path={CANDIDATE}", seed=0)
    assert agent.trained_for.subsets_of == Ruleset(SEVEN)
    assert all(agent.trained_for.covers(Ruleset(expansions)) for expansions in drawn_rulesets(50, 1))


@pytest.mark.parametrize("chunk", range(4))
def test_it_plays_legal_games_in_random_rulesets(chunk):
    network = make_agent(f"aznet:path={CANDIDATE}", seed=chunk)
    rulesets = drawn_rulesets(20, 2026)[chunk * 5 : chunk * 5 + 5]
    for k, expansions in enumerate(rulesets):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # within its training: no OutsideTrainingWarning
            result = play_game(k, 700 + chunk * 5 + k, ["network", "random"],
                               [network, make_agent("random", seed=k)], expansions=expansions or None)
        # play_game steps the game with each chosen action: an illegal one raises IllegalActionError
        assert result.decisions > 40 and len(result.gold) == 2
        assert sorted(result.record["setup"].get("expansions", ())) == sorted(expansions)
