"""Agents from a search-trained network (agents.training.alphazero):

- `az:path=FILE,sims=N`: the network plus N simulations of Gumbel search from a root determinized
  for the agent's player (other hands and the deck re-dealt from what it can see); `search=compiled`
  runs the numba search (agents.alphazero.compiled_search: the same moves, faster); `dets=D` searches D
  determinizations at once and plays the largest mean improved policy;
- `aznet:path=FILE`: the raw network, one forward pass per decision (the most likely legal action);
- `trained:2p`, `trained:4p` (base game), `trained:nomads-2p` (Nomads + Capitol + Caves), `trained:crossroads-2p`
  (Crossroads): the models shipped in agents/models (model cards beside them; `shipped_models`), as `az` agents
  with the search their card's `play` names (these four: 64 simulations over 8 candidates, compiled), else 16
  simulations. The models
  they replaced stay shipped under other names: `trained:2p-selfplay`, `trained:4p-selfplay` and
  `trained:nomads-2p-selfplay` (self-play networks, shipped under the plain names until 2026-11-28),
  `trained:2p-lookahead-430k` (the trained:2p of abab3b0, 2026-11-28) and `trained:2p-lookahead-860k` (the
  trained:2p from 2026-11-28 until 714d333, 2026-11-29).

Each agent knows the rulesets its network was trained for (`trained_for`, agents.rulesets: a shipped
model's card, else the card saved in the file, else inferred from the network) and refuses any other
ruleset at its first decision with `ModelRulesetError`, unless made with `outside_training=True`.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import numpy as np

from kbenv.game.view import PlayerView

from . import rulesets

MODELS = Path(__file__).parent / "models"
# The names scripts/ship_model.py ships under; a model they replace keeps playing under the name it is given.
PRIMARY_NAMES = ("2p", "4p", "nomads-2p", "crossroads-2p")
DEFAULT_SIMS = 16
DEFAULT_CONSIDERED = 16  # root candidates of the Gumbel search (considered=)


def shipped_models() -> dict[str, str]:
    """The models shipped in agents/models, `trained:<name>` -> file name: one per model card (`<stem>.json`
    beside `<stem>.pt`), named by the card's `shipped_as` (scripts/ship_model.py writes and renames it);
    the primary names first, in PRIMARY_NAMES order."""
    models = {}
    for card_path in sorted(MODELS.glob("trained_*.json")):
        try:
            name = json.loads(card_path.read_text(encoding="utf-8")).get("shipped_as")
        except (ValueError, AttributeError) as err:
            raise ValueError(f"model card {card_path}: not a JSON object with a shipped_as field ({err})") from None
        if name:
            models[name] = card_path.with_suffix(".pt").name
    primary = [name for name in PRIMARY_NAMES if name in models]
    return {name: models[name] for name in primary + sorted(set(models) - set(primary))}


def shipped_model(name: str) -> Path:
    """The file of a shipped model (`2p`, `4p`, ...); ValueError naming the choices if unknown or missing."""
    models = shipped_models()
    if name not in models:
        raise ValueError(f"must be one of {', '.join(models)}, got {name!r}")
    path = MODELS / models[name]
    if not path.exists():
        raise ValueError(f"{name!r} is not shipped in this copy ({path} is missing)")
    return path


def shipped_card(name: str) -> dict:
    """The model card (agents/models/<stem>.json) of a shipped model."""
    return json.loads(shipped_model(name).with_suffix(".json").read_text(encoding="utf-8"))


# network outputs an agent keeps for positions met again (agents.alphazero.network.NetworkEvaluator): its search
# evaluates one leaf at a time, so a position answered from the cache gets the very numbers it got before and the
# agent plays the same moves, faster (about 30% of a search's leaves are transpositions or were met in the last
# decision's search)
AGENT_CACHE = 4096


class _NetworkAgent:
    def __init__(self, path: str | Path, device: str = "cpu", seed: int | None = None,
                 outside_training: bool = False, card: dict | None = None, cache: int = AGENT_CACHE):
        from .alphazero.network import NetworkEvaluator, load_network
        from .training.networks import flush_denormals

        flush_denormals()
        self.net, self.info = load_network(path, device)
        self.evaluator = NetworkEvaluator(self.net, device, cache=cache)
        self.v1 = bool(self.net.config["v1"])
        self.path = str(path)
        config = self.net.config
        if card is not None:
            self.trained_for = rulesets.from_card(card, self.v1, config.get("input_channels"),
                                                  f"the model card of {Path(path).stem}")
        else:
            self.trained_for = rulesets.from_network(self.info, config, f"the model file {path}")
        self.outside_training = bool(outside_training)
        self._first_use = rulesets.FirstUseCheck()
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(0 if seed is None else seed)

    def _check(self, view: PlayerView) -> None:
        if view is None:
            raise ValueError(f"{self.name}: needs the player's view")
        self._first_use(self, view.public_game())  # ModelRulesetError outside its training


class AZNetAgent(_NetworkAgent):
    """The raw policy network: the legal action with the largest logit."""

    def __init__(self, path: str | Path, device: str = "cpu", seed: int | None = None,
                 outside_training: bool = False, card: dict | None = None):
        self.name = f"aznet:path={path}"
        super().__init__(path, device, seed, outside_training, card)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: PlayerView) -> int:
        self._check(view)
        state = view.determinize(self.rng).state  # the decider's observation has no hidden card in it
        masks, logits, _ = self.evaluator([state])
        legal = np.flatnonzero(masks[0])
        return int(legal[np.argmax(logits[0][legal])])


class AZSearchAgent(_NetworkAgent):
    """Network + Gumbel search (no Gumbel noise at play time: the best action by logits and q); `search`:
    `python` (agents.alphazero.search) or `compiled` (agents.alphazero.compiled_search, the same moves).

    `dets` > 1 searches that many determinizations of the decider's view at once (other hands and the deck
    re-dealt for each, one batch of roots, `sims` simulations each) and plays the action with the largest
    mean improved policy: one sampled deck no longer lets the search "know" the cards to come. The roots
    share the decider's observation, so their legal actions, priors and considered candidates are the same
    and only the searched values differ. `dets=1` is the single search of before, move for move."""

    def __init__(self, path: str | Path, sims: int = DEFAULT_SIMS, considered: int = DEFAULT_CONSIDERED,
                 device: str = "cpu", seed: int | None = None, search: str = "python", outside_training: bool = False,
                 card: dict | None = None, dets: int = 1, cache: int = AGENT_CACHE):
        from .alphazero.compiled_search import make_search

        if int(dets) < 1:
            raise ValueError(f"dets: expected at least 1 determinization, got {dets}")
        self.dets = int(dets)
        self.name = f"az:path={path},sims={sims}" + (f",search={search}" if search != "python" else "") + \
            (f",dets={self.dets}" if self.dets > 1 else "")
        super().__init__(path, device, seed, outside_training, card, cache)
        self.search = make_search(search, self.evaluator, num_simulations=sims, max_considered=considered,
                                  gumbel_scale=0.0)

    @property
    def stop(self) -> threading.Event | None:
        """Set: the search ends at its next simulation (agents.base)."""
        return self.search.stop

    @stop.setter
    def stop(self, event: threading.Event | None) -> None:
        self.search.stop = event

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: PlayerView) -> int:
        self._check(view)
        results = self.search_determinizations(view)
        if len(results) == 1 or results[0].legal == 1:  # one search, or one legal action (nothing searched)
            return results[0].action
        return int(np.argmax(np.mean([result.policy for result in results], axis=0)))

    def search_determinizations(self, view: PlayerView) -> list:
        """The SearchResults of `dets` roots re-dealt from the view with the agent's generator, one batch."""
        roots = [view.determinize(self.rng).state for _ in range(self.dets)]
        return self.search.run(roots, [self.rng] * self.dets)
