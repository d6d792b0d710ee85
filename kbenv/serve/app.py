"""The Starlette app of `kbenv serve`: the JSON API and the static page (kbenv/serve/static, no build step).

API (every answer JSON; errors are {"error": message} with a 4xx status, or 503 for agents too slow or all busy,
never a traceback page):
  GET  /api/meta                       board geometry and colours, expansions, rule flags, agent kinds
  POST /api/games                      {"players", "seed", "preset", "expansions", "rules", "seats", "island_side"}
                                       -> a new game (island_side: a shipped island side, with the island)
  GET  /api/games/{id}?seat=k          the view of human seat k (no seat: the watcher's view)
  GET  /api/games/{id}/legal?seat=k    seat k's legal decisions
  POST /api/games/{id}/apply           {"seat", "action" | "hex": [r, c] | "decision": name} (400: the reason;
                                       an island hex is the decision "island r,c")
  POST /api/games/{id}/advance         agents decide until a human does or the game ends (none begun after
                                       ADVANCE_SECONDS: "more" says whether to ask again)
  POST /api/games/{id}/step            one agent decision (a live agents-only game, stepped by the page)
  GET  /api/records                    record files and tournament games under the --records folders
  POST /api/replays                    {"root", "path", "game"} -> a replay: decisions, score totals over time
  GET  /api/replays/{id}?step=n&seat=k the replayed game after n decisions
  GET  /api/games/{id}/analysis?seat=k&analyst=SPEC   the analysis board (kbenv.serve.analysis): an analyst's
                                       shares and values of the legal decisions, evaluation per seat, best line
  GET  /api/games/{id}/hint?seat=k&analyst=SPEC       the analyst's top decision for human seat k, which decides
  GET  /api/replays/{id}/analysis?step=n&seat=k&analyst=SPEC   the same for a replayed position
  GET  /api/replays/{id}/curve?seat=k&analyst=SPEC    the analyst's evaluation, one point per decision
  (analyst: greedy, lookahead (the default), network:NAME, trained:NAME, az:path=FILE or aznet:path=FILE:
  agents.analysis; every analysis is made from a seat's view, never from the game)

Agents decide in their own threads (at most AGENT_THREADS at once), never on the server's request loop: a decision
not made within AGENT_SECONDS is answered 503 and not taken (the game stays as it was); a game whose agent is still
deciding answers other requests 409 after BUSY_SECONDS. Request bodies are at most 1 MiB of JSON, read by
kbenv.safe_json (bounded nesting, no key twice); integer fields must be JSON numbers (not strings or booleans).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..safe_json import short_key
from .analysis import AnalystStore, analysis_json, analyst_param, hint_json, models_meta
from .errors import HANDLERS, ApiError, integer, json_body
from .replay import RecordLibrary, Replay, ReplayStore
from .sessions import ADVANCE_SECONDS, AGENT_SECONDS, GameStore, action_of, new_session
from .views import board_meta

STATIC = Path(__file__).parent / "static"
AGENT_THREADS = 4  # agents deciding at once, over all games


def _seat_param(request: Request, players: int) -> int | None:
    seat = request.query_params.get("seat")
    return None if seat in (None, "", "watch") else integer(seat, "seat", 0, players - 1, text=True)


def _seat_field(body: dict, players: int) -> int | None:
    seat = body.get("seat")
    return None if seat is None else integer(seat, "seat", 0, players - 1)


class AgentThreads:
    """Agents decide here: each request's work in a daemon thread of its own (a search still running cannot keep
    the server from stopping), at most `limit` at once, waited for with a time limit."""

    def __init__(self, limit: int = AGENT_THREADS):
        self.limit = limit
        self.slots = threading.BoundedSemaphore(limit)

    async def run(self, work: Callable[[threading.Event], Any], seconds: float) -> Any:
        """`work(abandoned)`'s result; ApiError 503 when all threads are busy, or when it has not finished after
        `seconds`: then `abandoned` is set, and work that checks it takes no decision (the game is unchanged)."""
        if not self.slots.acquire(blocking=False):
            raise ApiError(503, f"agents: all {self.limit} of the server's agent threads are deciding; try again")
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        abandoned = threading.Event()

        def settle(result, error) -> None:
            if future.done():  # the request stopped waiting
                return
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(result)

        def target() -> None:
            try:
                outcome = (work(abandoned), None)
            except Exception as err:
                outcome = (None, err)
            finally:
                self.slots.release()
            if not abandoned.is_set():
                try:
                    loop.call_soon_threadsafe(settle, *outcome)
                except RuntimeError:  # the loop has closed
                    pass

        threading.Thread(target=target, name="kbenv-agent", daemon=True).start()
        try:
            return await asyncio.wait_for(future, seconds)
        except TimeoutError:
            abandoned.set()
            raise ApiError(503, f"agents: no decision within {seconds:g} s; the decision under way is not taken "
                                "(choose a faster agent spec, e.g. fewer sims)") from None


def create_app(records_dirs=(), max_games: int = 64) -> Starlette:
    """The web app; `records_dirs` are the folders whose record files and tournament folders may be replayed
    (ValueError if one is not a folder)."""
    library = RecordLibrary(records_dirs)
    games = GameStore(max_games)
    replays = ReplayStore()
    agent_threads = AgentThreads()
    analysts = AnalystStore()

    async def index(request: Request) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    async def meta(request: Request) -> JSONResponse:
        from kbenv.agents.az import shipped_models
        from kbenv.agents.registry import KINDS

        kinds = [k for k in KINDS if k not in ("openspiel",)]
        return JSONResponse({**board_meta(), "agent_kinds": kinds,
                             "agent_examples": ["human", "greedy", "lookahead", "random", "mcts:sims=200",
                                                *(f"trained:{name}" for name in shipped_models())],
                             "models": await run_in_threadpool(models_meta),
                             "analysts": ["lookahead", "greedy"]})

    def _created(session) -> dict:
        humans = session.humans
        seat = humans[0] if humans else None
        return {"id": session.id, "seats": session.seats, "humans": humans, "seat": seat,
                "view": session.view(seat), "moves": []}

    async def new_game(request: Request) -> JSONResponse:
        body = await json_body(request)
        session = await run_in_threadpool(new_session, body)
        games.add(session)
        return JSONResponse(await run_in_threadpool(_created, session))

    async def game_view(request: Request) -> JSONResponse:
        session = games.get(request.path_params["game_id"])
        seat = _seat_param(request, session.game.num_players)

        def answer():
            with session.using():
                return {"id": session.id, "view": session.view(seat), "moves": session.moves[-20:]}

        return JSONResponse(await run_in_threadpool(answer))

    async def game_legal(request: Request) -> JSONResponse:
        session = games.get(request.path_params["game_id"])
        seat = _seat_param(request, session.game.num_players)
        if seat is None:
            raise ApiError(400, "seat: give the seat whose legal decisions you want (?seat=0)")

        def answer():
            with session.using():
                return {"seat": seat, "legal": session.view(seat)["legal"]}

        return JSONResponse(await run_in_threadpool(answer))

    async def game_apply(request: Request) -> JSONResponse:
        session = games.get(request.path_params["game_id"])
        body = await json_body(request)
        unknown = sorted(set(body) - {"seat", "action", "hex", "decision"})
        if unknown:
            raise ApiError(400, f"{short_key(unknown[0])}: unknown field; expected seat and one of action, hex, "
                                "decision")
        seat = _seat_field(body, session.game.num_players)
        if seat is None:
            raise ApiError(400, "seat: missing; give the human seat that decides")

        def answer():
            with session.using():
                move = session.apply(seat, action_of(body, session.game))
                return {"move": move, "view": session.view(seat)}

        return JSONResponse(await run_in_threadpool(answer))

    async def game_advance(request: Request) -> JSONResponse:
        session = games.get(request.path_params["game_id"])
        body = await json_body(request)
        seat = _seat_field(body, session.game.num_players)
        limit = integer(body.get("max_steps", 10_000), "max_steps", 1, 10_000)

        def answer(abandoned: threading.Event) -> dict:
            with session.using():
                moves = session.advance(limit, ADVANCE_SECONDS, abandoned)
                return {"moves": moves, "view": session.view(seat), "more": session.agent_to_move()}

        return JSONResponse(await agent_threads.run(answer, ADVANCE_SECONDS + AGENT_SECONDS))

    async def game_step(request: Request) -> JSONResponse:
        session = games.get(request.path_params["game_id"])
        body = await json_body(request)
        seat = _seat_field(body, session.game.num_players)

        def answer(abandoned: threading.Event) -> dict | None:
            with session.using():
                move = session.agent_step(abandoned)
                return None if move is None else {"move": move, "view": session.view(seat)}

        return JSONResponse(await agent_threads.run(answer, AGENT_SECONDS))

    async def records(request: Request) -> JSONResponse:
        return JSONResponse(await run_in_threadpool(library.listing))

    async def open_replay(request: Request) -> JSONResponse:
        body = await json_body(request)
        unknown = sorted(set(body) - {"root", "path", "game"})
        if unknown:
            raise ApiError(400, f"{short_key(unknown[0])}: unknown field; expected root, path and game")

        def answer():
            replay = Replay(*library.load(body.get("root"), body.get("path"), body.get("game")))
            replays.add(replay)
            return {**replay.summary(), "view": replay.view(0, None)}

        return JSONResponse(await run_in_threadpool(answer))

    async def replay_view(request: Request) -> JSONResponse:
        replay = replays.get(request.path_params["replay_id"])
        q = request.query_params
        seat = q.get("seat")
        view = await run_in_threadpool(replay.view, q.get("step", "0"), None if seat in (None, "", "watch") else seat)
        return JSONResponse({"id": replay.id, "view": view})

    def _analysis_request(request: Request, players: int) -> tuple[int | None, object]:
        seat = _seat_param(request, players)
        return seat, analysts.get(analyst_param(request.query_params.get("analyst")))

    async def game_analysis(request: Request) -> JSONResponse:
        session = games.get(request.path_params["game_id"])
        seat, analyst = await run_in_threadpool(_analysis_request, request, session.game.num_players)

        def answer(abandoned: threading.Event) -> dict:
            with session.using():
                view = session.analysed_view(seat)  # a copy: the analysis runs without the game's lock
            return analysis_json(analyst, view)

        return JSONResponse(await agent_threads.run(answer, AGENT_SECONDS))

    async def game_hint(request: Request) -> JSONResponse:
        session = games.get(request.path_params["game_id"])
        seat, analyst = await run_in_threadpool(_analysis_request, request, session.game.num_players)
        if seat is None or seat not in session.humans:
            raise ApiError(400, "seat: give the human seat that wants a hint (?seat=k)")

        def answer(abandoned: threading.Event) -> dict:
            with session.using():
                view = session.analysed_view(seat)
            return hint_json(analyst, view)

        return JSONResponse(await agent_threads.run(answer, AGENT_SECONDS))

    async def replay_analysis(request: Request) -> JSONResponse:
        replay = replays.get(request.path_params["replay_id"])
        q = request.query_params
        seat = q.get("seat")
        seat = None if seat in (None, "", "watch") else seat
        analyst = await run_in_threadpool(analysts.get, analyst_param(q.get("analyst")))

        def answer(abandoned: threading.Event) -> dict:
            return {"id": replay.id, **analysis_json(analyst, replay.analysed_view(q.get("step", "0"), seat))}

        return JSONResponse(await agent_threads.run(answer, AGENT_SECONDS))

    async def replay_curve(request: Request) -> JSONResponse:
        replay = replays.get(request.path_params["replay_id"])
        q = request.query_params
        seat = q.get("seat")
        seat = None if seat in (None, "", "watch") else seat
        analyst = await run_in_threadpool(analysts.get, analyst_param(q.get("analyst")))

        def answer(abandoned: threading.Event) -> dict:
            return {"id": replay.id, **replay.curve(analyst, seat)}

        return JSONResponse(await agent_threads.run(answer, AGENT_SECONDS))

    routes = [
        Route("/", index),
        Route("/api/meta", meta),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{game_id}", game_view),
        Route("/api/games/{game_id}/legal", game_legal),
        Route("/api/games/{game_id}/apply", game_apply, methods=["POST"]),
        Route("/api/games/{game_id}/advance", game_advance, methods=["POST"]),
        Route("/api/games/{game_id}/step", game_step, methods=["POST"]),
        Route("/api/games/{game_id}/analysis", game_analysis),
        Route("/api/games/{game_id}/hint", game_hint),
        Route("/api/records", records),
        Route("/api/replays", open_replay, methods=["POST"]),
        Route("/api/replays/{replay_id}", replay_view),
        Route("/api/replays/{replay_id}/analysis", replay_analysis),
        Route("/api/replays/{replay_id}/curve", replay_curve),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers=HANDLERS)
    app.state.games = games
    app.state.replays = replays
    app.state.library = library
    app.state.analysts = analysts
    return app
