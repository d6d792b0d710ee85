"""Task cards through the position contract and the game (C-2, C-15..C-20): `score_position` reports each
task in play per player and counts it in `total`; a task pays at most once; random set-ups deal one task
per Crossroads section in play.

Rule text quoted (the comments below name these):

ONCE (EN 926): "Each player who meets a task card's requirement earns the reward. Meeting a card's requirement more
    than once does not increase the amount of gold earned."
COMPASS (EN 968-970): "10 gold, if at least 1 of your own settlements is built at each of the 4 game board edges.
    Each corner space is part of two edges!"
C2 (EN 802): "Shuffle the task cards, then draw one card at random for each game board section from this expansion."
"""

from __future__ import annotations

import copy

import pytest

from kbenv import Game
from kbenv.catalogue import TASK_GOLD, TASK_NAMES
from kbenv.positions.files import score_position


def position(tasks, settlements, board=None):
    return {"expansions": ["crossroads"], "board": board or ["G" * 20] * 20,
            "cards": ["fishermen", "knights", "merchants"], "settlements": settlements, "tasks": tasks}


def test_compass_points_pays_ten_from_two_opposite_corners_and_counts_in_total():
    rows = score_position(position(["compass_points", "advance"], [[[0, 0], [19, 19]], [[5, 5]]]))
    assert rows[0]["tasks"] == {"compass_points": 10, "advance": 0}
    assert rows[1]["tasks"] == {"compass_points": 0, "advance": 0}
    for row in rows:
        assert row["total"] == sum(row["cards"].values()) + row["castles"] + row["capitols"] + row["gold"] \
            + sum(row["tasks"].values())


def test_a_task_met_twice_pays_once():
    """Two separate fortresses (each an own hex with 6 own neighbours) still pay 6 once."""
    ring = [[4, 5], [4, 4], [4, 6], [3, 4], [3, 5], [5, 4], [5, 5]]  # (4,5), even row, and its 6 neighbours
    second = [[r, c + 8] for r, c in ring]
    rows = score_position(position(["fortress"], [ring + second, [[15, 15]]]))
    assert rows[0]["tasks"] == {"fortress": 6}


def test_tasks_not_met_pay_nothing_and_games_without_crossroads_have_no_task_column():
    pos = position(["road"], [[[0, 0], [19, 19]], [[5, 5]]])
    assert score_position(copy.deepcopy(pos))[0]["tasks"] == {"road": 0}
    base = {k: v for k, v in pos.items() if k not in ("tasks", "expansions")}
    assert "tasks" not in score_position(base)[0]


@pytest.mark.parametrize("seed", range(12))
def test_random_set_ups_deal_one_task_per_crossroads_section(seed):
    from kbenv.board.sections import CROSSROADS_SECTIONS

    game = Game.new(2 + seed % 4, seed=seed, expansions=["crossroads"])
    in_play = sum(name in CROSSROADS_SECTIONS for name, _ in game.setup.sections)
    assert len(game.tasks()) == in_play == len(set(game.tasks()))
    assert set(game.scores()[0]["tasks"]) == set(game.tasks())
    assert all(0 <= game.task_gold(0, t) <= TASK_GOLD[TASK_NAMES.index(t)] for t in game.tasks())
