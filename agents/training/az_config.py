"""Configuration of search-based self-play (Gumbel AlphaZero): a YAML file with `method: alphazero`.

Validated like the PPO configs (agents.training.config): strict types, ranges, unknown fields refused,
one line per bad field naming it.
"""

from __future__ import annotations

from typing import Annotated, Literal

import numpy as np
from pydantic import Field, field_validator, model_validator

from kbenv.board.island_files import SUBSTITUTE_SIDES
from kbenv.policies import TEACHERS

from ..az import DEFAULT_CONSIDERED
from .config import (
    MAX_COUNT,
    MAX_SEED,
    ConfigModel,
    Count,
    ExpansionName,
    NonNegative,
    PlayerCount,
    RuleName,
    Share,
    Steps,
    _field,
    ruleset_problems,
)

EVAL_OPPONENTS = ("random", "greedy", "lookahead", "mcts:sims=300")
AZ_TEACHERS = ("none", *TEACHERS)  # the warm start's teacher (agents.training.az_warm); none = random weights
MAX_ACTORS = 4096
ROTATION_WORDS = ("base", "all", "random")  # ruleset_rotation's words besides expansion names
ActorCount = Annotated[int, Field(ge=0, le=MAX_ACTORS)]


class AlphaZeroConfig(ConfigModel):
    """All settings of a search-based self-play run (`kbenv train --config FILE`)."""

    method: Literal["alphazero"] = _field("alphazero", "alphazero")
    name: str = _field("az", "a folder name of letters, digits, '-', '_' and '.' (not '.' or '..')",
                       pattern=r"^[A-Za-z0-9_.-]+$", max_length=100)
    players: list[PlayerCount] = _field([2], "a non-empty list of player counts from 2 to 5", min_length=1)
    expansions: list[ExpansionName] = _field([], "a list of distinct expansions")
    rules: list[RuleName] = _field([], "a list of distinct rule flags")
    # the Island's side in every game (self-play and evaluation); null = each game's seed chooses (A-QI5)
    island_side: Literal[SUBSTITUTE_SIDES] | None = _field(None, f"null or one of {', '.join(SUBSTITUTE_SIDES)}")
    games: Count = _field(64, "a positive integer")  # games played side by side (one search batch)
    simulations: Count = _field(8, "a positive integer")  # search simulations per decision
    considered: Count = _field(8, "a positive integer")  # root actions sampled by Gumbel-top-k
    # the search's implementation: python (agents.alphazero.search) or compiled (numba kernels, same results)
    search: Literal["python", "compiled"] = _field("python", "one of python, compiled")
    # network outputs kept for positions met again within a round of self-play (transpositions, the next decision's
    # search): that many observation rows, least recently used out; 0 = none (agents.alphazero.network)
    evaluation_cache: int = _field(0, "an integer >= 0", ge=0)
    channels: Count = _field(16, "a positive integer")
    blocks: Count = _field(1, "a positive integer")
    head_channels: Count = _field(2, "a positive integer")
    # rounds of self-play then training; 0: the warm start only (needs a teacher), then the final evaluation
    iterations: int = _field(100, f"an integer from 0 to {MAX_COUNT}", ge=0, le=MAX_COUNT)
    steps_per_iteration: Count = _field(32, "a positive integer")  # decisions per game per round
    train_batches: Count = _field(16, "a positive integer")  # gradient steps per round
    batch_size: Count = _field(256, "a positive integer")
    learning_rate: float = _field(1e-3, "a number in (0, 1]", gt=0, le=1)
    weight_decay: NonNegative = _field(1e-4, "a finite number >= 0")
    value_weight: NonNegative = _field(1.0, "a finite number >= 0")
    # the policy cross-entropy's weight in the loss (0: the value head alone learns; the policy stays as it started)
    policy_weight: NonNegative = _field(1.0, "a finite number >= 0")
    # the policy target: (1 - w) x the search's improved policy + w x a built-in policy's best set (uniform over its
    # ties), that policy judging the searched root (policy_teacher); w = 0 and none: the improved policy alone
    policy_teacher: Literal[AZ_TEACHERS] = _field("none", f"one of {', '.join(AZ_TEACHERS)}")
    policy_teacher_weight: float = _field(0.0, "a number from 0 to 1", ge=0, le=1)
    # the value target: (1 - w) x the game's outcome + w x the root's searched value, each as the gain still to come
    # (w = 0: the outcome alone, as before; the searched value bootstraps from the network: less noise, some bias)
    value_search_weight: float = _field(0.0, "a number from 0 to 1", ge=0, le=1)
    # the search's sigma(q) divides the candidates' value range by at least this (value units: gold margins / 30) before
    # scaling it to (50 + visits) x 0.1 logits: 0 = min-max per node, as in the paper and mctx (differences of any
    # size, noise too, become the full scale); e.g. 0.1 = differences under 3 gold count in proportion
    min_q_spread: NonNegative = _field(0.0, "a finite number >= 0")
    # who plays the other seats: self = the search in every seat (self-play); greedy or lookahead = the search plays
    # one seat of each game (rotating with the games' seeds) against that built-in policy in all the others, and only
    # its decisions are trained on (their value targets are outcomes against that field: a best response to it)
    opponent: Literal["self", "greedy", "lookahead"] = _field("self", "one of self, greedy, lookahead")
    # with an opponent: also keep the built-in players' decisions, for the value head only (their policy rows are
    # empty and count in no policy loss), so that it learns positions where any seat decides, as the search asks
    # of it at every node past the learner's turn; false: only the learner's decisions (as before)
    opponent_positions: bool = _field(False, "true or false")
    buffer_positions: Count = _field(40_000, "a positive integer")  # replay buffer (most recent positions)
    min_buffer: int = _field(1_000, "an integer >= 0", ge=0)  # positions before training starts
    eval_every: int = _field(10, "an integer >= 0", ge=0)  # rounds between evaluations (0 = only the final)
    eval_games: Count = _field(40, "a positive integer")
    # true: every evaluation plays the same games (the config seed), so that the curve's points are paired and a
    # change between rounds is the network's, not the games'; false: round r plays seed + r (as before)
    eval_same_games: bool = _field(False, "true or false")
    eval_opponents: list[Literal[EVAL_OPPONENTS]] = _field(
        ["random", "greedy"], f"a list of {', '.join(EVAL_OPPONENTS)} (empty: no evaluation)")
    eval_simulations: int = _field(0, "an integer >= 0", ge=0)  # 0: evaluate the raw network only
    # the search agent's root candidates in evaluations (az's considered=)
    eval_considered: Count = _field(DEFAULT_CONSIDERED, "a positive integer")
    # the final evaluation's simulations (null: as eval_simulations): the agent as it plays, network + search,
    # measured once at the end while the curve's points stay cheap
    final_eval_simulations: int | None = _field(None, "null or an integer >= 0", ge=0)
    eval_workers: Count = _field(1, "a positive integer")  # processes playing the search agent's evaluation games
    final_eval_games: int = _field(0, "an integer >= 0", ge=0)  # 0: as eval_games
    checkpoint_every: int = _field(5, "an integer >= 0", ge=0)  # rounds between checkpoints (0 = only the last)
    max_minutes: NonNegative = _field(0.0, "a finite number >= 0")  # wall-time limit of this call (0 = none)
    device: Literal["auto", "cpu", "cuda"] = _field("auto", "one of auto, cpu, cuda")
    threads: int = _field(0, "an integer >= 0", ge=0)  # torch CPU threads (0 = torch's default)
    seed: int = _field(0, f"an integer from 0 to {MAX_SEED}", ge=0, le=MAX_SEED)
    out_dir: str = _field("runs", "a non-empty path without NUL characters", pattern=r"^[^\x00]+$")
    # parallel self-play (agents.training.actors): 0 = one process (as before); N = N Ray actors feeding
    # one learner; auto = the Ray cluster's CPUs - 1 (every core of one machine: one left to the learner)
    actors: ActorCount | Literal["auto"] = _field(0, f"an integer from 0 to {MAX_ACTORS}, or auto")
    # the Ray cluster of the actors: null = a new local Ray instance (or RAY_ADDRESS when it is set);
    # 'auto' (a cluster this node belongs to) or 'ray://HOST:10001' (Ray Client)
    ray_address: str | None = _field(None, "null, or a Ray address such as auto or ray://HOST:10001",
                                     pattern=r"^\S+$", max_length=500)
    # where the actors' network runs: local = in every actor, on its CPU; server = one inference actor on
    # the learner's device (a GPU when there is one) that batches the requests of all actors
    inference: Literal["local", "server"] = _field("local", "one of local, server")

    # warm start (agents.training.az_warm): before the first self-play round, the network's policy learns the
    # teacher's best moves and its value head the outcomes of the teacher's games, on imitation_samples
    # decisions (whole chunks of 64 games); none = self-play from random weights (as before)
    teacher: Literal[AZ_TEACHERS] = _field("none", f"one of {', '.join(AZ_TEACHERS)}")
    imitation_samples: Steps = _field(0, "an integer >= 0")  # > 0 exactly when teacher is not none
    imitation_epochs: Count = _field(2, "a positive integer")  # passes over each chunk of samples
    imitation_batch_size: Count = _field(256, "a positive integer")
    imitation_lr: Share = _field(0.001, "a number in (0, 1]")  # AdamW, its own optimizer (weight_decay as above)
    # 0: the policy learns the teacher's best set; > 0: softmax(teacher's values / temperature) over the legal
    # actions (the values in the teacher's units, gold for greedy and lookahead), which also ranks the other moves
    imitation_temperature: NonNegative = _field(0.0, "a finite number >= 0")
    # the share of random moves in the teacher's games (every seat; for positions off the teacher's path)
    imitation_random_share: float = _field(0.2, "a number in [0, 1)", ge=0, lt=1)
    # false: each chunk of 64 games is trained on as it comes (imitation_epochs passes over it); true: all the
    # teacher's games first (packed observations in memory, about 3 KB a decision), then imitation_epochs
    # passes over all of them in shuffled batches, the rate on a one-cycle schedule peaking at imitation_lr
    # (agents.training.az_pool)
    imitation_pool: bool = _field(False, "true or false")
    # teacher games of several rulesets in one warm start (agents.training.az_warm.chunk_ruleset): chunk k plays
    # entry k % len of this list: base, all (field 'expansions'), random (each of field 'expansions' in play with
    # probability 1/2, drawn from the chunk's seed) or expansions joined by '+' (a subset of field 'expansions');
    # the network reads v1 (base games too). Empty: every chunk plays field 'expansions'. Evaluations play
    # field 'expansions'; self-play rounds too, unless selfplay_rotation is true.
    ruleset_rotation: list[str] = _field([], "a list of base, all, random or expansions joined by '+'",
                                         max_length=1000)
    # true: self-play game k (counted over the run; per actor with actors) plays entry k % len of
    # ruleset_rotation (random: drawn from the game's own seed), so one network learns every ruleset of the
    # rotation by search as well as by imitation. False: every self-play game plays field 'expansions'.
    selfplay_rotation: bool = _field(False, "true or false")
    # start from a saved search network instead of random weights or a warm start: a model.pt path or a shipped
    # model as trained:NAME (agents/models); its network must be the one channels, blocks, head_channels and
    # expansions describe. A resumed run takes its weights from the checkpoint instead.
    init_from: str | None = _field(None, "null, or a search network file (model.pt) or trained:NAME",
                                   min_length=1, pattern=r"^[^\x00]+$")

    _name = field_validator("name")(ConfigModel.check_name)
    _distinct = field_validator("expansions", "rules", "eval_opponents")(ConfigModel.check_distinct)

    @model_validator(mode="after")
    def _consistent(self) -> AlphaZeroConfig:
        problems = ruleset_problems(self.expansions, self.rules) + self.actor_problems() + self.teacher_problems()
        if self.opponent_positions and self.opponent == "self":
            problems.append("field 'opponent_positions': needs a built-in opponent in field 'opponent' (greedy or "
                            "lookahead; with self every decision is searched and kept already)")
        problems += self.rotation_problems()
        if self.selfplay_rotation and not self.ruleset_rotation:
            problems.append("field 'selfplay_rotation': needs the rulesets to rotate in field 'ruleset_rotation'")
        if self.island_side is not None and "island" not in self.expansions:
            problems.append("field 'island_side': needs the 'island' expansion in field 'expansions'")
        if problems:
            raise ValueError("\n".join(problems))
        return self

    def setup(self) -> dict:
        """The set-up options of the run's games: the ruleset (`ruleset()`), and `island_side` when one is set."""
        return {**self.ruleset(), **({"island_side": self.island_side} if self.island_side is not None else {})}

    def rotation_expansions(self, index: int, draw_key: list[int]) -> list[str]:
        """The expansions of entry `index % len` of `ruleset_rotation` (field 'expansions' without one);
        its `random` entry keeps each of field 'expansions' with probability 1/2, drawn from `draw_key`."""
        if not self.ruleset_rotation:
            return list(self.expansions)
        entry = self.ruleset_rotation[index % len(self.ruleset_rotation)]
        if entry == "base":
            return []
        if entry == "all":
            return list(self.expansions)
        if entry == "random":
            drawn = np.random.default_rng(draw_key).random(len(self.expansions)) < 0.5
            return [name for name, keep in zip(self.expansions, drawn, strict=True) if keep]
        return entry.split("+")

    def selfplay_setup(self, index: int, draw_key: list[int]) -> dict:
        """The set-up options of self-play game `index`: `setup()`, or with selfplay_rotation the rotation's
        entry for the game (`rotation_expansions`; `island_side` where the Island is in play)."""
        if not self.selfplay_rotation:
            return self.setup()
        expansions = self.rotation_expansions(index, draw_key)
        side = {"island_side": self.island_side} if self.island_side is not None and "island" in expansions else {}
        return {**({"expansions": expansions} if expansions else {}), **side}

    def teacher_problems(self) -> list[str]:
        """The warm-start and policy-target fields that do not fit together, each naming the field to change."""
        if (self.policy_teacher == "none") != (self.policy_teacher_weight == 0.0):
            return [f"field 'policy_teacher_weight': must be above 0 exactly when field 'policy_teacher' names a "
                    f"policy (policy_teacher is {self.policy_teacher!r}, policy_teacher_weight "
                    f"{self.policy_teacher_weight})"]
        if self.init_from is not None and self.teacher != "none":
            return [f"field 'init_from': a run starts from a saved network or imitates a teacher, not both (field "
                    f"'teacher' is {self.teacher!r}; set it to none)"]
        if self.iterations == 0 and self.teacher == "none":
            return ["field 'iterations' may be 0 only with a warm start (field 'teacher' is none: a run without "
                    "rounds would not train)"]
        if self.teacher != "none" and self.imitation_samples == 0:
            return [f"field 'imitation_samples' must be positive with a teacher (field 'teacher' is "
                    f"{self.teacher!r}; set teacher: none for self-play from random weights)"]
        if self.teacher == "none" and self.imitation_samples > 0:
            return [f"field 'teacher' must be one of {', '.join(TEACHERS)} to imitate (field 'imitation_samples' "
                    f"is {self.imitation_samples}; set it to 0 for self-play from random weights)"]
        return []

    def rotation_problems(self) -> list[str]:
        """Entries of `ruleset_rotation` that name no ruleset of field 'expansions', and fields it excludes."""
        if not self.ruleset_rotation:
            return []
        if not self.expansions:
            return ["field 'ruleset_rotation': needs the expansions to draw from in field 'expansions'"]
        if self.rules:
            return ["field 'rules': not with field 'ruleset_rotation' (every chunk plays the default readings)"]
        problems = []
        for k, entry in enumerate(self.ruleset_rotation):
            if entry in ROTATION_WORDS:
                continue
            names = entry.split("+")
            unknown = [n for n in names if n not in self.expansions]
            if unknown or len(set(names)) != len(names):
                problems.append(f"field 'ruleset_rotation': entry {k} ({entry[:100]!r}) must be one of "
                                f"{', '.join(ROTATION_WORDS)} or distinct names of field 'expansions' joined by '+'")
        return problems

    def actor_problems(self) -> list[str]:
        """The parallel self-play fields that do not fit together, each naming the fields."""
        problems = []
        if isinstance(self.actors, int) and self.actors > self.games:
            problems.append(f"field 'actors': {self.actors} actors need at least as many games (field 'games' "
                            f"is {self.games}): every actor plays at least one game")
        if self.actors == 0 and self.ray_address is not None:
            problems.append("field 'ray_address': only used with actors (field 'actors' is 0: one process, no Ray)")
        if self.actors == 0 and self.inference != "local":
            problems.append("field 'inference': server needs actors (field 'actors' is 0: one process)")
        return problems


def config_method(data: dict) -> str:
    """'alphazero' or 'ppo' (a config without `method` is a PPO config)."""
    method = data.get("method", "ppo")
    if method not in ("ppo", "alphazero"):
        raise ValueError(f"field 'method' must be ppo or alphazero (got {method!r})")
    return method
