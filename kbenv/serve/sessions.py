"""Live games of the web app: set-up from a request, human and agent seats, decisions, agents' moves.

A `GameSession` holds the full game; what leaves it for a page is built from a seat's PlayerView
(kbenv.serve.views). Human seats decide through `apply`; agent seats (any agent spec of agents.registry)
through `agent_step` / `advance`, run by the server.
"""

from __future__ import annotations

import argparse
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from ..board.island_files import SUBSTITUTE_SIDES
from ..catalogue import ACTION_ID
from ..cli import MAX_SEED, expansion_list, rule_list, ruleset_of_args
from ..game import Game, IllegalActionError
from ..game.view import PlayerView
from ..present.words import describe_decision
from ..safe_json import short_key, short_repr
from ..setup import SetupError
from .errors import ApiError, integer
from .views import seat_view, spectator_view

NEW_GAME_FIELDS = ("players", "seed", "preset", "expansions", "rules", "seats", "island_side")
PRESETS = ("first-game",)
MAX_GAMES = 64  # live games kept; the oldest is dropped beyond this
# One agent decision the server waits for; a slower one is abandoned, not taken. Generous: a fresh install's first
# decision of an agent kind compiles its numba kernels (a minute or more on 2 cores: kbenv.compile_progress).
AGENT_SECONDS = 600.0
ADVANCE_SECONDS = 60.0  # `advance` begins no decision this long after its first (the page asks again)
BUSY_SECONDS = 5.0  # a request waits this long for a game that another request (an agent deciding) holds


@dataclass
class GameSession:
    """One live game: the game, its seat specs (`human` or an agent spec) and the agents of agent seats."""

    id: str
    game: Game
    seats: list[str]
    agents: list
    seed: int
    moves: list[dict] = field(default_factory=list)  # every decision: seat, action, words
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def humans(self) -> list[int]:
        return [p for p, spec in enumerate(self.seats) if spec == "human"]

    def agent_to_move(self) -> bool:
        return not self.game.done and self.agents[self.game.decider] is not None

    @contextmanager
    def using(self, wait: float | None = None) -> Iterator[None]:
        """Hold the game's lock, waiting at most `wait` seconds (BUSY_SECONDS); ApiError 409 while another request
        holds it."""
        if not self.lock.acquire(timeout=BUSY_SECONDS if wait is None else wait):
            raise ApiError(409, "the game is busy: an agent is still deciding for another request; try again")
        try:
            yield
        finally:
            self.lock.release()

    def view(self, seat: int | None) -> dict:
        """A human seat's view, or the spectator's (None); an agent seat's hand stays private while it plays."""
        if seat is None:
            return spectator_view(self.game, self.seats)
        if not 0 <= seat < self.game.num_players:
            raise ApiError(400, f"seat: expected 0 to {self.game.num_players - 1}, got {seat}")
        if seat not in self.humans and not self.game.done:
            raise ApiError(403, f"seat: seat {seat} is played by {self.seats[seat]}; only human seats have a "
                                f"private view (leave seat out to watch)")
        return seat_view(self.game, seat, self.seats)

    def analysed_view(self, seat: int | None) -> PlayerView:
        """The view an analysis of the position is made from (kbenv.serve.analysis): a human seat's own (any seat's
        once the game is over), or for a watcher the seat's after the one that decides; ApiError 403 for an agent
        seat's, and for a watcher of a game with human seats before it ends."""
        from .analysis import watcher_viewer

        game = self.game
        if seat is None:
            if self.humans and not game.done:
                raise ApiError(403, "seat: give your seat (?seat=k): a watcher of a game with human seats gets no "
                                    "analysis before the game ends")
            return PlayerView(game, watcher_viewer(game))
        self.view(seat)  # the same checks as a seat's view
        return PlayerView(game, seat)

    def _take(self, seat: int, action: int) -> dict:
        words = describe_decision(self.game, action)
        self.game.step(action)
        move = {"n": len(self.moves), "seat": seat, "action": action, "words": words}
        self.moves.append(move)
        return move

    def apply(self, seat: int, action: int) -> dict:
        """A human seat's decision; ApiError 400 with the engine's reason (state unchanged) if illegal."""
        game = self.game
        if seat not in self.humans:
            raise ApiError(403, f"seat: seat {seat} is played by {self.seats[seat]}, not by a human")
        if game.done:
            raise ApiError(409, "the game is over")
        if game.decider != seat:
            raise ApiError(409, f"seat: it is player_{game.decider}'s decision, not player_{seat}'s")
        try:
            return self._take(seat, action)
        except IllegalActionError as err:
            raise ApiError(400, str(err)) from None

    def agent_step(self, abandoned: threading.Event | None = None) -> dict | None:
        """One decision of the agent seat that decides now (ApiError 409 when a human decides or it is over);
        None, the game unchanged, if `abandoned` was set while the agent decided (the request stopped waiting)."""
        from kbenv.agents.evaluation.play import agent_inputs

        game = self.game
        if game.done:
            raise ApiError(409, "the game is over")
        p = game.decider
        if self.agents[p] is None:
            raise ApiError(409, f"player_{p} (human) decides now, not an agent")
        agent = self.agents[p]
        searching = abandoned is not None and hasattr(agent, "stop")
        if searching:
            agent.stop = abandoned  # an abandoned search ends at its next simulation (agents.base)
        try:
            action = int(agent.act(*agent_inputs(game, p)))
        finally:
            if searching:
                agent.stop = None
        if abandoned is not None and abandoned.is_set():
            return None
        return self._take(p, action)

    def advance(self, max_steps: int = 10_000, seconds: float | None = None,
                abandoned: threading.Event | None = None) -> list[dict]:
        """Agents' decisions until a human decides or the game ends, at most `max_steps` and none begun `seconds`
        after the first one ended (the first may compile kernels); one under way when `abandoned` is set is not
        taken."""
        moves: list[dict] = []
        end = None
        while self.agent_to_move() and len(moves) < max_steps and (end is None or time.monotonic() < end):
            move = self.agent_step(abandoned)
            if move is None:
                break
            moves.append(move)
            if end is None and seconds is not None:
                end = time.monotonic() + seconds
        return moves


def _names(value, what: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ",".join(value)
    raise ApiError(400, f"{what}: expected a list of names or a comma-separated string, got {short_repr(value)}")


def parse_new_game(body: dict) -> dict:
    """The checked fields of a new-game request: players, seed, preset, ruleset, seats (one spec a seat) and, with
    the island expansion, island_side (a shipped side's name; none: the seeded choice)."""
    from kbenv.agents.registry import parse_spec

    unknown = sorted(set(body) - set(NEW_GAME_FIELDS))
    if unknown:
        raise ApiError(400, f"{short_key(unknown[0])}: unknown field; expected {', '.join(NEW_GAME_FIELDS)}")
    players = integer(body.get("players", 2), "players", 2, 5)  # a number: "2" and true are refused
    seed = integer(body.get("seed", 0), "seed", 0, MAX_SEED)
    preset = body.get("preset") or None
    if preset is not None and preset not in PRESETS:
        raise ApiError(400, f"preset: expected one of {', '.join(PRESETS)} or none, got {short_repr(preset)}")
    lists = {}
    for key, parse in (("expansions", expansion_list), ("rules", rule_list)):
        text = _names(body.get(key) or [], key)
        try:
            lists[key] = parse(text) if text else []
        except argparse.ArgumentTypeError as err:
            raise ApiError(400, f"{key}: {err}") from None
    try:
        ruleset = ruleset_of_args(argparse.Namespace(**lists))
    except ValueError as err:
        raise ApiError(400, str(err).replace("--rules", "rules").replace("--expansions ", "expansions ")) from None
    seats = body.get("seats", ["human", "greedy"])
    if not isinstance(seats, list) or not seats or not all(isinstance(s, str) for s in seats):
        raise ApiError(400, f"seats: expected a list of agent specs or 'human', got {short_repr(seats)}")
    if len(seats) > players:
        raise ApiError(400, f"seats: {len(seats)} seats for {players} players; give at most one spec per seat")
    seats = [s.strip() for s in seats] + [seats[-1].strip()] * (players - len(seats))
    for k, spec in enumerate(seats):
        try:
            parse_spec(spec)
        except (ValueError, OSError) as err:
            raise ApiError(400, f"seats[{k}]: {err}") from None
    island_side = body.get("island_side") or None  # a shipped side (kbenv.expansions.island.setup); no files here
    if island_side is not None and (not isinstance(island_side, str) or island_side not in SUBSTITUTE_SIDES):
        raise ApiError(400, f"island_side: expected one of {', '.join(SUBSTITUTE_SIDES)} or none, got "
                            f"{short_repr(island_side)}")
    if island_side is not None and "island" not in ruleset.expansions:
        raise ApiError(400, "island_side: needs the 'island' expansion (expansions: island)")
    return {"players": players, "seed": seed, "preset": preset, "ruleset": ruleset, "seats": seats,
            "island_side": island_side}


def new_session(body: dict) -> GameSession:
    """A new game from a request (see parse_new_game); agents made and checked against the ruleset."""
    from kbenv.agents import make_agent
    from kbenv.agents.rulesets import check_agents

    spec = parse_new_game(body)
    try:
        game = Game.new(spec["players"], seed=spec["seed"], preset=spec["preset"], ruleset=spec["ruleset"],
                        island_side=spec["island_side"])
    except SetupError as err:
        raise ApiError(400, str(err)) from None
    agents = []
    for k, s in enumerate(spec["seats"]):
        try:
            agents.append(None if s == "human" else make_agent(s, seed=spec["seed"] * 31 + k))
        except (ValueError, OSError, ImportError) as err:
            raise ApiError(400, f"seats[{k}]: {err}") from None
    try:
        check_agents([a for a in agents if a is not None], game.ruleset)
    except ValueError as err:
        raise ApiError(400, f"seats: {type(err).__name__}: {err}") from None
    return GameSession(secrets.token_hex(8), game, spec["seats"], agents, spec["seed"])


def action_of(body: dict, game: Game) -> int:
    """The action a request names: "action" (a number), "hex" [r, c], or "decision" (a power name, "done",
    "end_turn"); ApiError 400 naming the field otherwise."""
    given = [k for k in ("action", "hex", "decision") if k in body]
    if len(given) != 1:
        raise ApiError(400, "give one of action (a number), hex ([row, col]) or decision (a power name, done, "
                            "end_turn)")
    key = given[0]
    value = body[key]
    if key == "action":
        return integer(value, "action", 0, game.action_size - 1)
    if key == "hex":
        if not isinstance(value, list) or len(value) != 2:
            raise ApiError(400, f"hex: expected [row, col], got {short_repr(value)}")
        return integer(value[0], "hex row", 0, 19) * 20 + integer(value[1], "hex col", 0, 19)
    if value == "pass":
        value = "done"
    if not isinstance(value, str) or value not in ACTION_ID or ACTION_ID[value] >= game.action_size:
        raise ApiError(400, f"decision: unknown decision {short_repr(value)}; expected a power name, done or end_turn")
    return ACTION_ID[value]


class GameStore:
    """The live games by id (the oldest dropped beyond MAX_GAMES)."""

    def __init__(self, limit: int = MAX_GAMES):
        self.games: OrderedDict[str, GameSession] = OrderedDict()
        self.limit = limit
        self.lock = threading.Lock()

    def add(self, session: GameSession) -> None:
        with self.lock:
            self.games[session.id] = session
            while len(self.games) > self.limit:
                self.games.popitem(last=False)

    def get(self, game_id: str) -> GameSession:
        with self.lock:
            session = self.games.get(game_id)
        if session is None:
            raise ApiError(404, f"game: no live game with id {short_repr(game_id)} (the server keeps the last "
                                f"{self.limit})")
        return session
