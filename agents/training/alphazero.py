"""Search-based self-play (Gumbel AlphaZero) over the numba engine.

One round (an "iteration"):
1. Self-play: `games` games advance side by side, `steps_per_iteration` decisions each. Every decision
   is a Gumbel search (agents.alphazero.search, or its compiled twin agents.alphazero.compiled_search
   with `search: compiled`: the same results) from a root determinized for the deciding player, with
   all games' leaves evaluated in one forward pass. The position (its state), the improved policy, the
   decider and the score margins the position would score now are kept until the game ends; then each
   gets, per seat, the final margin minus that score as its value target (the gain still to come; with
   `value_search_weight` w, mixed as (1 - w) x that + w x the root's searched value minus that score) and
   joins the replay buffer. A finished game is replaced by a new one at once. With `opponent` greedy or
   lookahead, the search plays one seat of each game and that built-in policy all the others (their moves
   are the kernel's, on the decider's determinized view); only the search's decisions are kept, unless
   `opponent_positions` keeps theirs too, for the value head alone (outcome targets, an empty policy row).
2. Training: `train_batches` gradient steps on batches drawn from the buffer: cross-entropy of the
   network's masked policy against the improved policy (averaged over the rows that have one), plus
   `value_weight` x mean squared error of the seat values.

With `actors` in the config, Ray actors play the games and this process learns (agents.training.actors:
ActorRun, the same loop through this module's hooks `_make_selfplay`, `_searcher`, `_play_round`).

With a `teacher` (greedy or lookahead) the network first imitates it (agents.training.az_warm: a warm
start before round 1, recorded in the checkpoint so that a resumed run does not redo it, and in the
model card); the learning curve then starts with the network after imitation. Without one (the
default) self-play starts from random weights.

The network sees the standard observation only (no hints; a built-in policy only as the optional
teacher of the warm start). Everything random comes from the config seed; a checkpoint holds the
network, the optimizer, the buffer, the live games, every random generator and the warm start's
record, so a resumed run continues bit for bit (tests/test_alphazero.py, tests/test_az_warm_start.py).
"""

from __future__ import annotations

import csv
import json
import math
import time
import zlib
from pathlib import Path

import numpy as np

from kbenv.engine import state as S
from kbenv.engine.rng import seed_u32
from kbenv.game import Game
from kbenv.game.view import determinized_state

from ..alphazero.search import relative_values, score_values
from ..az import DEFAULT_CONSIDERED
from .az_config import AlphaZeroConfig
from .networks import flush_denormals, hold_torch_threads
from .training import pick_device

CHECKPOINT = "checkpoint.pt"
MODEL = "model.pt"


class ReplayBuffer:
    """The most recent positions: state vectors, policy targets, observer-relative values."""

    def __init__(self, capacity: int, action_size: int):
        self.states = np.zeros((capacity, S.STATE_SIZE), dtype=np.int64)
        self.policies = np.zeros((capacity, action_size), dtype=np.float32)
        self.values = np.zeros((capacity, S.MAX_PLAYERS), dtype=np.float32)
        self.seats = np.zeros(capacity, dtype=np.int8)  # players in the game (value entries that count)
        self.size = 0
        self.next = 0

    def add(self, state: np.ndarray, policy: np.ndarray, values: np.ndarray, seats: int) -> None:
        k = self.next
        self.states[k] = state
        self.policies[k] = policy
        self.values[k] = values
        self.seats[k] = seats
        self.next = (k + 1) % len(self.states)
        self.size = min(self.size + 1, len(self.states))

    def sample(self, rng: np.random.Generator, n: int) -> np.ndarray:
        return rng.integers(0, self.size, size=n)

    def to_dict(self) -> dict:
        """The filled part, compressed (states and policies are mostly zeros: about 20x smaller)."""
        n = self.size
        return {"states": zlib.compress(self.states[:n].tobytes(), 1),
                "policies": zlib.compress(self.policies[:n].tobytes(), 1),
                "values": self.values[:n].copy(), "seats": self.seats[:n].copy(), "next": self.next, "size": n,
                "capacity": len(self.states)}

    def load(self, data: dict) -> None:
        n = data["size"]
        if n > len(self.states):
            raise ValueError(f"the checkpoint's buffer holds {n} positions, more than buffer_positions "
                             f"({len(self.states)})")
        if n:
            self.states[:n] = _array(data["states"], np.int64).reshape(n, -1)
            self.policies[:n] = _array(data["policies"], np.float32).reshape(n, -1)
        self.values[:n], self.seats[:n] = data["values"], data["seats"]
        self.size, self.next = n, data["next"]
        if data.get("capacity", len(self.states)) != len(self.states) and self.next:
            # another buffer size: put the rows oldest first, so that the next one written replaces the oldest
            for array in (self.states, self.policies, self.values, self.seats):
                array[:n] = np.roll(array[:n], -self.next, axis=0)
            self.next = n % len(self.states)


def _array(stored, dtype) -> np.ndarray:
    """A buffer array as stored: zlib-compressed bytes, or a plain array (checkpoints before compression)."""
    return np.frombuffer(zlib.decompress(stored), dtype=dtype) if isinstance(stored, bytes) else np.asarray(stored)


def opponent_kernel(name: str):
    """The numba policy kernel(state, rng_state, rng_index) of a built-in opponent (greedy or lookahead)."""
    if name == "greedy":
        from kbenv.policies.greedy import greedy_action

        return greedy_action
    from kbenv.policies.lookahead import lookahead_action

    return lookahead_action


def teacher_best_set(name: str, state: np.ndarray, action_size: int) -> np.ndarray:
    """A built-in policy's (greedy or lookahead) best actions in a state as a 0/1 float64 vector, ties included."""
    from kbenv.vector import best_sets

    if name == "greedy":
        from kbenv.policies.greedy import greedy_values as values_kernel
    else:
        from kbenv.policies.lookahead import lookahead_values as values_kernel
    values = np.empty(action_size, dtype=np.float64)
    values_kernel(state, values)
    return best_sets(values[None, :])[0].astype(np.float64)


NO_POLICY = 0.0  # the policy row of a position kept for the value head alone (broadcast: all zeros)


def value_target(final: np.ndarray, score: np.ndarray, searched: np.ndarray | None, weight: float) -> np.ndarray:
    """A position's value target per seat, the gain still to come: the final margins minus the margins it
    would score now, mixed with weight `weight` with the root's searched value minus that score (`weight` 0,
    or a position saved without its searched value: the outcome alone, the same numbers as before)."""
    if weight == 0.0 or searched is None:
        return final - score
    return (1.0 - weight) * (final - score) + weight * (np.asarray(searched, dtype=np.float64) - score)


class SelfPlay:
    """The live games of a run, their random generators and their positions awaiting an outcome."""

    # (game, seat, generator) -> the state of a world consistent with the seat's view (hidden cards re-dealt);
    # benchmarks.search_speed gives its reference the view's slower determinization (the same states and draws)
    determinize = staticmethod(determinized_state)

    def __init__(self, config: AlphaZeroConfig):
        self.config = config
        self.games: list[Game] = []
        self.rngs: list[np.random.Generator] = []
        self.pending: list[list[tuple[np.ndarray, np.ndarray, int, np.ndarray]]] = []
        self.started = 0  # games begun
        self.finished = 0
        self.positions = 0  # decisions searched
        for _ in range(config.games):
            self._new_game(None)

    def _start_game(self) -> tuple[Game, np.random.Generator]:
        """The next new game and its random generator, seeded from (run seed, games started)."""
        c = self.config
        index = self.started
        self.started += 1
        players = c.players[index % len(c.players)]
        game = Game.new(num_players=players, seed=(c.seed * 1_000_003 + index) % 2**63,
                        **c.selfplay_setup(index, [c.seed, index, 3]))
        return game, np.random.default_rng([c.seed, index])

    def _new_game(self, slot: int | None) -> None:
        game, rng = self._start_game()
        if slot is None:
            self.games.append(game)
            self.rngs.append(rng)
            self.pending.append([])
        else:
            self.games[slot], self.rngs[slot], self.pending[slot] = game, rng, []

    def learner_seat(self, game: Game) -> int | None:
        """The seat the search plays against built-in opponents (config `opponent`), from the game's set-up
        seed so that seats rotate over the games; None in self-play (the search plays every seat)."""
        if self.config.opponent == "self":
            return None
        return game.setup.seed % game.num_players

    def step(self, search, buffer: ReplayBuffer) -> int:
        """One searched decision in every game (after the built-in opponents' moves that come first, when the
        config names an `opponent`); returns the number of games that ended."""
        ended = self._play_opponents(buffer)
        roots = [self.determinize(g, g.decider, rng) for g, rng in zip(self.games, self.rngs, strict=True)]
        results = search.run(roots, self.rngs)
        for slot, (game, result) in enumerate(zip(list(self.games), results, strict=True)):
            if result.legal > 1:  # a forced decision teaches nothing
                self.pending[slot].append((game.state.copy(), self.policy_target(roots[slot], result.policy),
                                           game.decider,
                                           score_values(game.state), result.value))
            game.step(result.action)
            self.positions += 1
            if game.done:
                self._finish(slot, buffer)
                ended += 1
        return ended

    def policy_target(self, root: np.ndarray, improved: np.ndarray) -> np.ndarray:
        """The policy a position is trained towards: the search's improved policy, mixed with weight
        `policy_teacher_weight` with the best set of `policy_teacher` (uniform over its ties) at the searched root."""
        weight = self.config.policy_teacher_weight
        if weight == 0.0:
            return improved
        best = teacher_best_set(self.config.policy_teacher, root, len(improved))
        return ((1.0 - weight) * improved + weight * best / best.sum()).astype(improved.dtype)

    def _play_opponents(self, buffer: ReplayBuffer) -> int:
        """Play the built-in opponent's moves in every game until the learner's seat decides (a game that ends
        meanwhile is finished and replaced, and the new one played to its learner's turn); the games ended."""
        if self.config.opponent == "self":
            return 0
        kernel = opponent_kernel(self.config.opponent)
        ended = 0
        for slot in range(len(self.games)):
            while True:
                game, rng = self.games[slot], self.rngs[slot]
                if game.done:
                    self._finish(slot, buffer)
                    ended += 1
                    continue
                if game.decider == self.learner_seat(game):
                    break
                if self.config.opponent_positions:  # for the value head: no policy row, the outcome as target
                    self.pending[slot].append((game.state.copy(), None, game.decider, score_values(game.state), None))
                world = self.determinize(game, game.decider, rng)  # hidden cards re-dealt
                game.step(int(kernel(world, np.array([seed_u32(int(rng.integers(2**32)))], dtype=np.int64), 0)))
        return ended

    def _finish(self, slot: int, buffer: ReplayBuffer) -> None:
        """A finished game's positions join the buffer with their value targets; a new game takes its slot."""
        game = self.games[slot]
        final = score_values(game.state)
        for state, policy, observer, score, *searched in self.pending[slot]:
            target = value_target(final, score, searched[0] if searched else None, self.config.value_search_weight)
            buffer.add(state, NO_POLICY if policy is None else policy, relative_values(target, observer),
                       game.num_players)
        self.finished += 1
        self._new_game(slot)

    def to_dict(self) -> dict:
        return {"games": [g.state.copy() for g in self.games], "setups": [g.setup for g in self.games],
                "actions": [list(g.actions) for g in self.games],
                "rngs": [r.bit_generator.state for r in self.rngs], "pending": self.pending,
                "started": self.started, "finished": self.finished, "positions": self.positions}

    def load(self, data: dict) -> None:
        if "next_game" in data:
            raise ValueError("the checkpoint was written by a run with actors (field 'actors'): resume it with "
                             "actors, or start a new run")
        self.games = [Game(setup, state.copy(), list(actions))
                      for setup, state, actions in zip(data["setups"], data["games"], data["actions"], strict=True)]
        self.rngs = []
        for state in data["rngs"]:
            rng = np.random.default_rng()
            rng.bit_generator.state = state
            self.rngs.append(rng)
        self.pending = data["pending"]
        self.started, self.finished, self.positions = data["started"], data["finished"], data["positions"]


def train_step(net, optimizer, buffer: ReplayBuffer, rng: np.random.Generator, config: AlphaZeroConfig,
               device: str) -> tuple[float, float]:
    """One gradient step; returns (policy loss, value loss)."""
    import torch

    from ..alphazero.network import legal_masks, observations

    idx = buffer.sample(rng, config.batch_size)
    states = [buffer.states[k] for k in idx]
    obs = torch.from_numpy(observations(states, net.config["v1"])).to(device)
    masks = torch.from_numpy(legal_masks(states, net.action_size)).to(device)
    target_pi = torch.from_numpy(buffer.policies[idx]).to(device)
    target_v = torch.from_numpy(buffer.values[idx]).to(device)
    seats = torch.from_numpy(buffer.seats[idx].astype(np.int64)).to(device)
    net.train()
    logits, values = net(obs)
    logits = logits.masked_fill(~masks, -1e9)
    per_row = -(target_pi * torch.log_softmax(logits, dim=1)).sum(dim=1)
    if config.opponent_positions:  # the built-in players' rows have no policy target: the mean over the others
        has_target = (target_pi.sum(dim=1) > 0).float()
        policy_loss = (per_row * has_target).sum() / has_target.sum().clamp(min=1.0)
    else:
        policy_loss = per_row.mean()
    counts = (torch.arange(S.MAX_PLAYERS, device=device)[None, :] < seats[:, None]).float()
    value_loss = (((values - target_v) ** 2) * counts).sum() / counts.sum()
    loss = config.policy_weight * policy_loss + config.value_weight * value_loss
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return policy_loss.item(), value_loss.item()


def search_spec(model_path: Path, config: AlphaZeroConfig, simulations: int) -> str:
    """The `az` spec of the search agent the evaluations play: `simulations`, the config's eval_considered and
    its search (compiled: the Python search's moves, faster)."""
    spec = f"az:path={model_path},sims={simulations}"
    if config.eval_considered != DEFAULT_CONSIDERED:
        spec += f",considered={config.eval_considered}"
    if config.search == "compiled":
        spec += ",search=compiled"
    return spec


def _search_workers(config: AlphaZeroConfig, agent: str) -> dict:
    """The search agent's games on eval_workers fresh processes (spawned: a fork would copy this process's
    torch and numba thread pools in a locked state); the raw network's games, fast, in this process."""
    if agent == "az" and config.eval_workers > 1:
        return {"workers": config.eval_workers, "backend": "spawn"}
    return {}


def evaluate(model_path: Path, config: AlphaZeroConfig, out_dir: Path, seed: int, games: int,
             progress: bool = False, simulations: int | None = None) -> list[dict]:
    """Games of the raw network (and of the search agent when `simulations`, by default eval_simulations,
    is > 0) against each evaluation opponent, seats rotated, in the run's first player count and ruleset."""
    import shutil

    from ..evaluation.tournament import run_tournament

    sims = config.eval_simulations if simulations is None else simulations
    specs = [f"aznet:path={model_path}"]
    if sims:
        specs.append(search_spec(model_path, config, sims))
    rows = []
    players = config.players[0]
    for spec in specs:
        agent = spec.split(":")[0]
        for opponent in config.eval_opponents:
            folder = out_dir / f"{agent}_vs_{opponent.replace(':', '_').replace('=', '')}"
            shutil.rmtree(folder, ignore_errors=True)
            # more than 2 players: the agent alone against players - 1 copies of the opponent (field)
            summary = run_tournament([spec, opponent], [players], games=games, seed=seed, out_dir=str(folder),
                                     setup=config.setup() or None, progress=progress, field=players > 2,
                                     **_search_workers(config, agent))
            block = summary["by_players"][str(players)]
            seat = block["seats"][spec]
            row = {"agent": agent, "opponent": opponent, "players": players, "games": games,
                   "win_share": seat["win_share"], "ci95": seat["win_share_ci95"], "mean_gold": seat["mean_gold"]}
            if agent == "az":  # the search agent: its simulations and time per decision (the issue asks for it)
                row.update(simulations=sims, seconds_per_decision=seconds_per_decision(folder / "games.csv", spec))
            rows.append(row)
    return rows


def seconds_per_decision(games_csv: Path, spec: str) -> float:
    """The median over a tournament's games (games.csv) of `spec`'s mean seconds per decision in each game."""
    with open(games_csv, newline="") as f:
        times = [float(row[f"sec_per_decision{i}"]) for row in csv.DictReader(f)
                 for i in range(int(row["num_players"])) if row[f"seat{i}"] == spec]
    return round(float(np.median(times)), 6) if times else float("nan")


def plot_curve(rows: list[dict], path: Path, start: str = "network from random weights") -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    for agent, sims, opponent in sorted({(r["agent"], r.get("simulations") or 0, r["opponent"]) for r in rows}):
        sel = [r for r in rows if r["agent"] == agent and (r.get("simulations") or 0) == sims
               and r["opponent"] == opponent]
        x = [r["positions"] for r in sel]
        y = [r["win_share"] for r in sel]
        lo = [r["ci95"][0] for r in sel]
        hi = [r["ci95"][1] for r in sel]
        if agent == "az":  # the search agent: often one point (the final evaluation), its interval as a bar
            ax.errorbar(x, y, yerr=[np.subtract(y, lo), np.subtract(hi, y)], fmt="D", capsize=4,
                        label=f"az + {sims} simulations vs {opponent}")
            continue
        line, = ax.plot(x, y, marker="o", label=f"{agent} vs {opponent}")
        ax.fill_between(x, lo, hi, color=line.get_color(), alpha=0.15)
    players = rows[0]["players"] if rows else 2
    ax.axhline(1 / players, color="grey", linestyle="--", linewidth=1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("self-play positions")
    ax.set_ylabel(f"win share ({players}-player games, 95% CI)")
    ax.set_title(f"learning curve ({start}, no hints)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


class Run:
    """A training run's folder, network, optimizer, buffer, games and progress; resumable."""

    def __init__(self, config: AlphaZeroConfig, resume: bool = False, log=print):
        import torch

        from ..alphazero.network import PolicyValueNet

        self.config = config
        self.log = log
        self.dir = Path(config.out_dir) / config.name
        self.dir.mkdir(parents=True, exist_ok=True)
        self.device = pick_device(config.device)
        if config.threads:
            torch.set_num_threads(config.threads)
        # the float mode is the process's: set it here, so that a run's arithmetic does not depend on what ran
        # before it in this process (an agent evaluated by an earlier run sets it, a fresh process does not)
        flush_denormals()
        torch.manual_seed(config.seed)
        v1 = bool(config.expansions)  # base rule flags keep the v0 layout, as in PPO networks
        self.net = PolicyValueNet(v1=v1, channels=config.channels, blocks=config.blocks,
                                  head_channels=config.head_channels).to(self.device)
        self.optimizer = torch.optim.AdamW(self.net.parameters(), lr=config.learning_rate,
                                           weight_decay=config.weight_decay)
        self.buffer = ReplayBuffer(config.buffer_positions, self.net.action_size)
        self.selfplay = self._make_selfplay()
        self.rng = np.random.default_rng([config.seed, 2**31])
        self.iteration = 0
        self.curve: list[dict] = []
        self.losses: list[dict] = []
        self.wall = 0.0
        self.search_seconds = 0.0
        self.train_seconds = 0.0
        self.evaluations = 0  # network positions evaluated in self-play
        self.cached_evaluations = 0  # of those, answered from the evaluation cache (config.evaluation_cache)
        self.imitation: dict | None = None  # the warm start's record once done (agents.training.az_warm)
        self.warm = None  # an unfinished warm start (az_warm.WarmStart: a run stopped during it)
        self.progress = False  # progress bars (set by run)
        self.initial: dict | None = None  # the saved network the run started from (config.init_from), if any
        path = self.dir / CHECKPOINT
        if resume and path.exists():
            self._load(path)
            log(f"resumed {config.name} at round {self.iteration} ({self.selfplay.positions:,} positions)")
            return
        if resume:
            log(f"no {path} to resume from: starting {config.name} afresh")
        if config.init_from is not None:
            self._start_from(config.init_from)
            log(f"starting from the network of {config.init_from}")

    def _start_from(self, source: str) -> None:
        """Copy the weights of a saved search network (a file, or trained:NAME); ValueError naming init_from."""
        from ..alphazero.network import load_network

        if source.startswith("trained:"):
            from ..az import shipped_model

            try:
                path = shipped_model(source.removeprefix("trained:"))
            except ValueError as err:
                raise ValueError(f"field 'init_from': {source}: {err}") from None
        else:
            path = Path(source)
            if not path.is_file():
                raise ValueError(f"field 'init_from': no file {path}")
        try:
            net, info = load_network(path)
        except ValueError as err:
            raise ValueError(f"field 'init_from': {err}") from None
        if net.config != self.net.config:
            raise ValueError(f"field 'init_from': the network in {path} is {net.config}; the config's fields "
                             f"(channels, blocks, head_channels, expansions) ask for {self.net.config}")
        self.net.load_state_dict(net.state_dict())
        card = info.get("card") or {}
        self.initial = {"init_from": source, "file": str(path), "name": card.get("name")}

    def _make_selfplay(self):
        """Who plays the games: one SelfPlay here (agents.training.actors.ActorRun: Ray actors)."""
        return SelfPlay(self.config)

    # ----- checkpoints ------------------------------------------------------------------------------
    def _checkpoint_dict(self) -> dict:
        import torch

        return {"config": self.config.to_dict(), "net_config": self.net.config,
                "net": self.net.state_dict(), "optimizer": self.optimizer.state_dict(),
                "buffer": self.buffer.to_dict(), "selfplay": self.selfplay.to_dict(),
                "rng": self.rng.bit_generator.state, "torch_rng": torch.get_rng_state(),
                "iteration": self.iteration, "curve": self.curve, "losses": self.losses,
                "wall": self.wall, "search_seconds": self.search_seconds, "train_seconds": self.train_seconds,
                "evaluations": self.evaluations, "cached_evaluations": self.cached_evaluations,
                "imitation": self.imitation, "initial": self.initial,
                "warm_start": None if self.warm is None else self.warm.to_dict()}

    def save_checkpoint(self) -> None:
        import torch

        tmp = self.dir / (CHECKPOINT + ".tmp")
        torch.save(self._checkpoint_dict(), tmp)
        tmp.replace(self.dir / CHECKPOINT)

    def _load(self, path: Path) -> None:
        import torch

        try:
            data = torch.load(path, map_location=self.device, weights_only=False)
        except Exception as exc:  # a damaged checkpoint is the file's problem: name it
            raise ValueError(f"{path}: cannot read the checkpoint ({type(exc).__name__}: {exc})") from None
        if data["net_config"] != self.net.config:
            raise ValueError(f"{path}: the checkpoint's network {data['net_config']} differs from the config's "
                             f"{self.net.config}")
        self.net.load_state_dict(data["net"])
        self.optimizer.load_state_dict(data["optimizer"])
        for group in self.optimizer.param_groups:  # the config decides (e.g. a lower rate for a later chunk)
            group["lr"], group["weight_decay"] = self.config.learning_rate, self.config.weight_decay
        self.buffer.load(data["buffer"])
        self.selfplay.load(data["selfplay"])
        self.rng.bit_generator.state = data["rng"]
        torch.set_rng_state(data["torch_rng"])
        self.iteration = data["iteration"]
        self.curve, self.losses = data["curve"], data["losses"]
        self.wall, self.search_seconds = data["wall"], data["search_seconds"]
        self.train_seconds, self.evaluations = data["train_seconds"], data["evaluations"]
        self.cached_evaluations = data.get("cached_evaluations", 0)  # checkpoints before the cache have none
        self.imitation = data.get("imitation")  # checkpoints before the warm start have none
        self.initial = data.get("initial")  # nor before init_from
        if data.get("warm_start") is not None:  # stopped during the warm start: go on with it
            self.warm = self._new_warm_start()
            self.warm.load(data["warm_start"])

    def save_model(self, path: Path | None = None) -> Path:
        from ..alphazero.network import save_network

        path = path or self.dir / MODEL
        save_network(self.net, path, {"card": self.card()})
        return path

    # ----- the loop ---------------------------------------------------------------------------------
    def card(self) -> dict:
        c = self.config
        return {"name": c.name, "method": "gumbel alphazero self-play (agents/training/alphazero.py)",
                "observation": "standard (v1)" if self.net.config["v1"] else "standard (v0), no hint planes",
                "players": c.players, "ruleset": c.ruleset(),
                **({"ruleset_rotation": list(c.ruleset_rotation)} if c.ruleset_rotation else {}),
                **({"selfplay_rotation": True} if c.selfplay_rotation else {}),
                "network": self.net.config,
                "rounds": self.iteration, "self_play_positions": self.selfplay.positions,
                "games_finished": self.selfplay.finished, "simulations": c.simulations, "considered": c.considered,
                "search": c.search,
                "wall_seconds": round(self.wall, 1), "search_seconds": round(self.search_seconds, 1),
                "train_seconds": round(self.train_seconds, 1),
                "positions_per_second": round(self.selfplay.positions / max(self.search_seconds, 1e-9), 1),
                "evaluations_per_second": round(self.evaluations / max(self.search_seconds, 1e-9), 1),
                "evaluation_cache": c.evaluation_cache, "cached_evaluations": self.cached_evaluations,
                "eval_same_games": c.eval_same_games, "value_search_weight": c.value_search_weight,
                "opponent": c.opponent,
                "opponent_positions": c.opponent_positions, "min_q_spread": c.min_q_spread,
                "policy_weight": c.policy_weight, "policy_teacher": c.policy_teacher,
                "policy_teacher_weight": c.policy_teacher_weight,
                "device": self.device, "teacher": self.teacher(), "warm_start": self.warm_start_record(),
                "initial_network": self.initial, "evaluation": self.last_evaluation()}

    def last_evaluation(self) -> list[dict]:
        return [r for r in self.curve if r["round"] == self.curve[-1]["round"]] if self.curve else []

    def start_description(self) -> str:
        """Where the network started: random weights, or the warm start (for the curve's title)."""
        if self.imitation is None:
            if self.initial is not None:
                return f"network of {self.initial['init_from']}"
            return "network from random weights"
        return f"warm start: {self.imitation['samples']:,} decisions of {self.imitation['teacher']} imitated"

    def teacher(self) -> str:
        """The teacher the network imitated (or is imitating), or none."""
        if self.imitation is not None:
            return self.imitation["teacher"]
        return self.warm.config.teacher if self.warm is not None else "none"

    def warm_start_record(self) -> dict | None:
        """The warm start's record (agents.training.az_warm), its progress while unfinished, or None."""
        if self.warm is not None:
            return {"teacher": self.warm.config.teacher, "samples": self.warm.samples,
                    "requested_samples": self.warm.config.imitation_samples, "finished": False}
        return self.imitation

    def _new_warm_start(self):
        from .az_pool import PoolWarmStart
        from .az_warm import WarmStart

        if self.config.teacher == "none":
            raise ValueError(f"{self.dir / CHECKPOINT}: the run stopped during its warm start; resume it with its "
                             f"teacher (field 'teacher' is none), or start a new run")
        if self.config.imitation_pool:
            return PoolWarmStart(self.net, self.config, self.device, log=self.log, cache_dir=self.dir / "pool")
        return WarmStart(self.net, self.config, self.device, log=self.log)

    def warm_start(self, deadline: float = math.inf) -> None:
        """Imitate the config's teacher (agents.training.az_warm) chunk by chunk until done or `deadline`
        (time.perf_counter()); `run` calls it before the first round and checkpoints after it, so a resumed
        run goes on from there (an unfinished warm start continues, a finished one is not redone)."""
        if self.warm is None:
            self.log(f"warm start: imitating {self.config.teacher} on {self.config.imitation_samples:,} decisions")
            self.warm = self._new_warm_start()
        while not self.warm.complete and time.perf_counter() < deadline:
            self.warm.chunk()
        if self.warm.complete:
            self.imitation = self.warm.finish()
            self.warm = None

    def _searcher(self):
        """(evaluator, search) of this process's self-play."""
        from ..alphazero.compiled_search import make_search
        from ..alphazero.network import NetworkEvaluator

        c = self.config
        evaluator = NetworkEvaluator(self.net, self.device, threads=c.threads, cache=c.evaluation_cache)
        return evaluator, make_search(c.search, evaluator, num_simulations=c.simulations, max_considered=c.considered,
                                      min_spread=c.min_q_spread)

    def _play_round(self, evaluator, search) -> None:
        """`steps_per_iteration` decisions in every game; finished games' positions join the buffer."""
        calls, hits = evaluator.positions, evaluator.cache_hits
        evaluator.clear_cache()  # a round's cache starts empty (the weights changed; a resumed round the same)
        for _ in range(self.config.steps_per_iteration):
            self.selfplay.step(search, self.buffer)
        self.evaluations += evaluator.positions - calls
        self.cached_evaluations += evaluator.cache_hits - hits

    def _round_stats(self, selfplay_seconds: float, train_seconds: float) -> dict:
        """Extra columns of a round's row in losses.csv (none here; ActorRun adds throughput)."""
        return {}

    def run(self, progress: bool = True) -> dict:
        c = self.config
        self.progress = progress
        evaluator, search = self._searcher()
        started = time.perf_counter()
        wall_before = self.wall
        deadline = started + c.max_minutes * 60 if c.max_minutes else math.inf
        if c.teacher != "none" and self.imitation is None:
            if self.iteration == 0:
                self.warm_start(deadline)
                self.wall = wall_before + time.perf_counter() - started
                self.save_checkpoint()  # a resumed run does not imitate again (or goes on with an unfinished start)
            else:
                self.log(f"teacher {c.teacher}: not imitated (the run resumed at round {self.iteration}, after "
                         f"its start; the warm start only comes before round 1)")
        if self.warm is not None:  # the time limit came during the warm start: no self-play in this call
            deadline = -math.inf
        elif c.eval_every and c.eval_opponents and self.iteration == 0 and not self.curve and c.iterations:
            self.evaluate(c.eval_games)  # the untrained or warm-started network: where the learning curve starts
        bar = _bar(progress, c.iterations, self.iteration)
        try:
            while self.iteration < c.iterations and time.perf_counter() < deadline:
                t0 = time.perf_counter()
                self._play_round(evaluator, search)
                t1 = time.perf_counter()
                self.search_seconds += t1 - t0
                losses = [0.0, 0.0]
                if self.buffer.size >= max(c.min_buffer, 1):
                    hold_torch_threads(c.threads)  # the engine's parallel kernels reset torch's count
                    for _ in range(c.train_batches):
                        p, v = train_step(self.net, self.optimizer, self.buffer, self.rng, c, self.device)
                        losses[0] += p / c.train_batches
                        losses[1] += v / c.train_batches
                t2 = time.perf_counter()
                self.train_seconds += t2 - t1
                self.iteration += 1
                self.wall = wall_before + time.perf_counter() - started
                self.losses.append({"round": self.iteration, "positions": self.selfplay.positions,
                                    "policy_loss": losses[0], "value_loss": losses[1],
                                    **self._round_stats(t1 - t0, t2 - t1)})
                if bar is not None:
                    bar.update(1)
                    bar.set_postfix_str(f"{self.selfplay.positions:,} positions, {self.selfplay.finished} games, "
                                        f"{self.selfplay.positions / max(self.search_seconds, 1e-9):.0f} pos/s, "
                                        f"loss {losses[0]:.2f}/{losses[1]:.3f}")
                if c.eval_every and c.eval_opponents and self.iteration % c.eval_every == 0 \
                        and self.iteration < c.iterations:
                    self.evaluate(c.eval_games)
                if c.checkpoint_every and self.iteration % c.checkpoint_every == 0:
                    self.save_checkpoint()
        finally:
            if bar is not None:
                bar.close()
        self.wall = wall_before + time.perf_counter() - started
        finished = self.iteration >= c.iterations and self.warm is None  # (a warm start may be unfinished)
        if finished and c.eval_opponents and (not self.curve or self.curve[-1]["round"] != self.iteration):
            self.evaluate(c.final_eval_games or c.eval_games, final=True)
        self.save_checkpoint()
        self.save_model()
        card = self.card()
        (self.dir / "model_card.json").write_text(json.dumps(card, indent=2))
        self._write_losses()
        return card

    def evaluate(self, games: int, final: bool = False) -> None:
        """Evaluate the network now (the final evaluation with final_eval_simulations) and redraw the curve."""
        c = self.config
        sims = c.final_eval_simulations if final and c.final_eval_simulations is not None else c.eval_simulations
        model = self.save_model()
        rows = evaluate(model, c, self.dir / "eval" / f"round_{self.iteration}",
                        seed=c.seed + (0 if c.eval_same_games else self.iteration), games=games,
                        progress=self.progress, simulations=sims)
        for r in rows:
            r.update(round=self.iteration, positions=self.selfplay.positions)
            self.curve.append(r)
            searched = f" ({r['simulations']} simulations, {r['seconds_per_decision']:.3f} s a decision)" \
                if r["agent"] == "az" else ""
            self.log(f"  round {self.iteration} ({self.selfplay.positions:,} positions): {r['agent']}{searched} vs "
                     f"{r['opponent']} win share {r['win_share']:.3f} [{r['ci95'][0]:.2f}, {r['ci95'][1]:.2f}]")
        with open(self.dir / "curve.csv", "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=["round", "positions", "agent", "opponent", "players", "games",
                                              "win_share", "ci95", "mean_gold", "simulations",
                                              "seconds_per_decision"])
            w.writeheader()
            w.writerows(self.curve)
        plot_curve(self.curve, self.dir / "curve.png", self.start_description())

    LOSS_COLUMNS = ("round", "positions", "policy_loss", "value_loss")

    def _write_losses(self) -> None:
        with open(self.dir / "losses.csv", "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(self.LOSS_COLUMNS))
            w.writeheader()
            w.writerows(self.losses)


def _bar(enabled: bool, total: int, done: int):
    if not enabled:
        return None
    from tqdm import tqdm

    return tqdm(total=total, initial=done, desc="self-play rounds", unit="round")


def train_alphazero(config: AlphaZeroConfig, resume: bool = False, progress: bool = True, log=print) -> dict:
    """Train (or resume) a search-based self-play run; returns its model card."""
    from .networks import flush_denormals

    flush_denormals()
    if config.actors != 0:  # Ray actors play, this process learns (agents.training.actors)
        from .actors import ActorRun

        return ActorRun(config, resume=resume, log=log).run(progress=progress)
    return Run(config, resume=resume, log=log).run(progress=progress)
