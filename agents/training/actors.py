"""Parallel self-play: Ray actors play, one learner trains (a config with `actors: N` or `actors: auto`).

The learner (this process, `ActorRun`: agents.training.alphazero.Run with other hooks) holds the network,
the optimizer and the replay buffer. Every round:
1. it puts the network's weights in Ray's object store once and every actor loads them (the learner
   sends its weights to the actors every round, so the actors always play the latest network);
2. every actor (`SelfPlayWorker` as a Ray actor, one CPU, one torch thread) plays `steps_per_iteration`
   decisions in each of its games with the config's search (the compiled search by default in the shipped
   configs) and returns the positions of the games that ended (`PositionBatch`);
3. the learner adds them to its replay buffer in actor order (the buffer is shared: every actor feeds
   it), then takes `train_batches` gradient steps as the single-process run does.

The run's `games` are split among the actors (as evenly as possible); actor `a` starts its `k`-th game
from seeds derived from (run seed, a, k) only, so a run is reproducible in its configuration (the same
actors count, the same Ray-free arithmetic: CPU inference in each actor). Checkpoints hold the learner
(network, optimizer, buffer, generators) and every live game with its random generator and its positions
awaiting an outcome; a resume with the same actor count continues bit for bit (tests), and a resume with
another count (another machine) deals the live games out again and goes on.

`inference: server` (meant for a learner with a GPU) starts one `InferenceServer` actor on the learner's
device: actors send it their search's observation buffers (packed rows when it is a GPU) and it runs one
forward pass on the requests of all actors that arrive together (`SERVER_WAIT_S`). On a CPU it works and
is tested, but is slower than each actor's own network; on a GPU its batches are not bit-reproducible.

Ray: a new local instance by default (every core of this machine), `ray_address` (or RAY_ADDRESS) to join
a cluster (`auto` on a cluster node, `ray://HOST:10001` through Ray Client), as scripts/rllib_selfplay.py.
"""

from __future__ import annotations

import asyncio
import os
import time

import numpy as np

from kbenv.engine import state as S
from kbenv.game import Game

from ..alphazero.network import NetworkEvaluator
from .alphazero import ReplayBuffer, Run, SelfPlay
from .az_config import AlphaZeroConfig

SERVER_WAIT_S = 0.002  # the inference server waits this long for more requests before a forward pass
GAME_FIELDS = ("games", "setups", "actions", "rngs", "pending")  # SelfPlay.to_dict's per-game lists


def split_games(games: int, actors: int) -> list[int]:
    """`games` dealt to `actors` as evenly as possible, the first ones taking one more."""
    if actors < 1 or games < actors:
        raise ValueError(f"actors: {actors} actors cannot share {games} games (each needs at least one)")
    return [games // actors + (a < games % actors) for a in range(actors)]


class PositionBatch:
    """The positions of an actor's finished games in one round (`add` as ReplayBuffer.add), as arrays."""

    def __init__(self, action_size: int):
        self.action_size = action_size
        self.rows: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]] = []

    def add(self, state: np.ndarray, policy: np.ndarray, values: np.ndarray, seats: int) -> None:
        self.rows.append((state, policy, values, seats))

    def arrays(self) -> dict[str, np.ndarray]:
        """{"states", "policies", "values", "seats"}: one row per position, in the order they ended."""
        n = len(self.rows)
        out = {"states": np.zeros((n, S.STATE_SIZE), dtype=np.int64),
               "policies": np.zeros((n, self.action_size), dtype=np.float32),
               "values": np.zeros((n, S.MAX_PLAYERS), dtype=np.float32), "seats": np.zeros(n, dtype=np.int8)}
        for k, (state, policy, values, seats) in enumerate(self.rows):
            out["states"][k], out["policies"][k], out["values"][k], out["seats"][k] = state, policy, values, seats
        return out


def add_positions(buffer: ReplayBuffer, batch: dict[str, np.ndarray]) -> None:
    """Put an actor's positions into the learner's buffer, in their order."""
    for state, policy, values, seats in zip(batch["states"], batch["policies"], batch["values"], batch["seats"],
                                            strict=True):
        buffer.add(state, policy, values, int(seats))


class ActorSelfPlay(SelfPlay):
    """An actor's share of the games: its `k`-th new game is seeded from (run seed, actor, k) alone."""

    def __init__(self, config: AlphaZeroConfig, actor: int, games: int, next_game: int = 0):
        self.actor = actor
        self.next_game = next_game
        super().__init__(config.model_copy(update={"games": games}))

    def _start_game(self) -> tuple[Game, np.random.Generator]:
        c = self.config
        k = self.next_game
        self.next_game += 1
        self.started += 1
        players = c.players[k % len(c.players)]
        seed = int(np.random.SeedSequence([c.seed, 1 + self.actor, k, 0]).generate_state(1, np.uint64)[0] >> 1)
        game = Game.new(num_players=players, seed=seed, **c.selfplay_setup(k, [c.seed, 1 + self.actor, k, 3]))
        return game, np.random.default_rng([c.seed, 1 + self.actor, k, 1])

    def to_dict(self) -> dict:
        return {**super().to_dict(), "next_game": self.next_game}

    def load(self, data: dict) -> None:
        super().load({k: v for k, v in data.items() if k != "next_game"})
        self.next_game = data["next_game"]


class ServerEvaluator(NetworkEvaluator):
    """A NetworkEvaluator whose forward passes run in an InferenceServer actor (`net`: the layout only)."""

    def __init__(self, net, server, cache: int = 0):
        super().__init__(net, "cpu", cache=cache)
        self.server = server

    def _forward(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        import ray

        return ray.get(self.server.infer.remote(obs))


def _load_weights(net, weights: dict[str, np.ndarray]) -> None:
    import torch

    net.load_state_dict({k: torch.tensor(v) for k, v in weights.items()})


class SelfPlayWorker:
    """One self-play actor (a Ray actor in a run; a plain object in tests): its games, a copy of the
    network on its CPU (or the inference server), and its search."""

    def __init__(self, config: dict, actor: int, net_config: dict, server=None, packed: bool = False,
                 threads: int = 1):
        import torch

        from ..alphazero.compiled_search import make_search
        from ..alphazero.network import PolicyValueNet
        from .networks import flush_denormals

        flush_denormals()
        if threads:
            torch.set_num_threads(threads)
        self.config = AlphaZeroConfig.from_dict(config)
        self.actor = actor
        self.net = PolicyValueNet(**net_config).eval()
        c = self.config
        self.evaluator = (ServerEvaluator(self.net, server, cache=c.evaluation_cache) if server is not None
                          else NetworkEvaluator(self.net, threads=threads, cache=c.evaluation_cache))
        self.search = make_search(c.search, self.evaluator, num_simulations=c.simulations,
                                  max_considered=c.considered, packed=packed, min_spread=c.min_q_spread)
        self.selfplay: ActorSelfPlay | None = None

    def start(self, games: int | dict, next_game: int = 0) -> int:
        """New games (a count), or live games from a checkpoint (a SelfPlay.to_dict); returns the count."""
        if isinstance(games, int):
            self.selfplay = ActorSelfPlay(self.config, self.actor, games, next_game)
        else:
            self.selfplay = ActorSelfPlay(self.config, self.actor, 0, next_game)
            self.selfplay.load({**games, "next_game": next_game})
        return len(self.selfplay.games)

    def set_weights(self, weights: dict[str, np.ndarray]) -> None:
        _load_weights(self.net, weights)
        self.evaluator.clear_cache()  # outputs of the old weights

    def play(self, weights: dict[str, np.ndarray] | None, steps: int) -> dict:
        """Load `weights` (None: keep), play `steps` decisions in every game; the positions of the games
        that ended and the round's counts."""
        if weights is not None:
            self.set_weights(weights)
        self.evaluator.clear_cache()  # a round's cache starts empty (new weights; a resumed round the same)
        sp = self.selfplay
        batch = PositionBatch(self.net.action_size)
        positions, finished, evaluations = sp.positions, sp.finished, self.evaluator.positions
        hits = self.evaluator.cache_hits
        t0 = time.perf_counter()
        for _ in range(steps):
            sp.step(self.search, batch)
        return {"positions": sp.positions - positions, "finished": sp.finished - finished,
                "evaluations": self.evaluator.positions - evaluations, "cached": self.evaluator.cache_hits - hits,
                "seconds": time.perf_counter() - t0,
                "batch": batch.arrays()}

    def state(self) -> dict:
        """The live games, their generators and pending positions, and the next game's number."""
        return self.selfplay.to_dict()

    def evaluate(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The network's outputs on observations (what the actor's search would get)."""
        return self.evaluator.infer(obs)


class InferenceServer:
    """The network on the learner's device, serving the actors' forward passes in batches (an asyncio
    Ray actor): requests that arrive within SERVER_WAIT_S of each other, or one from every actor, run as
    one forward pass."""

    def __init__(self, net_config: dict, device: str, actors: int, wait: float = SERVER_WAIT_S):
        import torch

        from ..alphazero.network import PolicyValueNet

        torch.set_num_threads(1)
        self.device = device
        self.net = PolicyValueNet(**net_config).to(device).eval()
        self.actors = actors
        self.wait = wait
        self.pending: list[tuple[np.ndarray, asyncio.Future]] = []
        self.timer: asyncio.TimerHandle | None = None
        self.batches = 0
        self.positions = 0

    def set_weights(self, weights: dict[str, np.ndarray]) -> None:
        _load_weights(self.net, weights)
        self.net.to(self.device).eval()

    async def infer(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self.pending.append((obs, future))
        if len(self.pending) >= self.actors:
            self._flush()
        elif self.timer is None:
            self.timer = loop.call_later(self.wait, self._flush)
        return await future

    def _flush(self) -> None:
        import torch

        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        batch, self.pending = self.pending, []
        if not batch:
            return
        try:
            with torch.no_grad():
                obs = torch.from_numpy(np.concatenate([o for o, _ in batch])).to(self.device)
                logits, values = self.net(obs)
                logits, values = logits.float().cpu().numpy(), values.float().cpu().numpy()
        except Exception as exc:  # every waiting actor gets the error
            for _, future in batch:
                future.set_exception(exc)
            return
        start = 0
        for o, future in batch:
            future.set_result((logits[start:start + len(o)], values[start:start + len(o)]))
            start += len(o)
        self.batches += 1
        self.positions += start

    def stats(self) -> dict:
        """Forward passes and positions served so far."""
        return {"batches": self.batches, "positions": self.positions}


def connect_ray(address: str | None) -> bool:
    """Connect to Ray: an instance this process already started, `address` or RAY_ADDRESS (a cluster), or
    a new local one. True when this call started Ray (the caller shuts it down)."""
    import ray

    if ray.is_initialized():
        return False
    address = address or os.environ.get("RAY_ADDRESS") or "local"
    if address == "local":  # a new instance, even when `ray start` runs on this machine
        ray.init(address="local", include_dashboard=False, log_to_driver=True)
    else:
        ray.init(address=address, log_to_driver=True)
    return True


class ActorPool:
    """The actors of a run as the learner sees them (in place of its SelfPlay): totals, the live games
    for checkpoints, and the round's work."""

    def __init__(self, config: AlphaZeroConfig):
        self.config = config
        self.started = self.finished = self.positions = 0
        self.next_game: dict[int, int] = {}  # actor -> its next game's number (every actor index ever used)
        self.saved: dict | None = None  # live games from a checkpoint, dealt out at start
        self.workers: list = []
        self.server = None
        self.ray_started = False
        self.count = 0  # actors running
        self.last: dict = {}  # the last round's counts

    # ----- Ray ------------------------------------------------------------------------------------------
    def resolve_actors(self, cpus: float) -> int:
        """The number of actors: the config's, or `auto` = the cluster's CPUs less the learner's one."""
        c = self.config
        if c.actors != "auto":
            return c.actors
        return max(1, min(int(cpus) - 1, c.games if self.saved is None else len(self.saved["games"])))

    def start(self, net, device: str, log=print) -> None:
        """Start Ray (or join it), the inference server if any, and the actors with their games."""
        import ray

        c = self.config
        self.ray_started = connect_ray(c.ray_address)
        cpus = ray.cluster_resources().get("CPU", 1.0)
        n = self.resolve_actors(cpus)
        live = len(self.saved["games"]) if self.saved is not None else c.games
        if n > live:
            raise ValueError(f"field 'actors': {n} actors need at least as many games, the run has {live}")
        server, packed = None, False
        if c.inference == "server":
            gpus = 1 if str(device).startswith("cuda") else 0
            server = ray.remote(num_cpus=0, num_gpus=gpus)(InferenceServer).remote(net.config, str(device), n)
            packed = gpus > 0  # packed rows cost less to ship and unpack on a GPU, more on a CPU
            self.server = server
        per_actor = 1.0 if n <= cpus else cpus / n  # more actors than CPUs: Ray shares them instead of waiting
        worker = ray.remote(num_cpus=per_actor)(SelfPlayWorker)
        config = c.to_dict()
        self.workers = [worker.remote(config, a, net.config, server, packed) for a in range(n)]
        if self.saved is None:
            shares: list = split_games(c.games, n)
        else:
            sizes = split_games(len(self.saved["games"]), n)
            bounds = np.cumsum([0, *sizes])
            shares = [{**{f: self.saved[f][lo:hi] for f in GAME_FIELDS}, "started": 0, "finished": 0, "positions": 0}
                      for lo, hi in zip(bounds[:-1], bounds[1:], strict=True)]
        ray.get([w.start.remote(share, self.next_game.get(a, 0)) for a, (w, share) in
                 enumerate(zip(self.workers, shares, strict=True))])
        if self.saved is None:
            self.started += c.games
        self.count = n
        self.saved = None
        where = c.ray_address or os.environ.get("RAY_ADDRESS") or "a local Ray instance"
        log(f"{n} self-play actor{'s' if n != 1 else ''} on {where} ({cpus:g} CPUs), inference: {c.inference}"
            + (f" on {device}" if server is not None else " in each actor"))

    def stop(self) -> None:
        """End the actors, and Ray if this pool started it (their games are in the last checkpoint: a run
        saves one at its end, and an interrupted run resumes from its last one)."""
        import ray

        for w in self.workers + ([self.server] if self.server is not None else []):
            ray.kill(w)
        self.workers, self.server = [], None
        if self.ray_started:
            ray.shutdown()
            self.ray_started = False

    # ----- a round --------------------------------------------------------------------------------------
    def play(self, net, buffer: ReplayBuffer, steps: int) -> dict:
        """Send the weights, let every actor play `steps` decisions in its games, and put the positions of the
        games that ended into `buffer` (actor 0's first); the round's counts."""
        import ray

        weights = ray.put({k: v.detach().cpu().numpy() for k, v in net.state_dict().items()})
        if self.server is not None:
            ray.get(self.server.set_weights.remote(weights))
        results = ray.get([w.play.remote(weights, steps) for w in self.workers])
        for r in results:
            add_positions(buffer, r["batch"])
        finished = sum(r["finished"] for r in results)
        self.positions += sum(r["positions"] for r in results)
        self.finished += finished
        self.started += finished  # every finished game is replaced at once
        self.last = {"evaluations": sum(r["evaluations"] for r in results), "cached": sum(r["cached"] for r in results),
                     "actor_seconds": max(r["seconds"] for r in results)}
        return self.last

    # ----- checkpoints ----------------------------------------------------------------------------------
    def _gather(self) -> dict:
        import ray

        states = ray.get([w.state.remote() for w in self.workers])
        self.saved = {f: [x for s in states for x in s[f]] for f in GAME_FIELDS}
        self.next_game.update({a: s["next_game"] for a, s in enumerate(states)})
        return self.saved

    def to_dict(self) -> dict:
        saved = self._gather() if self.workers else self.saved
        return {**saved, "actors": self.count, "next_game": dict(self.next_game), "started": self.started,
                "finished": self.finished, "positions": self.positions}

    def load(self, data: dict) -> None:
        if "next_game" not in data:
            raise ValueError("the checkpoint was written by a single-process run (field 'actors' 0): resume it "
                             "with actors: 0, or start a new run")
        self.saved = {f: data[f] for f in GAME_FIELDS}
        self.next_game = dict(data["next_game"])
        self.count = data["actors"]
        self.started, self.finished, self.positions = data["started"], data["finished"], data["positions"]


class ActorRun(Run):
    """A self-play run whose games are played by Ray actors (`actors` in the config); this process learns."""

    LOSS_COLUMNS = (*Run.LOSS_COLUMNS, "actors", "selfplay_seconds", "train_seconds", "positions_per_s",
                    "evaluations_per_s")

    def _make_selfplay(self) -> ActorPool:
        return ActorPool(self.config)

    def _searcher(self):
        return None, None  # the actors search

    def _play_round(self, evaluator, search) -> None:
        before = self.selfplay.positions
        done = self.selfplay.play(self.net, self.buffer, self.config.steps_per_iteration)
        self.evaluations += done["evaluations"]
        self.cached_evaluations += done["cached"]
        self._round_positions = self.selfplay.positions - before

    def _round_stats(self, selfplay_seconds: float, train_seconds: float) -> dict:
        seconds = max(selfplay_seconds, 1e-9)
        return {"actors": self.selfplay.count, "selfplay_seconds": round(selfplay_seconds, 4),
                "train_seconds": round(train_seconds, 4),
                "positions_per_s": round(self._round_positions / seconds, 1),
                "evaluations_per_s": round(self.selfplay.last["evaluations"] / seconds, 1)}

    def card(self) -> dict:
        c = self.config
        return {**super().card(), "actors": self.selfplay.count, "actors_config": c.actors,
                "inference": c.inference, "ray_address": c.ray_address}

    def run(self, progress: bool = True) -> dict:
        self.selfplay.start(self.net, self.device, self.log)
        try:
            return super().run(progress=progress)
        finally:
            self.selfplay.stop()
