"""Game set-up: the options of a game (`Setup`, `make_setup`), random set-ups from a seed, the initial state.

- `options`: the Setup record, the checks of every option and the state vector it builds;
- `pieces`: the expansion pieces of a hand-built position (walls, capitols, caves, nomads, Crossroads pieces).

Each expansion's own set-up fields live in its package (kbenv.expansions.<name>.setup).
"""

from .options import (
    MAX_SEED,
    PRESETS,
    SEED_PERIOD,
    SETTLEMENT_TERRAINS,
    Setup,
    SetupError,
    build_state,
    card_id,
    check_flag,
    check_num_players,
    check_reward,
    check_seed,
    is_int,
    make_setup,
    resolve_preset,
    ruleset_of,
    seed_draws,
    settlement_terrains,
    standard_setup,
)

__all__ = ["MAX_SEED", "PRESETS", "SEED_PERIOD", "SETTLEMENT_TERRAINS", "Setup", "SetupError", "build_state", "card_id",
           "check_flag", "check_num_players", "check_reward", "check_seed", "is_int", "make_setup", "resolve_preset",
           "ruleset_of", "seed_draws", "settlement_terrains", "standard_setup"]


def __getattr__(name: str):
    """Every other name of kbenv.setup before it became a package (e.g. `kbenv.setup.check_hand`)."""
    from . import options

    try:
        return getattr(options, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
