"""The policy network's feature extractor: a residual CNN over the hex planes plus an MLP over the
packed scalar features (see kbenv.kingdom_builder_v0 for the observation layout)."""

from __future__ import annotations

import torch
from gymnasium import spaces
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from kbenv.engine.observe import CH_FEATURES, NUM_FEATURES


class ResidualBlock(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x + self.conv2(torch.relu(self.conv1(x))))


class KingdomBuilderExtractor(BaseFeaturesExtractor):
    """Hex planes -> conv stem -> residual blocks -> 1x1 conv head (flattened); scalars -> MLP; concat."""

    def __init__(self, observation_space: spaces.Box, channels: int = 32, blocks: int = 2, head_channels: int = 4,
                 scalar_dim: int = 64):
        planes = observation_space.shape[0] - 1
        features_dim = head_channels * 400 + scalar_dim
        super().__init__(observation_space, features_dim)
        self.stem = nn.Sequential(nn.Conv2d(planes, channels, 3, padding=1), nn.ReLU())
        self.trunk = nn.Sequential(*[ResidualBlock(channels) for _ in range(blocks)])
        self.head = nn.Sequential(nn.Conv2d(channels, head_channels, 1), nn.ReLU(), nn.Flatten())
        self.scalars = nn.Sequential(nn.Linear(NUM_FEATURES, scalar_dim), nn.ReLU())

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        planes = obs[:, :CH_FEATURES]
        scalars = obs[:, CH_FEATURES].reshape(obs.shape[0], 400)[:, :NUM_FEATURES]
        x = self.head(self.trunk(self.stem(planes)))
        return torch.cat([x, self.scalars(scalars)], dim=1)
