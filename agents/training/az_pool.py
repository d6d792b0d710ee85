"""The pooled warm start (`imitation_pool: true`): all the teacher's games first, then shuffled passes over them.

The chunked warm start (agents.training.az_warm.WarmStart) trains each chunk of 64 games as it comes, so a
batch holds positions of the same 64 games and the value head sees one chunk's outcomes at a time. Here the
teacher's games are generated first, chunk by chunk (the same chunk seeds, labels and value targets), and
kept as packed observation rows (kbenv.packed, about 2 KB a base-game position; with the legal and best
masks about 3 KB a decision); then the network trains `imitation_epochs` passes over all of them in
batches drawn across every game, AdamW with its learning rate on a one-cycle schedule peaking at
`imitation_lr`. The losses are the chunked warm start's (the teacher's best set or soft targets for the
policy, the squared error of the gold still to come per seat for the value).

Each call of `chunk()` is one unit of work (one chunk of games, or up to STEPS_PER_CALL gradient steps), so
a run's time limit stops it between units. A checkpoint keeps the progress but not the pool (hundreds of MB):
a resumed warm start plays the same chunks again (the teacher's games are deterministic in their seeds)
and goes on bit for bit. With a `cache_dir` (a run's `pool/` folder) each chunk's arrays are also written
there as `chunk_NNNNN.npz`, under a folder named by the digest of the fields that make the games
(`pool_key`), and read back instead of played again: a warm start of hours resumes in seconds. The cache
trusts the engine: after a change to the rules, delete it.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from pathlib import Path

import numpy as np

from .az_warm import WarmStart, imitation_losses, measure_arrays, teacher_chunk, value_targets
from .networks import hold_torch_threads

STEPS_PER_CALL = 200  # gradient steps between the time checks of a run
PCT_START = 0.05  # the share of the steps in which the rate rises to imitation_lr
POOL_FIELDS = ("teacher", "players", "expansions", "rules", "ruleset_rotation", "imitation_random_share", "seed",
               "imitation_temperature")  # the config fields that decide a pool's games and what is kept of them


def pool_key(config) -> str:
    """The digest (16 hex digits) of the config fields that decide the pool's games (POOL_FIELDS)."""
    fields = {name: getattr(config, name) for name in POOL_FIELDS}
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()[:16]


def _joined(parts: list[np.ndarray]) -> np.ndarray:
    """np.concatenate(parts), emptying `parts` as it copies: the pool's memory is held about once, not twice."""
    out = np.empty((sum(len(p) for p in parts), *parts[0].shape[1:]), dtype=parts[0].dtype)
    at = 0
    parts.reverse()
    while parts:
        part = parts.pop()
        out[at : at + len(part)] = part
        at += len(part)
    return out


class PoolWarmStart(WarmStart):
    """WarmStart with every game generated before training; the same record, resume and interface."""

    def __init__(self, net, config, device: str, log=print, cache_dir: Path | None = None):
        super().__init__(net, config, device, log)
        self.cache = None if cache_dir is None else Path(cache_dir) / pool_key(config)
        self.pool: dict[str, list[np.ndarray]] = {k: [] for k in ("obs", "masks", "best", "values", "targets",
                                                                  "seats")}
        self.arrays: dict[str, np.ndarray] | None = None  # the pool once complete
        self.generated = 0  # chunks of games played (all of them: `chunks` in the record once training)
        self.scheduler = None
        self.epoch_rng_state = None  # the order generator at the start of the current epoch
        self.order: np.ndarray | None = None
        self.sums = np.zeros(2)

    @property
    def batches(self) -> int:
        """Gradient steps per pass over the pool."""
        return max(1, -(-self.samples // self.config.imitation_batch_size))

    @property
    def total_steps(self) -> int:
        """Gradient steps of all passes (0 until the pool is complete)."""
        return self.config.imitation_epochs * self.batches if self.arrays is not None else 0

    @property
    def complete(self) -> bool:
        return self.arrays is not None and self.steps >= self.total_steps

    def chunk(self) -> None:
        """One unit of work: the next chunk of teacher games while the pool is short, else training steps."""
        if self.arrays is None:
            self._generate()
        else:
            self._train(STEPS_PER_CALL)

    # ----- the pool --------------------------------------------------------------------------------------
    def _generate(self) -> None:
        c = self.config
        t0 = time.perf_counter()
        arrays = self._chunk_arrays(self.generated)
        hold_torch_threads(c.threads)
        if self.before is None:  # the untrained network on positions it has not seen
            self.before = measure_arrays(self.net, *(arrays[k] for k in ("obs", "masks", "best", "targets", "seats")),
                                         self.device)
        for key, part in arrays.items():
            self.pool[key].append(part)
        self.generated += 1
        self.samples += len(arrays["obs"])
        self.seconds["label"] += time.perf_counter() - t0
        if self.samples >= c.imitation_samples:
            self._start_training()
        self.log(f"  imitation of {c.teacher}: {self.samples:,} decisions played of {c.imitation_samples:,}")

    def _chunk_arrays(self, k: int) -> dict[str, np.ndarray]:
        """Chunk k's arrays for the pool (packed observations, masks, best sets, value targets, seats; the
        teacher's values with soft targets): read from the cache, or played and then written there."""
        c = self.config
        path = None if self.cache is None else self.cache / f"chunk_{k:05d}.npz"
        if path is not None and path.exists():
            with np.load(path) as stored:
                return {key: stored[key] for key in stored.files}
        chunk = teacher_chunk(c, self.seed + k, packed=True)  # (its layout: checked by WarmStart)
        obs, masks, best, _outcomes, teacher_values, states, finals = chunk
        targets, seats = value_targets(states, finals)
        arrays = {"obs": obs, "masks": masks.astype(np.bool_), "best": best.astype(np.bool_), "targets": targets,
                  "seats": seats}
        if c.imitation_temperature > 0:  # the teacher's values only when the soft targets need them
            arrays["values"] = teacher_values
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp.npz")
            np.savez(tmp, **arrays)
            tmp.replace(path)
        return arrays

    def _start_training(self) -> None:
        import torch

        c = self.config
        self.arrays = {key: _joined(parts) for key, parts in self.pool.items() if parts}
        self.chunks = self.generated
        self.scheduler = torch.optim.lr_scheduler.OneCycleLR(self.optimizer, max_lr=c.imitation_lr,
                                                             total_steps=self.total_steps, pct_start=PCT_START)

    # ----- training --------------------------------------------------------------------------------------
    def _train(self, steps: int) -> None:

        c, net, device, a = self.config, self.net, self.device, self.arrays
        t0 = time.perf_counter()
        hold_torch_threads(c.threads)
        net.train()
        batch, batches = c.imitation_batch_size, self.batches
        for _ in range(min(steps, self.total_steps - self.steps)):
            position = self.steps % batches
            if position == 0:  # a new epoch: a new order of all the samples
                self.epoch_rng_state = self.order_rng.bit_generator.state
                self.order = self.order_rng.permutation(self.samples)
                self.sums = np.zeros(2)
            idx = np.sort(self.order[position * batch : (position + 1) * batch])
            p_loss, v_loss = imitation_losses(net, c, device, {k: v[idx] for k, v in a.items()})
            loss = p_loss + c.value_weight * v_loss
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.scheduler.step()
            self.sums += (p_loss.item(), v_loss.item())
            self.steps += 1
            self.losses = tuple(float(x) for x in self.sums / (position + 1))  # the means of this epoch so far
        self.seconds["train"] += time.perf_counter() - t0
        epoch = math.ceil(self.steps / batches)
        self.log(f"  imitation of {c.teacher}: step {self.steps:,} of {self.total_steps:,} (epoch {epoch} of "
                 f"{c.imitation_epochs}), policy loss {self.losses[0]:.3f}, value loss {self.losses[1]:.4f}")

    # ----- checkpoints -----------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        data = super().to_dict()
        data.update(pool=True, generated=self.generated,
                    scheduler=None if self.scheduler is None else self.scheduler.state_dict(),
                    epoch_rng_state=self.epoch_rng_state, sums=self.sums.tolist())
        return data

    def load(self, data: dict) -> None:
        if not data.get("pool"):
            raise ValueError("the run stopped during a chunked warm start: resume it with field 'imitation_pool' "
                             "false, or start a new run")
        super().load(data)
        seconds = dict(data["seconds"])
        self.samples = 0
        while self.generated < data["generated"]:  # the pool again: the same chunk seeds give the same games
            self._generate()
        self.seconds, self.steps = seconds, data["steps"]  # (the replay's own seconds not counted)
        if data["scheduler"] is not None:
            self.scheduler.load_state_dict(data["scheduler"])
        self.optimizer.load_state_dict(data["optimizer"])  # after the scheduler's construction touched it
        self.order_rng.bit_generator.state = data["order_rng"]
        self.sums = np.array(data["sums"])
        if data["epoch_rng_state"] is not None:  # the current epoch's order, drawn again
            self.epoch_rng_state = data["epoch_rng_state"]
            replay = np.random.default_rng()
            replay.bit_generator.state = data["epoch_rng_state"]
            self.order = replay.permutation(self.samples)

    def finish(self) -> dict:
        """The chunked warm start's record, marked as pooled; the pool's memory is given back."""
        record = super().finish()
        self.arrays = None
        return {**record, "pool": True}
