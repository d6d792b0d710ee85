"""The analysis board's API (kbenv.serve.analysis) through Starlette's TestClient: the analysis of a human seat, the
hint, the watcher's rule, replays and their curve (one point per decision), the shipped models per ruleset, errors
that name the field, and twin games that differ only in hidden cards answered alike."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from kbenv import Game  # noqa: E402
from kbenv.catalogue import TASK_CARDS  # noqa: E402
from kbenv.serve.sessions import GameSession  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from kbenv.serve import create_app  # noqa: E402


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    folder = tmp_path_factory.mktemp("records")
    game = Game.new(2, seed=3)
    rng = np.random.default_rng(3)
    for _ in range(40):
        game.step(int(rng.choice(game.legal_actions())))
    (folder / "part.json").write_text(json.dumps(game.to_record()))
    return folder, game


@pytest.fixture(scope="module")
def app(records):
    return create_app([records[0]])


@pytest.fixture(scope="module")
def client(app):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return TestClient(app)


def human_game(client, seed: int = 5) -> str:
    d = client.post("/api/games", json={"players": 2, "seed": seed, "seats": ["human", "greedy"]}).json()
    client.post(f"/api/games/{d['id']}/advance", json={"seat": 0})
    return d["id"]


def get(client, url: str, status: int = 200) -> dict:
    r = client.get(url)
    assert r.status_code == status, r.text
    return r.json()


def test_the_analysis_of_a_human_seat_shares_the_legal_decisions(client, app):
    gid = human_game(client)
    session = app.state.games.get(gid)
    d = get(client, f"/api/games/{gid}/analysis?seat=0&analyst=lookahead")
    assert d["viewer"] == 0 and d["decider"] == 0 and d["eval_kind"] == "gold"
    assert sorted(x["action"] for x in d["decisions"]) == sorted(session.game.legal_actions())
    assert math.isclose(sum(x["share"] for x in d["decisions"]), 1.0, abs_tol=1e-9)
    hexes = {f"{x['hex'][0]},{x['hex'][1]}": x["share"] for x in d["decisions"] if x["kind"] == "hex"}
    assert d["hex_shares"] == hexes
    assert len(d["evaluation"]) == 2
    assert d["line"] and all(step["seat"] == 0 for step in d["line"])
    first = d["line"][0]["preview"]
    assert sorted(first) == ["board", "totals"]
    built = [h for h in first["board"]["settlements"][0] if h not in session.view(0)["board"]["settlements"][0]]
    assert built == [[d["line"][0]["action"] // 20, d["line"][0]["action"] % 20]]


def test_the_hint_names_a_legal_decision_of_the_seat_that_decides(client, app):
    gid = human_game(client)
    session = app.state.games.get(gid)
    for analyst in ("lookahead", "greedy", "network:2p"):
        d = get(client, f"/api/games/{gid}/hint?seat=0&analyst={analyst}")
        assert d["hint"]["action"] in session.game.legal_actions()
        assert d["hint"]["action"] == d["analysis"]["decisions"][0]["action"]


def test_the_hint_is_refused_for_an_agent_seat_and_for_a_seat_that_does_not_decide(client, app):
    gid = human_game(client)
    assert get(client, f"/api/games/{gid}/hint?seat=1", 400)["error"].startswith("seat: give the human seat")
    d = client.post("/api/games", json={"players": 2, "seed": 1, "seats": ["human", "human"]}).json()
    other = 1 - app.state.games.get(d["id"]).game.decider
    assert "does not decide now" in get(client, f"/api/games/{d['id']}/hint?seat={other}", 409)["error"]


def test_a_watcher_gets_no_analysis_of_a_game_with_human_seats_but_of_an_agents_only_game(client, app):
    gid = human_game(client)
    assert "watcher" in get(client, f"/api/games/{gid}/analysis", 403)["error"]
    assert "only human seats" in get(client, f"/api/games/{gid}/analysis?seat=1", 403)["error"]
    d = client.post("/api/games", json={"players": 3, "seed": 2, "seats": ["greedy"]}).json()
    game = app.state.games.get(d["id"]).game
    a = get(client, f"/api/games/{d['id']}/analysis?analyst=greedy")
    assert a["viewer"] == (game.decider + 1) % 3 and a["decider"] == game.decider


def test_bad_analysts_and_rulesets_are_refused_naming_the_analyst(client):
    gid = human_game(client)
    assert "random agent gives no values" in get(client, f"/api/games/{gid}/analysis?seat=0&analyst=random",
                                                 400)["error"]
    assert get(client, f"/api/games/{gid}/analysis?seat=0&analyst=network:nope", 400)["error"].startswith(
        "analyst 'network:nope'")
    err = get(client, f"/api/games/{gid}/analysis?seat=0&analyst=network:nomads-2p", 400)["error"]
    assert err.startswith("analyst: network:nomads-2p was trained for")
    assert "longer than 500" in get(client, f"/api/games/{gid}/analysis?seat=0&analyst={'x' * 600}", 400)["error"]


def test_the_meta_lists_the_shipped_models_with_their_rulesets(client):
    models = {m["name"]: m for m in get(client, "/api/meta")["models"]}
    assert models["2p"]["rulesets"] == [{"expansions": [], "rules": []}]
    assert models["nomads-2p"]["rulesets"] == [{"expansions": ["capitol", "caves", "nomads"], "rules": []}]
    assert models["crossroads-2p"]["spec"] == "trained:crossroads-2p"
    assert models["crossroads-2p"]["network"] == "network:crossroads-2p"
    assert models["4p"]["players"] == [4]


def test_a_replay_has_an_analysis_per_step_and_a_curve_with_one_point_per_decision(client, records):
    _, game = records
    d = client.post("/api/replays", json={"root": 0, "path": "part.json"}).json()
    steps = d["steps"]
    assert steps == len(game.actions) == 40
    for analyst in ("lookahead", "network:2p"):
        curve = get(client, f"/api/replays/{d['id']}/curve?analyst={analyst}")
        assert len(curve["points"]) == steps and all(len(p) == 2 for p in curve["points"])
    a = get(client, f"/api/replays/{d['id']}/analysis?step=10&analyst=lookahead")
    b = get(client, f"/api/replays/{d['id']}/analysis?step=30&analyst=lookahead")
    replayed = Game.from_setup(game.setup)
    for action in game.actions[:10]:
        replayed.step(action)
    assert a["decider"] == replayed.decider and a["viewer"] == (replayed.decider + 1) % 2
    assert a["evaluation"] != b["evaluation"]
    mine = get(client, f"/api/replays/{d['id']}/analysis?step=10&seat=0&analyst=lookahead")
    assert mine["viewer"] == 0
    assert get(client, f"/api/replays/{d['id']}/analysis?step=99", 400)["error"].startswith("step")
    last = get(client, f"/api/replays/{d['id']}/analysis?step={steps}")
    assert last["decisions"] or last["decider"] is not None  # the record stops mid-game: a decision is still due


def test_twin_games_that_differ_only_in_hidden_cards_get_the_same_analysis_and_hint(client, app):
    game = Game.new(2, seed=5)
    rng = np.random.default_rng(0)
    while game.decider != 0 or game.turn < 3:
        game.step(int(rng.choice(game.legal_actions())))
    other = game.determinize(0, np.random.default_rng(9))
    assert not np.array_equal(other.state, game.state)  # another deck order or hand of player_1, nothing else
    answers = []
    for k, g in enumerate((game, other)):
        session = GameSession(f"twin{k}", g, ["human", "greedy"], [None, None], 0)
        app.state.games.add(session)
        answers.append([get(client, f"/api/games/twin{k}/{kind}?seat=0&analyst={analyst}")
                        for kind in ("analysis", "hint") for analyst in ("lookahead", "network:2p")])
    assert answers[0] == answers[1]


def test_a_views_tasks_carry_their_full_text(client):
    d = client.post("/api/games", json={"players": 2, "seed": 4, "expansions": ["crossroads"],
                                        "seats": ["human", "greedy"]}).json()
    rules = {t.name: t.rule for t in TASK_CARDS}
    tasks = d["view"]["tasks"]
    assert tasks and all(t["text"] == rules[t["name"]] and t["text"] for t in tasks)
