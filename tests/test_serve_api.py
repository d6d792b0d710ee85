"""The JSON API of `kbenv serve` (kbenv.serve) through Starlette's TestClient: new games, views, legal decisions,
decisions (illegal ones refused with the engine's reason, the state untouched), agents' moves, hidden hands,
replays and the records folders' boundary, and errors answered as JSON."""

from __future__ import annotations

import json
import os
import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from kbenv import Game  # noqa: E402
from kbenv.board.colours import SEAT_RGB, TERRAIN_RGB  # noqa: E402
from kbenv.engine import state as S  # noqa: E402
from kbenv.engine.deck import deck_off  # noqa: E402
from kbenv.present.image import hex_centre  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from kbenv.serve import create_app  # noqa: E402
from tests.ruleset_games import played_record  # noqa: E402


@pytest.fixture
def app():
    return create_app()


@pytest.fixture
def client(app):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return TestClient(app)


def new_game(client, **body) -> dict:
    r = client.post("/api/games", json={"players": 2, "seed": 5, "seats": ["human", "greedy"], **body})
    assert r.status_code == 200, r.text
    return r.json()


def human_turn(client, app) -> tuple[dict, object]:
    """A game (seed 5) advanced until the human seat 0 decides; its id and session."""
    d = new_game(client)
    r = client.post(f"/api/games/{d['id']}/advance", json={"seat": 0})
    assert r.status_code == 200
    session = app.state.games.get(d["id"])
    assert session.game.decider == 0
    return d, session


# ----- new game, view, legal ------------------------------------------------------------------------------
def test_new_game_is_the_game_of_its_seed_and_the_page_gets_the_same_geometry_as_the_png(client):
    d = new_game(client)
    expected = Game.new(2, seed=5)
    v = d["view"]
    assert d["seats"] == ["human", "greedy"] and d["humans"] == [0] and d["seat"] == 0
    assert v["board"]["rows"] == list(expected.board)
    assert [c["name"] for c in v["cards"]] == list(expected.cards)
    assert v["start_player"] == expected.start_player
    assert [s["supply"] for s in v["seats"]] == [40, 40]  # 40 settlements each (rulebook)
    meta = client.get("/api/meta").json()
    assert meta["geometry"]["centres"][7][3] == pytest.approx(list(hex_centre(7, 3)), abs=1e-3)
    assert meta["colours"]["seats"][:2] == [list(SEAT_RGB[0]), list(SEAT_RGB[1])]
    assert meta["colours"]["terrain"]["W"] == list(TERRAIN_RGB["W"])
    shipped = [e for e in meta["agent_examples"] if e.startswith("trained:")]
    assert shipped[:3] == ["trained:2p", "trained:4p", "trained:nomads-2p"] and "trained:2p-selfplay" in shipped


def test_legal_decisions_of_the_human_seat_are_the_engines(client, app):
    d, session = human_turn(client, app)
    legal = client.get(f"/api/games/{d['id']}/legal?seat=0").json()["legal"]
    assert [x["action"] for x in legal] == session.game.legal_actions()
    for x in legal:
        if x["kind"] == "hex":
            assert x["hex"] == [x["action"] // 20, x["action"] % 20] and x["words"].startswith("build at")


def test_legal_decisions_are_empty_while_the_agent_decides(client):
    d = new_game(client, seed=0)  # seed 0: player_1 (greedy) starts
    assert d["view"]["decider"] == 1
    assert client.get(f"/api/games/{d['id']}/legal?seat=0").json()["legal"] == []


def test_a_legal_build_takes_a_settlement_from_the_supply(client, app):
    d, session = human_turn(client, app)
    hexes = [x for x in client.get(f"/api/games/{d['id']}/legal?seat=0").json()["legal"] if x["kind"] == "hex"]
    supply = session.game.supply(0)
    r = client.post(f"/api/games/{d['id']}/apply", json={"seat": 0, "hex": hexes[0]["hex"]})
    assert r.status_code == 200
    v = r.json()["view"]
    assert hexes[0]["hex"] in v["board"]["settlements"][0]
    assert v["seats"][0]["supply"] == supply - 1
    assert session.game.actions[-1] == hexes[0]["action"]


def test_an_illegal_decision_is_refused_with_the_reason_and_the_state_is_unchanged(client, app):
    d, session = human_turn(client, app)
    legal = {x["action"] for x in client.get(f"/api/games/{d['id']}/legal?seat=0").json()["legal"]}
    illegal = next(h for h in range(400) if h not in legal)
    before, actions = session.game.state_key(), list(session.game.actions)  # the state without scratch space
    r = client.post(f"/api/games/{d['id']}/apply", json={"seat": 0, "hex": [illegal // 20, illegal % 20]})
    assert r.status_code == 400
    assert f"hex ({illegal // 20}, {illegal % 20})" in r.json()["error"] and "illegal" in r.json()["error"]
    assert session.game.state_key() == before and session.game.actions == actions
    # a seat that does not decide, an agent's seat, and an unknown decision name: refused too
    assert client.post(f"/api/games/{d['id']}/apply", json={"seat": 1, "action": 0}).status_code == 403
    r = client.post(f"/api/games/{d['id']}/apply", json={"seat": 0, "decision": "teleport"})
    assert r.status_code == 400 and "teleport" in r.json()["error"]
    assert session.game.state_key() == before


def test_a_whole_turn_then_the_agents_turn(client, app):
    d, session = human_turn(client, app)
    turn = session.game.turn
    for _ in range(3):  # the mandatory action: three builds (rulebook)
        hexes = [x for x in client.get(f"/api/games/{d['id']}/legal?seat=0").json()["legal"] if x["kind"] == "hex"]
        client.post(f"/api/games/{d['id']}/apply", json={"seat": 0, "hex": hexes[0]["hex"]})
    legal = client.get(f"/api/games/{d['id']}/legal?seat=0").json()["legal"]
    if legal:  # a tile to use: the turn ends only by the end-turn decision
        assert "end_turn" in [x["kind"] for x in legal]
        r = client.post(f"/api/games/{d['id']}/apply", json={"seat": 0, "decision": "end_turn"})
        assert r.status_code == 200
    view = client.get(f"/api/games/{d['id']}?seat=0").json()["view"]
    assert view["decider"] == 1 and view["turn"] == turn + 1
    r = client.post(f"/api/games/{d['id']}/advance", json={"seat": 0})
    moves = r.json()["moves"]
    assert len(moves) >= 3 and all(m["seat"] == 1 for m in moves) and r.json()["view"]["decider"] == 0


# ----- hidden hands ---------------------------------------------------------------------------------------
def _swap_hidden_hand(session) -> None:
    """Give seat 1 another card from the draw pile (the hand it holds, put in that card's place)."""
    st = session.game.state
    at, count = deck_off(st), int(st[S.DECK_COUNT])
    k = next(i for i in range(count) if st[at + i] != st[S.HAND + 1])
    st[at + k], st[S.HAND + 1] = st[S.HAND + 1], st[at + k]


def test_the_opponents_hand_never_reaches_the_other_seat(client, app):
    d, session = human_turn(client, app)
    twin_d, twin = human_turn(client, app)  # the same seed: the same game so far
    _swap_hidden_hand(twin)
    assert twin.game.hand(1) != session.game.hand(1)

    def answers(game_id):
        legal = client.get(f"/api/games/{game_id}/legal?seat=0").json()["legal"]
        illegal = next(h for h in range(400) if h not in {x["action"] for x in legal})
        return [client.get(f"/api/games/{game_id}?seat=0").json()["view"],
                legal,
                client.post(f"/api/games/{game_id}/apply", json={"seat": 0, "action": illegal}).json(),
                client.get(f"/api/games/{game_id}").json()["view"],  # the watcher's view
                client.post(f"/api/games/{game_id}/apply", json={"seat": 0, "action": legal[0]["action"]}).json()]

    mine, theirs = answers(d["id"]), answers(twin_d["id"])
    assert json.dumps(mine[:4]) == json.dumps(theirs[:4])
    assert json.dumps(mine[4]["view"]) == json.dumps(theirs[4]["view"])
    seat1 = mine[0]["seats"][1]
    assert seat1["hand"] == [] and seat1["hidden_cards"] == 1
    # an agent's private view is not served while it plays
    r = client.get(f"/api/games/{d['id']}?seat=1")
    assert r.status_code == 403 and "greedy" in r.json()["error"]


def test_the_new_game_answer_hides_the_hand_of_the_seat_not_to_move(client):
    for seed in range(4):
        v = new_game(client, seed=seed)["view"]
        for seat in v["seats"]:
            if seat["seat"] not in (0, v["current_player"]):  # seat 0 sees its own hand and the played card
                assert seat["hand"] == [] and seat["hidden_cards"] == 1


# ----- agents-only games --------------------------------------------------------------------------------
def test_an_agents_only_game_is_stepped_one_decision_at_a_time(client, app):
    d = new_game(client, seats=["greedy", "random"])
    assert d["humans"] == [] and d["seat"] is None
    first = client.post(f"/api/games/{d['id']}/step", json={}).json()
    second = client.post(f"/api/games/{d['id']}/step", json={}).json()
    assert first["move"]["n"] == 0 and second["move"]["n"] == 1
    assert len(app.state.games.get(d["id"]).game.actions) == 2
    assert client.post(f"/api/games/{d['id']}/advance", json={}).json()["view"]["done"] is True


# ----- errors ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("body, status, words", [
    ('{"players": 2,', 400, "not valid JSON"),
    ("[1, 2]", 400, "expected a JSON object"),
    ('{"players": 9}', 400, "players"),
    ('{"expansions": ["nomads", "dragons"]}', 400, "'dragons' is not an expansion"),
    ('{"rules": ["capitol_replaces_castle"]}', 400, "needs the capitol expansion"),
    ('{"seats": ["human", "mcts:sims=abc"]}', 400, "seats[1]"),
    ('{"players": 2, "colour": "red"}', 400, "colour: unknown field"),
])
def test_bad_new_game_requests_get_a_json_error_naming_the_field(client, body, status, words):
    r = client.post("/api/games", content=body, headers={"content-type": "application/json"})
    assert r.status_code == status
    assert r.headers["content-type"].startswith("application/json")
    assert words in r.json()["error"] and "Traceback" not in r.text


def test_unknown_games_addresses_and_methods_are_json_errors(client):
    r = client.get("/api/games/nope")
    assert r.status_code == 404 and "nope" in r.json()["error"]
    assert client.get("/api/nothing").json()["error"].startswith("no such page")
    assert client.get("/api/games").status_code == 405 and "error" in client.get("/api/games").json()


def test_expansion_games_start_and_show_their_pieces(client):
    d = new_game(client, expansions="nomads,capitol,caves", rules=["capitol_replaces_castle"], seats=["greedy"])
    v = d["view"]
    game = Game.new(2, seed=5, expansions=["nomads", "capitol", "caves"], rules=["capitol_replaces_castle"])
    assert v["expansions"] == ["nomads", "capitol", "caves"] and v["rules"] == ["capitol_replaces_castle"]
    assert v["board"]["caves"] == sorted([list(rc) for rc in game.caves()])
    assert {tuple(n["hex"]) for n in v["board"]["nomad_spaces"]} == set(game.nomad_spaces())


# ----- replays ---------------------------------------------------------------------------------------------
@pytest.fixture
def records(tmp_path):
    folder = tmp_path / "records"
    (folder / "tour").mkdir(parents=True)
    record = played_record(1)
    (folder / "game.json").write_text(json.dumps(record))
    lines = [json.dumps({"game_id": k, "record": played_record(10 + k)}) for k in range(2)]
    (folder / "tour" / "records.jsonl").write_text("\n".join(lines) + "\n")
    (tmp_path / "secret.json").write_text(json.dumps(record))
    return folder, record


def test_records_are_listed_and_a_replay_steps_forward_and_back(records):
    folder, record = records
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        client = TestClient(create_app([folder]))
    files = client.get("/api/records").json()["files"]
    assert {(f["path"], f["kind"]) for f in files} == {("game.json", "record"), ("tour", "tournament")}
    r = client.post("/api/replays", json={"root": 0, "path": "game.json"})
    assert r.status_code == 200
    d = r.json()
    steps = len(record["actions"])
    assert d["steps"] == steps and len(d["timeline"]) == steps + 1
    assert d["timeline"][0] == [0, 0]  # nothing built, nothing scored
    assert d["timeline"][-1] == [s["total"] for s in Game.from_record(record).scores()]
    assert d["view"]["board"]["settlements"] == [[], []]
    step = lambda k: client.get(f"/api/replays/{d['id']}?step={k}").json()["view"]  # noqa: E731
    forward = step(3)
    first = record["actions"][0]
    assert [first // 20, first % 20] in forward["board"]["settlements"][d["decisions"][0]["seat"]]
    assert sum(len(s) for s in forward["board"]["settlements"]) == 3  # three builds
    back = step(2)
    assert sum(len(s) for s in back["board"]["settlements"]) == 2
    assert step(3) == forward  # back and forward again: the same view
    assert step(steps)["done"] is True
    assert client.get(f"/api/replays/{d['id']}?step={steps + 1}").status_code == 400


def test_a_tournament_game_is_replayed_by_its_id(records):
    folder, _ = records
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        client = TestClient(create_app([folder]))
    d = client.post("/api/replays", json={"root": 0, "path": "tour", "game": 1}).json()
    assert d["steps"] == len(played_record(11)["actions"])
    r = client.post("/api/replays", json={"root": 0, "path": "tour", "game": 7})
    assert r.status_code == 404 and "game 7" in r.json()["error"]
    assert "game id" in client.post("/api/replays", json={"path": "tour"}).json()["error"]


def test_paths_outside_the_records_folders_are_refused(records, tmp_path):
    folder, _ = records
    os.symlink(tmp_path / "secret.json", folder / "link.json")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        client = TestClient(create_app([folder]))
    for path, words in [("../secret.json", "outside"), ("tour/../../secret.json", "outside"),
                        (str(tmp_path / "secret.json"), "absolute"), ("/etc/passwd", "absolute"),
                        ("link.json", "outside"), ("missing.json", "no file")]:
        r = client.post("/api/replays", json={"root": 0, "path": path})
        assert r.status_code in (400, 404), path
        assert words in r.json()["error"] and "Traceback" not in r.text, path
    assert client.post("/api/replays", json={"root": 3, "path": "game.json"}).status_code == 400
    assert "no records folder" in TestClient(create_app()).post("/api/replays", json={"path": "a"}).json()["error"]


def test_a_damaged_record_is_a_json_error(records):
    folder, record = records
    (folder / "bad.json").write_text(json.dumps({**record, "actions": [999] + record["actions"]}))
    (folder / "broken.json").write_text("{not json")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        client = TestClient(create_app([folder]))
    r = client.post("/api/replays", json={"path": "bad.json"})
    assert r.status_code == 400 and "actions[0]" in r.json()["error"]
    assert "not a JSON record" in client.post("/api/replays", json={"path": "broken.json"}).json()["error"]


def test_a_records_folder_that_does_not_exist_is_refused(tmp_path):
    with pytest.raises(ValueError, match="not a folder"):
        create_app([tmp_path / "nope"])


# ----- the command ------------------------------------------------------------------------------------------
def test_kbenv_serve_refuses_a_port_in_use_and_a_missing_records_folder(tmp_path, capsys):
    import socket

    from kbenv.cli import main

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    assert f"--port {port}: cannot listen there" in capsys.readouterr().err
    assert main(["serve", "--records", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err
    assert "--records:" in err and "is not a folder" in err
    with pytest.raises(SystemExit):
        main(["serve", "--port", "70000"])
    assert "expected a port from 1 to 65535" in capsys.readouterr().err
