"""kbenv: Kingdom Builder as a fast, exact reinforcement-learning environment.

Rooms: `kbenv.engine` and `kbenv.board` (the rules as numba kernels over the state vector), `kbenv.game` and
`kbenv.vector` (one game, a batch of games), `kbenv.policies` (built-in policies), `kbenv.envs` (the
environment adapters: PettingZoo, gymnasium, stable-baselines3 VecEnv, OpenSpiel).
"""

from . import parallel  # noqa: F401,I001  (first: threading settings before numba loads OpenMP)
from . import numba_cache  # noqa: F401,I001  (second: numba's cache stamps each module by its import closure)
from . import kernel_signatures  # noqa: F401,I001  (third: one specialisation per argument type, not per constant)
from . import compile_progress  # noqa: F401,I001  (a progress bar while kernels compile for longer than 2 s)
from . import bundled  # noqa: F401,I001  (kbenv.agents, kbenv.benchmarks: in a checkout, the folders beside kbenv/)
from .envs import old_paths  # noqa: F401,I001  (installs kbenv.openspiel, kbenv.wrappers, ...: old paths of kbenv.envs.*)
from .envs import kingdom_builder_v0, kingdom_builder_v1, registration  # noqa: F401,I001  (registration: gymnasium ids)
from .envs import pettingzoo_ids  # noqa: F401,I001  (PettingZoo registry ids kbenv/kingdom_builder-v0, -v1)
from ._version import __version__
from .board.codes import CARD_NAMES, LOCATION_NAMES
from .engine.legal import ACTION_SIZE, END_TURN, TILE_ACTION_BASE
from .game import TILE_ACTION, Game, IllegalActionError, describe_action, hex_action
from .envs.kingdom_builder_v0 import env, raw_env
from .positions.files import score_position
from .setup import PRESETS, Setup, SetupError

__all__ = [
    "__version__",
    "env",
    "raw_env",
    "kingdom_builder_v0",
    "kingdom_builder_v1",
    "ACTION_SIZE",
    "CARD_NAMES",
    "END_TURN",
    "LOCATION_NAMES",
    "PRESETS",
    "TILE_ACTION",
    "TILE_ACTION_BASE",
    "Game",
    "IllegalActionError",
    "Setup",
    "SetupError",
    "describe_action",
    "hex_action",
    "score_position",
]


def __getattr__(name: str):
    """`kbenv.position`, `kbenv.view`, ...: the old module paths (kbenv/envs/old_paths.py) as attributes too."""
    if f"{__name__}.{name}" in old_paths.MOVED:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
