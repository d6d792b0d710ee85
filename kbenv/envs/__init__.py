"""The environment adapters: kbenv's games behind the interfaces learners and frameworks expect.

| module | what |
|---|---|
| `kingdom_builder_v0` | PettingZoo AEC env of the base game (v0 layout; `kbenv.env`, `kbenv.raw_env`) |
| `kingdom_builder_v1` | PettingZoo AEC env of any ruleset (v1 layout) |
| `wrappers` | gymnasium single-seat self-play envs `SelfPlayEnv` (v0) and `SelfPlayEnvV1` (v1) |
| `vector_env` | stable-baselines3 `VecEnv` of N self-play games on the batch engine |
| `gym_vector` | Gymnasium `VectorEnv` of N self-play games on the batch engine (the ids' vector entry points) |
| `batch_opponents` | the in-batch opponents both batch envs play |
| `registration` | the gymnasium ids `kbenv/SelfPlay-v0` and `kbenv/SelfPlay-v1` (registered on `import kbenv`) |
| `pettingzoo_ids` | the PettingZoo ids `kbenv/kingdom_builder-v0` and `-v1`, aec and parallel (on `import kbenv`) |
| `openspiel` | the OpenSpiel game `python_kingdom_builder` (needs open_spiel; `import kbenv.openspiel`) |

These modules lived directly in `kbenv/` before; their old import paths (`kbenv.kingdom_builder_v0`,
`kbenv.wrappers`, `kbenv.vector_env`, `kbenv.registration`, `kbenv.openspiel`, ...) still work and give the
same module objects (`kbenv.envs.old_paths`). The rules (`kbenv.engine`, `kbenv.game`, `kbenv.vector`) never
import from here.
"""
