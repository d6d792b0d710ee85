"""The two action and observation layouts, v0 and v1, in one place: every switch between them goes through here.

| layout | played with | actions | observation | scalar features |
|---|---|---|---|---|
| `V0` | base games (rule flags too) | 409 | (28, 20, 20) | 75 in channel 27 (`observe.V0_FEATURES`) |
| `V1` | any ruleset with an expansion | 478 | (50, 20, 20) | v0's, then `observe_v1.V1_FEATURES` in channel 34 |

v0's 409 action ids are a prefix of v1's and v1's planes start with v0's, so a v0 observation is the first
28 channels of a v1 one. The numbers are imported from the modules that declare them (kbenv.engine.observe,
observe_v1, legal, kbenv.catalogue), never copied. `Ruleset.layout` (kbenv.ruleset) picks one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .board.geometry import NUM_HEXES
from .catalogue import ACTION_SIZE_V1, END_TURN
from .engine import observe as O0
from .engine import observe_v1 as O1
from .engine.legal import ACTION_SIZE as ACTION_SIZE_V0
from .engine.state import EXPANSIONS
from .safe_json import short_repr

NUM_HEX_ACTIONS = NUM_HEXES  # actions 0..399 choose a hex (row * 20 + col), in both layouts
FEATURE_PLANE = O0.CH_FEATURES  # the channel packing v0's scalar features (v0 and v1)
BOARD_SIDE = 20


@dataclass(frozen=True)
class Layout:
    """One layout: sizes, channel and feature offsets, and the functions that fill it."""

    name: str
    action_size: int
    num_channels: int
    num_features: int  # scalar features of the layout's own features plane(s)
    channels: dict[str, int]  # first channel of each declared plane group
    features: dict[str, int]  # first index of each declared feature group (v1: of its second features plane)
    observe_into: Callable = field(repr=False, compare=False)  # the numba kernel (st, player, out) of the planes

    @property
    def v1(self) -> bool:
        return self.name == "v1"

    @property
    def observation_shape(self) -> tuple[int, int, int]:
        return (self.num_channels, BOARD_SIDE, BOARD_SIDE)

    def shape(self, hints: str = "none") -> tuple[int, int, int]:
        """The observation shape, with the hint planes of v0 (`hints` other than "none": v0 only)."""
        from .observation import observation_shape

        self.check_hints(hints)
        return observation_shape(hints) if not self.v1 else self.observation_shape

    def check_hints(self, hints: str) -> None:
        """ValueError naming `hints` for hint planes asked of v1 (they exist for the base game's v0 only)."""
        if self.v1 and hints != "none":
            raise ValueError("hints: hint planes exist for the base game (layout v0) only")

    @property
    def num_other_actions(self) -> int:
        """Actions that are not hexes: tile powers, END_TURN and (v1) the expansion decisions."""
        return self.action_size - NUM_HEX_ACTIONS

    def planes(self, st: np.ndarray, player: int) -> np.ndarray:
        """The (C, 20, 20) float32 observation of `player` in this layout."""
        from .observation import observation_planes, observation_planes_v1

        return observation_planes_v1(st, player) if self.v1 else observation_planes(st, player)

    def mask(self, st: np.ndarray, player: int) -> np.ndarray:
        """The int8 legal mask of `player` over this layout's actions."""
        from .observation import action_mask

        return action_mask(st, player, self.action_size)

    def observation_space(self, channels: int | None = None, hints: str = "none") -> Any:
        """The gymnasium Box of the planes (v1: optionally a prefix of `channels` planes; v0: with hints, and
        `channels` None or the v0 count)."""
        from .observation import observation_space, observation_space_v1

        self.check_hints(hints)
        if self.v1:
            return observation_space_v1(channels)
        if channels is not None and channels != self.num_channels:
            raise ValueError(f"channels: layout v0 has {self.num_channels} planes, got {short_repr(channels)}")
        return observation_space(hints)


V0 = Layout("v0", ACTION_SIZE_V0, O0.NUM_CHANNELS, O0.NUM_FEATURES, dict(O0.CH0), dict(O0.F0), O0.observe_into)
V1 = Layout("v1", ACTION_SIZE_V1, O1.NUM_CHANNELS_V1, O1.NUM_FEATURES_V1, {**O0.CH0, **O1.CH1}, dict(O1.F1),
            O1.observe_v1_into)
LAYOUTS = {layout.name: layout for layout in (V0, V1)}
assert END_TURN == V0.action_size - 1 and V1.channels["features"] == FEATURE_PLANE  # v0 is v1's prefix


def layout_by_flag(v1: bool) -> Layout:
    """V1 or V0."""
    return V1 if v1 else V0


def layout_for(ruleset: Any) -> Layout:
    """The layout a ruleset is played with: V1 when an expansion is in play, else V0 (rule flags alone keep
    v0). `ruleset`: a Ruleset, anything with `expansions`, or a state vector / Game."""
    st = ruleset if isinstance(ruleset, np.ndarray) else getattr(ruleset, "state", None)
    expansions = st[EXPANSIONS] if st is not None else ruleset.expansions
    return V1 if expansions else V0


def layout_of_channels(channels: int) -> Layout:
    """The layout whose networks read `channels` planes: V1 for v1 and its prefixes (35, 40), else V0."""
    return V1 if O1.V1_BASE_CHANNELS <= channels <= V1.num_channels else V0
