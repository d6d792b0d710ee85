"""PettingZoo registry ids for kbenv's AEC environments, registered on `import kbenv`.

| id                         | `pettingzoo.make("aec", id)`          | `pettingzoo.make("parallel", id)`  |
|----------------------------|---------------------------------------|------------------------------------|
| `kbenv/kingdom_builder-v0` | `kbenv.envs.kingdom_builder_v0.env()` | the same, turn-based               |
| `kbenv/kingdom_builder-v1` | `kbenv.envs.kingdom_builder_v1.env()` | the same, turn-based               |

```python
import pettingzoo
import kbenv  # noqa: F401  (registers the ids)

env = pettingzoo.make("aec", "kbenv/kingdom_builder-v1", num_players=3, expansions=["nomads"])
```

Keyword arguments go to the module's `env()`. PettingZoo also accepts its own spelling `kbenv/kingdom_builder_v1`
and the unversioned `kbenv/kingdom_builder` (the highest version). The parallel env is PettingZoo's turn-based
conversion of the AEC env: every live agent gets an observation each step, only the action of the agent to move
(`infos[agent]["active_agent"]`) is played, and the others' masks are all zero. PettingZoo 1.27's registry is
filled by imports only (it reads no package entry points), so `import kbenv` comes first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pettingzoo
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from . import kingdom_builder_v0, kingdom_builder_v1

KINGDOM_BUILDER_V0 = "kbenv/kingdom_builder-v0"
KINGDOM_BUILDER_V1 = "kbenv/kingdom_builder-v1"


def parallel_env_v0(**kwargs: Any) -> pettingzoo.ParallelEnv:
    """The parallel (turn-based) form of `kingdom_builder_v0.env(**kwargs)`."""
    return turn_based_aec_to_parallel(kingdom_builder_v0.env(**kwargs))


def parallel_env_v1(**kwargs: Any) -> pettingzoo.ParallelEnv:
    """The parallel (turn-based) form of `kingdom_builder_v1.env(**kwargs)`."""
    return turn_based_aec_to_parallel(kingdom_builder_v1.env(**kwargs))


# Entry points as "module:attribute" strings (PettingZoo loads them on make), under the modules' new paths.
AEC_ENTRY_POINTS: dict[str, str] = {
    KINGDOM_BUILDER_V0: "kbenv.envs.kingdom_builder_v0:env",
    KINGDOM_BUILDER_V1: "kbenv.envs.kingdom_builder_v1:env",
}
PARALLEL_ENTRY_POINTS: dict[str, Callable[..., pettingzoo.ParallelEnv]] = {
    KINGDOM_BUILDER_V0: parallel_env_v0,
    KINGDOM_BUILDER_V1: parallel_env_v1,
}


def register_envs() -> None:
    """Register the kbenv ids with PettingZoo's AEC and parallel registries; ids already there stay (idempotent).

    A PettingZoo without a registry (before 1.27: no `pettingzoo.register`) gets nothing; the modules still work."""
    if not hasattr(pettingzoo, "register"):
        return
    for env_id, entry_point in AEC_ENTRY_POINTS.items():
        if env_id not in pettingzoo.aec_registry:  # the registry keys are the normalised ids, as here
            pettingzoo.register("aec", env_id, entry_point=entry_point)
    for env_id, creator in PARALLEL_ENTRY_POINTS.items():
        if env_id not in pettingzoo.parallel_registry:
            pettingzoo.register("parallel", env_id, entry_point=f"{__name__}:{creator.__name__}")


register_envs()
