"""Training configuration: a YAML file of named fields, validated by pydantic (errors name the field).

Every field has a strict type (no `true` for an integer, no text for a number) and a range; unknown
fields are refused. A bad file gives one ValueError with a line per bad field, such as
`configs/x.yaml: field 'gamma' must be a number in (0, 1] (got 7)`.
"""

from __future__ import annotations

import difflib
import functools
import re
import reprlib
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from kbenv.catalogue import EXPANSIONS, RULE_FLAGS, expansion_refusal, playable_expansions
from kbenv.envs.vector_env import BUILTIN_OPPONENTS as BASELINES
from kbenv.policies.hints import HINT_KINDS
from kbenv.vector import TEACHERS

MAX_COUNT = 2**31 - 1  # sizes and counts (envs, steps per rollout, channels, games ...)
MAX_STEPS = 10**12  # environment steps and decisions
MAX_SEED = 2**32 - 1  # numpy's legacy seeding (used by SB3) takes seeds below 2**32

Count = Annotated[int, Field(ge=1, le=MAX_COUNT)]
Steps = Annotated[int, Field(ge=0, le=MAX_STEPS)]
Share = Annotated[float, Field(gt=0, le=1)]
NonNegative = Annotated[float, Field(ge=0)]
PlayerCount = Annotated[int, Field(ge=2, le=5)]
Baseline = Literal[BASELINES]
# The expansions a config may name: implemented ones, and those under construction (none now), which
# ruleset_problems refuses unless KBENV_EXPERIMENTAL opts into them when the config is validated.
EXPANSION_NAMES = tuple(e.name for e in EXPANSIONS if e.implemented or e.under_construction)
RULE_NAMES = tuple(f.name for f in RULE_FLAGS)
ExpansionName = Literal[EXPANSION_NAMES]
RuleName = Literal[RULE_NAMES]


def _field(default: Any, rule: str, **constraints: Any) -> Any:
    """A field with its default and the rule an error states ("must be <rule>")."""
    return Field(default=default, description=rule, **constraints)


class ConfigModel(BaseModel):
    """What every training config shares: strict fields, YAML loading with one error line per bad field,
    the run name's rule, distinct names in lists, and the ruleset as set-up options."""

    model_config = ConfigDict(strict=True, extra="forbid", allow_inf_nan=False, validate_assignment=True)

    @classmethod
    def load(cls, path: str | Path):
        """Read and validate a YAML file; a missing, unreadable or malformed file gives a ValueError."""
        return cls.from_dict(read_yaml(path), source=str(path))

    @classmethod
    def from_dict(cls, data: Any, source: str = "config"):
        """Validate a mapping of fields; errors are ValueErrors, one line per bad field, prefixed by `source`."""
        if not isinstance(data, dict):
            raise ValueError(f"{source}: expected a mapping of fields, got {type(data).__name__}")
        try:
            return cls.model_validate(data)
        except ValidationError as err:
            raise ValueError("\n".join(error_lines(err, data, source, cls))) from None

    def to_dict(self) -> dict:
        """Plain fields (lists copied), as `from_dict` takes them."""
        return self.model_dump()

    def ruleset(self) -> dict:
        """The ruleset as set-up options ({"expansions": [...], "rules": [...]}), the empty ones left out.

        Empty for the base game, so base runs pass exactly the options they passed before rulesets.
        """
        return {key: list(value) for key, value in (("expansions", self.expansions), ("rules", self.rules)) if value}

    @staticmethod
    def check_name(name: str) -> str:
        if name in (".", ".."):
            raise ValueError("'.' and '..' are not folder names")
        return name

    @staticmethod
    def check_distinct(names: list[str]) -> list[str]:
        if len(set(names)) != len(names):
            raise ValueError("a name is given twice")
        return names


def ruleset_problems(expansions: list[str], rules: list[str]) -> list[str]:
    """Expansions that may not be played now (under construction without KBENV_EXPERIMENTAL) and rule flags
    whose expansion is not enabled, each naming the fields."""
    refused = [f"field 'expansions': {why}; playable now: {', '.join(playable_expansions())}"
               for why in map(expansion_refusal, expansions) if why]
    return refused + [f"field 'rules': flag {flag.name!r} needs the {flag.expansion!r} expansion in field "
                      f"'expansions'" for flag in RULE_FLAGS
                      if flag.name in rules and flag.expansion is not None and flag.expansion not in expansions]


class TrainConfig(ConfigModel):
    """All settings of a training run (`kbenv train --config FILE`)."""

    name: str = _field("quick", "a folder name of letters, digits, '-', '_' and '.' (not '.' or '..')",
                       pattern=r"^[A-Za-z0-9_.-]+$", max_length=100)
    players: list[PlayerCount] = _field([2], "a non-empty list of player counts from 2 to 5", min_length=1)
    total_timesteps: int = _field(200_000, f"an integer from 1 to {MAX_STEPS}", ge=1, le=MAX_STEPS)
    n_envs: Count = _field(16, "a positive integer")
    n_steps: Count = _field(128, "a positive integer")
    batch_size: int = _field(512, "an integer from 2 to n_envs * n_steps", ge=2, le=MAX_COUNT)
    n_epochs: Count = _field(4, "a positive integer")
    learning_rate: Share = _field(3e-4, "a number in (0, 1]")
    gamma: Share = _field(0.997, "a number in (0, 1]")
    gae_lambda: Share = _field(0.95, "a number in (0, 1]")
    ent_coef: NonNegative = _field(0.01, "a finite number >= 0")
    clip_range: float = _field(0.2, "a finite number > 0", gt=0)
    reward: Literal["win", "rank", "score"] = _field("win", "one of win, rank, score")
    channels: Count = _field(32, "a positive integer")
    blocks: Count = _field(2, "a positive integer")
    head_channels: Count = _field(4, "a positive integer")
    board_planes: bool = _field(True, "true or false")  # row-parity, sector and position planes into the network
    context: bool = _field(True, "true or false")  # row and sector means added back after each residual block
    vf_layers: list[Count] = _field([128], "a non-empty list of positive integers", min_length=1)
    expansions: list[ExpansionName] = _field([], f"a list of distinct expansions ({', '.join(EXPANSION_NAMES)})")
    rules: list[RuleName] = _field([], f"a list of distinct rule flags ({', '.join(RULE_NAMES)})")
    hints: Literal[HINT_KINDS] = _field("none", f"one of {', '.join(HINT_KINDS)}")  # observation hint planes
    teacher: Literal[TEACHERS] = _field("greedy", f"one of {', '.join(TEACHERS)}")  # imitated, and the guide
    imitation_samples: Steps = _field(0, "an integer >= 0")  # warm start on this many decisions (0 = off)
    imitation_epochs: Count = _field(2, "a positive integer")
    imitation_lr: Share = _field(0.001, "a number in (0, 1]")
    imitation_temperature: NonNegative = _field(0.0, "a finite number >= 0")  # > 0: soft targets
    guide_coef: NonNegative = _field(0.0, "a finite number >= 0")  # teacher-guide loss weight (0 = off)
    guide_coef_final: NonNegative = _field(0.0, "a finite number from 0 to guide_coef")  # decays linearly to this
    opponents: list[Baseline] = _field(["random"], f"a list of baselines ({', '.join(BASELINES)})")
    snapshot_every: Steps = _field(0, "an integer >= 0")  # frozen learner copies join the pool (0 = never)
    pool_size: Count = _field(5, "a positive integer")  # most recent snapshots kept
    checkpoint_every: Steps = _field(50_000, "an integer >= 0")  # 0 = only the final model
    eval_every: Steps = _field(50_000, "an integer >= 0")  # 0 = only the final evaluation
    eval_games: Count = _field(40, "a positive integer")
    eval_opponents: list[Baseline] = _field(["random", "greedy"], f"a list of baselines ({', '.join(BASELINES)})")
    max_minutes: NonNegative = _field(0.0, "a finite number >= 0")  # training wall-time limit (0 = none)
    device: Literal["auto", "cpu", "cuda"] = _field("auto", "one of auto, cpu, cuda")
    seed: int = _field(0, f"an integer from 0 to {MAX_SEED}", ge=0, le=MAX_SEED)
    out_dir: str = _field("runs", "a non-empty path without NUL characters", pattern=r"^[^\x00]+$")

    _name = field_validator("name")(ConfigModel.check_name)
    _distinct = field_validator("expansions", "rules")(ConfigModel.check_distinct)

    @model_validator(mode="after")
    def _consistent(self) -> TrainConfig:
        problems = cross_field_problems(self)
        if problems:
            raise ValueError("\n".join(problems))
        return self


def cross_field_problems(config: TrainConfig) -> list[str]:
    """Rules between fields, each naming the field to change."""
    problems = []
    rollout = config.n_envs * config.n_steps
    if config.batch_size > rollout:
        problems.append(f"field 'batch_size' must be at most n_envs * n_steps = {rollout} "
                        f"(got {config.batch_size})")
    if config.guide_coef_final > config.guide_coef:
        problems.append(f"field 'guide_coef_final' must be at most guide_coef = {config.guide_coef} "
                        f"(the guide weight decays; got {config.guide_coef_final})")
    problems += ruleset_problems(config.expansions, config.rules)
    if config.hints != "none" and (config.expansions or config.rules):
        problems.append(f"field 'hints' must be none with expansions or rules (hint planes exist for the base "
                        f"game only; got {config.hints!r})")
    if not config.opponents and not config.snapshot_every:
        problems.append("field 'opponents' must not be empty unless snapshot_every > 0 fills the pool")
    return problems


def error_lines(err: ValidationError, data: dict, source: str, model: type[BaseModel] | None = None) -> list[str]:
    """One readable line per bad field: `source: field 'x' must be <rule> (got <value>)` (`model`: the
    config class whose fields are named; TrainConfig by default)."""
    fields = (model or TrainConfig).model_fields
    lines: list[str] = []
    named: set[str] = set()
    for error in err.errors():
        loc = error["loc"]
        if not loc:  # a rule between fields: its message names the field(s)
            message = error["msg"].removeprefix("Value error, ")
            lines += [f"{source}: {line}" for line in message.splitlines()]
            continue
        key = loc[0]
        if key in named:
            continue
        named.add(key)
        info = fields.get(key) if isinstance(key, str) else None
        if info is None:
            lines.append(f"{source}: unknown field {key!r}{_suggestion(key, fields)}")
        else:
            lines.append(f"{source}: field {key!r} must be {info.description} (got {reprlib.repr(data.get(key))})")
    return lines


def _suggestion(key: object, fields) -> str:
    close = difflib.get_close_matches(str(key), fields, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def read_yaml(path: str | Path) -> dict:
    """The mapping in a YAML file (an empty file is an empty mapping); errors name the file."""
    import yaml

    try:
        text = Path(path).read_text()
    except FileNotFoundError:
        raise ValueError(f"{path}: no such config file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise ValueError(f"{path}: cannot read the config file ({err})") from None
    try:
        data = yaml.load(text, Loader=_config_loader())  # noqa: S506 (a SafeLoader subclass)
    except yaml.YAMLError as err:
        raise ValueError(f"{path}: not valid YAML ({_yaml_problem(err)})") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a mapping of fields, got {type(data).__name__}")
    return data


def _yaml_problem(err: Exception) -> str:
    mark = getattr(err, "problem_mark", None)
    where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
    return where + (getattr(err, "problem", None) or " ".join(str(err).split()))


_EXPONENT_FLOAT = re.compile(r"^[-+]?[0-9]+(\.[0-9]*)?[eE][-+]?[0-9]+$")


@functools.cache
def _config_loader():
    """SafeLoader that reads 1e-3 as a number (as YAML 1.2 does) and refuses fields given twice."""
    import yaml

    class ConfigLoader(yaml.SafeLoader):
        def construct_mapping(self, node, deep=False):
            if isinstance(node, yaml.MappingNode):
                self.flatten_mapping(node)
            keys = [self.construct_object(key, deep=True) for key, _ in node.value]
            repeated = sorted({str(k) for k in keys if keys.count(k) > 1})
            if repeated:
                raise yaml.constructor.ConstructorError(
                    None, None, f"field(s) {', '.join(repeated)} given more than once", node.start_mark)
            return super().construct_mapping(node, deep=deep)

    ConfigLoader.add_implicit_resolver("tag:yaml.org,2002:float", _EXPONENT_FLOAT, list("-+0123456789"))
    return ConfigLoader
