"""The policy network: a residual CNN whose hex-action logits come straight from its feature map.

Scalar features (cards in play, own card, phase, tiles, ...) are embedded and broadcast as extra input
planes, so every hex sees them. Fixed board planes tell the convolutions where they are: the row
parity (a 3x3 convolution over odd-r offset rows cannot otherwise tell which two of its eight cells
are not hex neighbours), the sector (quadrant) and the row and column position. After every residual
block the trunk adds back its own row means and sector means, so scoring that counts per row
(Knights, Discoverers) or per sector (Lords, Farmers) is visible to every hex in one layer.

The 400 hex logits are a 1x1 convolution of the trunk (a fully convolutional policy head, as in
AlphaZero-style board-game networks); the other actions (tile powers, END_TURN, and with expansions the
v1 tail: n - 400 of them for an action space of n) and the value come from pooled features.

The layout follows the observation space: v0 (kbenv.envs.kingdom_builder_v0, 28 channels, or 30 with hint
planes) or v1 (kbenv.engine.observe_v1, 50 channels: the v0 planes, the expansion planes, a second
features plane, five Crossroads planes, three Marshlands planes, five Harvest planes, the Island's two tables;
networks made before Crossroads read its first 35, those made before Marshlands its first 40, those made before
Harvest its first 43, those made before the Island its first 48). The Island's action ids (458-477) come from the
pooled features like every action past the 400 hexes: its channels are tables (row k = island hex k), not board
maps, so no hex of the feature map stands for an island hex. Every
features plane is read as scalars and every other channel goes to the convolutions, in channel order;
the action head has as many logits as the action space.
"""

from __future__ import annotations

import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from kbenv.engine.observe import CH_FEATURES, NUM_FEATURES
from kbenv.engine.observe_v1 import (
    CH_FEATURES_V1,
    NUM_CHANNELS_V1,
    V1_BASE_CHANNELS,
    V1_PREFIX_FEATURES,
)
from kbenv.layout import NUM_HEX_ACTIONS
from kbenv.observation import observation_shape
from kbenv.policies.hints import HINTED_NUM_FEATURES

SCALAR_PLANES = 8
BOARD_PLANES = 7  # row parity, 4 sector one-hots, row / 19, column / 19


def flush_denormals() -> None:
    """Treat denormal floats as zero on the CPU (a trained network's tiny weights and activations
    otherwise run many times slower on x86; measured 62 -> 14 ms for one decision of the quick net)."""
    torch.set_flush_denormal(True)


def hold_torch_threads(threads: int) -> None:
    """Give torch `threads` intra-op threads again if something changed them (0: leave torch's count).

    numba's OpenMP threading layer sets the calling thread's OpenMP thread count at every parallel kernel,
    and torch reads that same count: a count set once becomes numba's (the CPU count) after the next
    parallel kernel of the engine (measured: a run's `threads: 1` trained with 2 threads on 2 cores after
    its first teacher chunk, and only in the first run of a process). Call it before torch work that follows
    engine kernels."""
    if threads and torch.get_num_threads() != threads:
        torch.set_num_threads(threads)


def observation_layout(observation_space: spaces.Box, hints: str = "none") -> tuple[list, list]:
    """([(features channel, number of scalars)], [(first, stop) ranges of the spatial channels]).

    The v1 layout (kbenv.engine.observe_v1) is recognised by its channel count; v0 observations must
    have the channels of their hint kind. The spatial ranges keep the channel order (for v0: the planes
    before the features, then the hint planes), so v0 checkpoints keep their meaning.
    """
    channels = observation_space.shape[0]
    if V1_BASE_CHANNELS <= channels <= NUM_CHANNELS_V1:  # v1, or a prefix networks made before read (35, 40)
        if hints != "none":
            raise ValueError(f"hints: {hints!r} hint planes exist for the base game only; the observation "
                             f"space is the v1 layout ({channels} channels)")
        v1_features = V1_PREFIX_FEATURES[max(k for k in V1_PREFIX_FEATURES if k <= channels)]
        features = [(CH_FEATURES, NUM_FEATURES), (CH_FEATURES_V1, v1_features)]
    else:
        expected = observation_shape(hints)[0]
        if channels != expected:
            raise ValueError(f"hints: {hints!r} observations have {expected} channels, "
                             f"the observation space has {channels}")
        features = [(CH_FEATURES, NUM_FEATURES if hints == "none" else HINTED_NUM_FEATURES)]
    skip = {ch for ch, _ in features}
    ranges: list[tuple[int, int]] = []
    for ch in range(channels):
        if ch in skip:
            continue
        if ranges and ranges[-1][1] == ch:
            ranges[-1] = (ranges[-1][0], ch + 1)
        else:
            ranges.append((ch, ch + 1))
    return features, ranges


def make_board_planes() -> torch.Tensor:
    """(BOARD_PLANES, 20, 20) constant planes: row parity, sector one-hots, row and column position."""
    rows = torch.arange(20).view(20, 1).expand(20, 20).float()
    cols = torch.arange(20).view(1, 20).expand(20, 20).float()
    sector = (rows >= 10).long() * 2 + (cols >= 10).long()
    planes = [rows.remainder(2)] + [(sector == k).float() for k in range(4)] + [rows / 19, cols / 19]
    return torch.stack(planes)


class RowSectorContext(nn.Module):
    """x + 1x1 conv of [row means, sector means] broadcast back over the board."""

    def __init__(self, channels: int):
        super().__init__()
        self.mix = nn.Conv2d(2 * channels, channels, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n, c = x.shape[:2]
        row_mean = x.mean(dim=3, keepdim=True).expand(n, c, 20, 20)
        sectors = nn.functional.avg_pool2d(x, 10)  # (n, c, 2, 2)
        sector_mean = sectors.repeat_interleave(10, dim=2).repeat_interleave(10, dim=3)
        return torch.relu(x + self.mix(torch.cat([row_mean, sector_mean], dim=1)))


class ResidualBlock(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x + self.conv2(torch.relu(self.conv1(x))))


class KingdomBuilderExtractor(BaseFeaturesExtractor):
    """Observation -> [head_channels x 400 feature map (flattened), pooled trunk, scalar embedding]."""

    def __init__(self, observation_space: spaces.Box, channels: int = 32, blocks: int = 2, head_channels: int = 4,
                 scalar_dim: int = 64, board_planes: bool = True, context: bool = True, hints: str = "none",
                 expansions=(), rules=()):
        """`expansions` and `rules` record the ruleset the network is trained on (saved with the policy
        kwargs, read back by agents.ppo); expansions need the v1 observation space (base rule flags keep v0).
        A 1-D observation space is packed observations (kbenv.packed, `SelfPlayVecEnv(packed=True)`): they are
        unpacked on the network's device first, and the network is the one of the float space."""
        packed_space = observation_space
        self.unpack = None
        if len(observation_space.shape) == 1:
            from kbenv.packed import layout_for_bytes

            from .packed import UnpackObservations

            layout = layout_for_bytes(int(observation_space.shape[0]))
            observation_space = spaces.Box(-1.0, 1.0, layout.shape)  # the float planes (only the shape is read)
        self.feature_planes, self.spatial_ranges = observation_layout(observation_space, hints)
        if expansions and observation_space.shape[0] < V1_BASE_CHANNELS:
            raise ValueError(f"expansions: a ruleset ({', '.join([*expansions, *rules])}) has v1 observations of "
                             f"{NUM_CHANNELS_V1} channels, the observation space has {observation_space.shape[0]}")
        self.expansions, self.rules = list(expansions), list(rules)
        self.num_features = sum(k for _, k in self.feature_planes)
        planes = sum(stop - first for first, stop in self.spatial_ranges)
        super().__init__(packed_space, head_channels * NUM_HEX_ACTIONS + channels + scalar_dim)
        if packed_space is not observation_space:
            self.unpack = UnpackObservations(layout)
        self.head_channels = head_channels
        self.scalars = nn.Sequential(nn.Linear(self.num_features, scalar_dim), nn.ReLU())
        self.broadcast = nn.Linear(scalar_dim, SCALAR_PLANES)
        self.use_board = board_planes
        self.register_buffer("board", make_board_planes(), persistent=False)
        extra = BOARD_PLANES if board_planes else 0
        self.stem = nn.Sequential(nn.Conv2d(planes + SCALAR_PLANES + extra, channels, 3, padding=1), nn.ReLU())
        layers = []
        for _ in range(blocks):
            layers += [ResidualBlock(channels)] + ([RowSectorContext(channels)] if context else [])
        self.trunk = nn.Sequential(*layers)
        self.head = nn.Sequential(nn.Conv2d(channels, head_channels, 1), nn.ReLU())

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        if self.unpack is not None:
            obs = self.unpack(obs)
        n = obs.shape[0]
        packed = [obs[:, ch].reshape(n, NUM_HEX_ACTIONS)[:, :k] for ch, k in self.feature_planes]
        scalars = self.scalars(packed[0] if len(packed) == 1 else torch.cat(packed, dim=1))
        planes = self.broadcast(scalars)[:, :, None, None].expand(n, SCALAR_PLANES, 20, 20)
        inputs = [obs[:, first:stop] for first, stop in self.spatial_ranges] + [planes]
        if self.use_board:
            inputs.append(self.board.unsqueeze(0).expand(n, BOARD_PLANES, 20, 20))
        x = self.trunk(self.stem(torch.cat(inputs, dim=1)))
        pooled = x.mean(dim=(2, 3))
        return torch.cat([self.head(x).flatten(1), pooled, scalars], dim=1)


class SpatialActionHead(nn.Module):
    """Hex logits from the feature map (1x1 conv); the other `num_actions - 400` logits (9 in layout v0,
    58 in v1) from pooled and scalar features."""

    def __init__(self, head_channels: int, rest_dim: int, num_actions: int):
        super().__init__()
        if num_actions <= NUM_HEX_ACTIONS:
            raise ValueError(f"action space: expected more than {NUM_HEX_ACTIONS} actions, got {num_actions}")
        self.head_channels = head_channels
        self.hex_logit = nn.Conv2d(head_channels, 1, 1)
        self.other = nn.Linear(rest_dim, num_actions - NUM_HEX_ACTIONS)

    def forward(self, latent: torch.Tensor) -> torch.Tensor:
        n = latent.shape[0]
        split = self.head_channels * NUM_HEX_ACTIONS
        fmap = latent[:, :split].reshape(n, self.head_channels, 20, 20)
        return torch.cat([self.hex_logit(fmap).flatten(1), self.other(latent[:, split:])], dim=1)


class KingdomBuilderPolicy(MaskableActorCriticPolicy):
    """MaskablePPO policy with the spatial action head (use `net_arch={"pi": [], "vf": [...]}`)."""

    def _build(self, lr_schedule) -> None:
        super()._build(lr_schedule)
        extractor = self.pi_features_extractor if not self.share_features_extractor else self.features_extractor
        head_channels = extractor.head_channels
        rest = self.features_dim - head_channels * NUM_HEX_ACTIONS
        self.action_net = SpatialActionHead(head_channels, rest, int(self.action_space.n))
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)
