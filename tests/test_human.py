"""A person at the terminal: the board and the legal decisions are shown, bad input is answered with
the reason and asked again, and `kbenv play --agents human ...` plays a whole game from typed input."""

from __future__ import annotations

import subprocess
import sys

from agents.evaluation.play import agent_inputs
from agents.human import HumanAgent, parse_decision
from kbenv.game import Game


def _scripted(answers: list[str]):
    lines: list[str] = []
    feed = iter(answers)
    return HumanAgent(read=lambda prompt: next(feed), write=lines.append, colour=False), lines


def test_bad_input_is_answered_and_asked_again():
    game = Game.new(2, seed=3)
    legal = game.legal_actions()
    illegal_hex = next(h for h in range(400) if h not in legal)
    good = legal[0]
    agent, lines = _scripted(["", "banana", "25,3", "999", f"{illegal_hex // 20},{illegal_hex % 20}",
                              f"{good // 20} {good % 20}"])
    assert agent.act(*agent_inputs(game, game.decider)) == good
    text = "\n".join(lines)
    assert "legal decisions:" in text and "[1]" in text and "your card:" in text
    assert "off the board" in text and "not in the list" in text and "neither a number" in text
    assert f"{illegal_hex // 20},{illegal_hex % 20} is illegal:" in text


def test_decisions_by_number_and_by_name():
    game = Game.new(2, seed=3)
    legal = game.legal_actions()
    assert parse_decision("1", legal) == legal[0]
    assert parse_decision("end turn", legal + [408]) == 408
    assert parse_decision("END_TURN", legal + [408]) == 408
    assert parse_decision("terrain-G", legal) == 448  # a known name, legal or not (v1 layout: 448 = terrain-G)
    agent, lines = _scripted(["end_turn", "2"])  # end_turn is not legal before the mandatory builds
    assert agent.act(*agent_inputs(game, game.decider)) == legal[1]
    assert any("end_turn is illegal" in line for line in lines)


def test_a_whole_game_from_the_terminal():
    answers = "\n".join(["1"] * 400) + "\n"
    run = subprocess.run([sys.executable, "-m", "kbenv.cli", "play", "--players", "2", "--seed", "4",
                          "--agents", "human", "random", "--no-colour"],
                         input=answers, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "you are player_0" in run.stdout and "you are player_1" not in run.stdout
    assert "legal decisions:" in run.stdout and "winner(s):" in run.stdout
