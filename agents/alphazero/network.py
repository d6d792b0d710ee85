"""The policy-value network of the search agents, and the evaluator that feeds it game states.

The trunk is the PPO agents' residual CNN (agents.training.networks: spatial hex logits, the other
actions from pooled features). The value head predicts, for every seat relative to the observer (the
player deciding), the gain in gold margin still to come (agents.alphazero.search: final margin minus
the margin the position would score now, /30): a vector, so the same network serves 2-5 players. The
network reads the standard observation only (no hint planes), as float planes or packed (kbenv.packed:
uint8 rows, unpacked on the network's device by agents.training.packed; the same numbers either way).
"""

from __future__ import annotations

import hashlib
import pickle
from collections import OrderedDict

import numpy as np
import torch
from torch import nn

from agents.alphazero.search import seat_values
from agents.training.networks import KingdomBuilderExtractor, SpatialActionHead, hold_torch_threads
from agents.training.packed import UnpackObservations
from kbenv.engine import state as S
from kbenv.engine.observe_v1 import V1_BASE_CHANNELS
from kbenv.layout import NUM_HEX_ACTIONS, layout_by_flag
from kbenv.observation import action_mask
from kbenv.packed import layout_of

VALUE_HIDDEN = 64


class PolicyValueNet(nn.Module):
    """obs (B, C, 20, 20) float32, or (B, nbytes) uint8 packed rows -> (logits (B, A), predicted gain per seat
    (B, 5), seat 0 = the observer)."""

    def __init__(self, v1: bool = False, channels: int = 32, blocks: int = 2, head_channels: int = 4,
                 input_channels: int | None = None, action_size: int | None = None):
        super().__init__()
        layout = layout_by_flag(v1)  # kbenv.layout
        space = layout.observation_space(input_channels)
        self.config = {"v1": v1, "channels": channels, "blocks": blocks, "head_channels": head_channels,
                       "input_channels": int(space.shape[0])}
        # A v1 network saved before the Island's 20 action ids (issue 23) has 458 actions: it keeps them (the
        # island's ids, the last ones, are never legal in the games it plays).
        self.action_size = layout.action_size if action_size is None else int(action_size)
        if action_size is not None:
            self.config["action_size"] = self.action_size
        self.extractor = KingdomBuilderExtractor(space, channels=channels, blocks=blocks,
                                                 head_channels=head_channels)
        rest = self.extractor.features_dim - head_channels * NUM_HEX_ACTIONS
        self.policy = SpatialActionHead(head_channels, rest, self.action_size)
        self.value = nn.Sequential(nn.Linear(rest, VALUE_HIDDEN), nn.ReLU(), nn.Linear(VALUE_HIDDEN, S.MAX_PLAYERS))
        self.rest = rest
        self.unpack = UnpackObservations(layout_of(v1))  # no weights: saved networks load as before

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        if obs.dtype == torch.uint8:
            obs = self.unpack(obs)[:, : self.config["input_channels"]]
        latent = self.extractor(obs)
        return self.policy(latent), self.value(latent[:, -self.rest:])


def save_network(net: PolicyValueNet, path, extra: dict | None = None) -> None:
    torch.save({"config": net.config, "state_dict": net.state_dict(), **(extra or {})}, path)


def load_network(path, device: str = "cpu") -> tuple[PolicyValueNet, dict]:
    """(network in eval mode, the saved dict without the weights); ValueError naming a bad file."""
    try:
        saved = torch.load(path, map_location=device, weights_only=False)
        config = dict(saved["config"])
        if config.get("v1") and "input_channels" not in config:
            config["input_channels"] = V1_BASE_CHANNELS  # saved before Crossroads: the v1 prefix it knew
        other = saved["state_dict"].get("policy.other.weight")
        if other is not None and "action_size" not in config:  # saved before the Island's action ids: its own
            config["action_size"] = NUM_HEX_ACTIONS + int(other.shape[0])
            if config["action_size"] == layout_by_flag(bool(config.get("v1"))).action_size:
                del config["action_size"]
        net = PolicyValueNet(**config)
        net.load_state_dict(saved["state_dict"])
    except (OSError, KeyError, RuntimeError, TypeError, EOFError, pickle.UnpicklingError) as exc:
        raise ValueError(f"model file {path}: not a kbenv search network ({exc})") from None
    net.to(device).eval()
    info = {k: v for k, v in saved.items() if k != "state_dict"}
    return net, info


def observations(states: list[np.ndarray], v1: bool, channels: int | None = None) -> np.ndarray:
    """The decider's observation of each state, stacked (v1: its first `channels` channels)."""
    layout = layout_by_flag(v1)
    out = np.empty((len(states), *layout.observation_shape), dtype=np.float32)
    for k, st in enumerate(states):
        layout.observe_into(st, int(st[S.DECIDER]), out[k])
    return out[:, :channels] if channels is not None and channels < layout.num_channels else out


def legal_masks(states: list[np.ndarray], action_size: int) -> np.ndarray:
    """The decider's legal actions in each state, stacked (all False once a game is over)."""
    return np.stack([action_mask(st, int(st[S.DECIDER]), action_size) for st in states]).astype(bool)


def _row_key(prefix: bytes, row: np.ndarray) -> bytes:
    """The cache key of one observation row (its type and shape in `prefix`)."""
    key = hashlib.sha1(prefix, usedforsecurity=False)
    key.update(row)
    return key.digest()


class NetworkEvaluator:
    """The Python search's evaluate(): observations, legal masks and one forward pass for a list of states;
    `infer` is the forward pass alone, on observations (what the compiled search calls).

    `cache` > 0 keeps the network's outputs for that many recent observation rows (least recently used out),
    keyed by a 160-bit hash (SHA-1) of each row: a search meets the same position again through transpositions (the same
    settlements placed in another order) and in the next decision's search, and about 30% of self-play's leaf
    evaluations are repeats (docs/training.md). A row met again is not passed through the network; the
    outputs are the network's for that row (computed in the batch it first came in: the same numbers up to
    float rounding, which a batch of one can change). `clear_cache()` when the weights change."""

    def __init__(self, net: PolicyValueNet, device: str = "cpu", threads: int = 0, cache: int = 0):
        if int(cache) < 0:
            raise ValueError(f"cache: expected a number of rows >= 0, got {cache}")
        self.net = net
        self.device = device
        self.threads = threads  # torch threads held at every call (agents.training.networks.hold_torch_threads)
        self.v1 = bool(net.config["v1"])
        self.action_size = net.action_size
        self.positions = 0  # states evaluated (asked for, cached or not)
        self.cache_size = int(cache)
        self.cache_hits = 0  # of `positions`, those answered from the cache
        self._cache: OrderedDict[bytes, tuple[np.ndarray, np.ndarray]] = OrderedDict()

    def clear_cache(self) -> None:
        """Forget the cached outputs (the network's weights changed)."""
        self._cache.clear()

    def infer(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The network's outputs on observations (float planes or packed rows): (logits (B, A), predicted gain
        per seat, observer first (B, 5)); with a cache, rows met before are not passed through it again."""
        obs = np.ascontiguousarray(obs)
        self.positions += len(obs)
        if not self.cache_size or not len(obs):
            return self._forward(obs)
        prefix = f"{obs.dtype.str}{obs.shape[1:]}".encode()
        keys = [_row_key(prefix, row) for row in obs]
        new: dict[bytes, int] = {}  # rows to pass through the network, by key (a row twice in a call: once)
        for i, key in enumerate(keys):
            if key in self._cache:
                self._cache.move_to_end(key)
            elif key not in new:
                new[key] = i
        if new:
            logits, values = self._forward(obs[list(new.values())])
            for j, key in enumerate(new):
                self._cache[key] = (logits[j].copy(), values[j].copy())  # a row, not a view of the batch
        self.cache_hits += len(obs) - len(new)
        out = [self._cache[key] for key in keys]
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return np.stack([o[0] for o in out]), np.stack([o[1] for o in out])

    @torch.no_grad()
    def _forward(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """One forward pass on a batch of observations."""
        hold_torch_threads(self.threads)
        if self.net.training:  # eval() walks every module: a fifth of a small network's forward pass at batch 1
            self.net.eval()
        if not obs.flags.writeable:  # (an array that came through Ray): torch wants to own writable memory
            obs = obs.copy()
        logits, values = self.net(torch.from_numpy(obs).to(self.device))
        return logits.float().cpu().numpy(), values.float().cpu().numpy()

    def __call__(self, states: list[np.ndarray]):
        logits, values = self.infer(observations(states, self.v1, self.net.config["input_channels"]))
        masks = legal_masks(states, self.action_size)
        return masks, logits, seat_values(values, states)
