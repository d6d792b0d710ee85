"""The Island at the command line and in words (issue 23 part 2): `--island-side` of kbenv play and kbenv tournament,
its errors, `kbenv legal --json` naming island hexes, the set-up's location list, the words of island decisions
(kbenv.present.words) and the reasons an island decision is illegal (kbenv.game.explain).

The positions use the shipped side `island-substitute-1` (kbenv/data/islands/island-substitute-1.txt):

    line 0  G F G T
    line 1   G L W D      L = the rope bridge: "move one of your settlements to canyon, next to your own if possible"
    line 2  C W D M
    line 3   F T M C
    line 4  D F T C

Expected hexes and messages are worked out from that file, the rule text of the powers (catalogue rows) and the
documented spellings (`island r,c`, docs/cli.md, docs/api.md).
"""

from __future__ import annotations

import json

import pytest

from kbenv import Game
from kbenv import catalogue as CAT
from kbenv.board.island_files import side_file_text
from kbenv.cli import main
from kbenv.game.explain import explain_illegal
from kbenv.positions.files import game_from_position
from kbenv.present.words import action_phrase, describe_decision, locations_in_play

SECTIONS = [["tower", False], ["paddock", False], ["barn", False], ["oasis", False]]


def island(r: int, c: int) -> int:
    """The action `island r,c` (docs/api.md: 458 + 4r + c)."""
    return 458 + 4 * r + c


def position(**extra) -> dict:
    return {"sections": SECTIONS, "cards": ["fishermen", "knights", "merchants"], "expansions": ["island"],
            "island": {"side": "island-substitute-1"}, **extra}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ----- --island-side -----------------------------------------------------------------------------------------
def test_play_with_a_shipped_side(capsys):
    code, out, err = run(capsys, "play", "--players", "2", "--seed", "3", "--expansions", "island",
                         "--island-side", "island-substitute-1", "--no-colour")
    assert code == 0 and err == ""
    assert "island side: island-substitute-1 (a substitute side, not a printed one)" in out
    lines = out.split("\n")
    head = next(k for k, line in enumerate(lines) if line.startswith("island (island-substitute-1;"))
    assert [line[:3] for line in lines[head + 2 : head + 7]] == [" 0 ", " 1 ", " 2 ", " 3 ", " 4 "]
    assert "island: drawn below the board" in out  # the legend's line


def test_play_with_a_side_file(capsys, tmp_path):
    # a real side is a file in the board-section format; its name is the file's name
    text = side_file_text(2).replace("# id: island-substitute-2", "# id: my-side")
    path = tmp_path / "my-side.txt"
    path.write_text(text)
    code, out, _ = run(capsys, "play", "--players", "2", "--seed", "1", "--expansions", "island",
                       "--island-side", str(path), "--no-colour")
    assert code == 0
    assert "island side: my-side\n" in out
    assert "island (my-side;" in out


@pytest.mark.parametrize("argv, message", [
    (["--island-side", "island-substitute-1"], "--island-side: needs the island expansion (--expansions island)"),
    (["--expansions", "island", "--island-side", "nope"], "--island-side: unknown island side 'nope'"),
    (["--expansions", "island", "--island-side", "missing.txt"], "--island-side: island file 'missing.txt': cannot "
                                                                  "be read"),
])
def test_play_refuses_a_bad_island_side(capsys, tmp_path, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    record = tmp_path / "game.json"
    code, out, err = run(capsys, "play", "--players", "2", *argv, "--record", str(record))
    assert code == 2 and out == ""
    assert err.startswith(f"kbenv play: error: {message}") and err.count("\n") == 1  # one line, no traceback
    assert not record.exists()  # refused before the game


def test_a_side_file_with_a_bad_code_names_the_line(capsys, tmp_path):
    text = side_file_text(1).replace("CWDM", "CWXM")
    path = tmp_path / "bad.txt"
    path.write_text(text)
    code, _, err = run(capsys, "play", "--players", "2", "--expansions", "island", "--island-side", str(path))
    assert code == 2
    assert "--island-side:" in err and "line 2, column 2: unknown code 'X'" in err


def test_tournament_passes_the_side_to_every_game(capsys, monkeypatch, tmp_path):
    import agents.evaluation.tournament as T

    seen = {}

    def fake(agents, players, games, **kw):
        seen.update(kw["setup"])
        return {}
    monkeypatch.setattr(T, "run_tournament", fake)
    monkeypatch.setattr(T, "table_text", lambda summary: "")
    code, _, _ = run(capsys, "tournament", "--agents", "random", "greedy", "--games", "2", "--expansions", "island",
                     "--island-side", "island-substitute-2", "--out", str(tmp_path / "t"))
    assert code == 0 and seen == {"expansions": ["island"], "island_side": "island-substitute-2"}
    code, _, err = run(capsys, "tournament", "--agents", "random", "greedy", "--island-side", "island-substitute-2",
                       "--out", str(tmp_path / "u"))
    assert code == 2 and "--island-side: needs the island expansion" in err


def test_the_shipped_side_is_what_the_game_plays():
    g = Game.new(2, seed=5, expansions=["island"], island_side="island-substitute-1")
    assert g.setup.island[1] == ("GFGT", "G\u00f1WD", "CWDM", "FTMC", "DFTC")


# ----- legal / score ------------------------------------------------------------------------------------------
def test_legal_json_names_island_hexes(capsys, tmp_path):
    # player_0 holds grass, with no settlement next to grass: any free grass hex, the island's 0,0 0,2 1,0 among them
    path = tmp_path / "p.json"
    path.write_text(json.dumps(position(settlements=[[[0, 0]], [[19, 19]]], hands=["G", "C"])))
    code, out, _ = run(capsys, "legal", str(path), "--json")
    legal = json.loads(out)["legal"]
    assert code == 0 and [d for d in legal if d[0] == "island"] == [["island", 0, 0], ["island", 0, 2],
                                                                      ["island", 1, 0]]
    code, out, _ = run(capsys, "legal", str(path))  # the table: the island's hexes on a row of their own
    assert code == 0
    assert [line for line in out.split("\n") if line.startswith("island")] == ["island  0,0   0,2   1,0"]
    code, out, _ = run(capsys, "score", str(path), "--json")
    assert code == 0 and len(json.loads(out)["players"]) == 2


# ----- words ----------------------------------------------------------------------------------------------------
def test_the_setup_lists_the_island_location(capsys):
    from kbenv.cli import _print_setup

    g = game_from_position(position(settlements=[[], []]))
    assert ("rope_bridge", [(21, 1)]) in locations_in_play(g)
    _print_setup(g, 0, ["human", "random"], colour=False, notes={})
    out = capsys.readouterr().out
    assert ("  Rope bridge at island 1,1: move one of your settlements to canyon, next to your own if possible"
            in out.split("\n"))


def test_island_decisions_in_words():
    # player_0 holds the rope bridge tile (its settlement on island 1,0 touches the location 1,1) and builds grass
    g = game_from_position(position(settlements=[[["island", 1, 0]], [[19, 19]]], hands=["G", "C"],
                                    tiles=[[["island", 1, 1]], []]))
    assert describe_decision(g, island(0, 2)) == "build at island 0,2"
    assert action_phrase(island(0, 2)) == "island 0,2" and action_phrase(3 * 20 + 4) == "3,4"
    assert describe_decision(g, CAT.ACTION_ID["rope_bridge"]) == "use the Rope bridge tile"
    g.step(CAT.ACTION_ID["rope_bridge"])
    assert describe_decision(g, island(1, 0)) == "Rope bridge: move the settlement from island 1,0"
    g.step(island(1, 0))
    targets = [a for a in g.legal_actions() if a >= CAT.ISLAND_ACTION_BASE]
    # with its only settlement lifted, player_0 has none to be next to: every free canyon hex is a target, on the
    # island 2,0 3,3 4,3
    assert sorted(targets) == [island(2, 0), island(3, 3), island(4, 3)]
    assert describe_decision(g, island(3, 3)) == "Rope bridge: move it to island 3,3"


def test_the_human_list_groups_island_hexes_with_the_builds():
    from agents.human import legal_list

    g = game_from_position(position(settlements=[[[0, 0]], [[19, 19]]], hands=["G", "C"]))
    text = "\n".join(legal_list(g, g.legal_actions()))
    assert "island 0,2" in text and "build at island" not in text  # under "build at:", typed as island r,c


# ----- reasons ---------------------------------------------------------------------------------------------------
def test_why_an_island_hex_is_illegal():
    g = game_from_position(position(settlements=[[["island", 4, 3]], [["island", 0, 0]]], hands=["G", "C"]))
    state = g.state.copy()
    assert explain_illegal(g, island(0, 0)) == "hex island 0,0 is already occupied"
    assert explain_illegal(g, island(2, 3)) == "hex island 2,3 is mountain, but the played terrain card is grass"
    assert (g.state == state).all() and g.legal_actions() == game_from_position(position(
        settlements=[[["island", 4, 3]], [["island", 0, 0]]], hands=["G", "C"])).legal_actions()


def test_why_a_fresh_island_tile_is_not_usable():
    # the island's tile counts among the tiles held: taken this turn, it is not usable yet (base rule)
    g = game_from_position(position(settlements=[[["island", 1, 0]], [[19, 19]]], hands=["G", "C"],
                                    tiles=[[["island", 1, 1]], []], tiles_fresh=[[["island", 1, 1]], []]))
    why = explain_illegal(g, CAT.ACTION_ID["rope_bridge"])
    assert "holds no" not in why and "taken this turn" in why
    none = game_from_position(position(settlements=[[[0, 0]], [[19, 19]]], hands=["G", "C"]))
    assert explain_illegal(none, CAT.ACTION_ID["rope_bridge"]) == "player 0 holds no rope_bridge tile"


def test_a_person_types_an_island_hex():
    # `island r,c` names the island's hex in line r, column c: action 458 + 4r + c (docs/api.md); a hex off the
    # island's 5 lines x 4 columns is refused with the reason, and a board hex r,c keeps its meaning.
    from agents.human import parse_decision

    assert parse_decision("island 1,2", [464]) == 464
    assert parse_decision("Island 4 3", [477]) == 477
    assert "off the island" in parse_decision("island 5,0", [464])
    assert parse_decision("3,4", [64]) == 64
