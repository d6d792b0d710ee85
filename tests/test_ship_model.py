"""scripts/ship_model.py and the cards it writes: the search a shipped model plays with (`play`, the trained
spec's defaults), the previous model kept under a new name, and the warm start in the card's words."""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from pathlib import Path

import pytest

import agents.az as az
from agents import make_agent

ROOT = Path(__file__).resolve().parent.parent


def _script():
    spec = importlib.util.spec_from_file_location("ship_model", ROOT / "scripts" / "ship_model.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def models(tmp_path, monkeypatch):
    """A copy of the shipped models' folder, used by the script and by the trained spec."""
    folder = tmp_path / "models"
    shutil.copytree(az.MODELS, folder)
    card_path = folder / "trained_2p.json"  # the model shipped before: a card without play (as cards were)
    card = json.loads(card_path.read_text())
    card.pop("play", None)
    card_path.write_text(json.dumps(card))
    monkeypatch.setattr(az, "MODELS", folder)
    return folder


def _run_folder(tmp_path: Path, warm: bool) -> Path:
    run = tmp_path / "run"
    run.mkdir()
    shutil.copyfile(az.MODELS / "trained_4p.pt", run / "model.pt")  # any search network of the base game
    card = {"name": "x", "method": "m", "observation": "standard (v0), no hint planes", "players": [2],
            "ruleset": {}, "network": {}, "self_play_positions": 0 if warm else 1000, "games_finished": 0,
            "simulations": 8, "wall_seconds": 1.0,
            "warm_start": {"teacher": "lookahead", "samples": 430_000, "random_share": 0.1, "pool": True,
                           "epochs": 1, "agreement_held_out": 0.81, "value_loss_held_out": 0.15} if warm else None}
    (run / "model_card.json").write_text(json.dumps(card))
    return run


def test_a_new_model_keeps_the_previous_one_and_plays_with_its_rated_search(tmp_path, models, monkeypatch):
    script = _script()
    monkeypatch.setattr(script, "MODELS", models)
    old_bytes = (models / "trained_2p.pt").read_bytes()
    monkeypatch.setattr(sys, "argv", ["ship_model.py", "--run", str(_run_folder(tmp_path, warm=True)), "--name", "2p",
                                      "--play", "sims=64,considered=8,search=compiled", "--previous-as", "2p-old"])
    script.main()
    card = json.loads((models / "trained_2p.json").read_text())
    assert card["play"] == {"sims": 64, "considered": 8, "search": "compiled"}
    assert card["previous"] == "trained:2p-old" and card["shipped_as"] == "2p"
    assert (models / "trained_2p_old.pt").read_bytes() == old_bytes
    assert json.loads((models / "trained_2p_old.json").read_text())["shipped_as"] == "2p-old"
    text = (models / "trained_2p.md").read_text()
    assert "- plays with: sims=64, considered=8, search=compiled" in text
    assert "- previous model: `trained:2p-old`" in text
    assert "imitated lookahead on 430,000 decisions" in text and "no self-play rounds" in text
    agent = make_agent("trained:2p", seed=0)  # the card's search unless the spec says otherwise
    assert (agent.search.num_simulations, agent.search.max_considered) == (64, 8)
    assert "search=compiled" in agent.name
    other = make_agent("trained:2p,sims=4,considered=2,search=python", seed=0)
    assert (other.search.num_simulations, other.search.max_considered) == (4, 2)
    old = make_agent("trained:2p-old", seed=0)  # the previous card has no play: the az agent's defaults
    assert (old.search.num_simulations, old.search.max_considered) == (az.DEFAULT_SIMS, az.DEFAULT_CONSIDERED)


def test_play_settings_are_checked_and_named(tmp_path, models, monkeypatch):
    script = _script()
    with pytest.raises(ValueError, match="considered"):
        script.play_settings("considered=0")
    with pytest.raises(SystemExit, match="only sims, considered, dets and search"):
        script.play_settings("sims=8,seed=3")
    assert script.play_settings("sims=8") == {"sims": 8}
    assert script.play_settings("sims=8,dets=4") == {"sims": 8, "dets": 4}
    with pytest.raises(ValueError, match="dets"):
        script.play_settings("dets=0")


def test_a_second_step_from_the_replaced_model_names_its_start_by_the_previous_name(tmp_path, models, monkeypatch):
    script = _script()
    monkeypatch.setattr(script, "MODELS", models)
    run = _run_folder(tmp_path, warm=False)
    card = json.loads((run / "model_card.json").read_text())
    card["initial_network"] = {"init_from": "trained:2p", "file": "/elsewhere/agents/models/trained_2p.pt", "name": "r"}
    (run / "model_card.json").write_text(json.dumps(card))
    monkeypatch.setattr(sys, "argv", ["ship_model.py", "--run", str(run), "--name", "2p", "--previous-as", "2p-old"])
    script.main()
    start = json.loads((models / "trained_2p.json").read_text())["run"]["initial_network"]
    assert start == {"init_from": "trained:2p-old", "file": "agents/models/trained_2p_old.pt", "name": "r"}


def test_keeping_the_previous_model_refuses_a_missing_model_or_a_taken_name(tmp_path, models, monkeypatch):
    script = _script()
    monkeypatch.setattr(script, "MODELS", models)
    before = sorted(p.name for p in models.iterdir())
    (models / "trained_4p.md").unlink()  # a shipped model without its card: nothing is renamed
    with pytest.raises(SystemExit, match=r"no model is shipped as trained:4p \(trained_4p.md missing"):
        script.keep_previous("4p", "4p-old")
    with pytest.raises(SystemExit, match="trained:2p-selfplay is already shipped"):
        script.keep_previous("2p", "2p-selfplay")
    assert sorted(p.name for p in models.iterdir()) == [n for n in before if n != "trained_4p.md"]


def _refused_moving_no_file(models: Path, monkeypatch, args: list[str], match: str) -> None:
    """scripts/ship_model.py with these arguments stops with `match` and leaves the models' folder as it was."""
    script = _script()
    monkeypatch.setattr(script, "MODELS", models)
    before = {p.name: p.read_bytes() for p in models.iterdir()}
    monkeypatch.setattr(sys, "argv", ["ship_model.py", *args])
    with pytest.raises(SystemExit, match=match):
        script.main()
    assert {p.name: p.read_bytes() for p in models.iterdir()} == before


def test_a_bad_play_setting_moves_no_file(tmp_path, models, monkeypatch):
    _refused_moving_no_file(models, monkeypatch, ["--run", str(_run_folder(tmp_path, warm=True)), "--name", "2p",
                                                  "--play", "sims=64,seed=3", "--previous-as", "2p-old"],
                            "only sims, considered, dets and search")


def test_a_model_shipped_under_a_new_name_plays_by_that_name(tmp_path, models, monkeypatch):
    script = _script()
    monkeypatch.setattr(script, "MODELS", models)
    for shipped in models.glob("trained_crossroads_2p.*"):  # the test ships it afresh
        shipped.unlink()
    assert "crossroads-2p" not in az.shipped_models()
    with pytest.raises(ValueError, match="model must be one of 2p, 4p, nomads-2p, "):
        make_agent("trained:crossroads-2p", seed=0)
    monkeypatch.setattr(sys, "argv", ["ship_model.py", "--run", str(_run_folder(tmp_path, warm=True)),
                                      "--name", "crossroads-2p", "--play", "sims=4"])
    script.main()
    assert az.shipped_models()["crossroads-2p"] == "trained_crossroads_2p.pt"
    assert list(az.shipped_models())[:4] == ["2p", "4p", "nomads-2p", "crossroads-2p"]  # the primary names first
    agent = make_agent("trained:crossroads-2p", seed=0)
    assert agent.search.num_simulations == 4


def test_a_broken_card_is_named(models):
    (models / "trained_4p.json").write_text("[1, 2")
    with pytest.raises(ValueError, match=r"model card .*trained_4p.json: not a JSON object with a shipped_as field"):
        make_agent("trained:2p", seed=0)


def _tournament_folder(tmp_path: Path, setup: dict) -> Path:
    """A folder as `kbenv tournament` leaves it: summary.json with the config (set-up included) and the seats."""
    folder = tmp_path / "rating"
    folder.mkdir()
    seat = {"seats": 40, "win_share": 0.6, "win_share_ci95": [0.45, 0.74], "fair_share": 0.5, "mean_gold": 60.0}
    summary = {"games": 40, "config": {"agents": ["az:path=m.pt", "lookahead"], "players": [2], "seed": 9,
                                       "setup": setup, "field": False},
               "by_players": {"2": {"seats": {"az:path=m.pt": seat, "lookahead": dict(seat, win_share=0.4)}}}}
    (folder / "summary.json").write_text(json.dumps(summary))
    return folder


def test_the_card_gives_the_rating_command_with_its_game_set_up(tmp_path, models, monkeypatch):
    script = _script()
    monkeypatch.setattr(script, "MODELS", models)
    setup = {"expansions": ["nomads", "capitol", "caves"], "rules": ["caves_are_plain_mountain"]}
    rating = _tournament_folder(tmp_path, setup)
    monkeypatch.setattr(sys, "argv", ["ship_model.py", "--run", str(_run_folder(tmp_path, warm=True)), "--name", "4p",
                                      "--tournaments", str(rating)])
    script.main()
    text = (models / "trained_4p.md").read_text()
    assert ("`kbenv tournament --agents az:path=m.pt lookahead --players 2 --games 40 --seed 9 "
            "--expansions nomads,capitol,caves --rules caves_are_plain_mountain`") in text
    assert "| 2 | lookahead | 0.400 [0.450, 0.740] | 0.50 | 60.0 |" in text


def test_a_set_up_no_option_asks_for_moves_no_file(tmp_path, models, monkeypatch):
    rating = _tournament_folder(tmp_path, {"sections": [1, 2, 3, 4]})
    _refused_moving_no_file(models, monkeypatch, ["--run", str(_run_folder(tmp_path, warm=True)), "--name", "4p",
                                                  "--tournaments", str(rating), "--previous-as", "4p-old"],
                            "no kbenv tournament option for sections")


def test_a_kept_model_card_says_which_name_its_rating_command_meant(tmp_path, models, monkeypatch):
    script = _script()
    monkeypatch.setattr(script, "MODELS", models)
    card_path = models / "trained_4p.json"
    card = json.loads(card_path.read_text())
    card["tournaments"] = [{"agents": ["trained:4p", "lookahead"], "players": [4], "games": 8, "seed": 1,
                            "field": True, "results": {}}]
    card_path.write_text(json.dumps(card))
    script.keep_previous("4p", "4p-old")
    text = (models / "trained_4p_old.md").read_text()
    assert "`kbenv tournament --agents trained:4p lookahead --players 4 --games 8 --seed 1 --field`" in text
    assert "(`trained:4p` in this command was this model when it was rated; it is `trained:4p-old` now.)" in text
    assert "in this command was" not in script.markdown(dict(card, shipped_as="4p"))


def test_rating_a_shipped_model_puts_the_new_ratings_first_and_keeps_its_network(tmp_path, models, monkeypatch):
    script = _script()
    monkeypatch.setattr(script, "MODELS", models)
    before = json.loads((models / "trained_4p.json").read_text())
    network = (models / "trained_4p.pt").read_bytes()
    rating = _tournament_folder(tmp_path, {"expansions": ["crossroads"]})
    monkeypatch.setattr(sys, "argv", ["ship_model.py", "--rate", "4p", "--tournaments", str(rating),
                                      "--play", "sims=128,considered=16,search=compiled"])
    script.main()
    card = json.loads((models / "trained_4p.json").read_text())
    assert card["play"] == {"sims": 128, "considered": 16, "search": "compiled"}
    assert card["tournaments"][0]["seed"] == 9 and card["tournaments"][1:] == before["tournaments"]
    assert {k: v for k, v in card.items() if k not in ("play", "tournaments")} == \
        {k: v for k, v in before.items() if k not in ("play", "tournaments")}
    assert (models / "trained_4p.pt").read_bytes() == network
    text = (models / "trained_4p.md").read_text()
    assert "- plays with: sims=128, considered=16, search=compiled" in text
    assert text.index("--seed 9 --expansions crossroads") < text.index(f"--seed {before['tournaments'][0]['seed']}")


def test_rating_refuses_a_model_not_shipped_or_nothing_to_change(tmp_path, models, monkeypatch):
    script = _script()
    monkeypatch.setattr(script, "MODELS", models)
    rating = _tournament_folder(tmp_path, {})
    monkeypatch.setattr(sys, "argv", ["ship_model.py", "--rate", "9p", "--tournaments", str(rating)])
    with pytest.raises(SystemExit, match="no model is shipped as trained:9p"):
        script.main()
    for args in (["--rate", "4p"], ["--rate", "4p", "--name", "4p", "--play", "sims=8"],
                 ["--rate", "4p", "--run", str(tmp_path)]):
        monkeypatch.setattr(sys, "argv", ["ship_model.py", *args])
        with pytest.raises(SystemExit) as stopped:
            script.main()
        assert stopped.value.code == 2  # argparse's usage error, before any file is read or written
    assert not (models / "trained_9p.json").exists()
