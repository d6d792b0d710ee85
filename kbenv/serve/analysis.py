"""The analysis board of `kbenv serve`: an analyst's shares, values, evaluation and best line (agents.analysis) as
the page gets them, for live games and replays, and the shipped models offered per ruleset.

Whose view is analysed (`viewer`): the page's seat when it has one; for a watcher (no seat: an agents-only game, a
finished game, a replay) the seat after the one that decides, whose view shows the decider's played card, as the
spectator view shows each hand as the next seat sees it. A watcher of a live game with human seats gets no
analysis before it ends: the analysis of another seat's view would tell what that seat holds. Nothing the page gets
is read from the game itself: only from `PlayerView(game, viewer)` and the worlds dealt from it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from ..game import Game
from ..game.view import PlayerView
from ..safe_json import short_repr
from .errors import ApiError
from .views import decision_entry

MAX_ANALYSTS = 8  # analysts kept loaded (a network each for the trained ones)
DEFAULT_ANALYST = "lookahead"


class AnalystStore:
    """Analysts by spec, made once and kept (the least recently used dropped beyond MAX_ANALYSTS)."""

    def __init__(self, limit: int = MAX_ANALYSTS):
        self.analysts: OrderedDict[str, object] = OrderedDict()
        self.limit = limit
        self.lock = threading.Lock()

    def get(self, spec: str | None):
        """The analyst of `spec` (None or empty: DEFAULT_ANALYST); ApiError 400 naming the spec if it names none."""
        from kbenv.agents.analysis import make_analyst

        spec = (spec or DEFAULT_ANALYST).strip()
        with self.lock:
            if spec in self.analysts:
                self.analysts.move_to_end(spec)
                return self.analysts[spec]
        try:
            analyst = make_analyst(spec)
        except (ValueError, OSError, ImportError) as err:  # make_analyst's messages begin with "analyst"
            raise ApiError(400, str(err) if str(err).startswith("analyst") else f"analyst: {err}") from None
        with self.lock:
            self.analysts[spec] = analyst
            while len(self.analysts) > self.limit:
                self.analysts.popitem(last=False)
        return analyst


def watcher_viewer(game: Game) -> int:
    """The seat a watcher's analysis is made from: the one after the seat that decides (after the last decider's
    seat once the game is over: seat 0's view then holds nothing hidden that matters)."""
    return (game.decider + 1) % game.num_players if not game.done else 0


def _preview(world: Game, viewer: int) -> dict:
    """The board and totals after a step of the best line, as `viewer` would see that world (hands left out: a
    card drawn in the world comes from its made-up deck)."""
    from .views import _board

    view = PlayerView(world, viewer)
    public = view.public_game()
    return {"board": _board(view, public), "totals": [int(s["total"]) for s in view.scores()]}


def analysis_json(analyst, view: PlayerView, line: bool = True) -> dict:
    """The page's analysis of `view`'s position: agents.analysis.Analysis as JSON, each decision with its kind and
    hex (kbenv.serve.views.decision_entry), each best-line step with the board after it (`preview`)."""
    from kbenv.agents.analysis import analyse
    from kbenv.agents.rulesets import ModelRulesetError

    try:
        result = analyse(analyst, view, line=line)
    except ModelRulesetError as err:
        raise ApiError(400, f"analyst: {err}") from None
    public = view.public_game()
    out = result.to_dict()
    decisions = []
    for d in out["decisions"]:
        entry = decision_entry(public, d["action"]) if d["action"] < public.action_size else {"action": d["action"]}
        decisions.append({**entry, **d})
    out["decisions"] = decisions
    out["line"] = [{**step, "preview": _preview(world, view.player)}
                   for step, world in zip(out["line"], result.line_games, strict=True)]
    out["hex_shares"] = {f"{d['hex'][0]},{d['hex'][1]}": d["share"] for d in decisions if "hex" in d}
    return out


def hint_json(analyst, view: PlayerView) -> dict:
    """The hint of a seat that decides: the analyst's top decision (one of the seat's legal decisions), the
    others listed after it, and the best line."""
    legal = set(view.legal_actions())
    if view.done or view.public_game().decider != view.player:
        raise ApiError(409, f"seat: a hint is for the seat that decides; player_{view.player} does not decide now")
    out = analysis_json(analyst, view)
    top = next((d for d in out["decisions"] if d["action"] in legal), None)
    if top is None:  # pragma: no cover - the world dealt from the decider's view has the decider's legal decisions
        raise ApiError(500, "analysis: no legal decision in the analysis")
    return {"hint": top, "analysis": out}


def curve_json(analyst, views: list[PlayerView]) -> dict:
    """The evaluation per seat of each position in `views` (one point per decision), with the analyst's words."""
    from kbenv.agents.analysis import evaluation_curve
    from kbenv.agents.rulesets import ModelRulesetError

    try:
        points = evaluation_curve(analyst, views)
    except ModelRulesetError as err:
        raise ApiError(400, f"analyst: {err}") from None
    return {"analyst": analyst.spec, "eval_kind": analyst.eval_kind, "eval_label": analyst.eval_label,
            "points": points}


def models_meta() -> list[dict]:
    """The shipped models (agents/models), each with the spec of its search agent (`trained:NAME`) and of its raw
    network (`network:NAME`), the rulesets its card states (expansions and rules, sorted; `any_subset_of`: every
    subset of these expansions with the default readings, or None), the player counts it
    was trained with and its card's summary."""
    from kbenv.agents.az import shipped_card, shipped_models

    out = []
    for name in shipped_models():
        try:
            card = shipped_card(name)
        except (ValueError, OSError):
            continue  # a card without its .pt file in this copy: not offered
        rulesets = [{"expansions": sorted(r.get("expansions") or []), "rules": sorted(r.get("rules") or [])}
                    for r in card.get("rulesets", [])]
        subsets = card.get("rulesets_any_subset_of")
        any_subset_of = None if subsets is None else {"expansions": sorted(subsets.get("expansions") or []),
                                                      "rules": []}
        out.append({"name": name, "spec": f"trained:{name}", "network": f"network:{name}", "rulesets": rulesets,
                    "any_subset_of": any_subset_of,
                    "players": list(card.get("run", {}).get("players") or []),
                    "summary": str(card.get("summary", ""))[:600]})
    return out


def analyst_param(value: str | None) -> str | None:
    """The analyst parameter of a query, checked for length only (make_analyst checks the rest)."""
    if value is not None and len(value) > 500:
        raise ApiError(400, f"analyst: longer than 500 characters ({short_repr(value)})")
    return value
