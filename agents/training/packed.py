"""Packed observations unpacked by torch, on the network's own device (kbenv.packed has the format).

`UnpackObservations(layout)` maps (B, nbytes) packed rows (uint8, or the float copy of those bytes that
stable-baselines3 hands a features extractor) to the (B, C, 20, 20) float32 observation, equal bit for bit
to the float planes: bits are shifted out of the bytes, codes looked up in the layout's value table and
the float32 part reinterpreted, all in integer and copy operations. Its tensors are non-persistent buffers,
so networks that hold one save and load the same weights as before.
"""

from __future__ import annotations

import sys

import numpy as np
import torch
from torch import nn

from kbenv.engine import packed as P
from kbenv.packed import CODE_SLOTS, PackedLayout

MAX_CODE_BITS = 4


class UnpackObservations(nn.Module):
    """(B, nbytes) packed rows -> (B, C, 20, 20) float32 observations of `layout`."""

    def __init__(self, layout: PackedLayout):
        super().__init__()
        if sys.byteorder != "little":
            raise RuntimeError("packed observations: torch unpacking assumes a little-endian machine")
        self.layout = layout
        bit_channels = layout.bit_channels()
        zero_plane = layout.num_planes  # an all-zero plane appended in forward, for the absent high bits
        index = np.full((MAX_CODE_BITS, len(bit_channels)), zero_plane, dtype=np.int64)
        for j, (_, first, width) in enumerate(bit_channels):
            index[:width, j] = first + np.arange(width)
        self.register_buffer("plane_index", torch.from_numpy(index), persistent=False)
        self.register_buffer("shifts", torch.arange(8, dtype=torch.uint8), persistent=False)
        slots = np.array([c * CODE_SLOTS for c, _, _ in bit_channels], dtype=np.int64)
        self.register_buffer("table_offset", torch.from_numpy(slots)[None, :, None], persistent=False)
        self.register_buffer("table", torch.from_numpy(layout.tables.reshape(-1).copy()), persistent=False)
        self.bit_channel_ids = [c for c, _, _ in bit_channels]
        self.float_channels = layout.float_channels()

    def forward(self, packed: torch.Tensor) -> torch.Tensor:
        layout = self.layout
        if packed.dim() != 2 or packed.shape[1] != layout.nbytes:
            raise ValueError(f"packed: expected (B, {layout.nbytes}) rows of layout {layout.name}, "
                             f"got {tuple(packed.shape)}")
        if packed.dtype != torch.uint8:  # stable-baselines3 casts Box observations to float: exact for 0..255
            packed = packed.to(torch.uint8)
        n, planes = packed.shape[0], layout.num_planes
        raw = packed[:, : layout.float_offset].reshape(n, planes, P.WORDS, 8)
        bits = (raw.unsqueeze(-1) >> self.shifts) & 1  # (n, planes, 7, 8 bytes, 8 bits), little-endian words
        bits = bits.reshape(n, planes, P.WORDS, 64)[..., : P.BITS_PER_WORD].reshape(n, planes, -1)
        bits = torch.cat([bits[..., : P.NUM_HEXES], bits.new_zeros(n, 1, P.NUM_HEXES)], dim=1).long()
        code = bits[:, self.plane_index[0]]
        for k in range(1, MAX_CODE_BITS):
            code = code | (bits[:, self.plane_index[k]] << k)
        out = packed.new_zeros((n, layout.channels, P.NUM_HEXES), dtype=torch.float32)
        out[:, self.bit_channel_ids] = self.table[code + self.table_offset]
        start = layout.float_offset
        values = packed[:, start : start + 4 * layout.num_floats].contiguous().view(torch.float32)
        for c, first, count in self.float_channels:
            out[:, c, :count] = values[:, first : first + count]
        return out.reshape(n, *layout.shape)
