"""Bad input gets a clear error and changes nothing (issue 52, hardening): the Game API's seat and hex arguments,
position and record files (deep nesting, huge sizes, overlong integers, duplicate keys, unknown record fields,
a section twice), long values echoed short, agent specs' search bounds, and the CLI's one-line exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from agents.evaluation.tournament import _parse_record_line
from agents.registry import MAX_SIMS, parse_spec
from kbenv import Game
from kbenv.cli import main
from kbenv.envs import kingdom_builder_v0
from kbenv.game import hex_action
from kbenv.positions.files import game_from_position, load_position
from kbenv.ruleset import Ruleset, RulesetError
from kbenv.safe_json import MAX_BYTES, MAX_DEPTH, JSONInputError, loads, nesting_depth, short_repr
from kbenv.setup import SetupError
from kbenv.vector import VectorGames

CARDS = ["fishermen", "knights", "merchants"]
SECTIONS = [["tavern", False], ["paddock", False], ["oasis", False], ["farm", False]]
POSITION = {"sections": SECTIONS, "cards": CARDS, "settlements": [[], []]}
DEEP = "[" * 100_000 + "]" * 100_000


@pytest.fixture(scope="module")
def game() -> Game:
    """A base game a few decisions in (seat 0 has settlements on the board)."""
    g = Game.new(2, seed=3)
    rng = np.random.default_rng(3)
    for _ in range(6):
        g.step(int(rng.choice(g.legal_actions())))
    return g


def unchanged(game: Game):
    """A snapshot of everything a query could change: the whole state vector (scratch space included) and the
    decisions."""
    return game.state.copy(), list(game.actions)


def assert_same(game: Game, snapshot) -> None:
    state, actions = snapshot
    assert np.array_equal(game.state, state) and game.actions == actions


# ----- the Game API: seats and hexes ---------------------------------------------------------------------------
SEAT_METHODS = [
    ("settlements", ()),
    ("own_hexes", ()),
    ("pieces", ()),
    ("hand_cards", ()),
    ("supply", ()),
    ("hand", ()),
    ("tiles", ()),
    ("tile_status", ()),
    ("gold", ()),
    ("nomad_tiles", ()),
    ("hidden_from", ()),
    ("hidden_extra_from", ()),
    ("task_gold", ("home",)),
    ("determinize", (np.random.default_rng(0),)),
]
BAD_SEATS = [5, -1, 7, 2, 12, True, 1.5, "0", None, 10**15, 10**5000]


@pytest.mark.parametrize("method, extra", SEAT_METHODS, ids=[m for m, _ in SEAT_METHODS])
@pytest.mark.parametrize("seat", BAD_SEATS, ids=[short_repr(s, 12) for s in BAD_SEATS])
def test_every_seat_query_refuses_a_seat_outside_the_game(game, method, extra, seat):
    before = unchanged(game)
    with pytest.raises(ValueError, match=r"^player: expected a seat 0\.\.1, got ") as err:
        getattr(game, method)(seat, *extra)
    assert len(str(err.value)) < 200  # 10**5000 is not written out
    assert_same(game, before)


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda g: g.owner_of(25, 3), r"\(row, col\): expected a hex of the board .*got \(25, 3\)"),
        (lambda g: g.owner_of(-1, 0), r"got \(-1, 0\)"),
        (lambda g: g.owner_of(0, 20), r"got \(0, 20\)"),
        (lambda g: g.owner_of(True, 0), r"got \(True, 0\)"),
        (lambda g: g.owner_of(1.5, 2), r"got \(1\.5, 2\)"),
        (lambda g: g.tiles_left((25, 3)), r"got \(25, 3\)"),
        (lambda g: g.tiles_left(5), r"rc: expected a \(row, col\) pair, got 5"),
        (lambda g: g.tiles_left((1,)), r"rc: expected a \(row, col\) pair"),
        (
            lambda g: g.tiles_left(
                next((r, c) for r in range(20) for c in range(20) if (r, c) not in g.location_hexes())
            ),
            r"is not a location hex",
        ),
        (lambda g: g.card_letter(-1), r"card: expected a card id 0\.\.\d+, got -1"),
        (lambda g: g.card_letter(99), r"card: expected a card id"),
        (lambda g: g.task_gold(0, "nope"), r"task: expected a task card .*got 'nope'"),
        (lambda g: g.step("x" * 10**6), r"action 'xxx.*…\(1000000 chars\) is not an integer"),
    ],
    ids=[
        "owner-25-3",
        "owner-neg",
        "owner-col20",
        "owner-bool",
        "owner-float",
        "tiles-left-off",
        "tiles-left-int",
        "tiles-left-short",
        "tiles-left-no-location",
        "card-neg",
        "card-99",
        "task-unknown",
        "step-long-string",
    ],
)
def test_hex_card_and_task_arguments_are_checked(game, call, words):
    before = unchanged(game)
    with pytest.raises(ValueError, match=words):
        call(game)
    assert_same(game, before)


def test_good_seats_and_hexes_still_answer(game):
    assert game.supply(np.int64(1)) == game.supply(1) <= 40
    for p in (0, 1):
        assert all(game.owner_of(r, c) == p for r, c in game.settlements(p))
    assert game.owner_of(np.int64(0), np.int64(0)) in (None, 0, 1)
    loc = game.location_hexes()[0]
    assert game.tiles_left(loc) == game.tiles_left(list(loc)) in (0, 1, 2)


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"seed": 10**5000}, "seed: expected an integer from 0 to 9223372036854775807, got <an integer of about 5001"),
        ({"seed": "x" * 10**6}, "…(1000000 chars)"),
        ({"cards": ["x" * 10**7, "knights", "merchants"]}, "cards: unknown Kingdom Builder card 'xxx"),
        ({"preset": "p" * 10**6}, "preset: unknown preset 'ppp"),
    ],
    ids=["huge-seed", "string-seed", "long-card", "long-preset"],
)
def test_game_new_names_bad_arguments_and_echoes_them_short(kwargs, words):
    with pytest.raises(SetupError) as err:
        Game.new(2, **kwargs)
    assert words in str(err.value) and len(str(err.value)) < 1000


def test_hex_action_refuses_what_is_not_a_board_hex():
    assert hex_action(3, 4) == 64
    for row, col in [("a", 1), (20, 0), (0, -1), (True, 2)]:
        with pytest.raises(ValueError, match=r"is off the 20x20 board"):
            hex_action(row, col)


# ----- JSON from a user: kbenv.safe_json ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, words",
    [
        (DEEP, "nested 100000 levels deep; at most 64"),
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), f"nested {MAX_DEPTH + 1} levels deep"),
        ('{"a": ' + "{" * 60 + '"b": [' * 10 + "1" + "]" * 10 + "}" * 60 + "}", "nested 71 levels deep"),
        ('{"seed": ' + "7" * 5000 + "}", "seed: an integer of 5000 digits; at most 100"),
        ('{"s": [[1, -' + "9" * 101 + "]]}", r"s\[0\]\[1\]: an integer of 101 digits"),
        ('{"sections": [], "sections": []}', "'sections': the key appears twice in one object"),
        (
            '{"options": {"lords_count_zero": true, "lords_count_zero": false}}',
            "'lords_count_zero': the key appears twice",
        ),
        (b'{"a": "\xff"}', "not UTF-8 text"),
        ('{"a": ', "not valid JSON"),
    ],
)
def test_bad_json_is_refused_before_or_while_parsing(text, words):
    with pytest.raises(JSONInputError, match=words):
        loads(text)


def test_brackets_inside_strings_do_not_count_and_64_levels_are_read():
    assert nesting_depth(b'{"a": "[[[[{{{{\\"]]]]", "b": [[1]]}') == 3
    assert nesting_depth(b'"unterminated [[[[') == 0  # the string runs to the end (json then says so)
    assert loads("[" * MAX_DEPTH + "]" * MAX_DEPTH) == eval("[" * MAX_DEPTH + "]" * MAX_DEPTH)
    assert loads('{"seed": ' + "9" * 100 + "}") == {"seed": int("9" * 100)}
    with pytest.raises(JSONInputError, match="at most 10 bytes"):
        loads(b"[1, 2, 3, 4, 5]", max_bytes=10)


def test_short_repr_cuts_long_values_and_keeps_short_ones():
    assert short_repr("x" * 50_000_000) == repr("x" * 80) + "…(50000000 chars)"
    assert short_repr(10**5000) == "<an integer of about 5001 digits>"
    assert short_repr(list(range(10**6))).endswith("…(1000000 items)") and len(short_repr(list(range(10**6)))) < 120
    for value in (None, 3, "G", [5, 5, 1], ("G", None), {"a": [1, 2]}, [[5, 5]]):
        assert short_repr(value) == repr(value)


# ----- position files -----------------------------------------------------------------------------------------
def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return path


POSITION_FILES = [
    ("deep", '{"then": ' + DEEP + "}", "nested 100001 levels deep"),
    ("deep-key", json.dumps(POSITION)[:-1] + ', "x": ' + "[" * 70 + "]" * 70 + "}", "nested 71 levels deep"),
    ("big-seed", json.dumps(POSITION)[:-1] + ', "seed": ' + "7" * 5000 + "}", "seed: an integer of 5000 digits"),
    (
        "big-hex",
        json.dumps({**POSITION, "settlements": [[[5, 1]], []]}).replace("[5, 1]", "[5, 1" + "0" * 5000 + "]"),
        r"settlements\[0\]\[0\]\[1\]: an integer of 5001 digits",
    ),
    (
        "two-sections-keys",
        '{"sections": '
        + json.dumps(SECTIONS)
        + ', "sections": '
        + json.dumps(SECTIONS)
        + ', "cards": '
        + json.dumps(CARDS)
        + ', "settlements": [[], []]}',
        "'sections': the key appears twice",
    ),
    ("too-large", " " * (MAX_BYTES + 1), f"larger than {MAX_BYTES} bytes"),
    ("not-utf8", b'{"cards": ["\xff"]}', "not UTF-8 text"),
]


@pytest.mark.parametrize("name, content, words", POSITION_FILES, ids=[c[0] for c in POSITION_FILES])
def test_bad_position_files_are_a_setup_error_naming_the_file_and_problem(tmp_path, name, content, words):
    path = write(tmp_path, f"{name}.json", content)
    with pytest.raises(SetupError, match=words) as err:
        load_position(path)
    assert str(err.value).startswith(f"{path}: ")


@pytest.mark.parametrize(
    "sections, where",
    [
        ([["farm", False], ["farm", False], ["oasis", False], ["tower", False]], r"sections\[1\]: the section 'farm'"),
        (
            [["farm", False], ["oasis", False], ["tower", False], ["farm", True]],
            r"sections\[3\]: the section 'farm' is "
            r"sections\[0\] already",
        ),
    ],
)
def test_a_section_twice_is_refused_in_position_files_and_game_new(sections, where):
    with pytest.raises(SetupError, match=where):
        game_from_position({**POSITION, "sections": sections})
    with pytest.raises(SetupError, match=where):
        Game.new(2, seed=0, sections=[tuple(s) for s in sections])


@pytest.mark.parametrize(
    "change, field",
    [
        ({"cards": ["x" * 1_000_000, "knights", "merchants"]}, "cards"),
        ({"then": ["y" * 1_000_000]}, r"then\[0\]"),
        ({"z" * 1_000_000: 1}, "position: unknown field"),
        ({"options": {"w" * 1_000_000: True}}, "options: unknown field"),
        ({"sections": [["v" * 1_000_000, False], *SECTIONS[1:]]}, "section"),
    ],
)
def test_long_user_strings_are_echoed_short(change, field):
    with pytest.raises(SetupError, match=field) as err:
        game_from_position({**POSITION, **change})
    assert len(str(err.value)) < 1000 and "…(1000000 chars)" in str(err.value)



LONG = "q" * 1_000_000


@pytest.mark.parametrize(
    "call, field",
    [
        (lambda: Game.new(2, expansions=[LONG]), "expansions"),
        (lambda: Game.new(2, rules={LONG: True}), "rules"),
        (lambda: Game.new(2, rules={"lords_count_zero": LONG}), "rules.lords_count_zero"),
        (lambda: game_from_position({**POSITION, "decision": {"phase": LONG}}), "decision.phase"),
        (lambda: game_from_position({**POSITION, "hands": [LONG, "G"]}), "hands"),
        (lambda: VectorGames(2, sections=[[LONG, False]] * 4), "section"),
        (lambda: VectorGames(2, hints=LONG), "hints"),
        (lambda: VectorGames(2, reward=LONG), "reward"),
        (lambda: kingdom_builder_v0.env(render_mode=LONG), "render_mode"),
    ],
    ids=["expansions", "rules", "rule value", "phase", "hands", "batch sections", "hints", "reward", "render_mode"],
)
def test_every_entry_point_echoes_a_long_value_short(call, field):
    with pytest.raises(ValueError, match=field) as err:
        call()
    assert len(str(err.value)) < 2000 and "…(1000000 chars)" in str(err.value), str(err.value)[:300]

# ----- records --------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def record(game) -> dict:
    return game.to_record()


@pytest.mark.parametrize("extra", [{"comment": "hi"}, {"seats": ["a", "b"]}, {"Format": "kbenv-record"}])
def test_unknown_top_level_record_fields_are_refused_by_name(record, extra):
    name = next(iter(extra))
    with pytest.raises(
        SetupError,
        match=rf"^'{name}': unknown field of a version 1 record; expected format, "
        "version, setup, actions",
    ):
        Game.from_record({**record, **extra})


def test_a_version_2_record_refuses_unknown_fields_too():
    expansion = Game.new(2, seed=1, expansions=["nomads"]).to_record()
    assert expansion["version"] == 2
    with pytest.raises(SetupError, match="'note': unknown field of a version 2 record"):
        Game.from_record({**expansion, "note": 1})
    assert Game.from_record(expansion).state_key() == Game.new(2, seed=1, expansions=["nomads"]).state_key()


@pytest.mark.parametrize(
    "change, words",
    [
        ({"actions": ["x" * 1_000_000]}, r"actions\[0\]: action 'xxx.*…\(1000000 chars\)"),
        ({"version": "v" * 1_000_000}, r"version: expected one of \(1, 2\), got 'vvv.*…\(1000000 chars\)"),
    ],
)
def test_bad_record_values_are_named_and_echoed_short(record, change, words):
    with pytest.raises(SetupError, match=words) as err:
        Game.from_record({**record, **change})
    assert len(str(err.value)) < 1000


def test_damaged_tournament_lines_and_ruleset_json_are_refused_not_crashing():
    assert _parse_record_line(DEEP) is None
    assert _parse_record_line('{"game_id": 1, "game_id": 2, "record": {}}') is None
    with pytest.raises(RulesetError, match="nested 100001 levels deep"):
        Ruleset.from_json('{"a": ' + DEEP + "}")
    with pytest.raises(RulesetError, match="'rules': the key appears twice"):
        Ruleset.from_json('{"rules": [], "rules": []}')


# ----- agent specs ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "spec, words",
    [
        ("mcts:sims=1000000000", f"sims must be at most {MAX_SIMS}, got 1000000000"),
        ("mcts:max_rollout=10000000", "max_rollout must be at most 100000"),
        ("trained:2p,sims=1000000", f"sims must be at most {MAX_SIMS}"),
        ("trained:2p,considered=5000", "considered must be at most 1024"),
        ("trained:2p,dets=100000", "dets must be at most 256"),
        ("mcts:sims=" + "9" * 5000, "sims must be an integer of at most 40 characters"),
    ],
)
def test_agent_specs_bound_their_search_and_say_the_bound(spec, words):
    with pytest.raises(ValueError, match=words) as err:
        parse_spec(spec)
    assert len(str(err.value)) < 1200  # the spec shown up to 500 characters, the value up to 80
    assert parse_spec(f"mcts:sims={MAX_SIMS}") == ("mcts", {"sims": MAX_SIMS})


# ----- the command line: exit 2, one line, nothing written ----------------------------------------------------
CLI_CASES = [
    ("legal", '{"then": ' + DEEP + "}", "nested 100001 levels deep"),
    ("score", '{"cards": [], "cards": []}', "'cards': the key appears twice"),
    ("score", json.dumps(POSITION)[:-1] + ', "seed": ' + "7" * 5000 + "}", "seed: an integer of 5000 digits"),
    ("score", json.dumps({**POSITION, "sections": [SECTIONS[0]] * 4}), "sections[1]: the section 'tavern'"),
    ("score", json.dumps({**POSITION, "q" * 10**6: 1}), "position: unknown field(s) 'qqq"),
    ("legal", " " * (MAX_BYTES + 1), "larger than"),
    ("position", DEEP, "nested 100000 levels deep"),
    ("position", '{"format": "kbenv-record", "format": "kbenv-record"}', "'format': the key appears twice"),
]


@pytest.mark.parametrize("command, content, words", CLI_CASES, ids=[f"{c[0]}-{k}" for k, c in enumerate(CLI_CASES)])
def test_the_cli_answers_bad_files_with_exit_2_and_one_line(tmp_path, capsys, command, content, words):
    path = write(tmp_path, "in.json", content)
    out = tmp_path / "out.json"
    argv = [command, str(path), *(["--out", str(out)] if command == "position" else [])]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and not out.exists()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"kbenv {command}: error: "), captured.err[:500]
    assert words in lines[0] and len(lines[0]) < 2100 and "Traceback" not in captured.err


def test_the_cli_refuses_an_unknown_record_field_and_writes_nothing(tmp_path, capsys, record):
    path = write(tmp_path, "game.json", json.dumps({**record, "comment": "x" * 10**6}))
    out = tmp_path / "position.json"
    assert main(["position", str(path), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'comment': unknown field of a version 1 record" in err and not out.exists()


def test_the_cli_refuses_an_overlong_number_and_an_unbounded_agent(tmp_path, capsys, record):
    path = write(tmp_path, "game.json", json.dumps(record))
    with pytest.raises(SystemExit) as exit_:
        main(["position", str(path), "--at", "9" * 5000])
    assert exit_.value.code == 2 and "…(5000 chars)" in capsys.readouterr().err
    out = tmp_path / "game_record.json"
    assert main(["play", "--players", "2", "--agents", "mcts:sims=1000000000", "--record", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"sims must be at most {MAX_SIMS}" in err and not out.exists()
