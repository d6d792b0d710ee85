"""The one error type of the web app and the handlers that answer every error as JSON (never a traceback page)."""

from __future__ import annotations

import logging
import re

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse

from ..safe_json import JSONInputError, loads, short_repr, short_text

log = logging.getLogger("kbenv.serve")
MAX_BODY_BYTES = 2**20  # a request body: the largest the page sends is a few hundred bytes
_DIGITS = re.compile(r"-?[0-9]{1,20}")  # a query's integer: ASCII digits only ("²".isdigit() is True)


class ApiError(Exception):
    """A request the app refuses: an HTTP status and a message naming the field or decision at fault."""

    def __init__(self, status: int, message: str):
        message = short_text(message)  # the last guard: no message echoes a user's long value whole
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
    """The request's JSON object (kbenv.safe_json: at most MAX_BODY_BYTES, bounded depth, no key twice); ApiError
    413 for a larger body, 400 for one that is not such JSON or not an object."""
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise ApiError(413, f"request body: {declared} bytes; at most {MAX_BODY_BYTES} bytes are read")
    raw = bytearray()
    async for chunk in request.stream():  # read no further than the limit, whatever the header said
        raw += chunk
        if len(raw) > MAX_BODY_BYTES:
            raise ApiError(413, f"request body: more than {MAX_BODY_BYTES} bytes; at most that many are read")
    if not raw.strip():
        return {}
    try:
        body = loads(raw, MAX_BODY_BYTES)
    except JSONInputError as err:
        raise ApiError(400, f"request body: {err}") from None
    if not isinstance(body, dict):
        raise ApiError(400, f"request body: expected a JSON object, got {type(body).__name__}")
    return body


def integer(value, field: str, low: int, high: int, text: bool = False) -> int:
    """An integer field in low..high; ApiError 400 naming the field otherwise. A JSON field must be a number
    (booleans and strings are not integers); with `text` (a query parameter) a string of ASCII digits is read."""
    if text and isinstance(value, str) and _DIGITS.fullmatch(value.strip()):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(400, f"{field}: expected an integer, got {short_repr(value)}")
    if not low <= value <= high:
        raise ApiError(400, f"{field}: expected {low} to {high}, got {short_repr(value)}")
    return value
