"""The Starlette app of `kbenv serve`: the JSON API and the static page (kbenv/serve/static, no build step).

API (every answer JSON; errors are {"error": message} with a 4xx status, never a traceback page):
  GET  /api/meta                       board geometry and colours, expansions, rule flags, agent kinds
  POST /api/games                      {"players", "seed", "preset", "expansions", "rules", "seats", "island_side"}
                                       -> a new game (island_side: a shipped island side, with the island)
  GET  /api/games/{id}?seat=k          the view of human seat k (no seat: the watcher's view)
  GET  /api/games/{id}/legal?seat=k    seat k's legal decisions
  POST /api/games/{id}/apply           {"seat", "action" | "hex": [r, c] | "decision": name} (400: the reason;
                                       an island hex is the decision "island r,c")
  POST /api/games/{id}/advance         agents decide until a human does or the game ends
  POST /api/games/{id}/step            one agent decision (a live agents-only game, stepped by the page)
  GET  /api/records                    record files and tournament games under the --records folders
  POST /api/replays                    {"root", "path", "game"} -> a replay: decisions, score totals over time
  GET  /api/replays/{id}?step=n&seat=k the replayed game after n decisions
"""

from __future__ import annotations

from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .errors import HANDLERS, ApiError, integer, json_body
from .replay import RecordLibrary, Replay, ReplayStore
from .sessions import GameStore, action_of, new_session
from .views import board_meta

STATIC = Path(__file__).parent / "static"


def _seat_param(request: Request, players: int) -> int | None:
    seat = request.query_params.get("seat")
    return None if seat in (None, "", "watch") else integer(seat, "seat", 0, players - 1)


def _seat_field(body: dict, players: int) -> int | None:
    seat = body.get("seat")
    return None if seat is None else integer(seat, "seat", 0, players - 1)


def create_app(records_dirs=(), max_games: int = 64) -> Starlette:
    """The web app; `records_dirs` are the folders whose record files and tournament folders may be replayed
    (ValueError if one is not a folder)."""
    library = RecordLibrary(records_dirs)
    games = GameStore(max_games)
    replays = ReplayStore()

    async def index(request: Request) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    async def meta(request: Request) -> JSONResponse:
        from agents.az import shipped_models
        from agents.registry import KINDS

        kinds = [k for k in KINDS if k not in ("openspiel",)]
        return JSONResponse({**board_meta(), "agent_kinds": kinds,
                             "agent_examples": ["human", "greedy", "lookahead", "random", "mcts:sims=200",
                                                *(f"trained:{name}" for name in shipped_models())]})

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
            with session.lock:
                return {"id": session.id, "view": session.view(seat), "moves": session.moves[-20:]}

        return JSONResponse(await run_in_threadpool(answer))

    async def game_legal(request: Request) -> JSONResponse:
        session = games.get(request.path_params["game_id"])
        seat = _seat_param(request, session.game.num_players)
        if seat is None:
            raise ApiError(400, "seat: give the seat whose legal decisions you want (?seat=0)")

        def answer():
            with session.lock:
                return {"seat": seat, "legal": session.view(seat)["legal"]}

        return JSONResponse(await run_in_threadpool(answer))

    async def game_apply(request: Request) -> JSONResponse:
        session = games.get(request.path_params["game_id"])
        body = await json_body(request)
        unknown = sorted(set(body) - {"seat", "action", "hex", "decision"})
        if unknown:
            raise ApiError(400, f"{unknown[0]}: unknown field; expected seat and one of action, hex, decision")
        seat = _seat_field(body, session.game.num_players)
        if seat is None:
            raise ApiError(400, "seat: missing; give the human seat that decides")

        def answer():
            with session.lock:
                move = session.apply(seat, action_of(body, session.game))
                return {"move": move, "view": session.view(seat)}

        return JSONResponse(await run_in_threadpool(answer))

    async def game_advance(request: Request) -> JSONResponse:
        session = games.get(request.path_params["game_id"])
        body = await json_body(request)
        seat = _seat_field(body, session.game.num_players)
        limit = integer(body.get("max_steps", 10_000), "max_steps", 1, 10_000)

        def answer():
            with session.lock:
                moves = session.advance(limit)
                return {"moves": moves, "view": session.view(seat)}

        return JSONResponse(await run_in_threadpool(answer))

    async def game_step(request: Request) -> JSONResponse:
        session = games.get(request.path_params["game_id"])
        body = await json_body(request)
        seat = _seat_field(body, session.game.num_players)

        def answer():
            with session.lock:
                move = session.agent_step()
                return {"move": move, "view": session.view(seat)}

        return JSONResponse(await run_in_threadpool(answer))

    async def records(request: Request) -> JSONResponse:
        return JSONResponse(await run_in_threadpool(library.listing))

    async def open_replay(request: Request) -> JSONResponse:
        body = await json_body(request)
        unknown = sorted(set(body) - {"root", "path", "game"})
        if unknown:
            raise ApiError(400, f"{unknown[0]}: unknown field; expected root, path and game")

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

    routes = [
        Route("/", index),
        Route("/api/meta", meta),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{game_id}", game_view),
        Route("/api/games/{game_id}/legal", game_legal),
        Route("/api/games/{game_id}/apply", game_apply, methods=["POST"]),
        Route("/api/games/{game_id}/advance", game_advance, methods=["POST"]),
        Route("/api/games/{game_id}/step", game_step, methods=["POST"]),
        Route("/api/records", records),
        Route("/api/replays", open_replay, methods=["POST"]),
        Route("/api/replays/{replay_id}", replay_view),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers=HANDLERS)
    app.state.games = games
    app.state.replays = replays
    app.state.library = library
    return app
