"""The import paths modules had before they moved (the environment adapters into `kbenv/envs/`, the expansions' kernels
into `kbenv/engine/<expansion>/`, the top of kbenv/ into folders), kept working.

`import kbenv.openspiel`, `from kbenv.wrappers import SelfPlayEnv`, `kbenv.vector_env.SelfPlayVecEnv`, ... give
the very module objects of `kbenv.envs.*` (not copies: `kbenv.openspiel is kbenv.envs.openspiel`), imported
only when first asked for (so `kbenv.openspiel` still needs open_spiel only when it is imported). Old pickles
that name a class by its old module path load too. Importing this module (`import kbenv` does) installs the finder.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys

from ..bundled import AliasLoader

MOVED: dict[str, str] = {
    f"kbenv.{name}": f"kbenv.envs.{name}"
    for name in ("kingdom_builder_v0", "kingdom_builder_v1", "wrappers", "vector_env", "registration", "openspiel")
}
# The expansion modules of kbenv/engine before each expansion got its package (kbenv.engine.<expansion>). The old
# modules named like the packages (nomads, crossroads, marshlands, harvest, island, queenies) are the packages:
# their names resolve there.
MOVED.update({f"kbenv.engine.{old}": f"kbenv.engine.{new}" for old, new in (
    ("nomads_hooks", "nomads.hooks"), ("tasks", "crossroads.tasks"), ("marsh_hooks", "marshlands.hooks"),
    ("marsh_scoring", "marshlands.scoring"), ("canoe", "marshlands.reactions"), ("swamp", "marshlands.swamp"),
    ("harvest_hooks", "harvest.hooks"), ("harvest_powers", "harvest.powers"), ("harvest_scoring", "harvest.scoring"),
    ("silo", "harvest.silo"), ("island_deal", "island.deal"), ("observe_island", "island.observe"),
)})

# The top of kbenv/ before its modules moved into folders (kbenv.setup, kbenv.positions, kbenv.present and each
# expansion's Python side in kbenv.expansions.<expansion>).
MOVED.update({f"kbenv.{old}": f"kbenv.{new}" for old, new in (
    ("setup_expansions", "setup.pieces"), ("setup_marshlands", "expansions.marshlands.setup"),
    ("setup_harvest", "expansions.harvest.setup"), ("setup_harvest_cards", "expansions.harvest.cards"),
    ("setup_harvest_powers", "expansions.harvest.powers"), ("harvest_view", "expansions.harvest.view"),
    ("setup_island", "expansions.island.setup"), ("island_view", "expansions.island.view"),
    ("position", "positions.files"), ("position_state", "setup.resume"), ("words", "present.words"),
    ("explain", "game.explain"), ("view", "game.view"), ("colours", "board.colours"),
    ("render_text", "present.text"), ("render_image", "present.image"),
)})


class _OldPathFinder(importlib.abc.MetaPathFinder):
    """Finds the old paths listed in MOVED (and nothing else)."""

    def find_spec(self, fullname: str, path=None, target=None) -> importlib.machinery.ModuleSpec | None:
        new = MOVED.get(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, AliasLoader(new))


def install() -> None:
    """Put the finder on `sys.meta_path` once (idempotent)."""
    if not any(isinstance(finder, _OldPathFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _OldPathFinder())


install()  # on import: `import kbenv` imports this module before any other room
