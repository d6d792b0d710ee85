"""The one error type of the web app and the handlers that answer every error as JSON (never a traceback page)."""

from __future__ import annotations

import json
import logging

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse

log = logging.getLogger("kbenv.serve")


class ApiError(Exception):
    """A request the app refuses: an HTTP status and a message naming the field or decision at fault."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


async def api_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return JSONResponse({"error": exc.message}, status_code=exc.status)


async def http_error(request: Request, exc: Exception) -> JSONResponse:
    """Starlette's own errors (unknown address, wrong method) as JSON."""
    assert isinstance(exc, HTTPException)
    detail = exc.detail if exc.status_code != 404 else f"no such page or API address: {request.url.path}"
    return JSONResponse({"error": detail}, status_code=exc.status_code, headers=exc.headers)


async def internal_error(request: Request, exc: Exception) -> JSONResponse:
    """A bug: logged with its traceback on the server, answered with one line."""
    log.error("internal error on %s %s", request.method, request.url.path, exc_info=exc)
    return JSONResponse({"error": f"internal error ({type(exc).__name__}); the server's log has the details"},
                        status_code=500)


HANDLERS = {ApiError: api_error, HTTPException: http_error, Exception: internal_error}


async def json_body(request: Request) -> dict:
    """The request's JSON object; ApiError 400 for a body that is not JSON or not an object."""
    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as err:
        raise ApiError(400, f"request body: not valid JSON ({err})") from None
    if not isinstance(body, dict):
        raise ApiError(400, f"request body: expected a JSON object, got {type(body).__name__}")
    return body


def integer(value, field: str, low: int, high: int) -> int:
    """An integer field in low..high; ApiError 400 naming the field otherwise (booleans are not integers)."""
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(400, f"{field}: expected an integer, got {value!r}")
    if not low <= value <= high:
        raise ApiError(400, f"{field}: expected {low} to {high}, got {value}")
    return value
