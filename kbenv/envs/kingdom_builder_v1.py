"""Kingdom Builder with the expansions, as a PettingZoo AEC environment (`kingdom_builder_v1`).

| Import             | `from kbenv import kingdom_builder_v1` (`kingdom_builder_v1.env(...)`)           |
|--------------------|-----------------------------------------------------------------------------------|
| Actions            | Discrete(ACTION_SIZE_V1): layout v1 of `kbenv.catalogue` (v0's 409 ids are its prefix) |
| Agents             | `player_0 .. player_{n-1}` (2 to 5); `agent_selection` is the player who decides next |
| Observation        | Dict(observation=Box(0, 1, (50, 20, 20), float32), action_mask=Box(0, 1, (A,), int8)) |
| Rulesets           | `expansions=[...]` any subset of nomads, crossroads, capitol, caves, marshlands, harvest |
|                    | and island (`island_side=` a shipped side, default a seeded choice);                     |
|                    | `rules={flag: bool}` (or `ruleset=kbenv.ruleset.Ruleset(...)`; `env.unwrapped.ruleset` is one) |

Everything of `kingdom_builder_v0` holds (decision model, rewards, wrappers, `state()`), with:

- Actions: 0..399 hexes, 400..407 the base powers, 408 END_TURN (as in v0), then from 409 on the
  expansion decisions in the order of `kbenv.catalogue.ACTION_NAMES` (Nomads location powers,
  Crossroads powers `foresters_lodge` .. `lighthouse`, nomad tiles `donation-G` .. `sword`, `cave`, ...,
  `done`). Ids of expansions not implemented yet are never legal; the layout is fixed so that trained
  networks keep their meaning as expansions arrive.
- Observation: channels 0..27 are the v0 observation; channels 28..49 and the v1 features are listed by
  `kbenv.engine.observe_v1.layout_table()` (walls, capitols, caves, nomad tiles on their spaces, the
  type of each Nomads location hex, the features plane: phase incl. `step`, the power being resolved,
  own nomad tiles usable now and waiting, banked gold, walls left, outpost armed, cave used, steps
  left/taken, Nomads tiles, red cards, expansions, the Sword's victim, and for Crossroads the hand, the
  Fort's card, pieces left, tasks and tiles; then the Crossroads planes: own and other pieces, city
  halls, warrior zones, Crossroads location types; then the Marshlands planes: swamp, palaces,
  Marshlands location types, and the Marshlands features: tiles and bonus tiles, reserves set aside, the own
  swamp card, the turn's terrain, the removed terrain, the six cards, the power being resolved; then the
  Harvest planes: farmland, silos, Harvest location types, scouts, Mayors rows, and its
  features: tiles, number tiles, the farm action, Rovers sections, the silo phase, the cards, the power being
  resolved); then the Island's two tables (row k = island hex k, a column per fact: terrain, location, tiles,
  settlements, legal, source, coast; walls, pieces, scouts, Mayors lines; kbenv.engine.island.observe) and its
  features (tiles, the power being resolved, Mayors lines, rule flags). 50 planes: 80 KB. The Crossroads,
  Marshlands, Harvest and Island planes and features were appended, so channels 0..34, 0..39, 0..42 and 0..47 keep
  their meaning (networks made before read them).
- Reactions (Marshlands, M-8; the power of catalogue.REACTION_POWERS): a player other than the turn owner
  decides (that power or "pass", then a hex); `agent_selection` is that player, and its observation has
  `to_move` and the legal plane.
- Random set-ups draw from the base sections plus the 4 of Nomads and the 4 of Crossroads when those
  are in play, and from 13 cards when Nomads is in play. Other players' extra Crossroads cards are
  never observed (their number is).
"""

from __future__ import annotations

import numpy as np
from pettingzoo import AECEnv

from ..catalogue import ACTION_SIZE_V1
from ..engine.observe_v1 import OBSERVATION_SHAPE_V1
from ..observation import observation_planes_v1, observation_space_v1
from ..setup import SetupError, standard_setup
from . import kingdom_builder_v0 as v0

ENV_NAME = "kingdom_builder_v1"


def env(**kwargs) -> AECEnv:
    """The environment with PettingZoo's standard wrappers for classic games."""
    return v0.wrap(raw_env(**kwargs))


class raw_env(v0.raw_env):  # noqa: N801 - PettingZoo naming convention
    """Kingdom Builder with a ruleset; one decision per step (see the module docstring)."""

    metadata = {**v0.raw_env.metadata, "name": ENV_NAME}
    ACTION_SIZE = ACTION_SIZE_V1
    STATE_CHANNELS = OBSERVATION_SHAPE_V1[0]

    def __init__(self, num_players: int = 2, expansions=None, rules=None, ruleset=None, island_side=None, **kwargs):
        if kwargs.get("hints", "none") != "none":
            raise SetupError("hints: hint planes exist for kingdom_builder_v0 (the base game) only")
        self._ruleset = {"expansions": expansions, "rules": rules, "ruleset": ruleset}
        super().__init__(num_players=num_players, **kwargs)
        if island_side is not None:  # the Island's side for every game (default: each game's seed chooses)
            self.setup_options["island_side"] = island_side
            standard_setup(num_players, 0, **self.setup_options)  # SetupError naming island_side

    def _ruleset_options(self) -> dict:
        return dict(self._ruleset)

    def _observation_box(self):
        return observation_space_v1()

    def _planes(self, player: int) -> np.ndarray:
        return observation_planes_v1(self.game.state, player)

    def _state_planes(self, player: int) -> np.ndarray:
        return observation_planes_v1(self.game.state, player)
