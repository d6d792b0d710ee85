"""Agents by spec string: `random`, `greedy`, `lookahead`, `mcts:sims=400,rollout=random`, `ppo:path=X.zip`,
`az:path=X.pt,sims=16` (network + Gumbel search; `search=compiled` for the numba search), `aznet:path=X.pt`
(raw network), `trained:2p` / `trained:4p` (shipped models, optionally `trained:2p,sims=32`), `human`
(a person at the terminal) and
`openspiel:bot=mcts,sims=32,rollouts=1` / `openspiel:bot=ismcts` / `openspiel:bot=random` (OpenSpiel's bots
on determinized worlds, with the `openspiel` extra; docs/openspiel.md).

A spec is `kind[:key=value,key=value...]`. Every kind accepts a fixed set of parameters, each with a
type and range (`PARAMETERS`); `parse_spec` checks them all and names the spec, the parameter and the
value at fault. `seed` (every kind) fixes the agent's seed, overriding the one `make_agent` is given.
`outside_training=1` (trained kinds: ppo, az, aznet, trained) lets a model play a ruleset it was not
trained for, with a warning; without it such a game is refused with `ModelRulesetError`
(agents.rulesets, which also says what "another ruleset" means).
"""

from __future__ import annotations

import math
import re
import zipfile
from collections.abc import Callable
from pathlib import Path

from kbenv.safe_json import short_repr

from .greedy import GreedyAgent
from .lookahead import LookaheadAgent
from .mcts import ROLLOUTS, MCTSAgent
from .openspiel_bots import check_bot as _openspiel_bot
from .random_agent import RandomAgent

KINDS = ("random", "greedy", "lookahead", "mcts", "ppo", "az", "aznet", "trained", "human", "openspiel")
# Upper bounds of the search parameters: a spec (from a command line or a web page) cannot ask for a search that
# runs for days. The bound is in the error; the defaults are far below (mcts 200 sims, az 16, max_rollout 5000).
MAX_SIMS = 100_000
MAX_CONSIDERED = 1024  # root candidates: more than any position has legal decisions
MAX_DETS = 256
MAX_ROLLOUTS = 256
MAX_ROLLOUT_STEPS = 100_000


def _shown(spec: str) -> str:
    """The spec as an error message shows it: whole (paths make specs long), unless it is absurdly long."""
    return short_repr(spec, 500)


def _integer(text: str, minimum: int, maximum: int | None = None) -> int:
    if len(text) > 40:  # int() of thousands of digits is slow, then refused
        raise ValueError(f"must be an integer of at most 40 characters, got {short_repr(text)}")
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"must be an integer, got {short_repr(text)}") from None
    if value < minimum:
        raise ValueError(f"must be at least {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise ValueError(f"must be at most {maximum}, got {value}")
    return value


def _at_most(maximum: int) -> Callable[[str], int]:
    """A converter of integers 1..maximum (the bound is named in its error)."""
    def convert(text: str) -> int:
        return _integer(text, 1, maximum)

    return convert


def _seed(text: str) -> int:
    value = _integer(text, 0)
    if value >= 2**63:
        raise ValueError(f"must be below 2**63, got {value}")
    return value


def _non_negative_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"must be a number, got {short_repr(text)}") from None
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"must be a finite number >= 0, got {short_repr(text)}")
    return value


def _rollout(text: str) -> str:
    if text not in ROLLOUTS:
        raise ValueError(f"must be one of {', '.join(ROLLOUTS)}, got {short_repr(text)}")
    return text


def _boolean(text: str) -> bool:
    lowered = text.lower()
    if lowered in ("true", "1", "yes"):
        return True
    if lowered in ("false", "0", "no"):
        return False
    raise ValueError(f"must be true or false, got {short_repr(text)}")


def _device(text: str) -> str:
    if not re.fullmatch(r"auto|cpu|mps|cuda(:\d+)?", text):
        raise ValueError(f"must be auto, cpu, mps, cuda or cuda:N, got {short_repr(text)}")
    return text


def _search_kind(text: str) -> str:
    """`python` or `compiled` (agents.alphazero.compiled_search), checked without importing torch."""
    if text not in ("python", "compiled"):
        raise ValueError(f"must be python or compiled, got {short_repr(text)}")
    return text


def _existing_file(text: str, what: str, example: str) -> Path:
    """A path naming an existing zip file (torch and SB3 files are zip archives), checked without torch."""
    path = Path(text)
    if not text:
        raise ValueError(f"must name a {what} file, got ''")
    if not path.exists():
        raise FileNotFoundError(f"{text}: no {what} there (no such file)")
    if path.is_dir():
        raise ValueError(f"{text} is a folder, not a {what} file (expected e.g. {path / example})")
    if not zipfile.is_zipfile(path):
        raise ValueError(f"{text} is not a {what} file (expected a {example} saved by kbenv train)")
    return path


def _checkpoint(text: str) -> str:
    """A path to an existing MaskablePPO checkpoint (a zip file holding `data`)."""
    path = _existing_file(text, "checkpoint", "model.zip")
    with zipfile.ZipFile(path) as archive:
        if "data" not in archive.namelist():
            raise ValueError(f"{text} is a zip file but not a stable-baselines3 checkpoint (no 'data' entry)")
    return text


def _network_file(text: str) -> str:
    """A path to an existing search-network file (agents.training.alphazero)."""
    _existing_file(text, "model", "model.pt")
    return text


def _shipped(text: str) -> str:
    from .az import shipped_model

    shipped_model(text)
    return text


Converter = Callable[[str], object]
PARAMETERS: dict[str, dict[str, Converter]] = {
    "random": {"seed": _seed},
    "greedy": {"seed": _seed},
    "lookahead": {"seed": _seed},
    "mcts": {"sims": _at_most(MAX_SIMS), "rollout": _rollout, "c": _non_negative_float,
             "max_rollout": _at_most(MAX_ROLLOUT_STEPS), "seed": _seed},
    "ppo": {"path": _checkpoint, "deterministic": _boolean, "device": _device, "outside_training": _boolean},
    "az": {"path": _network_file, "sims": _at_most(MAX_SIMS), "considered": _at_most(MAX_CONSIDERED),
           "dets": _at_most(MAX_DETS), "device": _device, "search": _search_kind, "seed": _seed,
           "outside_training": _boolean},
    "aznet": {"path": _network_file, "device": _device, "seed": _seed, "outside_training": _boolean},
    "trained": {"model": _shipped, "sims": _at_most(MAX_SIMS), "considered": _at_most(MAX_CONSIDERED),
                "dets": _at_most(MAX_DETS), "search": _search_kind, "seed": _seed, "outside_training": _boolean},
    "human": {},
    "openspiel": {"bot": _openspiel_bot, "sims": _at_most(MAX_SIMS), "rollouts": _at_most(MAX_ROLLOUTS),
                  "dets": _at_most(MAX_DETS), "c": _non_negative_float, "max_rollout": _at_most(MAX_ROLLOUT_STEPS),
                  "seed": _seed},
}
REQUIRED = {"ppo": ("path",), "az": ("path",), "aznet": ("path",), "trained": ("model",)}


def parse_spec(spec: str) -> tuple[str, dict]:
    """('mcts', {'sims': 400}) from 'mcts:sims=400': every parameter checked against its kind.

    Raises ValueError (FileNotFoundError for a missing PPO checkpoint) naming the spec and the part at
    fault, e.g. "agent spec 'mcts:sims=abc': sims must be an integer, got 'abc'".
    """
    if not isinstance(spec, str):
        raise ValueError(f"agent spec {_shown(spec)}: expected a string such as 'greedy' or 'mcts:sims=200'")
    kind, _, rest = spec.partition(":")
    if kind not in KINDS:
        raise ValueError(f"agent spec {_shown(spec)}: unknown agent {short_repr(kind)}; expected one of "
                         f"{', '.join(KINDS)}")
    params: dict = {}
    items = list(filter(None, rest.split(",")))
    if kind == "trained" and items and "=" not in items[0]:
        items[0] = f"model={items[0]}"  # trained:2p is trained:model=2p
    for item in items:
        key, value = _split_item(spec, item)
        if key in params:
            raise ValueError(f"agent spec {_shown(spec)}: {key} is given twice")
        params[key] = _convert(spec, kind, key, value)
    missing = [key for key in REQUIRED.get(kind, ()) if key not in params]
    if missing:
        examples = {"ppo": "ppo:path=runs/strong/model.zip", "trained": "trained:2p"}
        example = examples.get(kind, f"{kind}:path=runs/quick/model.pt")
        raise ValueError(f"agent spec {_shown(spec)}: {missing[0]} is required, e.g. {example}")
    return kind, params


def _split_item(spec: str, item: str) -> tuple[str, str]:
    key, eq, value = item.partition("=")
    if not eq or not key:
        raise ValueError(f"agent spec {_shown(spec)}: expected key=value, got {short_repr(item)}")
    return key, value


def _convert(spec: str, kind: str, key: str, value: str):
    accepted = PARAMETERS[kind]
    if key not in accepted:
        raise ValueError(f"agent spec {_shown(spec)}: unknown parameter {short_repr(key)}; {kind} accepts "
                         f"{', '.join(accepted)}")
    try:
        return accepted[key](value)
    except FileNotFoundError as err:
        raise FileNotFoundError(f"agent spec {_shown(spec)}: {key} {err}") from None
    except ValueError as err:
        raise ValueError(f"agent spec {_shown(spec)}: {key} {err}") from None


def make_agent(spec: str, seed: int | None = None):
    """A fresh agent from its spec string, seeded (a `seed=` in the spec wins over `seed`)."""
    kind, params = parse_spec(spec)
    seed = params.pop("seed", seed)
    if kind == "random":
        agent = RandomAgent(seed=seed)
    elif kind == "greedy":
        agent = GreedyAgent(seed=seed)
    elif kind == "lookahead":
        agent = LookaheadAgent(seed=seed)
    elif kind == "mcts":
        agent = MCTSAgent(seed=seed, **params)
    elif kind == "ppo":
        agent = _load_ppo(spec, seed, params)
    elif kind == "human":
        from .human import HumanAgent

        agent = HumanAgent()
    elif kind == "openspiel":
        from .openspiel_bots import OpenSpielAgent

        agent = OpenSpielAgent(seed=seed, **params)
    else:
        agent = _load_network_agent(spec, kind, seed, params)
    agent.spec = spec
    return agent


def _load_ppo(spec: str, seed: int | None, params: dict):
    """PPOAgent from a checked path; a file that SB3 cannot load is reported as the spec's error."""
    from .ppo import PPOAgent

    try:
        return PPOAgent(seed=seed, **params)
    except ImportError:
        raise
    except Exception as err:  # any failure to load a user's file is that file's problem
        raise ValueError(f"agent spec {_shown(spec)}: cannot load the checkpoint "
                         f"({type(err).__name__}: {err})") from None


def _load_network_agent(spec: str, kind: str, seed: int | None, params: dict):
    """az / aznet / trained agents; a file torch cannot read is reported as the spec's error."""
    from .az import DEFAULT_CONSIDERED, DEFAULT_SIMS, AZNetAgent, AZSearchAgent, shipped_card, shipped_model

    try:
        if kind == "aznet":
            return AZNetAgent(seed=seed, **params)
        if kind == "trained":
            name = params.pop("model")
            card = shipped_card(name)
            play = card.get("play", {})  # the search the model was rated with (cards before it: the defaults)
            return AZSearchAgent(shipped_model(name), sims=params.get("sims", play.get("sims", DEFAULT_SIMS)),
                                 considered=params.get("considered", play.get("considered", DEFAULT_CONSIDERED)),
                                 dets=params.get("dets", play.get("dets", 1)),
                                 search=params.get("search", play.get("search", "python")), seed=seed,
                                 outside_training=params.get("outside_training", False), card=card)
        return AZSearchAgent(seed=seed, **params)
    except ImportError:
        raise
    except Exception as err:
        raise ValueError(f"agent spec {_shown(spec)}: cannot load the model "
                         f"({type(err).__name__}: {err})") from None
