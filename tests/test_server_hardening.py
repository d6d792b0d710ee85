"""`kbenv serve` answers bad requests with a 4xx JSON error and changes nothing (issue 52, hardening): huge or
string integers, deep or duplicate-keyed bodies, unbounded agent specs, damaged record files, symbolic links out
of the records folders, and agents too slow to wait for (their decision is not taken)."""

from __future__ import annotations

import json
import os
import threading
import time
import warnings

import numpy as np
import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from kbenv import Game  # noqa: E402
from kbenv.serve import app as app_module  # noqa: E402
from kbenv.serve import create_app  # noqa: E402
from kbenv.serve import sessions as sessions_module  # noqa: E402
from kbenv.serve.errors import MAX_BODY_BYTES  # noqa: E402
from tests.ruleset_games import played_record  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

DEEP = "[" * 100_000 + "]" * 100_000
BIG = "9" * 5000


def client_of(app) -> TestClient:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return TestClient(app, raise_server_exceptions=False)


@pytest.fixture
def app():
    return create_app()


@pytest.fixture
def client(app):
    return client_of(app)


def json_error(r, status: int, words: str) -> str:
    """The error message of a JSON error answer with `status` that says `words`."""
    assert r.status_code == status, r.text[:300]
    assert r.headers["content-type"].startswith("application/json") and "Traceback" not in r.text
    message = r.json()["error"]
    assert words in message and len(message) < 2100, message[:300]
    return message


def snapshot(session):
    """The game's state (without the kernels' scratch space), decisions and moves."""
    return session.game.state_key(), list(session.game.actions), len(session.moves)


def assert_unchanged(session, before) -> None:
    assert snapshot(session) == before


@pytest.fixture
def human_game(client, app):
    """A human (seat 0) against greedy, advanced to the human's decision: (id, session)."""
    d = client.post("/api/games", json={"players": 2, "seed": 5, "seats": ["human", "greedy"]}).json()
    client.post(f"/api/games/{d['id']}/advance", json={"seat": 0})
    session = app.state.games.get(d["id"])
    assert session.game.decider == 0
    return d["id"], session


# ----- new games ------------------------------------------------------------------------------------------------
NEW_GAME_CASES = [
    ({"players": "2"}, 400, "players: expected an integer, got '2'"),
    ({"players": True}, 400, "players: expected an integer, got True"),
    ({"players": 2.0}, 400, "players: expected an integer, got 2.0"),
    ({"players": 10**15}, 400, "players: expected 2 to 5, got 1000000000000000"),
    ({"seed": "5"}, 400, "seed: expected an integer"),
    ({"seed": -1}, 400, "seed: expected 0 to"),
    (
        {"seats": ["human", "mcts:sims=1000000000"]},
        400,
        "seats[1]: agent spec 'mcts:sims=1000000000': sims must be at most 100000",
    ),
    ({"seats": ["trained:2p,sims=1000000"]}, 400, "sims must be at most 100000"),
    ({"seats": ["greedy", "x" * 1_000_000]}, 400, "…(1000000 chars)"),
    ({"preset": "p" * 1_000_000}, 400, "preset: expected one of first-game or none, got 'ppp"),
]


@pytest.mark.parametrize("body, status, words", NEW_GAME_CASES, ids=[str(k) for k in range(len(NEW_GAME_CASES))])
def test_bad_new_game_fields_are_refused_and_no_game_is_made(client, app, body, status, words):
    json_error(client.post("/api/games", json=body), status, words)
    assert len(app.state.games.games) == 0


RAW_BODIES = [
    (DEEP, 400, "request body: nested 100000 levels deep; at most 64"),
    ('{"players": ' + DEEP + "}", 400, "nested 100001 levels deep"),
    ('{"players": 2, "players": 3}', 400, "request body: 'players': the key appears twice in one object"),
    ('{"seed": ' + BIG + "}", 400, "request body: seed: an integer of 5000 digits"),
    (b'{"preset": "\xff"}', 400, "request body: not UTF-8 text"),
    (b" " * (MAX_BODY_BYTES + 1), 413, f"at most {MAX_BODY_BYTES} bytes are read"),
]


@pytest.mark.parametrize(
    "body, status, words", RAW_BODIES, ids=["deep", "deep-field", "twice", "5000-digits", "not-utf8", "too-large"]
)
def test_bad_request_bodies_are_refused_before_parsing(client, app, body, status, words):
    r = client.post("/api/games", content=body, headers={"content-type": "application/json"})
    json_error(r, status, words)
    assert len(app.state.games.games) == 0


# ----- a live game: seats, actions, steps ---------------------------------------------------------------------
LIVE_CASES = [
    ("get", "?seat=1000000000000000", None, 400, "seat: expected 0 to 1, got 1000000000000000"),
    ("get", f"?seat={BIG}", None, 400, "seat: expected an integer, got '999"),
    ("get", "?seat=%C2%B2", None, 400, "seat: expected an integer, got '²'"),
    ("get", "/legal?seat=-5", None, 400, "seat: expected 0 to 1, got -5"),
    ("post", "/apply", {"seat": 10**15, "action": 0}, 400, "seat: expected 0 to 1, got 1000000000000000"),
    ("post", "/apply", {"seat": "0", "action": 0}, 400, "seat: expected an integer, got '0'"),
    ("post", "/apply", {"seat": True, "action": 0}, 400, "seat: expected an integer, got True"),
    ("post", "/apply", {"seat": 0, "action": 10**15}, 400, "action: expected 0 to 408"),
    ("post", "/apply", {"seat": 0, "action": "0"}, 400, "action: expected an integer, got '0'"),
    ("post", "/apply", {"seat": 0, "hex": [True, 0]}, 400, "hex row: expected an integer, got True"),
    ("post", "/apply", {"seat": 0, "decision": "d" * 1_000_000}, 400, "…(1000000 chars)"),
    ("post", "/apply", {"seat": 0, "x" * 1_000_000: 1}, 400, "unknown field"),
    ("post", "/advance", {"seat": 0, "max_steps": 10**15}, 400, "max_steps: expected 1 to 10000"),
    ("post", "/advance", {"seat": [0]}, 400, "seat: expected an integer, got [0]"),
]


@pytest.mark.parametrize("method, tail, body, status, words", LIVE_CASES, ids=[str(k) for k in range(len(LIVE_CASES))])
def test_bad_live_game_requests_change_nothing(client, human_game, method, tail, body, status, words):
    game_id, session = human_game
    before = snapshot(session)
    url = f"/api/games/{game_id}{tail}"
    r = client.get(url) if method == "get" else client.post(url, json=body)
    message = json_error(r, status, words)
    assert len(message) < 1000
    assert_unchanged(session, before)


def test_a_long_unknown_game_id_is_echoed_short(client):
    message = json_error(client.get("/api/games/" + "g" * 60_000), 404, "game: no live game with id 'ggg")
    assert "…(60000 chars)" in message


# ----- replays and the records folders -------------------------------------------------------------------------
@pytest.fixture
def records(tmp_path):
    """A records folder with a good record, damaged ones, a tournament folder and, outside it, a secret record."""
    folder = tmp_path / "records"
    (folder / "tour").mkdir(parents=True)
    record = played_record(1, decisions=12)
    (folder / "game.json").write_text(json.dumps(record))
    (folder / "deep.json").write_text('{"format": "kbenv-record", "x": ' + DEEP + "}")
    (folder / "twice.json").write_text(json.dumps(record)[:-1] + ', "actions": []}')
    (folder / "extra.json").write_text(json.dumps({**record, "comment": "hi"}))
    (folder / "bigint.json").write_text(json.dumps(record).replace('"actions": [', '"actions": [' + BIG + ", "))
    lines = [DEEP, json.dumps({"game_id": 0, "record": record}), '{"game_id": 1, "game_id": 2}']
    (folder / "tour" / "records.jsonl").write_text("\n".join(lines) + "\n")
    (tmp_path / "secret.json").write_text(json.dumps(record))
    return folder, record


@pytest.mark.parametrize(
    "path, words",
    [
        ("deep.json", "is not a JSON record (nested 100001 levels deep"),
        ("twice.json", "'actions': the key appears twice"),
        ("extra.json", "record: 'comment': unknown field of a version 1 record"),
        ("bigint.json", "actions[0]: an integer of 5000 digits"),
    ],
)
def test_damaged_record_files_are_a_400_and_open_no_replay(records, path, words):
    folder, _ = records
    app = create_app([folder])
    json_error(client_of(app).post("/api/replays", json={"path": path}), 400, words)
    assert len(app.state.replays.replays) == 0


def test_replay_steps_and_seats_out_of_range_are_refused(records):
    folder, record = records
    client = client_of(create_app([folder]))
    d = client.post("/api/replays", json={"path": "game.json"}).json()
    steps = len(record["actions"])
    for query, words in [
        (f"step={10**15}", f"step: expected 0 to {steps}, got 1000000000000000"),
        (f"step={BIG}", "step: expected an integer, got '999"),
        ("step=-1", "step: expected 0 to"),
        (f"seat={10**15}", "seat: expected 0 to 1, got 1000000000000000"),
        ("step=²", "step: expected an integer"),
    ]:
        json_error(client.get(f"/api/replays/{d['id']}?{query}"), 400, words)
    for body, words in [
        ({"path": "game.json", "root": "0"}, "root: expected an integer, got '0'"),
        ({"path": "tour", "game": 10**15}, "game: no game 1000000000000000"),
        ({"path": "tour", "game": "1"}, "game: expected an integer, got '1'"),
    ]:
        json_error(client.post("/api/replays", json=body), 404 if "no game" in words else 400, words)
    assert client.get(f"/api/replays/{d['id']}?step=3").json()["view"]["step"] == 3  # still there, as it was


def test_the_tournament_listing_skips_damaged_lines(records):
    folder, record = records
    client = client_of(create_app([folder]))
    tour = next(f for f in client.get("/api/records").json()["files"] if f["kind"] == "tournament")
    assert [g["game_id"] for g in tour["games"]] == [0]
    assert client.post("/api/replays", json={"path": "tour", "game": 0}).json()["steps"] == len(record["actions"])


def test_links_out_of_the_records_folder_are_neither_listed_nor_read(records, tmp_path, monkeypatch):
    folder, _ = records
    os.symlink(tmp_path / "secret.json", folder / "link.json")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "records.jsonl").write_text(json.dumps({"game_id": 5, "record": {}}) + "\n")
    (folder / "linked_tour").mkdir()
    os.symlink(tmp_path / "outside" / "records.jsonl", folder / "linked_tour" / "records.jsonl")
    os.symlink(folder / "game.json", folder / "inner_link.json")  # a link that stays inside is fine
    os.mkfifo(folder / "pipe.json")  # opening it would block: not a regular file, never opened
    opened = []
    real_open = open

    def spy(path, *args, **kwargs):
        opened.append(os.path.realpath(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr("builtins.open", spy)
    app = create_app([folder])
    listing: dict = {}
    worker = threading.Thread(target=lambda: listing.update(app.state.library.listing()), daemon=True)
    worker.start()
    worker.join(10)
    assert not worker.is_alive(), "the listing blocked on a pipe"
    paths = {f["path"] for f in listing["files"]}
    assert paths == {"game.json", "inner_link.json", "deep.json", "twice.json", "extra.json", "bigint.json", "tour"}
    assert not any(p.startswith(str(tmp_path / "secret")) or "outside" in p or p.endswith("pipe.json") for p in opened)
    monkeypatch.undo()
    client = client_of(app)
    json_error(client.post("/api/replays", json={"path": "link.json"}), 400, "leads outside")
    json_error(client.post("/api/replays", json={"path": "linked_tour", "game": 5}), 400, "without records.jsonl")
    json_error(client.post("/api/replays", json={"path": "pipe.json"}), 400, "is not a regular file")


# ----- agents that take too long -----------------------------------------------------------------------------
class SlowAgent:
    """Decides the first legal action after `seconds` (a stand-in for a long search)."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.done = threading.Event()

    def act(self, observation, mask, view=None) -> int:
        time.sleep(self.seconds)
        self.done.set()
        return int(np.flatnonzero(mask)[0])


def agents_game(client, app, seats=("random", "random")):
    d = client.post("/api/games", json={"players": 2, "seed": 2, "seats": list(seats)}).json()
    return d["id"], app.state.games.get(d["id"])


def play_human_until_agent(client, game_id: str, session, seat: int = 0) -> None:
    """The human seat takes its first legal decision until the agent decides."""
    while session.game.decider == seat:
        legal = client.get(f"/api/games/{game_id}/legal?seat={seat}").json()["legal"]
        assert client.post(f"/api/games/{game_id}/apply", json={"seat": seat, "action": legal[0]["action"]}).is_success


def test_an_agent_move_past_the_time_limit_is_a_503_and_not_taken(client, app, monkeypatch):
    monkeypatch.setattr(app_module, "AGENT_SECONDS", 0.2)
    monkeypatch.setattr(sessions_module, "BUSY_SECONDS", 0.05)
    game_id, session = agents_game(client, app)
    slow = SlowAgent(1.0)
    session.agents = [slow, slow]
    before = snapshot(session)
    start = time.monotonic()
    json_error(client.post(f"/api/games/{game_id}/step", json={}), 503, "no decision within 0.2 s")
    assert time.monotonic() - start < 0.9  # the request did not wait for the agent
    json_error(client.post(f"/api/games/{game_id}/step", json={}), 409, "the game is busy")
    json_error(client.get(f"/api/games/{game_id}"), 409, "the game is busy")
    assert slow.done.wait(5)
    with session.using(5):  # the abandoned decision has finished: it was not taken
        assert_unchanged(session, before)
    session.agents = [SlowAgent(0), SlowAgent(0)]
    assert client.post(f"/api/games/{game_id}/step", json={}).json()["move"]["n"] == 0


def test_advance_stops_after_its_time_and_the_page_asks_again(client, app, monkeypatch):
    monkeypatch.setattr(app_module, "ADVANCE_SECONDS", 0.05)
    game_id, session = agents_game(client, app, ("human", "random"))
    play_human_until_agent(client, game_id, session)
    session.agents[1] = SlowAgent(0.1)
    answers = []
    while not answers or answers[-1]["more"]:
        answers.append(client.post(f"/api/games/{game_id}/advance", json={"seat": 0}).json())
        assert len(answers) < 20
    assert len(answers) > 1 and all(1 <= len(a["moves"]) <= 2 for a in answers)
    assert session.game.decider == 0 and not answers[-1]["more"]
    numbers = [m["n"] for a in answers for m in a["moves"]]
    assert numbers == list(range(numbers[0], len(session.moves)))  # every decision once, in order


def test_the_agent_threads_are_bounded(client, app, monkeypatch):
    monkeypatch.setattr(app_module, "AGENT_SECONDS", 0.1)
    sessions = [agents_game(client, app) for _ in range(app_module.AGENT_THREADS + 1)]
    slow = [SlowAgent(1.5) for _ in sessions]
    for (_, session), agent in zip(sessions, slow, strict=True):
        session.agents = [agent, agent]
    for game_id, _ in sessions[:-1]:
        json_error(client.post(f"/api/games/{game_id}/step", json={}), 503, "no decision within")
    json_error(client.post(f"/api/games/{sessions[-1][0]}/step", json={}), 503, "agent threads are deciding")
    assert all(agent.done.wait(5) for agent in slow[:-1])
    time.sleep(0.05)
    assert all(session.game.actions == [] for _, session in sessions)


class StoppableAgent:
    """A search agent that simulates until its `stop` event is set (at most `limit` simulations)."""

    name = "stoppable"

    def __init__(self, limit: int = 10**9):
        self.limit = limit
        self.stop: threading.Event | None = None
        self.simulations = 0
        self.seen_stop: threading.Event | None = None

    def reset(self, seed=None) -> None:
        pass

    def act(self, observation, mask, view) -> int:
        self.seen_stop = self.stop
        while self.simulations < self.limit and not (self.stop is not None and self.stop.is_set()):
            self.simulations += 1
            time.sleep(0.001)
        return int(np.flatnonzero(mask)[0])


def test_an_abandoned_search_ends_and_frees_its_thread(client, app, monkeypatch):
    # the search is told to stop when the server stops waiting: it ends (far short of its limit), its thread and
    # slot are free again, and the decision is not taken
    monkeypatch.setattr(app_module, "AGENT_SECONDS", 0.2)
    game_id, session = agents_game(client, app)
    agent = StoppableAgent()
    session.agents = [agent, agent]
    before = snapshot(session)
    json_error(client.post(f"/api/games/{game_id}/step", json={}), 503, "no decision within 0.2 s")
    with session.using(5):  # the search ended (an endless one would hold the game)
        assert_unchanged(session, before)
    assert agent.seen_stop is not None and agent.seen_stop.is_set() and agent.stop is None
    assert 0 < agent.simulations < 10**9
    agent.limit = agent.simulations  # the next search stops by itself at once
    monkeypatch.setattr(app_module, "AGENT_SECONDS", 60)  # (its observation may compile first)
    assert client.post(f"/api/games/{game_id}/step", json={}).json()["move"]["n"] == 0


def test_the_mcts_and_network_searches_stop_at_their_next_simulation(monkeypatch):
    from agents.mcts import MCTSAgent
    from kbenv.game.view import PlayerView

    game = Game.new(2, seed=3)
    view = PlayerView(game, game.decider)
    mask = game.legal_mask()
    agent = MCTSAgent(sims=100_000)
    calls = []
    monkeypatch.setattr(agent, "_simulate", lambda root, world: calls.append(1))
    agent.stop = threading.Event()
    agent.stop.set()
    assert agent.act(None, mask, view) in set(np.flatnonzero(mask))
    assert calls == []
