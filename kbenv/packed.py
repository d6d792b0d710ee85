"""Packed observations for users: the layouts, a buffer maker and the numpy unpacker.

`VectorGames(..., packed=True)` (or `observations(packed=True)`) and `SelfPlayVecEnv(..., packed=True)`
hand out observations as uint8 rows of `PackedLayout.nbytes` bytes instead of float32 (C, 20, 20) planes:
about 2 KB for the base game (v0), 5.3 KB for v1, where the float planes take 44.8 KB and 80 KB. The format
(kbenv.engine.packed, which writes it) is:

- `num_planes` bit planes of 56 bytes: 7 little-endian 64-bit words of which the low 60 bits hold hexes
  60k .. 60k + 59 (hex h = row * 20 + column); a channel with a few values is an integer code over 2-4
  consecutive bit planes (lowest bit first) and means code / denominator;
- then `num_floats` float32 values (little-endian): the scalar features (v1: the v0 features, then the v1
  ones; with hints: the hinted features, then the 400 hint values), padded to a multiple of 8 bytes.

`unpack` (numpy) and agents.training.packed.UnpackObservations (torch, on the network's device) turn it
back into exactly the float observation, bit for bit.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .engine import packed as P
from .engine.observe import NUM_CHANNELS
from .engine.observe_v1 import NUM_CHANNELS_V1

LAYOUTS = {"v0": P.PACKED_V0, "v0-hints": P.PACKED_HINTS, "v1": P.PACKED_V1}
CODE_SLOTS = 16  # the value table of each channel has one entry per code of up to 4 bit planes


@dataclass(frozen=True)
class PackedLayout:
    """One packed format: `name` is v0, v0-hints (v0 with greedy or lookahead hints) or v1."""

    name: str

    @property
    def rows(self) -> tuple:
        return LAYOUTS[self.name]

    @property
    def channels(self) -> int:
        return len(self.rows)

    @property
    def shape(self) -> tuple[int, int, int]:
        """The float observation this unpacks to."""
        return (self.channels, 20, 20)

    @property
    def num_planes(self) -> int:
        return P.num_planes(self.rows)

    @property
    def num_floats(self) -> int:
        return P.num_floats(self.rows)

    @property
    def words(self) -> int:
        return P.row_words(self.rows)

    @property
    def nbytes(self) -> int:
        return self.words * 8

    @property
    def float_offset(self) -> int:
        """Byte offset of the float32 part."""
        return self.num_planes * P.PLANE_BYTES

    @cached_property
    def tables(self) -> np.ndarray:
        """(channels, 16) float32: the value of each code of each bit channel (code / denominator)."""
        out = np.zeros((self.channels, CODE_SLOTS), dtype=np.float32)
        for c, (bits, denominator, _) in enumerate(self.rows):
            if bits:
                out[c, : 1 << bits] = [k / denominator for k in range(1 << bits)]
        return out

    def bit_channels(self) -> list[tuple[int, int, int]]:
        """(channel, first bit plane, bit planes) of every channel stored as bits."""
        first = P.plane_offsets(self.rows)
        return [(c, first[c], bits) for c, (bits, _, _) in enumerate(self.rows) if bits]

    def float_channels(self) -> list[tuple[int, int, int]]:
        """(channel, first float, floats) of every channel stored as float32."""
        out, k = [], 0
        for c, (_, _, count) in enumerate(self.rows):
            if count:
                out.append((c, k, count))
                k += count
        return out

    def empty(self, n: int) -> np.ndarray:
        """An uninitialised (n, words) int64 buffer for the kernels (which overwrite whole rows);
        `.view(np.uint8)` is the (n, nbytes) user view."""
        return np.empty((n, self.words), dtype=np.int64)

    def unpack(self, packed: np.ndarray) -> np.ndarray:
        """(..., nbytes) uint8 packed observations -> (..., C, 20, 20) float32, equal to the float planes."""
        return unpack(packed, self)


def layout_of(v1: bool, hint_kind: int = 0) -> PackedLayout:
    """The packed layout of an observation kind."""
    return PackedLayout("v1" if v1 else "v0-hints" if hint_kind else "v0")


def layout_for_bytes(nbytes: int) -> PackedLayout:
    """The layout whose rows have `nbytes` bytes (how a network recognises packed input); ValueError if none."""
    for name in LAYOUTS:
        if PackedLayout(name).nbytes == nbytes:
            return PackedLayout(name)
    sizes = ", ".join(f"{name} {PackedLayout(name).nbytes}" for name in LAYOUTS)
    raise ValueError(f"packed: {nbytes} bytes a row is no packed observation layout ({sizes})")


def split(buffer: np.ndarray, layout: PackedLayout) -> tuple[np.ndarray, np.ndarray]:
    """What the packing kernels write into: the (n, words) int64 buffer itself (one packed row per
    observation) and the float32 view (n, floats, padded) of the words after its bit planes."""
    return buffer, buffer[:, layout.num_planes * P.WORDS :].view(np.float32)


def unpack(packed: np.ndarray, layout: PackedLayout) -> np.ndarray:
    """(..., nbytes) uint8 packed observations of `layout` -> (..., C, 20, 20) float32."""
    packed = np.asarray(packed)
    if packed.dtype != np.uint8 or packed.ndim < 1 or packed.shape[-1] != layout.nbytes:
        raise ValueError(f"packed: expected (..., {layout.nbytes}) uint8 rows of layout {layout.name}, "
                         f"got {packed.dtype} {packed.shape}")
    lead = packed.shape[:-1]
    flat = packed.reshape(-1, layout.nbytes)
    n, planes = len(flat), layout.num_planes
    bytes_ = flat[:, : layout.float_offset].reshape(n, planes, P.WORDS, 8)
    if sys.byteorder != "little":
        bytes_ = bytes_[..., ::-1]
    bits = np.unpackbits(bytes_, axis=-1, bitorder="little").reshape(n, planes, P.WORDS, 64)
    bits = bits[..., : P.BITS_PER_WORD].reshape(n, planes, -1)[..., : P.NUM_HEXES]
    values = np.ascontiguousarray(flat[:, layout.float_offset : layout.float_offset + 4 * layout.num_floats])
    values = values.view("<f4").astype(np.float32)
    out = np.zeros((n, layout.channels, P.NUM_HEXES), dtype=np.float32)
    for c, first, width in layout.bit_channels():
        code = np.zeros((n, P.NUM_HEXES), dtype=np.int64)
        for k in range(width):
            code |= bits[:, first + k].astype(np.int64) << k
        out[:, c] = layout.tables[c][code]
    for c, first, count in layout.float_channels():
        out[:, c, :count] = values[:, first : first + count]
    return out.reshape(*lead, *layout.shape)


assert PackedLayout("v0").channels == NUM_CHANNELS and PackedLayout("v1").channels == NUM_CHANNELS_V1
