"""Island set-up (components, A-QI5, decision 5 substitutes), position files (decision 8, IA2-IA13) and the CLI.

Random set-ups go through ``Game.new(n, seed=s, expansions=["island"], island_side=...)`` (IA11) and are read through
``g.setup.sections`` and the full-state position (``island_of`` / ``state``; IA10). No layout of either island side is
known (spec section 2); the shipped sides are substitutes ``island-substitute-1`` / ``-2`` (decision 5, IA12).

Rule text quoted (the comments below name these):

COMPONENTS (EN 1435-1439): "1 Island (double-sided) • 2 summary cards of the location tiles • 4 location tiles (2x
    rope bridge and 2x tree house)"
SETUP (EN 1443): "Place the island next to the game board. Put 2 corresponding location tiles on the location hex
    and place the corresponding summary of location tile next to the island."
SETUP_DE (DE 1704-1708): "Die Insel wird mit einer beliebigen Seite neben den Spielplan gelegt. Auf das Ortsfeld
    werden die 2 passenden Ortsplättchen abgelegt. Die passende Übersicht Ortsplättchen, wird an die Insel angelegt.
    Das übrige Spielmaterial wird nicht benötigt."
A_QI4_LINES (spec A-QI4): "The island has 5 horizontal lines (implied by 'up to 5 gold')."
A_QI5 (spec A-QI5): "The text says 'next to the game board'. pmw57 pairs it with the Harbor/Lighthouse sections (a
    usage suggestion, not in the text). Default: a set-up option independent of sections."
DECISION_5 (spec, Decisions taken 5): "the project also ships substitute sections, named as such everywhere (e.g.
    marsh-substitute-1), made by a documented seeded procedure that follows the printed component counts"
DECISION_8 (spec decision 8): "The Island: "island": {"board": [...rows...], "side": name} in a position, island
    hexes addressed as ["island", r, c]; its own section file format is the same as a board section's."
"""

import json
import os
import subprocess
import sys
from collections import Counter

import pytest

from tests.rules.island.helpers import (
    EXPANSION,
    HAND_SIDE,
    POWERS,
    REPO_ROOT,
    ROWS,
    SIDE_OPTION,
    SUBSTITUTE_SIDES,
    I,
    game,
    ipos,
    island_of,
    legal,
    new_game,
    own,
    requires_island,
    setup_error,
    state,
    tiles_left,
)
from tests.rules.positions import BASE_SECTIONS

pytestmark = requires_island




def location_hexes(island: dict) -> dict:
    """{(r, c): type} of an island as a position writes it (IA2)."""
    return {tuple(int(x) for x in key.split(",")): kind for key, kind in (island.get("locations") or {}).items()}


# --------------------------------------------------------------------------- A-QI5 / decision 5: random set-ups

def test_A_QI5_the_island_goes_with_any_sections(kx):
    # A_QI5: independent of the sections -> over 60 games every base section appears (not only the Harbor); each
    # game has the island, on one of the two shipped sides; both sides occur
    seen, sides = Counter(), Counter()
    for seed in range(60):
        g = new_game(2 + seed % 4, seed)
        names = [name for name, _ in g.setup.sections]
        assert set(names) <= set(BASE_SECTIONS), names
        seen.update(names)
        sides[island_of(g)["side"]] += 1
    assert set(seen) == set(BASE_SECTIONS)
    assert set(sides) == set(SUBSTITUTE_SIDES), sides


@pytest.mark.parametrize("side", SUBSTITUTE_SIDES)
def test_A_QI5_the_side_option(kx, side):
    g = new_game(3, 11, side=side)
    assert island_of(g)["side"] == side
    # the same seed and side give the same island; the option does not change the sections
    assert island_of(new_game(3, 11, side=side)) == island_of(g)
    assert new_game(3, 11, side=side).setup.sections == g.setup.sections


@pytest.mark.parametrize("side", SUBSTITUTE_SIDES)
def test_A_QI5_components_each_side_has_5_lines_and_one_location_hex_with_2_tiles(kx, side):
    # A_QI4_LINES: 5 rows; SETUP_DE "Auf das Ortsfeld" (one location hex) with "die 2 passenden Ortsplättchen";
    # COMPONENTS: the types are rope bridge and tree house
    g = new_game(2, 5, side=side)
    island = island_of(g)
    assert len(island["board"]) == ROWS
    locs = location_hexes(island)
    assert len(locs) == 1, locs
    (r, c), kind = next(iter(locs.items()))
    assert kind in POWERS
    assert island["board"][r][c] == "L"
    assert tiles_left(g, I(r, c)) == 2
    # the island has buildable terrain (the two powers move to canyon and forest)
    letters = Counter("".join(island["board"]))
    assert sum(letters[x] for x in "GCDFT") > 0, letters


def test_A_QI5_components_the_two_sides_hold_rope_bridge_and_tree_house(kx):
    # COMPONENTS "2x rope bridge and 2x tree house" with 2 tiles per location hex and one location hex per side ->
    # one side has the rope bridge, the other the tree house (our reading of the double-sided board)
    kinds = {side: set(location_hexes(island_of(new_game(2, 5, side=side))).values()) for side in SUBSTITUTE_SIDES}
    assert sorted(k for v in kinds.values() for k in v) == sorted(POWERS), kinds


def test_A_QI5_with_other_expansions(kx):
    # X-1 combining: the island beside a Nomads board
    g = new_game(2, 3, expansions=(EXPANSION, "nomads"))
    assert island_of(g)["side"] in SUBSTITUTE_SIDES


def test_A_QI5_bad_side_names_are_refused():
    from kbenv import SetupError

    with pytest.raises(SetupError) as info:
        new_game(2, 1, side="atlantis")
    assert str(info.value).startswith(SIDE_OPTION), str(info.value)
    # the option without the expansion
    with pytest.raises(SetupError) as info:
        new_game(2, 1, side=SUBSTITUTE_SIDES[0], expansions=("nomads",))
    assert str(info.value).startswith(SIDE_OPTION), str(info.value)


def test_decision2_base_games_have_no_island():
    # decision 2: base games stay as they are -> no "island" key in their positions
    from kbenv import Game

    assert "island" not in Game.new(2, seed=0).to_position()
    assert "island" not in Game.new(2, seed=0, expansions=["nomads"]).to_position()


# --------------------------------------------------------------------------- decision 8: position files

def small_position(kx, **kwargs):
    island = {(0, 0): "G", (1, 1): "C", (3, 3): "T"}
    return ipos(kx, {(5, 5): "G", (12, 12): "C"}, settlements=[[(5, 5), I(0, 0)], []], card="C", island=island,
                island_locations={(2, 2): "rope_bridge"}, opp_area=False, **kwargs)


def test_decision8_round_trip_of_an_island_position(kx):
    # the position's island comes back as given (board, side label, location), with the settlements on it; reading
    # the full state back gives the same legal decisions (own (5, 5) and I(0,0): no canyon touches them -> every free
    # canyon: (12, 12) and I(1,1); no OPP_C here)
    pos = small_position(kx)
    g = game(pos)
    st = state(g)
    assert st["island"]["board"] == pos["island"]["board"]
    assert st["island"]["side"] == HAND_SIDE
    assert location_hexes(st["island"]) == {(2, 2): "rope_bridge"}
    assert own(g, 0) == {(5, 5), I(0, 0)}
    assert legal(pos) == {(12, 12), I(1, 1)}
    assert legal(json.loads(json.dumps(st))) == {(12, 12), I(1, 1)}


@pytest.mark.parametrize("side", SUBSTITUTE_SIDES)
def test_decision8_a_side_name_alone_loads_the_shipped_side(kx, side):
    pos = small_position(kx)
    pos["island"] = {"side": side}
    pos["settlements"] = [[[5, 5]], []]
    assert state(game(pos))["island"]["board"] == island_of(new_game(2, 5, side=side))["board"]


def test_IA13_bad_island_positions_are_refused(kx):
    pos = small_position(kx)
    # the island key without the expansion
    setup_error({**pos, "expansions": ["nomads"]}, "island")
    # an unknown side name without a board
    setup_error({**pos, "island": {"side": "atlantis"}}, "island")
    # an unknown letter on the island
    bad = json.loads(json.dumps(pos))
    bad["island"]["board"][4] = "GGZG"
    setup_error(bad, "island")
    # a location type that is not the island's
    bad = json.loads(json.dumps(pos))
    bad["island"]["locations"] = {"2,2": "oasis"}
    setup_error(bad, "island")


def test_IA13_bad_island_settlements_are_refused(kx):
    pos = small_position(kx)
    for hexes in ([["island", 7, 0]], [["island", 2, 2]], [["island", 4, 0]]):
        # outside the 5 x 4 grid; the location hex; island mountain (I(4,0) is M)
        bad = json.loads(json.dumps(pos))
        bad["settlements"][0] = [[5, 5], *hexes]
        setup_error(bad, "settlements")


def run_cli(*args):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "kbenv.cli", *map(str, args)], check=False, capture_output=True,
                          text=True, cwd=REPO_ROOT, env=env, timeout=120)


def test_decision8_kbenv_legal_json_names_island_hexes(kx, tmp_path):
    # the same position as the round trip: `kbenv legal FILE --json` lists ["island", 1, 1] beside [12, 12]
    path = tmp_path / "island.json"
    path.write_text(json.dumps(small_position(kx)))
    out = run_cli("legal", path, "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["player"] == 0
    assert {tuple(x) for x in data["legal"]} == {(12, 12), ("island", 1, 1)}
    # and `kbenv score --json` scores it without error
    out = run_cli("score", path, "--json")
    assert out.returncode == 0, out.stderr
    assert len(json.loads(out.stdout)["players"]) == 2


def test_QI1_island_builds_occur_in_random_games():
    # issue 23 "island builds really occur in random games": uniformly random legal decisions in 20 seeded games of
    # 2-4 players; every first mandatory build may go to the island (QI-1), so some game ends with a settlement there
    import numpy as np

    on_island = 0
    for seed in range(20):
        g = new_game(2 + seed % 3, seed)
        rng = np.random.default_rng(seed)
        while not g.done:
            g.step(int(rng.choice(g.legal_actions())))
        on_island += any(h[0] == "island" for p in state(g)["settlements"] for h in p)
    assert on_island > 0
