"""The analysis of a position by an agent, from one seat's view: what `kbenv serve`'s analysis board and the `hint`
of `kbenv play` show.

An *analyst* values the legal decisions of the seat to move and the position for every seat. It is named by a spec:

- `greedy`, `lookahead`: the built-in policies' value of every legal decision (kbenv.policies: the mover's gold
  + 2 per location tile after the decision; lookahead's after a greedy finish of the turn), turned into shares by a
  softmax with temperature VALUE_TEMPERATURE (1 gold: a decision worth 1 gold less gets e^-1 = 0.37 times the
  share). Evaluation (kind "gold"): every seat's gold + 2 per tile now, the seat to move's after its best
  decision (lookahead: after the rest of its turn).
- `network:NAME` (a shipped model, agents/models) or `aznet:path=FILE`: the network's policy, a softmax over its
  logits of the legal decisions; each decision's value is the network's for the position after it.
- `trained:NAME[,sims=N]` or `az:path=FILE,sims=N`: the Gumbel search of that agent; the shares are the
  search's visit shares of the root decisions (unvisited decisions 0), the values the network's after each decision.
  Evaluation (kind "margin", both network kinds): each seat's expected final gold margin over the best other
  player (the score now plus the value head's predicted gain, or the search's root value, times 30).

A trained analyst refuses a ruleset outside its training (agents.rulesets.ModelRulesetError), as its agent does.

What is analysed is never the game itself: `analyse(analyst, view)` takes a seat's `PlayerView` and analyses one
determinized world of it (`view.determinize`, seeded), so two games that differ only in what the seat cannot see
(other players' hidden cards, the deck order) get the same analysis. The best line is the analyst's top decision,
again and again, while the same seat decides in the same turn and no card is drawn or taken out (a card drawn
would come from the determinized, made-up deck).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import numpy as np

from kbenv.catalogue import ACTION_ID
from kbenv.engine import state as S
from kbenv.game import Game
from kbenv.game.view import PlayerView
from kbenv.policies.greedy import greedy_values, position_value
from kbenv.policies.lookahead import lookahead_values
from kbenv.present.words import describe_decision
from kbenv.ruleset import Ruleset
from kbenv.safe_json import short_repr

VALUE_TEMPERATURE = 1.0  # gold: the softmax temperature that turns greedy / lookahead values into shares
MARGIN_SCALE = 30.0  # the value head's unit (agents.alphazero.search.MARGIN_SCALE): margins / 30
MAX_LINE = 16  # decisions of a best line at most (a turn has far fewer)
END_TURN = ACTION_ID["end_turn"]
VALUE_KINDS = ("greedy", "lookahead")
NETWORK_KINDS = ("network", "aznet", "az", "trained")
GOLD_LABEL = "gold + 2 per location tile (the seat to move: after its best decision)"
LOOKAHEAD_LABEL = "gold + 2 per location tile (the seat to move: after the rest of its turn)"
MARGIN_LABEL = "expected final gold margin over the best other player"


def softmax(x: np.ndarray) -> np.ndarray:
    """exp(x - max) normalised (an empty array stays empty)."""
    if len(x) == 0:
        return np.zeros(0)
    z = np.exp(np.asarray(x, dtype=np.float64) - np.max(x))
    return z / z.sum()


@dataclass
class Valuation:
    """An analyst's answer for one world: legal actions, their shares (summing to 1) and values, the value of the
    position per seat, and the top decision."""

    actions: list[int]
    shares: list[float]
    values: list[float | None]
    evaluation: list[float]
    best: int | None


class ValueAnalyst:
    """greedy or lookahead: kernel values, softmax shares (VALUE_TEMPERATURE), gold evaluation."""

    eval_kind = "gold"

    def __init__(self, kind: str):
        if kind not in VALUE_KINDS:
            raise ValueError(f"analyst: expected one of {', '.join(VALUE_KINDS)}, got {short_repr(kind)}")
        self.spec = kind
        self.kernel = greedy_values if kind == "greedy" else lookahead_values
        self.method = (f"softmax of {kind}'s values (gold + 2 per location tile after the decision"
                       f"{', the turn finished greedily' if kind == 'lookahead' else ''}), temperature "
                       f"{VALUE_TEMPERATURE:g} gold")
        self.eval_label = LOOKAHEAD_LABEL if kind == "lookahead" else GOLD_LABEL
        self.lock = threading.Lock()

    def check(self, world: Game) -> None:
        """Every ruleset is fine."""

    def _table(self, world: Game) -> np.ndarray:
        values = np.empty(world.action_size, dtype=np.float64)
        self.kernel(world.state.copy(), values)
        return values

    def value(self, world: Game, search: bool = True) -> Valuation:
        n = world.num_players
        evaluation = [float(position_value(world.state, p)) for p in range(n)]
        if world.done:
            return Valuation([], [], [], evaluation, None)
        table = self._table(world)
        actions = [int(a) for a in np.flatnonzero(np.isfinite(table))]
        values = table[actions]
        evaluation[world.current_player] = float(values.max())
        best = actions[int(np.argmax(values))]  # the first best: reproducible
        return Valuation(actions, [float(s) for s in softmax(values / VALUE_TEMPERATURE)],
                         [float(v) for v in values], evaluation, best)

    def curve(self, worlds: list[Game]) -> list[list[float]]:
        return [self.value(w).evaluation for w in worlds]


class NetworkAnalyst:
    """A search network: its policy (network kinds) or its search's visit shares (search kinds)."""

    eval_kind = "margin"

    def __init__(self, spec: str, agent, searching: bool):
        self.spec = spec
        self.agent = agent
        self.searching = searching
        self.evaluator = agent.evaluator
        self.method = ("visit shares of the agent's Gumbel search" if searching
                       else "the network's policy: a softmax of its logits over the legal decisions")
        self.eval_label = MARGIN_LABEL + (" (the search's root value)" if searching else " (the value head)")
        self.lock = threading.Lock()

    def check(self, world: Game) -> None:
        """ModelRulesetError outside the model's training (agents.rulesets.check_agent)."""
        from .rulesets import check_agent

        check_agent(self.agent, Ruleset.of_game(world))

    def _margins(self, states: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
        """(masks, logits, expected final margin per seat in gold) of each state (finished: its final margin)."""
        from .alphazero.search import score_values

        masks, logits, gains = self.evaluator(states)
        margins = []
        for st, gain in zip(states, gains, strict=True):
            score = score_values(st)
            finished = st[S.PHASE] == S.PHASE_OVER
            margins.append(MARGIN_SCALE * (score if finished else score + gain))
        return masks, logits, margins

    def value(self, world: Game, search: bool = True) -> Valuation:
        masks, logits, margins = self._margins([world.state])
        evaluation = [float(v) for v in margins[0]]
        if world.done:
            return Valuation([], [], [], evaluation, None)
        mover = world.decider
        actions = [int(a) for a in np.flatnonzero(masks[0])]
        children = []
        for a in actions:
            child = world.clone()
            child.step(a)
            children.append(child.state)
        values = [float(m[mover]) for m in self._margins(children)[2]]
        if self.searching and search:
            result = self.agent.search.run([world.state], [np.random.default_rng(0)])[0]
            total = sum(result.visits.values())
            shares = [1.0] if len(actions) == 1 else [result.visits.get(a, 0) / total for a in actions]
            evaluation = [float(MARGIN_SCALE * v) for v in result.value]
            best = int(result.action)
        else:
            policy = softmax(logits[0][actions])
            shares = [float(s) for s in policy]
            best = actions[int(np.argmax(policy))]
        return Valuation(actions, shares, values, evaluation, best)

    def curve(self, worlds: list[Game]) -> list[list[float]]:
        """The value head's evaluation of each world, one batch (no search: a search a position is too slow)."""
        if not worlds:
            return []
        return [[float(v) for v in m] for m in self._margins([w.state for w in worlds])[2]]


def make_analyst(spec: str):
    """The analyst a spec names (see the module docstring); ValueError naming the spec otherwise."""
    from .az import shipped_card, shipped_model
    from .registry import make_agent, parse_spec

    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"analyst: expected greedy, lookahead, network:NAME or a trained agent spec, got "
                         f"{short_repr(spec)}")
    spec = spec.strip()
    if spec in VALUE_KINDS:
        return ValueAnalyst(spec)
    kind, _, rest = spec.partition(":")
    if kind == "network":
        from .az import AZNetAgent

        try:
            agent = AZNetAgent(shipped_model(rest), card=shipped_card(rest))
        except ValueError as err:
            raise ValueError(f"analyst {short_repr(spec)}: the shipped model {err}") from None
        agent.spec = spec  # its ruleset errors name the analyst
        return NetworkAnalyst(spec, agent, searching=False)
    try:
        kind, _ = parse_spec(spec)
    except (ValueError, OSError) as err:
        raise ValueError(f"analyst: {err}") from None
    if kind not in NETWORK_KINDS:
        raise ValueError(f"analyst {short_repr(spec)}: a {kind} agent gives no values; expected greedy, lookahead, "
                         "network:NAME, trained:NAME, az:path=FILE or aznet:path=FILE")
    try:
        agent = make_agent(spec, seed=0)
    except (ValueError, OSError) as err:
        raise ValueError(f"analyst: {err}") from None
    return NetworkAnalyst(spec, agent, searching=kind != "aznet")


@dataclass
class Analysis:
    """One position analysed from `viewer`'s view: the decisions of `decider` with their shares (sorted, largest
    first) and values, the evaluation per seat and the best line; `line_games` are the determinized worlds after
    each step of the line (for previews: show them only through a PlayerView of the viewer)."""

    analyst: str
    method: str
    eval_kind: str
    eval_label: str
    viewer: int
    decider: int | None
    decisions: list[dict]
    evaluation: list[float]
    line: list[dict]
    line_games: list[Game] = field(default_factory=list, repr=False)

    def to_dict(self) -> dict:
        """The JSON of the analysis (no world)."""
        return {"analyst": self.analyst, "method": self.method, "eval_kind": self.eval_kind,
                "eval_label": self.eval_label, "viewer": self.viewer, "decider": self.decider,
                "decisions": self.decisions, "evaluation": self.evaluation, "line": self.line}

    @property
    def top(self) -> dict | None:
        """The decision with the largest share (None when the game is over)."""
        return self.decisions[0] if self.decisions else None


def _world(view: PlayerView, seed: int) -> Game:
    return view.determinize(np.random.default_rng(seed))


def _words(world: Game, viewer: int, action: int) -> str:
    return describe_decision(PlayerView(world, viewer).public_game(), action)


def best_line(analyst, world: Game, viewer: int, first: int | None) -> tuple[list[dict], list[Game]]:
    """The analyst's top decisions from `world` (the first one: `first`) while the same seat decides in the same
    turn and no card is drawn or taken out; [{action, words, seat}] and the world after each."""
    line: list[dict] = []
    games: list[Game] = []
    if first is None:
        return line, games
    w = world.clone()
    seat, turn = w.decider, w.current_player
    cards = (int(w.state[S.DECK_COUNT]), int(w.state[S.REMOVED_COUNT]))
    action = first
    while len(line) < MAX_LINE:
        line.append({"action": int(action), "words": _words(w, viewer, action), "seat": seat})
        w.step(action)
        games.append(w.clone())
        if (action == END_TURN or w.done or w.decider != seat or w.current_player != turn
                or (int(w.state[S.DECK_COUNT]), int(w.state[S.REMOVED_COUNT])) != cards):
            break
        action = analyst.value(w).best
        if action is None:
            break
    return line, games


def analyse(analyst, view: PlayerView, seed: int = 0, line: bool = True) -> Analysis:
    """The analysis of the decision to take in `view`'s game, from what `view`'s seat may see (one world dealt from
    the view with `seed`); `line`: also the best line. Ruleset errors as the analyst's agent raises them."""
    world = _world(view, seed)
    with analyst.lock:
        analyst.check(world)
        valued = analyst.value(world)
        decisions = [{"action": a, "share": s, "value": v, "words": _words(world, view.player, a)}
                     for a, s, v in zip(valued.actions, valued.shares, valued.values, strict=True)]
        decisions.sort(key=lambda d: (-d["share"], d["action"] != valued.best, d["action"]))  # its choice first
        steps, games = best_line(analyst, world, view.player, valued.best) if line else ([], [])
    return Analysis(analyst.spec, analyst.method, analyst.eval_kind, analyst.eval_label, view.player,
                    None if world.done else int(world.decider), decisions, valued.evaluation, steps, games)


def evaluation_curve(analyst, views: list[PlayerView], seed: int = 0) -> list[list[float]]:
    """The evaluation per seat of each view's position (one world each, dealt with `seed`): an analyst's curve
    over a game (value analysts: their evaluation; network analysts: the value head, without search)."""
    worlds = [_world(v, seed) for v in views]
    with analyst.lock:
        if worlds:
            analyst.check(worlds[0])
        return analyst.curve(worlds)


def hint_lines(analysis: Analysis, count: int = 3) -> list[str]:
    """The hint as `kbenv play` prints it: the analyst's top decisions with shares and values, and the best line."""
    if analysis.top is None:
        return ["no decision to hint: the game is over"]
    unit = "gold" if analysis.eval_kind == "gold" else "margin"
    lines = [f"hint ({analysis.analyst}: {analysis.method}):"]
    for k, d in enumerate(analysis.decisions[:count], 1):
        value = "" if d["value"] is None else f", {unit} {d['value']:.1f}"
        lines.append(f"  {k}. {d['words']} (share {d['share']:.2f}{value})")
    if len(analysis.line) > 1:
        lines.append("  best line this turn: " + "; ".join(step["words"] for step in analysis.line))
    return lines
