"""The Python side's layout (issue 49): the folders of kbenv/ import each other one way only, every expansion
declares its Python side once (kbenv/expansions/<package>/side.py), and the generic set-up and position code
reaches the expansions through those sides."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import kbenv.catalogue as CAT
from kbenv.expansions.registry import SIDE_PACKAGES, all_sides, sides_of

KBENV = Path(__file__).resolve().parents[1] / "kbenv"
# Lower first: a folder imports only folders below it, at module level and inside functions alike.
LAYERS = ("expansions", "setup", "game", "positions", "present")
# Names a generic module of these folders may not test: each expansion's keys and terrains come from its side.
GENERIC = ("setup/pieces.py", "setup/resume.py", "game/position.py")


def imports_of(path: Path) -> set[str]:
    """The kbenv modules a file imports (relative imports resolved), inside functions too, TYPE_CHECKING
    blocks excepted."""
    rel = path.relative_to(KBENV.parent).with_suffix("")
    parts = list(rel.parts)
    package = parts[:-1]
    found = set()

    def visit(nodes) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                continue
            if isinstance(node, ast.ImportFrom):
                base = package[: len(package) - node.level + 1] if node.level else []
                target = ".".join(base + ([node.module] if node.module else []))
                found.update([target] if node.module else [f"{target}.{a.name}" for a in node.names])
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            for child in ast.iter_child_nodes(node):
                visit([child])

    visit(ast.parse(path.read_text()).body)
    return {name for name in found if name.startswith("kbenv.")}


def folder_of(module: str) -> str:
    return module.split(".")[1]


@pytest.mark.parametrize("folder", LAYERS)
def test_a_folder_imports_no_folder_above_it(folder):
    above = set(LAYERS[LAYERS.index(folder) + 1:])
    wrong = sorted((str(path.relative_to(KBENV)), name) for path in (KBENV / folder).rglob("*.py")
                   for name in imports_of(path) if folder_of(name) in above)
    assert not wrong, f"{folder} imports folders above it: {wrong}"


def test_every_catalogue_row_has_one_side_in_catalogue_order():
    assert [side.name for side in all_sides()] == [e.name for e in CAT.EXPANSIONS]
    assert set(SIDE_PACKAGES) == {e.name for e in CAT.EXPANSIONS}
    for package in set(SIDE_PACKAGES.values()):
        assert (KBENV / "expansions" / package / "side.py").is_file()


def test_sides_of_reads_bits_and_names_alike():
    bits = CAT.EXPANSION_BIT["harvest"] | CAT.EXPANSION_BIT["nomads"]
    by_names = [s.name for s in sides_of(["harvest", "nomads"])]
    assert [s.name for s in sides_of(bits)] == ["nomads", "harvest"] == by_names
    assert sides_of(0) == sides_of(None) == sides_of([]) == ()


def test_each_set_up_and_full_state_field_has_one_owner():
    fields = [f for side in all_sides() for f in side.setup_fields]
    resume = [f for side in all_sides() for f in side.resume_fields]
    assert len(fields) == len(set(fields)) and len(resume) == len(set(resume))
    assert not set(fields) & set(resume)


@pytest.mark.parametrize("module", GENERIC)
def test_generic_position_code_names_no_expansion(module):
    text = (KBENV / module).read_text()
    tree = ast.parse(text)
    names = {e.name for e in CAT.EXPANSIONS}
    named = sorted({node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and node.value in names})
    bits = sorted({node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
                   and node.attr in {n.upper() for n in names}})
    assert not named and not bits, f"{module} tests expansions by name {named} or bit {bits}"


# ----- the generic checks read each field's owner from the sides ---------------------------------------------------
def _base_position() -> dict:
    from kbenv import Game

    return Game.new(2, seed=1).to_position()


OWNED_SETUP = [(side.name, f) for side in all_sides() for f in side.setup_fields]
OWNED_RESUME = [(side.name, f) for side in all_sides() for f in side.resume_fields]
OWNED_DECISION = [(side.name, f) for side in all_sides() for f in side.decision_fields]


@pytest.mark.parametrize(("owner", "field"), OWNED_SETUP + OWNED_RESUME)
def test_a_field_of_an_expansion_not_in_play_is_refused_by_name(owner, field):
    from kbenv.positions.files import game_from_position
    from kbenv.setup import SetupError

    position = _base_position()
    position[field] = []
    with pytest.raises(SetupError, match=f"{field}: needs the '{owner}' expansion"):
        game_from_position(position)


@pytest.mark.parametrize(("owner", "field"), OWNED_DECISION)
def test_a_decision_key_of_an_expansion_not_in_play_is_refused_by_name(owner, field):
    from kbenv.positions.files import game_from_position
    from kbenv.setup import SetupError

    position = _base_position()
    position["decision"] = {**position["decision"], field: [{}] if field == "frames" else "G"}
    with pytest.raises(SetupError, match=f"decision.{field}: needs the '{owner}' expansion"):
        game_from_position(position)


def test_frames_need_an_expansion_with_reactions():
    from kbenv.positions.files import game_from_position
    from kbenv.setup import SetupError

    position = _base_position()
    position["decision"] = {**position["decision"], "frames": [{}]}
    owner = next(side.name for side in all_sides() if side.reactions)
    with pytest.raises(SetupError, match=f"decision.frames: needs the '{owner}' expansion"):
        game_from_position(position)


def test_a_phase_of_an_expansion_not_in_play_is_refused():
    from kbenv.positions.files import game_from_position
    from kbenv.setup import SetupError

    owned = [(side.name, phase) for side in all_sides() for phase in side.decision_phases]
    assert owned
    for owner, phase in owned:
        position = _base_position()
        position["decision"] = {**position["decision"], "phase": phase}
        with pytest.raises(SetupError, match=f"decision.phase: '{phase}' needs the '{owner}' expansion"):
            game_from_position(position)


def test_a_view_lists_the_public_facts_of_the_expansions_in_play():
    from kbenv import Game
    from kbenv.game.view import PlayerView

    game = Game.new(2, seed=3, expansions=["crossroads", "harvest", "island"])
    view = PlayerView(game, 1)
    facts = view.facts()
    assert list(facts) == ["harvest", "island"]  # Crossroads declares none; catalogue order
    assert facts["harvest"] == view.harvest() and facts["island"] == view.island()
    assert PlayerView(Game.new(2, seed=3), 0).facts() == {}
