"""Warm start of the search network by imitation (`teacher` and `imitation_*` in a `method: alphazero` config).

Before the first self-play round, the network learns from games of a built-in teacher (greedy, or
lookahead: greedy over the rest of the own turn), generated and labelled by the numba kernels of
agents.training.imitation.imitation_batches (every seat plays the teacher, with a share of random moves
for diversity; the label is the teacher's best set, ties included):

- the policy logits: cross-entropy of the teacher's best set, -log P(best set) under the masked softmax
  (agents.training.imitation.set_cross_entropy, the PPO warm start's loss), or with `imitation_temperature`
  > 0 the cross-entropy to softmax(teacher's values / temperature) over the legal actions (soft targets that
  also rank the moves outside the best set; agents.training.imitation.soft_cross_entropy);
- the value head: the search network's own target (agents.alphazero.search), per seat relative to the
  decider, the final margin of the teacher's game minus the margin the position would score now,
  squared error over the seats in the game, times `value_weight` (as in self-play training).

Samples come in chunks of CHUNK_GAMES complete games (so `imitation_samples` is rounded up to whole
chunks); each chunk is trained on for `imitation_epochs` passes of `imitation_batch_size` with an AdamW
optimizer of its own (`imitation_lr`, the config's weight decay), so self-play starts with a fresh
optimizer as before. A run stopped by its time limit during the warm start checkpoints it between
chunks and resumes it (WarmStart.to_dict/load), bit for bit.

The record (checkpoint, model card, results) gives the network's agreement with the teacher (its most
likely legal action inside the best set) and value loss on positions it has not trained on: untrained
(the first chunk, before training on it) and trained (one more chunk of new games, held out).
Everything random comes from the config seed.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from kbenv.engine import state as S
from kbenv.layout import layout_by_flag

from ..alphazero.search import relative_values, score_values
from .az_config import AlphaZeroConfig
from .imitation import imitation_batches, set_cross_entropy, soft_cross_entropy
from .networks import hold_torch_threads

CHUNK_GAMES = 64  # games per chunk of samples
EVAL_BATCH = 1024  # positions per forward pass when measuring agreement
HELD_OUT_SEED = 10_000_000  # added to the imitation seed: the held-out games (far from the training games' seeds)


def imitation_seed(config: AlphaZeroConfig) -> int:
    """The seed of the teacher's games and of the sample order (from the run's seed)."""
    return (config.seed * 104_729 + 17) % 2**31


def value_targets(states: np.ndarray, finals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(targets (N, MAX_PLAYERS) float32: each seat's final margin minus its margin now, the decider first;
    seats (N,) int64: the players in each game)."""
    targets = np.zeros((len(states), S.MAX_PLAYERS), dtype=np.float32)
    seats = states[:, S.NUM_PLAYERS].astype(np.int64)
    final_margins: dict[bytes, np.ndarray] = {}  # a game's samples share its final state
    for k, (state, final) in enumerate(zip(states, finals, strict=True)):
        key = final.tobytes()
        if key not in final_margins:
            final_margins[key] = score_values(final)
        targets[k] = relative_values(final_margins[key] - score_values(state), int(state[S.DECIDER]))
    return targets, seats


def measure(net, chunk: tuple, device: str) -> tuple[float, float]:
    """(agreement: the share of positions where the network's most likely legal action is in the teacher's
    best set, value loss: the squared error of its seat values) on a chunk of imitation_batches(positions=True)."""
    obs, masks, best, _outcomes, _values, states, finals = chunk
    return measure_arrays(net, obs, masks, best, *value_targets(states, finals), device)


def measure_arrays(net, obs, masks, best, targets, seats, device: str) -> tuple[float, float]:
    """`measure` on a chunk's observations, masks, best sets and value targets (`value_targets`)."""
    import torch

    hits, squared = 0, 0.0
    net.eval()
    with torch.no_grad():
        for start in range(0, len(obs), EVAL_BATCH):
            rows = slice(start, start + EVAL_BATCH)
            logits, values = net(torch.from_numpy(obs[rows]).to(device))
            m = torch.from_numpy(masks[rows].astype(bool)).to(device)
            b = torch.from_numpy(best[rows].astype(bool)).to(device)
            hits += int(b.gather(1, logits.masked_fill(~m, -1e9).argmax(1, keepdim=True)).sum())
            counts = _seat_mask(torch.from_numpy(seats[rows]).to(device))
            squared += float((((values - torch.from_numpy(targets[rows]).to(device)) ** 2) * counts).sum())
    return hits / max(len(obs), 1), squared / max(int(seats.sum()), 1)


def _seat_mask(seats):
    """(B, MAX_PLAYERS) float: 1 for the value entries of the seats in each game."""
    import torch

    return (torch.arange(S.MAX_PLAYERS, device=seats.device)[None, :] < seats[:, None]).float()


def imitation_losses(net, config: AlphaZeroConfig, device: str, batch: dict) -> tuple:
    """(policy loss, value loss) tensors of one batch of imitation samples (numpy arrays by name: obs, masks,
    best, values (needed with imitation_temperature > 0), targets, seats): the policy's cross-entropy to the
    teacher's best set (or to softmax(values / temperature)), the squared error of the seats' value targets."""
    import torch

    logits, values = net(torch.from_numpy(batch["obs"]).to(device))
    legal = torch.from_numpy(batch["masks"].astype(bool)).to(device)
    if config.imitation_temperature > 0:
        p_loss = soft_cross_entropy(logits, legal, torch.from_numpy(batch["values"]).to(device),
                                    config.imitation_temperature)
    else:
        best_set = torch.from_numpy(batch["best"].astype(bool)).to(device)
        p_loss, _hits = set_cross_entropy(logits, legal, best_set)
    counts = _seat_mask(torch.from_numpy(batch["seats"]).to(device))
    v_loss = (((values - torch.from_numpy(batch["targets"]).to(device)) ** 2) * counts).sum() / counts.sum()
    return p_loss, v_loss


def chunk_ruleset(config: AlphaZeroConfig, seed: int) -> list[str]:
    """The expansions of the teacher's chunk of games with this seed: field 'expansions', or with a
    `ruleset_rotation` its entry for the chunk (index seed - imitation_seed; the held-out chunk's index is
    HELD_OUT_SEED)."""
    index = seed - imitation_seed(config)
    return config.rotation_expansions(index, [imitation_seed(config), index, 2])


def teacher_chunk(config: AlphaZeroConfig, seed: int, packed: bool = False) -> tuple:
    """One chunk of CHUNK_GAMES complete teacher games with their positions
    (agents.training.imitation.imitation_batches with positions=True; `packed`: packed observation rows), of the
    chunk's ruleset (`chunk_ruleset`; v1 observations in every game when the network reads v1)."""
    c = config
    expansions = chunk_ruleset(c, seed)
    return next(imitation_batches(CHUNK_GAMES, c.players, 1, c.imitation_random_share, seed, teacher=c.teacher,
                                  expansions=expansions or None, rules=c.rules or None, positions=True,
                                  packed=packed, layout="v1" if c.expansions else None))


class WarmStart:
    """The imitation of a run, chunk by chunk, so that a run stopped by --max-minutes during it resumes it
    (`to_dict`/`load`: the chunks done, the optimizer, the sample order's generator, the statistics).

    Chunk k plays the games of seed `imitation_seed + k` (game seeds 7919 apart per chunk: no game twice);
    the held-out chunk is `imitation_seed + HELD_OUT_SEED`."""

    def __init__(self, net, config: AlphaZeroConfig, device: str, log=print):
        import torch

        c = config
        if c.teacher == "none" or c.imitation_samples <= 0:
            raise ValueError("imitation needs a teacher (field 'teacher') and samples (field 'imitation_samples')")
        layout = layout_by_flag(bool(c.expansions))  # the games' observation and actions (as Run's network)
        if layout.num_channels != net.config["input_channels"] or layout.action_size != net.action_size:
            raise ValueError(f"imitation: the teacher's games give {layout.num_channels} observation channels and "
                             f"{layout.action_size} actions, the network takes {net.config['input_channels']} and "
                             f"{net.action_size} (fields 'expansions', 'rules')")
        self.net, self.config, self.device, self.log = net, c, device, log
        self.seed = imitation_seed(c)
        self.optimizer = torch.optim.AdamW(net.parameters(), lr=c.imitation_lr, weight_decay=c.weight_decay)
        self.order_rng = np.random.default_rng([self.seed, 1])
        self.chunks = self.samples = self.steps = 0
        self.before: tuple[float, float] | None = None
        self.losses = (0.0, 0.0)
        self.seconds = {"label": 0.0, "train": 0.0}

    @property
    def complete(self) -> bool:
        """Enough samples (the last chunk may pass `imitation_samples`)."""
        return self.samples >= self.config.imitation_samples

    def chunk(self) -> None:
        """Generate the next chunk of teacher games and train on it for `imitation_epochs` passes."""

        c, net, device = self.config, self.net, self.device
        t0 = time.perf_counter()
        chunk = teacher_chunk(c, self.seed + self.chunks)
        obs, masks, best, _outcomes, teacher_values, states, finals = chunk
        if obs.shape[1] != net.config["input_channels"] or masks.shape[1] != net.action_size:
            raise ValueError(f"imitation: the teacher's games give {obs.shape[1]} observation channels and "
                             f"{masks.shape[1]} actions, the network takes {net.config['input_channels']} and "
                             f"{net.action_size}")
        targets, seats = value_targets(states, finals)
        t1 = time.perf_counter()
        hold_torch_threads(c.threads)  # the teacher's parallel kernels reset torch's thread count
        if self.before is None:  # the untrained network on positions it has not seen
            self.before = measure(net, chunk, device)
        net.train()
        for _ in range(c.imitation_epochs):
            sums = [0.0, 0.0]
            parts = np.array_split(self.order_rng.permutation(len(obs)),
                                   max(1, -(-len(obs) // c.imitation_batch_size)))
            for idx in parts:
                p_loss, v_loss = imitation_losses(net, c, device, {
                    "obs": obs[idx], "masks": masks[idx], "best": best[idx], "values": teacher_values[idx],
                    "targets": targets[idx], "seats": seats[idx]})
                loss = p_loss + c.value_weight * v_loss
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                sums[0] += p_loss.item()
                sums[1] += v_loss.item()
                self.steps += 1
            self.losses = (sums[0] / len(parts), sums[1] / len(parts))
        self.chunks += 1
        self.samples += len(obs)
        self.seconds["label"] += t1 - t0
        self.seconds["train"] += time.perf_counter() - t1
        self.log(f"  imitation of {c.teacher}: {self.samples:,} samples, policy loss {self.losses[0]:.3f}, "
                 f"value loss {self.losses[1]:.4f}")

    def finish(self) -> dict:
        """Measure the trained network on a held-out chunk; the record of the warm start."""
        c = self.config
        t0 = time.perf_counter()
        held_out = teacher_chunk(c, self.seed + HELD_OUT_SEED)  # new games: the trained network's figures
        hold_torch_threads(c.threads)
        after = measure(self.net, held_out, self.device)
        self.net.train()
        before = self.before or after
        self.log(f"  imitation of {c.teacher}: on {len(held_out[0]):,} held-out positions the network picks a "
                 f"best move of the teacher {after[0]:.3f} of the time (untrained: {before[0]:.3f}), value loss "
                 f"{after[1]:.4f} (untrained: {before[1]:.4f})")
        label, train = self.seconds["label"], self.seconds["train"]
        return {"teacher": c.teacher, "finished": True, "samples": self.samples,
                "requested_samples": c.imitation_samples, "epochs": c.imitation_epochs,
                "batch_size": c.imitation_batch_size, "lr": c.imitation_lr,
                **({"temperature": c.imitation_temperature} if c.imitation_temperature > 0 else {}),
                "random_share": c.imitation_random_share, "gradient_steps": self.steps,
                "train_policy_loss": round(self.losses[0], 4), "train_value_loss": round(self.losses[1], 4),
                "held_out_positions": len(held_out[0]),
                "agreement_untrained": round(before[0], 4), "agreement_held_out": round(after[0], 4),
                "value_loss_untrained": round(before[1], 4), "value_loss_held_out": round(after[1], 4),
                "seconds": round(label + train + time.perf_counter() - t0, 1), "label_seconds": round(label, 1),
                "train_seconds": round(train, 1), "samples_per_second": round(self.samples / max(label, 1e-9), 1)}

    def to_dict(self) -> dict:
        """What a checkpoint keeps of an unfinished warm start (the network is in the checkpoint)."""
        return {"teacher": self.config.teacher, "optimizer": self.optimizer.state_dict(),
                "order_rng": self.order_rng.bit_generator.state,
                "chunks": self.chunks, "samples": self.samples, "steps": self.steps, "before": self.before,
                "losses": self.losses, "seconds": dict(self.seconds)}

    def load(self, data: dict) -> None:
        if data.get("pool") and type(self) is WarmStart:
            raise ValueError("the run stopped during a pooled warm start: resume it with field 'imitation_pool' "
                             "true, or start a new run")
        if data["teacher"] != self.config.teacher:
            raise ValueError(f"the run stopped while imitating {data['teacher']}: resume it with that teacher "
                             f"(field 'teacher' is {self.config.teacher!r}), or start a new run")
        self.optimizer.load_state_dict(data["optimizer"])
        self.order_rng.bit_generator.state = data["order_rng"]
        self.chunks, self.samples, self.steps = data["chunks"], data["samples"], data["steps"]
        self.before, self.losses, self.seconds = data["before"], tuple(data["losses"]), dict(data["seconds"])


def imitate_network(net, config: AlphaZeroConfig, device: str, log=print,
                    after_chunk: Callable[[int], None] | None = None) -> dict:
    """Train `net` (agents.alphazero.network.PolicyValueNet) on the teacher's games in one go; returns the
    record that checkpoints, the model card and the results keep (teacher, samples, losses, agreement,
    seconds). `after_chunk(samples so far)` is called after each chunk (benchmarks.warm_start evaluates there)."""
    warm = WarmStart(net, config, device, log)
    while not warm.complete:
        warm.chunk()
        if after_chunk is not None:
            after_chunk(warm.samples)
    return warm.finish()
