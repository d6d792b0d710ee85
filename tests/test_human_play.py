"""Playing as a human (issue 19, item 5): the set-up, seats, cards in play, locations and legend come
before the first prompt, with the opponents' opening decisions; cards and decisions are named in words,
seats are `player_N`; `help` / `?` list the commands and the legal decisions; the end of input ends the
game cleanly (exit 0, a message), while Ctrl-C stays "interrupted" (130)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from agents.evaluation.play import agent_inputs, play_game
from agents.human import EndOfInput, HumanAgent
from kbenv.cli import main
from kbenv.game import Game
from kbenv.present.words import describe_decision

# The five terrain cards, as the base rulebook names them.
TERRAIN_CARD_NAMES = {"G": "Grass", "C": "Canyon", "D": "Desert", "F": "Flower field", "T": "Forest"}


def _scripted(answers: list[str]):
    lines: list[str] = []
    feed = iter(answers)

    def read(prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return HumanAgent(read=read, write=lines.append, colour=False), lines


def _play(args: list[str], answers: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kbenv.cli", "play", "--no-colour", *args], input=answers,
                          capture_output=True, text=True, timeout=600)


def test_the_setup_and_the_opponents_opening_come_before_the_first_prompt():
    run = _play(["--players", "2", "--seed", "1", "--agents", "greedy", "human"], "")
    assert run.returncode == 0, run.stderr
    before = run.stdout.split("your decision")[0]
    assert "player_0: greedy (red)" in before and "player_1: human (blue)" in before
    game = Game.new(2, seed=1)
    assert "Kingdom Builder cards in play:" in before
    for card in game.cards:  # each card in play by name, with its one-line rule
        assert re.search(rf"^  {card.capitalize()}: \S.*gold", before, re.M), card
    assert "Knights: 2 gold for each of your settlements on the row where you have the most" in before
    assert "start player: player_0" in before
    assert "terrain: g grass" in before and "settlements: 0 player_0 (red), 1 player_1 (blue)" in before
    assert "Oracle at 3,7: build one settlement on the terrain of your card" in before
    # player_0 starts: its mandatory action (3 settlements, base rules) is shown in words before player_1 decides.
    opening = re.search(r"since your last decision:\n  player_0: (.*)\n", before)
    assert opening and len(re.findall(r"build at \d+,\d+", opening.group(1))) == 3
    assert re.search(r"you are player_1; your card: (Grass|Canyon|Desert|Flower field|Forest);", before)
    assert "player 0" not in run.stdout and "player 1" not in run.stdout


def test_end_of_input_ends_the_game_cleanly():
    run = _play(["--players", "2", "--seed", "4", "--agents", "human", "random"], "1\n")
    assert run.returncode == 0
    # random (player_1) may have opened with its 3 builds; then the human's one decision, then the input ends
    assert re.search(r"\nend of input: the game stopped unfinished after (1 decision|4 decisions) \(no winner\)\n$",
                     run.stdout)
    assert "interrupted" not in run.stderr and run.stderr == ""


def test_quit_ends_the_game_and_ctrl_c_stays_interrupted(monkeypatch, capsys):
    monkeypatch.setattr("builtins.input", lambda prompt: "quit")
    assert main(["play", "--players", "2", "--seed", "4", "--agents", "human", "--no-colour"]) == 0
    assert "you left: the game stopped unfinished after 0 decisions" in capsys.readouterr().out

    def ctrl_c(prompt):
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", ctrl_c)
    assert main(["play", "--players", "2", "--seed", "4", "--agents", "human", "--no-colour"]) == 130
    assert capsys.readouterr().err.strip() == "kbenv play: interrupted"


def test_help_lists_the_commands_and_the_legal_decisions():
    game = Game.new(2, seed=3)
    legal = game.legal_actions()
    agent, lines = _scripted(["help", "?", "1"])
    assert agent.act(*agent_inputs(game, game.decider)) == legal[0]
    text = "\n".join(lines)
    assert text.count("commands:") == 2 and text.count("legal decisions:") == 3
    assert "help  or  ?" in text and "quit" in text and "not understood" not in text
    first = legal[0]
    assert f"build at:  [1] {first // 20},{first % 20}" in text
    assert f"[{len(legal)}] " in text


def test_the_card_is_named_in_words_and_the_seat_as_player_n():
    game = Game.new(3, seed=8)
    p = game.decider
    agent, lines = _scripted(["1"])
    agent.act(*agent_inputs(game, p))
    text = "\n".join(lines)
    assert f"you are player_{p}; your card: {TERRAIN_CARD_NAMES[game.hand(p)]};" in text
    assert f"your card: {game.hand(p)};" not in text


def test_end_of_input_and_quit_raise_end_of_input():
    game = Game.new(2, seed=3)
    for answers in ([], ["quit"]):
        agent, _ = _scripted(answers)
        with pytest.raises(EndOfInput):
            agent.act(*agent_inputs(game, game.decider))


def test_decisions_in_words():
    game = Game.new(2, seed=3)
    hex_ = game.legal_actions()[0]
    assert describe_decision(game, hex_) == f"build at {hex_ // 20},{hex_ % 20}"
    assert describe_decision(game, 408) == "end the turn"
    assert describe_decision(game, 400) == "use the Oracle tile"
    assert describe_decision(game, 407) == "use the Paddock tile"
    assert describe_decision(game, 457) == "done"


def test_a_move_power_reads_as_a_move():
    """Barn (base rules): move one of your settlements to the terrain of your card."""
    rows = ["G" * 20 for _ in range(20)]
    game = Game.custom(board=rows, cards=("fishermen", "knights", "merchants"), settlements=[[(5, 5)], []],
                       hands=["G", "G"])
    from kbenv.engine import state as S

    game.state[S.PHASE] = S.PHASE_SOURCE
    game.state[S.POWER] = 5  # barn
    assert describe_decision(game, 5 * 20 + 5) == "Barn: move the settlement from 5,5"
    game.state[S.PHASE] = S.PHASE_TARGET
    assert describe_decision(game, 5 * 20 + 7) == "Barn: move it to 5,7"


class _Listener:
    def __init__(self):
        self.heard: list[tuple[int, str]] = []

    def notice(self, player: int, words: str) -> None:
        self.heard.append((player, words))

    def act(self, observation, mask, view):
        import numpy as np

        return int(np.flatnonzero(mask)[0])


def test_the_play_loop_tells_listeners_every_decision_in_words():
    from agents import make_agent

    listener = _Listener()
    result = play_game(0, 5, ["listener", "greedy"], [listener, make_agent("greedy", seed=1)])
    assert len(listener.heard) == result.decisions
    assert {p for p, _ in listener.heard} == {0, 1}
    assert all(re.fullmatch(r"build at \d+,\d+|end the turn|use the \w+ tile|\w+: .*", w) for _, w in listener.heard)
