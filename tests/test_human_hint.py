"""The `hint` command of a human seat (agents.human, `kbenv play --hint SPEC`): the analyst's top decisions from the
seat's own view, legal and in words, its best line, and --hint specs refused with the reason."""

from __future__ import annotations

import subprocess
import sys

from agents.analysis import analyse, make_analyst
from agents.evaluation.play import agent_inputs
from agents.human import COMMANDS, HumanAgent
from kbenv.game import Game
from kbenv.game.view import PlayerView


def _scripted(answers: list[str], **kwargs):
    lines: list[str] = []
    feed = iter(answers)
    return HumanAgent(read=lambda prompt: next(feed), write=lines.append, colour=False, **kwargs), lines


def test_hint_prints_the_analysts_top_decisions_and_asks_again():
    game = Game.new(2, seed=5)
    agent, lines = _scripted(["hint", "1"])
    assert agent.act(*agent_inputs(game, game.decider)) == game.legal_actions()[0]
    text = "\n".join(lines)
    assert "hint (lookahead: softmax of lookahead's values" in text
    expected = analyse(make_analyst("lookahead"), PlayerView(game, game.decider))
    assert f"  1. {expected.decisions[0]['words']} (share " in text
    assert expected.decisions[0]["action"] in game.legal_actions()
    assert "  best line this turn: " in text
    assert any(line.strip().startswith("hint ") for line in COMMANDS)  # help lists it


def test_hint_with_another_analyst_and_one_that_does_not_fit():
    game = Game.new(2, seed=5)
    agent, lines = _scripted(["hint", "1"], hint="greedy")
    agent.act(*agent_inputs(game, game.decider))
    assert any(line.startswith("hint (greedy: ") for line in lines)
    agent, lines = _scripted(["hint", "1"], hint="network:crossroads-2p")
    agent.act(*agent_inputs(game, game.decider))
    assert any(line.startswith("  no hint: network:crossroads-2p was trained for crossroads") for line in lines)


def _play(*extra: str, answers: str = "hint\nquit\n") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kbenv.cli", "play", "--players", "2", "--seed", "5",
                           "--no-colour", *extra], input=answers, capture_output=True, text=True, timeout=300)


def test_kbenv_play_hint():
    run = _play("--agents", "human", "random", "--hint", "greedy")
    assert run.returncode == 0, run.stderr
    assert "hint (greedy: softmax of greedy's values" in run.stdout and "  1. build at " in run.stdout
    assert "you left" in run.stdout


def test_kbenv_play_refuses_a_bad_hint_spec_before_the_game():
    run = _play("--agents", "human", "random", "--hint", "random")
    assert run.returncode == 2 and "--hint: analyst 'random': a random agent gives no values" in run.stderr
    run = _play("--agents", "human", "random", "--hint", "network:nomads-2p")
    assert run.returncode == 2 and "ModelRulesetError: network:nomads-2p was trained for" in run.stderr
    run = _play("--agents", "random", "--hint", "greedy")
    assert run.returncode == 2 and "--hint: needs a human seat" in run.stderr
