"""What a user gives, read safely: JSON with its size, nesting depth, integer lengths and duplicate keys checked
before or while it is parsed (`loads`, `read_json`), and `short_repr` for echoing a value in an error message.

Every position file, record file, request body and record listing that kbenv reads from a user goes through
`loads`; a problem is a `JSONInputError` (a ValueError) whose message names it, e.g. "nested 100000 levels deep;
at most 64 levels of [ ] and { } are read", "seed: an integer of 5000 digits; at most 100 digits are read" or
"'sections': the key appears twice in one object". The callers put the file's or field's name in front and turn
it into their own error (SetupError, the web app's 400).
"""

from __future__ import annotations

import json
import re
import reprlib
from pathlib import Path
from typing import Any

import numpy as np

MAX_BYTES = 16 * 2**20  # a position or record file; a record of a long game is a few kB
MAX_DEPTH = 64  # levels of [ ] and { }; kbenv's own files nest at most 7 deep
MAX_INT_DIGITS = 100  # seeds and counts have at most 20 digits
SHORT = 80  # characters of a user's value echoed in an error message
# One JSON string (escapes included), or an unterminated one running to the end: never backtracks (3.11+).
_STRING = re.compile(rb'"(?:[^"\\]++|\\.)*+(?:"|\\?\Z)', re.S)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_CHUNK = 2**20


class JSONInputError(ValueError):
    """A user's JSON that kbenv will not read: too large, too deep, an overlong integer, a duplicate key, not
    UTF-8 or not JSON at all; the message names the problem."""


class _LongInt:
    """Stands for an integer too long to read while parsing, so that the field holding it can be named after."""

    __slots__ = ("digits",)

    def __init__(self, digits: int):
        self.digits = digits


def nesting_depth(data: bytes) -> int:
    """The deepest nesting of [ ] and { } outside strings, in linear time (strings are cut out by one pass)."""
    brackets = _STRING.sub(b"", data).translate(None, _NOT_BRACKETS)
    depth = deepest = 0
    for start in range(0, len(brackets), _CHUNK):
        part = np.frombuffer(brackets, np.uint8, count=min(_CHUNK, len(brackets) - start), offset=start)
        levels = depth + np.cumsum(1 - (part & 4).astype(np.int32) // 2)  # [ { have bit 2 clear: +1; ] }: -1
        deepest, depth = max(deepest, int(levels.max())), int(levels[-1])
    return deepest


def _object(pairs: list[tuple[str, Any]]) -> dict:
    """A JSON object; JSONInputError naming a key given twice (json keeps the last one silently)."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise JSONInputError(f"{short_repr(key)}: the key appears twice in one object")
            seen.add(key)
    return obj


def _long_int_path(value: Any, path: str = "") -> tuple[str, int] | None:
    """(where, digits) of the first overlong integer in a parsed value, e.g. ("setup.seed", 5000)."""
    if isinstance(value, _LongInt):
        return path or "the document", value.digits
    if isinstance(value, dict):
        items = ((f"{path}.{short_key(k)}" if path else short_key(k), v) for k, v in value.items())
    elif isinstance(value, list):
        items = ((f"{path}[{i}]", v) for i, v in enumerate(value))
    else:
        return None
    for where, item in items:
        found = _long_int_path(item, where)
        if found:
            return found
    return None


def short_key(key: Any) -> str:
    """A field's name as written in a message ("seed: ..."), or its short repr if it is long."""
    return key if isinstance(key, str) and len(key) <= SHORT else short_repr(key)


def loads(data: bytes | str, max_bytes: int = MAX_BYTES) -> Any:
    """Parse a user's JSON: at most `max_bytes` bytes of UTF-8, MAX_DEPTH levels deep, integers of at most
    MAX_INT_DIGITS digits and no key twice in an object; JSONInputError naming the problem otherwise."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
    if len(raw) > max_bytes:
        raise JSONInputError(f"{len(raw)} bytes; at most {max_bytes} bytes ({max_bytes / 2**20:g} MiB) are read")
    depth = nesting_depth(raw)
    if depth > MAX_DEPTH:
        raise JSONInputError(f"nested {depth} levels deep; at most {MAX_DEPTH} levels of [ ] and {{ }} are read")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise JSONInputError(f"not UTF-8 text (byte {err.start})") from None
    long_ints: list[int] = []

    def integer(digits: str) -> int | _LongInt:
        count = len(digits) - digits.startswith("-")
        if count > MAX_INT_DIGITS:
            long_ints.append(count)
            return _LongInt(count)
        return int(digits)

    try:
        value = json.loads(text, parse_int=integer, object_pairs_hook=_object)
    except json.JSONDecodeError as err:
        raise JSONInputError(f"not valid JSON ({err})") from None
    if long_ints:
        where, digits = _long_int_path(value)
        raise JSONInputError(f"{where}: an integer of {digits} digits; at most {MAX_INT_DIGITS} digits are read")
    return value


def read_json(path: str | Path, max_bytes: int = MAX_BYTES) -> Any:
    """The JSON of a user's file, read no further than `max_bytes` + 1 bytes (see `loads`); OSError if it cannot
    be read, JSONInputError for what it holds."""
    with open(path, "rb") as f:
        data = f.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise JSONInputError(f"larger than {max_bytes} bytes ({max_bytes / 2**20:g} MiB), the most that is read")
    return loads(data, max_bytes)


class _ShortRepr(reprlib.Repr):
    """reprlib with room for ordinary values and no full repr of a huge integer (which Python refuses)."""

    def __init__(self):
        super().__init__()
        self.maxlevel, self.maxstring, self.maxlong, self.maxother = 4, SHORT, SHORT, SHORT
        self.maxlist = self.maxtuple = self.maxdict = self.maxset = self.maxfrozenset = self.maxdeque = 24

    def repr_int(self, x: int, level: int) -> str:
        if abs(x).bit_length() > 3 * SHORT:  # about SHORT digits or more: no full repr (Python refuses 4300+)
            return f"<an integer of about {int(abs(x).bit_length() * 0.30103) + 1} digits>"
        return super().repr_int(x, level)


_SHORT_REPR = _ShortRepr()


def short_repr(value: Any, limit: int = SHORT) -> str:
    """repr(value) for a short value; a long string cut at `limit` characters as "'abc...'…(N chars)", any other
    long value cut likewise without its full repr ever being built (a 50 MB string is not echoed whole)."""
    if isinstance(value, (str, bytes)):
        return repr(value) if len(value) <= limit else f"{value[:limit]!r}…({len(value)} chars)"
    try:
        text = _SHORT_REPR.repr(value)
    except Exception:  # a value whose repr fails: its type
        return f"<{type(value).__name__}>"
    if len(text) <= limit:
        return text
    return f"{text[:limit]}…({len(value)} items)" if hasattr(value, "__len__") else f"{text[:limit]}…"


def short_text(text: str, limit: int = 2000) -> str:
    """A message cut at `limit` characters (the last guard before a message leaves the program)."""
    return text if len(text) <= limit else f"{text[:limit]}…({len(text)} chars)"
