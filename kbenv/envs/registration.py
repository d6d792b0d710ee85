"""Gymnasium ids for kbenv's single-seat self-play environments, registered on `import kbenv`.

| id                  | environment                                  | observation               | actions |
|---------------------|----------------------------------------------|---------------------------|---------|
| `kbenv/SelfPlay-v0` | `kbenv.envs.wrappers.SelfPlayEnv` (base game) | Box(0, 1, (28, 20, 20))   | 409     |
| `kbenv/SelfPlay-v1` | `kbenv.envs.wrappers.SelfPlayEnvV1` (any ruleset) | Box(0, 1, (50, 20, 20))   | 478     |

```python
import gymnasium
import kbenv  # noqa: F401  (registers the ids)

env = gymnasium.make("kbenv/SelfPlay-v1", num_players=3, opponents=["random", "greedy"],
                     expansions=["nomads", "crossroads"])
```

`opponents` is a list of agent spec strings (`"random"`, `"greedy"`, `"lookahead"`, `"mcts:sims=50"`,
`"trained:2p"`, ...: `agents.make_agent`), agent objects with `.act` or callables
`(observation, action_mask, view) -> action`; every opponent seat draws one of them per episode. The other
keyword arguments are those of `SelfPlayEnv` (`learner_seat`, `reward`, `illegal_action`, `render_mode`,
`preset`, `sections`, `cards`, `lords_count_zero`), plus `expansions`, `rules` and `island_side` for v1. The
environment has `action_masks()` (sb3-contrib's MaskablePPO reads it through
`env.get_wrapper_attr("action_masks")`, so it works through gymnasium's wrappers) and puts the mask in
`info["action_mask"]` too.

Both ids also have a vector entry point, the batch engine as a Gymnasium `VectorEnv` (kbenv.envs.gym_vector,
docs/vector-env.md): `gymnasium.make_vec("kbenv/SelfPlay-v1", num_envs=64, vectorization_mode="vector_entry_point")`.
Its opponents are built-in policy names or batched callables (`kbenv.envs.batch_opponents`), not agent specs.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from typing import Any

import gymnasium

from .wrappers import SelfPlayEnv, SelfPlayEnvV1

SELF_PLAY_V0 = "kbenv/SelfPlay-v0"
SELF_PLAY_V1 = "kbenv/SelfPlay-v1"


def resolve_opponents(opponents: Iterable[Any] | None) -> list[Any] | None:
    """Agent spec strings made into agents (`agents.make_agent`); agent objects and callables pass through."""
    if opponents is None:
        return None
    if isinstance(opponents, str):
        opponents = [opponents]
    resolved = []
    for opponent in opponents:
        if isinstance(opponent, str):
            from kbenv.agents import make_agent  # the spec language lives with the agents; imported only when used

            opponent = make_agent(opponent)
        resolved.append(opponent)
    return resolved


def _check_kwargs(env_id: str, cls: type, kwargs: dict[str, Any]) -> None:
    """A TypeError naming the id and the accepted arguments for any keyword `cls` does not take."""
    accepted = [name for name in inspect.signature(cls.__init__).parameters
                if name not in ("self", "kwargs")]
    if cls is SelfPlayEnvV1:
        accepted += [name for name in inspect.signature(SelfPlayEnv.__init__).parameters
                     if name != "self" and name not in accepted]
    unknown = sorted(set(kwargs) - set(accepted))
    if not unknown:
        return
    hint = ""
    if env_id == SELF_PLAY_V0 and {"expansions", "rules"} & set(unknown):
        hint = f"; {SELF_PLAY_V0} is the base game: use {SELF_PLAY_V1} for expansions and rules"
    raise TypeError(f"{env_id}: unknown keyword argument(s) {', '.join(map(repr, unknown))}; "
                    f"accepted: {', '.join(accepted)}{hint}")


def make_self_play_v0(**kwargs: Any) -> SelfPlayEnv:
    """Entry point of `kbenv/SelfPlay-v0`: `SelfPlayEnv` (base game, v0 layout) with opponent specs resolved."""
    _check_kwargs(SELF_PLAY_V0, SelfPlayEnv, kwargs)
    kwargs["opponents"] = resolve_opponents(kwargs.get("opponents"))
    return SelfPlayEnv(**kwargs)


def make_self_play_v1(**kwargs: Any) -> SelfPlayEnvV1:
    """Entry point of `kbenv/SelfPlay-v1`: `SelfPlayEnvV1` (v1 layout, any ruleset) with opponent specs resolved."""
    _check_kwargs(SELF_PLAY_V1, SelfPlayEnvV1, kwargs)
    kwargs["opponents"] = resolve_opponents(kwargs.get("opponents"))
    return SelfPlayEnvV1(**kwargs)


def make_self_play_vector_v0(num_envs: int = 1, **kwargs: Any) -> gymnasium.vector.VectorEnv:
    """Vector entry point of `kbenv/SelfPlay-v0`: `SelfPlayVectorEnv` of the base game in the v0 layout."""
    from .gym_vector import SelfPlayVectorEnv

    if "layout" in kwargs:
        raise TypeError(f"{SELF_PLAY_V0}: unknown keyword argument 'layout' (v0 is the v0 layout; use {SELF_PLAY_V1})")
    return SelfPlayVectorEnv(num_envs, layout="v0", **kwargs)


def make_self_play_vector_v1(num_envs: int = 1, **kwargs: Any) -> gymnasium.vector.VectorEnv:
    """Vector entry point of `kbenv/SelfPlay-v1`: `SelfPlayVectorEnv` in the v1 layout, any ruleset."""
    from .gym_vector import SelfPlayVectorEnv

    if "layout" in kwargs:
        raise TypeError(f"{SELF_PLAY_V1}: unknown keyword argument 'layout' (v1 is the v1 layout)")
    return SelfPlayVectorEnv(num_envs, layout="v1", **kwargs)


# gymnasium.make reads `metadata` from the entry point to check `render_mode` before building the env.
make_self_play_v0.metadata = SelfPlayEnv.metadata  # type: ignore[attr-defined]
make_self_play_v1.metadata = SelfPlayEnvV1.metadata  # type: ignore[attr-defined]

# The entry points keep the module path they had before the move into kbenv/envs (kbenv.envs.old_paths
# resolves it to this module): registered specs stay equal to those of earlier versions.
ENTRY_MODULE = "kbenv.registration"
ENTRY_POINTS: dict[str, Callable[..., gymnasium.Env]] = {
    SELF_PLAY_V0: make_self_play_v0,
    SELF_PLAY_V1: make_self_play_v1,
}
VECTOR_ENTRY_POINTS: dict[str, Callable[..., gymnasium.vector.VectorEnv]] = {
    SELF_PLAY_V0: make_self_play_vector_v0,
    SELF_PLAY_V1: make_self_play_vector_v1,
}


def register_envs() -> None:
    """Register the kbenv ids with gymnasium; ids already registered are left as they are (idempotent)."""
    for env_id, entry_point in ENTRY_POINTS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=f"{ENTRY_MODULE}:{entry_point.__name__}",
                               vector_entry_point=f"{ENTRY_MODULE}:{VECTOR_ENTRY_POINTS[env_id].__name__}",
                               disable_env_checker=False, order_enforce=True)


register_envs()
