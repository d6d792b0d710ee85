"""Training configuration: a YAML file with named, validated fields (errors name the field)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from kbenv.engine.hints import HINT_KINDS
from kbenv.vector import TEACHERS
from kbenv.vector_env import BUILTIN_OPPONENTS as BASELINES


@dataclass
class TrainConfig:
    name: str = "quick"
    players: list[int] = field(default_factory=lambda: [2])  # player counts, spread over the envs
    total_timesteps: int = 200_000
    n_envs: int = 16
    n_steps: int = 128
    batch_size: int = 512
    n_epochs: int = 4
    learning_rate: float = 3e-4
    gamma: float = 0.997
    gae_lambda: float = 0.95
    ent_coef: float = 0.01
    clip_range: float = 0.2
    reward: str = "win"
    channels: int = 32
    blocks: int = 2
    head_channels: int = 4
    board_planes: bool = True  # fixed row-parity, sector and position planes into the network
    context: bool = True  # row and sector means added back after each residual block
    vf_layers: list[int] = field(default_factory=lambda: [128])
    hints: str = "none"  # observation hint planes: none, greedy or lookahead (kbenv.engine.hints)
    teacher: str = "greedy"  # built-in policy imitated at the start and by the guide: greedy or lookahead
    imitation_samples: int = 0  # warm start: imitate the teacher on this many decisions first (0 = off)
    imitation_epochs: int = 2
    imitation_lr: float = 0.001
    imitation_temperature: float = 0.0  # > 0: soft targets softmax(teacher values / T) instead of the best set
    guide_coef: float = 0.0  # weight of the teacher-guide loss after each PPO update (0 = off), agents.guide
    guide_coef_final: float = 0.0  # the weight decays linearly to this by the end of training
    opponents: list[str] = field(default_factory=lambda: ["random"])  # baselines in the pool
    snapshot_every: int = 0  # add a frozen copy of the learner to the pool every N steps (0 = never)
    pool_size: int = 5  # most recent snapshots kept
    checkpoint_every: int = 50_000
    eval_every: int = 50_000
    eval_games: int = 40
    eval_opponents: list[str] = field(default_factory=lambda: ["random", "greedy"])
    max_minutes: float = 0.0  # stop learning after this much training wall time (0 = no limit)
    device: str = "auto"
    seed: int = 0
    out_dir: str = "runs"

    @classmethod
    def load(cls, path: str | Path) -> TrainConfig:
        import yaml

        try:
            data = yaml.safe_load(Path(path).read_text()) or {}
        except yaml.YAMLError as err:
            raise ValueError(f"{path}: not valid YAML ({err})") from None
        if not isinstance(data, dict):
            raise ValueError(f"{path}: expected a mapping of fields")
        return cls.from_dict(data, source=str(path))

    @classmethod
    def from_dict(cls, data: dict, source: str = "config") -> TrainConfig:
        known = {f.name: f for f in fields(cls)}
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise ValueError(f"{source}: unknown field(s) {', '.join(unknown)}")
        config = cls(**data)
        config.validate(source)
        return config

    def validate(self, source: str = "config") -> None:
        def bad(name: str, why: str) -> ValueError:
            return ValueError(f"{source}: field {name!r} {why}")

        if not self.players or any(not isinstance(n, int) or not 2 <= n <= 5 for n in self.players):
            raise bad("players", "must list player counts from 2 to 5")
        for name in ("total_timesteps", "n_envs", "n_steps", "batch_size", "n_epochs", "channels", "blocks",
                     "head_channels", "pool_size", "eval_games"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise bad(name, f"must be a positive integer, got {value!r}")
        for name in ("snapshot_every", "checkpoint_every", "eval_every", "seed", "imitation_samples",
                     "imitation_epochs"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 0:
                raise bad(name, f"must be a non-negative integer, got {value!r}")
        for name in ("guide_coef", "guide_coef_final", "learning_rate", "imitation_lr", "max_minutes",
                     "imitation_temperature"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0:
                raise bad(name, f"must be a non-negative number, got {value!r}")
        for name in ("board_planes", "context"):
            if not isinstance(getattr(self, name), bool):
                raise bad(name, f"must be true or false, got {getattr(self, name)!r}")
        if self.reward not in ("win", "rank", "score"):
            raise bad("reward", f"must be win, rank or score, got {self.reward!r}")
        if self.device not in ("auto", "cpu", "cuda"):
            raise bad("device", f"must be auto, cpu or cuda, got {self.device!r}")
        for name in ("opponents", "eval_opponents"):
            for spec in getattr(self, name):
                if spec not in BASELINES:
                    raise bad(name, f"baselines are {', '.join(BASELINES)}, got {spec!r}")
        if self.hints not in HINT_KINDS:
            raise bad("hints", f"must be one of {', '.join(HINT_KINDS)}, got {self.hints!r}")
        if self.teacher not in TEACHERS:
            raise bad("teacher", f"must be one of {', '.join(TEACHERS)}, got {self.teacher!r}")
        if not self.opponents and not self.snapshot_every:
            raise bad("opponents", "must not be empty unless snapshots fill the pool")

    def to_dict(self) -> dict:
        return asdict(self)
