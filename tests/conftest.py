"""Shared helpers for the engine tests."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

from kbenv import Game

# No per-example deadline: the first example of a test may compile numba kernels (a cold cache takes
# seconds), and CI machines are shared. Examples stay few; the suite's time is watched as a whole.
settings.register_profile("kbenv", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("kbenv")


def pytest_configure(config) -> None:
    """With pytest-xdist workers, compile the kernels once in this controller first (`kbenv warmup`), so that the
    workers load them from the cache instead of each compiling the same ones. One process compiles as it goes."""
    workers = getattr(config.option, "numprocesses", None)
    if hasattr(config, "workerinput") or not workers or os.environ.get("NUMBA_DISABLE_JIT") == "1":
        return
    from kbenv.warmup import DEFAULT_TARGETS, warmup

    capture = config.pluginmanager.getplugin("capturemanager")
    with capture.global_and_fixture_disabled():
        report = warmup((*DEFAULT_TARGETS, "search"), workers=2)
        print(f"kbenv warmup: {report['compiled']} compilations in {report['seconds']:.0f} s", file=sys.stderr)


def play_random(game: Game, rng: np.random.Generator, max_decisions: int = 5000) -> Game:
    """Play uniformly random legal decisions to the end of the game."""
    for _ in range(max_decisions):
        if game.done:
            break
        game.step(int(rng.choice(game.legal_actions())))
    return game


@pytest.fixture(autouse=True)
def _restore_denormals():
    """Trained networks flush denormal floats (a global CPU flag, agents.training.networks.flush_denormals); put it
    back after each test, or hypothesis cannot draw subnormal floats in later tests of the same worker."""
    yield
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_flush_denormal(False)


@pytest.fixture(scope="session")
def random_model(tmp_path_factory) -> Path:
    """A small search network (agents.alphazero.network) with seeded random weights, saved as model.pt."""
    import torch

    from agents.alphazero.network import PolicyValueNet, save_network

    torch.manual_seed(0)
    path = tmp_path_factory.mktemp("model") / "model.pt"
    save_network(PolicyValueNet(channels=8, blocks=1, head_channels=2), path)
    return path


@pytest.fixture
def an_expansion_under_construction(monkeypatch) -> str:
    """Every expansion is implemented now; the refusal of one under construction (KBENV_EXPERIMENTAL) is kept for
    the next one: this fixture puts the Island's catalogue row back under construction for one test and
    clears the opt-in, and returns its name."""
    from dataclasses import replace

    from kbenv import catalogue as CAT

    rows = tuple(replace(e, implemented=False, under_construction=True) if e.name == "island" else e
                 for e in CAT.EXPANSIONS)
    monkeypatch.setattr(CAT, "EXPANSIONS", rows)
    monkeypatch.delenv(CAT.EXPERIMENTAL_ENV, raising=False)
    return "island"

