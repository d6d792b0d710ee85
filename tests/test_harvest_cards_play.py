"""Harvest cards in play (issue 22): edge cases beyond the rule-text tests of
tests/rules/harvest/test_harvest_cards.py. Expected values are worked out by hand from the rule text
(EN 1371-1399) and the spec's readings (EXPANSIONS.md H-14..H-19, A-H7, A-H8, A-X2):

- A-H7 "Meeples count": a warrior counts among the 4 settlements of a Mayors row.
- A-H7 (a) "the supply reaching 0 triggers ENDING": the mark that empties the supply ends the game after the
  round.
- H-16 Homesteaders: two sections tied for the most count once.
- H-19 / A-H8 Rovers: the farm action is a new settlement (it counts, before or after the mandatory action);
  no gold without the card in play.
- A-X2: silos are special hexes for Merchants only with `silos_count_as_special`.
- The position keys `mayor_lines` and `rovers_sections`: validated (the error names the key), written by
  `Game.to_position()` and read back mid-turn; `kbenv score --json` shows the marks in `cards.mayors`.

Boards are 20 rows of terrain letters filled with mountains; sections (quadrants): rows 0-9 / 10-19,
columns 0-9 / 10-19.
"""

from __future__ import annotations

import copy
import json

import pytest

from kbenv import SetupError
from kbenv.catalogue import CARD_GOLD
from kbenv.cli import main
from kbenv.positions.files import game_from_position, score_position

DESERT = [(14, 1), (14, 2), (14, 3)]
MAYOR_CARDS = ["mayors", "fishermen", "knights"]
ROVER_CARDS = ["rovers", "fishermen", "knights"]
OPP_C = {(16, 0): "C", (16, 1): "C", (16, 2): "C"}  # player 1's canyon card has these three hexes


def rc(h) -> list[int]:
    return [int(h[0]), int(h[1])]


def position(cells, *, settlements, cards, card="G", expansions=("harvest",), then=(), **extra) -> dict:
    """A position: player 0 holds `card`, the others canyon; `extra` keys are copied as they are."""
    rows = [["M"] * 20 for _ in range(20)]
    standing = {tuple(h): "G" for own in settlements for h in own}  # settlements stand on grass unless told
    for (r, c), letter in {**OPP_C, **standing, **cells}.items():
        rows[r][c] = letter
    pos = {"expansions": list(expansions), "cards": list(cards), "board": ["".join(row) for row in rows],
           "settlements": [[rc(h) for h in own] for own in settlements],
           "hands": [card] + ["C"] * (len(settlements) - 1),
           "then": [d if isinstance(d, str) else rc(d) for d in then], **extra}
    return json.loads(json.dumps(pos))


def mayor_lines(game) -> dict:
    return {int(r): s for r, s in game.to_position()["mayor_lines"].items()}


# ----- Mayors ---------------------------------------------------------------------------------------------------
def test_a_warrior_counts_among_the_four_of_a_mayors_row():
    # A-H7 "Meeples count": the warrior (14, 15) and the three desert builds make 4 in row 14 -> marked, one
    # settlement from the supply: 40 - 3 - 1 = 36. Without the warrior, 3 in the row: no mark, 37 left.
    cells = {**{h: "D" for h in DESERT}, (14, 15): "G"}
    pos = position(cells, settlements=[[], []], cards=MAYOR_CARDS, card="D", expansions=("crossroads", "harvest"),
                   then=DESERT, warriors=[[[14, 15]], []])
    g = game_from_position(pos)
    assert mayor_lines(g) == {14: 0} and g.supply(0) == 36
    assert g.scores()[0]["cards"]["mayors"] == CARD_GOLD["mayors"]
    del pos["warriors"]
    g = game_from_position(pos)
    assert mayor_lines(g) == {} and g.supply(0) == 37


def test_no_mark_without_the_mayors_card():
    # H-15 is the Mayors card's rule: in a Harvest game whose three cards are not Mayors, 4 own settlements in a
    # row take no mark and no settlement: (14, 9) + the 3 desert builds = 4 in row 14, supply 40 - 1 - 3 = 36
    cells = {**{h: "D" for h in DESERT}, (14, 9): "G"}
    pos = position(cells, settlements=[[(14, 9)], []], cards=["fishermen", "knights", "lords"], card="D",
                   then=DESERT, supply=[39, 40])
    g = game_from_position(pos)
    assert mayor_lines(g) == {} and g.supply(0) == 36
    g = game_from_position({**pos, "cards": MAYOR_CARDS})
    assert mayor_lines(g) == {14: 0} and g.supply(0) == 35


def test_the_mark_that_empties_the_supply_ends_the_game_after_the_round():
    # A-H7 (a): player 0 (the start player) has 4 settlements left: 3 desert builds leave 1, the mark takes it ->
    # the end is triggered; player 1 (the last seat) plays the round's last turn, then the game is over.
    # (the free hexes of each card terrain in row 18 let the game go on in the second case)
    cells = {**{h: "D" for h in DESERT}, (14, 9): "G", **{(18, 10 + k): "GCDFT"[k % 5] for k in range(10)}}
    pos = position(cells, settlements=[[(14, 9)], []], cards=MAYOR_CARDS, card="D", supply=[4, 40],
                   then=[*DESERT, *OPP_C])
    g = game_from_position(pos)
    assert mayor_lines(g) == {14: 0} and g.supply(0) == 0
    assert g.done
    assert g.scores()[0]["cards"]["mayors"] == 4
    # with 5 settlements left the mark leaves one: the game goes on with player 0's next turn
    g = game_from_position({**pos, "supply": [5, 40]})
    assert not g.done and g.supply(0) == 1 and g.decider == 0


def test_a_row_marked_by_one_player_is_not_marked_for_the_next_to_reach_four():
    # H-15 "only if this line is not marked already by some other player": player 0 marks row 14 with the
    # desert builds; player 1 then builds (14, 12) (14, 13) (14, 14) beside own (14, 16): 4 in the row, no mark,
    # no settlement taken (40 - 1 - 3 = 36)
    cells = {**{h: "D" for h in DESERT}, (14, 12): "C", (14, 13): "C", (14, 14): "C"}
    pos = position(cells, settlements=[[(14, 9)], [(14, 16)]], cards=MAYOR_CARDS, card="D",
                   then=[*DESERT, (14, 12), (14, 13), (14, 14)])
    g = game_from_position(pos)
    assert mayor_lines(g) == {14: 0}
    assert (g.supply(0), g.supply(1)) == (40 - 1 - 3 - 1, 40 - 1 - 3)
    assert [row["cards"]["mayors"] for row in g.scores()] == [4, 0]


# ----- Homesteaders ---------------------------------------------------------------------------------------------
def test_homesteaders_two_sections_tied_for_the_most_count_once():
    # top-left (1, 1) (2, 2) and bottom-right (15, 15) (16, 16): the most in one section is 2 -> 2 x 1, not 4
    pos = position({}, settlements=[[(1, 1), (2, 2), (15, 15), (16, 16)], []], cards=["homesteaders", "fishermen",
                                                                                    "knights"], then=())
    assert [row["cards"]["homesteaders"] for row in score_position(pos)] == [2 * CARD_GOLD["homesteaders"], 0]


# ----- Rovers ---------------------------------------------------------------------------------------------------
ROVER_CELLS = {(5, 1): "T", (5, 2): "A", (7, 7): "G", (7, 8): "G", (7, 9): "G", (5, 12): "G", (5, 13): "G",
               (5, 14): "G"}


def test_rovers_a_farm_action_in_the_section_of_the_mandatory_builds_adds_nothing():
    # the farm action (5, 2) and the grass builds (7, 7) .. (7, 9): all top-left -> 1 section, 1 gold
    cells = {h: t for h, t in ROVER_CELLS.items() if h[1] < 10}
    pos = position(cells, settlements=[[(5, 1)], []], cards=ROVER_CARDS, then=["farmland", (5, 2), (7, 7), (7, 8),
                                                                                (7, 9)])
    g = game_from_position(pos)
    assert g.decider == 1 and g.gold(0) == 1


def test_rovers_a_farm_action_after_the_mandatory_action_counts():
    # EN 1395 "After each newly built settlement": grass builds top-right, then the farm action top-left -> 2 gold
    cells = {h: t for h, t in ROVER_CELLS.items() if h not in ((7, 7), (7, 8), (7, 9))}
    pos = position(cells, settlements=[[(5, 1)], []], cards=ROVER_CARDS,
                   then=[(5, 12), (5, 13), (5, 14), "farmland", (5, 2)])
    g = game_from_position(pos)
    assert g.decider == 1 and g.gold(0) == 2
    assert g.scores()[0]["cards"]["rovers"] == 0 and g.scores()[0]["gold"] == 2


def test_no_rovers_gold_without_the_card():
    cells = {h: t for h, t in ROVER_CELLS.items() if h not in ((7, 7), (7, 8), (7, 9))}
    pos = position(cells, settlements=[[(5, 1)], []], cards=["fishermen", "knights", "lords"],
                   then=[(5, 12), (5, 13), (5, 14), "farmland", (5, 2)])
    assert game_from_position(pos).gold(0) == 0


def test_rovers_sections_round_trip_in_the_middle_of_a_turn():
    # (5, 9) top-left and (5, 10) top-right built, the turn goes on: the position keeps both sections; the
    # third build (5, 11) top-right adds none -> 2 gold at the end of the turn
    cells = {(5, 9): "G", (5, 10): "G", (5, 11): "G"}
    g = game_from_position(position(cells, settlements=[[], []], cards=ROVER_CARDS, then=[(5, 9), (5, 10)],
                                    mayor_lines={"3": 1}))
    written = json.loads(json.dumps(g.to_position()))
    assert written["rovers_sections"] == [0, 1] and written["mayor_lines"] == {"3": 1}
    again = game_from_position({**written, "then": [[5, 11]]})
    assert again.gold(0) == 2 and again.decider == 1
    assert again.to_position()["rovers_sections"] == [] and mayor_lines(again) == {3: 1}


# ----- A-X2 -----------------------------------------------------------------------------------------------------
def test_silos_count_for_merchants_only_with_the_flag():
    # the area (10, 6) (10, 7) links the castle (10, 5) and the silo (10, 8): with the flag both are linked
    # special hexes -> 2 x 4; without it the castle is the only special hex -> 0
    cells = {(10, 5): "K", (10, 8): "O", (10, 6): "G", (10, 7): "G"}
    pos = position(cells, settlements=[[(10, 6), (10, 7)], []], cards=["merchants", "fishermen", "knights"])
    assert score_position(pos)[0]["cards"]["merchants"] == 0
    pos["options"] = {"silos_count_as_special": True}
    assert score_position(pos)[0]["cards"]["merchants"] == 8


def test_the_harvest_flags_need_harvest():
    pos = position({}, settlements=[[], []], cards=["merchants", "fishermen", "knights"], expansions=(),
                   options={"mayors_contiguous": True})
    with pytest.raises(SetupError, match="mayors_contiguous"):
        game_from_position(pos)


# ----- position keys --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("key", "value"), [
    ("mayor_lines", {"20": 0}), ("mayor_lines", {"3": 2}), ("mayor_lines", {"x": 0}), ("mayor_lines", [3, 0]),
    ("mayor_lines", {"3": True}), ("rovers_sections", [4]), ("rovers_sections", [0, 0]),
    ("rovers_sections", "0"),
])
def test_bad_card_keys_are_refused_naming_the_key(key, value):
    pos = position({}, settlements=[[], []], cards=MAYOR_CARDS, **{key: value})
    with pytest.raises(SetupError) as err:
        game_from_position(pos)
    assert str(err.value).startswith(key), str(err.value)


@pytest.mark.parametrize("key", ["mayor_lines", "rovers_sections"])
def test_card_keys_need_harvest(key):
    pos = position({}, settlements=[[], []], cards=["fishermen", "knights", "lords"], expansions=(),
                   **{key: {} if key == "mayor_lines" else []})
    with pytest.raises(SetupError, match=f"{key}: needs the 'harvest' expansion"):
        game_from_position(pos)


def test_kbenv_score_json_shows_the_marks(tmp_path, capsys):
    # EN 1377: 4 gold per marked row; player 1 holds rows 3 and 5 -> 8, player 0 none
    pos = position({}, settlements=[[(0, 0)], [(0, 2)]], cards=MAYOR_CARDS, mayor_lines={"3": 1, "5": 1})
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(copy.deepcopy(pos)))
    assert main(["score", str(path), "--json"]) == 0
    players = json.loads(capsys.readouterr().out)["players"]
    assert [p["cards"]["mayors"] for p in players] == [0, 8]
    assert all(p["total"] == sum(p["cards"].values()) + p["castles"] + p["capitols"] + p["gold"] for p in players)


# ----- random games ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 11), (4, 22)])
def test_random_games_keep_every_settlement_accounted_for(players, seed):
    # A-H7: each mark is a settlement taken from the supply, so board + supply + marks = 40 per player at every
    # turn; Mayors pays 4 per mark (EN 1377); Rovers pays at most 4 in a turn (4 sections) and nothing at the end.
    import numpy as np

    from kbenv import Game

    g = Game.new(players, seed=seed, expansions=["harvest"], cards=["mayors", "rovers", "chainers"])
    rng = np.random.default_rng(seed)
    gold = [0] * players
    marked = False
    while not g.done:
        g.step(int(rng.choice(g.legal_actions())))
        lines = mayor_lines(g)
        marked = marked or bool(lines)
        for p in range(players):
            marks = sum(1 for seat in lines.values() if seat == p)
            assert len(g.settlements(p)) + g.supply(p) + marks == 40
            assert 0 <= g.gold(p) - gold[p] <= 4
            gold[p] = g.gold(p)
    rows = g.scores()
    for p, row in enumerate(rows):
        assert row["cards"]["mayors"] == 4 * sum(1 for seat in mayor_lines(g).values() if seat == p)
        assert row["cards"]["rovers"] == 0 and row["gold"] == g.gold(p)
    assert sum(g.gold(p) for p in range(players)) > 0  # Rovers paid during play
    assert marked  # rows were marked in these games
