"""Replays: record files and tournament folders under the `--records` folders, stepped through decision by decision.

Only files inside the named folders are read: a path is taken relative to one of them, and an absolute path or
one that leads outside (`../`, a symbolic link out) is refused with ApiError 400; the listing neither lists nor
opens a symbolic link that leads outside, nor anything but regular files. JSON is read by kbenv.safe_json
(bounded size and nesting, no key twice). A record file is the JSON of
`Game.to_record()` (`kbenv play --record`); a tournament folder holds `records.jsonl`, one game a line
(`{"game_id": k, "record": {...}}`), and `games.csv` with the seats.
"""

from __future__ import annotations

import csv
import os
import secrets
import threading
from collections import OrderedDict
from pathlib import Path, PurePosixPath, PureWindowsPath

import numpy as np

from ..game import Game
from ..game.view import PlayerView
from ..present.words import describe_decision
from ..safe_json import MAX_BYTES, JSONInputError, loads, read_json, short_repr
from .errors import ApiError, integer
from .views import seat_view, spectator_view

MAX_FILE_BYTES = MAX_BYTES  # a record file, and one line of a tournament's records.jsonl
MAX_LISTED = 500
MAX_REPLAYS = 32
RECORDS, GAMES_CSV = "records.jsonl", "games.csv"


class RecordLibrary:
    """The folders named with --records and the record files and tournament games in them."""

    def __init__(self, folders=()):
        self.roots: list[Path] = []
        for folder in folders:
            path = Path(folder).expanduser().resolve()
            if not path.is_dir():
                raise ValueError(f"--records: {folder} is not a folder")
            self.roots.append(path)

    def listing(self) -> dict:
        """{"roots": [folder names], "files": [{"root", "path", "kind": record|tournament, "games": [...]}]}."""
        files: list[dict] = []
        for k, root in enumerate(self.roots):
            for folder, dirs, names in os.walk(root):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                here = Path(folder)
                rel = here.relative_to(root).as_posix()
                if RECORDS in names and _inside(here / RECORDS, root):
                    files.append({"root": k, "path": "." if rel == "." else rel, "kind": "tournament",
                                  "games": _tournament_games(here, root)})
                for name in sorted(names):
                    if name.endswith(".json") and _inside(here / name, root) and _looks_like_record(here / name):
                        files.append({"root": k, "path": (here / name).relative_to(root).as_posix(),
                                      "kind": "record"})
                if len(files) >= MAX_LISTED:
                    break
        return {"roots": [{"index": k, "name": root.name or str(root)} for k, root in enumerate(self.roots)],
                "files": files[:MAX_LISTED]}

    def resolve(self, root, path) -> Path:
        """The file or folder `path` names inside records folder number `root`; ApiError unless it is inside."""
        if not self.roots:
            raise ApiError(400, "path: no records folder is open (start kbenv serve with --records DIR)")
        k = integer(root if root is not None else 0, "root", 0, len(self.roots) - 1)
        if not isinstance(path, str) or not path.strip():
            raise ApiError(400, f"path: expected a path relative to a records folder, got {short_repr(path)}")
        if PurePosixPath(path).is_absolute() or PureWindowsPath(path).is_absolute() or PureWindowsPath(path).drive:
            raise ApiError(400, f"path: {short_repr(path)} is absolute; give a path relative to the records folder")
        if "\x00" in path:
            raise ApiError(400, "path: contains a NUL character")
        full = (self.roots[k] / path).resolve()
        if not full.is_relative_to(self.roots[k]):
            raise ApiError(400, f"path: {short_repr(path)} leads outside the records folders")
        if not full.exists():
            raise ApiError(404, f"path: no file or folder {short_repr(path)} in the records folder")
        return full

    def load(self, root, path, game=None) -> tuple[dict, list[str] | None, str]:
        """(record, seat specs or None, title) of a record file, or of game `game` of a tournament folder."""
        full = self.resolve(root, path)
        if full.is_dir() or full.name == RECORDS:
            folder = full if full.is_dir() else full.parent
            root_dir = self.roots[integer(root if root is not None else 0, "root", 0, len(self.roots) - 1)]  # checked
            if not _inside(folder / RECORDS, root_dir):
                raise ApiError(400, f"path: {short_repr(path)} is a folder without {RECORDS} (not a tournament folder)")
            if game is None:
                raise ApiError(400, "game: give the game id of a game of the tournament")
            game_id = integer(game, "game", 0, 2**62)
            record = _tournament_record(folder / RECORDS, game_id)
            seats = {g["game_id"]: g.get("seats") for g in _tournament_games(folder, root_dir)}.get(game_id)
            return record, seats, f"{path} game {game_id}"
        if not full.is_file():
            raise ApiError(400, f"path: {short_repr(path)} is not a regular file")
        if full.stat().st_size > MAX_FILE_BYTES:
            raise ApiError(400, f"path: {short_repr(path)} is larger than {MAX_FILE_BYTES // 2**20} MiB")
        try:
            record = read_json(full, MAX_FILE_BYTES)
        except JSONInputError as err:
            raise ApiError(400, f"path: {short_repr(path)} is not a JSON record ({err})") from None
        except OSError as err:
            raise ApiError(400, f"path: cannot read {short_repr(path)} ({err.strerror})") from None
        return record, None, str(path)


def _inside(path: Path, root: Path) -> bool:
    """Whether `path` is a regular file whose real place (symbolic links followed) is inside `root`: a link out
    is neither listed nor opened."""
    try:
        real = path.resolve()
    except (OSError, RuntimeError):  # a loop of links
        return False
    return real.is_relative_to(root) and real.is_file()


def _json_lines(path: Path):
    """The parsed lines of a JSON-lines file, skipping damaged ones and any longer than MAX_FILE_BYTES (read in
    pieces, never whole)."""
    with open(path, "rb") as f:
        while line := f.readline(MAX_FILE_BYTES + 1):
            if len(line) > MAX_FILE_BYTES:  # an overlong line: skip it to its end
                while line and not line.endswith(b"\n"):
                    line = f.readline(MAX_FILE_BYTES + 1)
                continue
            try:
                yield loads(line)
            except ValueError:
                continue


def _looks_like_record(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return b"kbenv-record" in f.read(200)
    except OSError:
        return False


def _tournament_games(folder: Path, root: Path) -> list[dict]:
    """The games of a tournament folder: ids from records.jsonl, seats and gold from games.csv where readable
    (each only where it is a regular file inside the records folder `root`)."""
    rows = {}
    try:
        if not _inside(folder / GAMES_CSV, root):
            raise FileNotFoundError(GAMES_CSV)
        with open(folder / GAMES_CSV, encoding="utf-8", newline="") as f:
            for row in csv.DictReader(f):
                try:
                    n = int(row["num_players"])
                    rows[int(row["game_id"])] = {"seats": [row[f"seat{i}"] for i in range(n)],
                                                 "gold": [int(row[f"gold{i}"]) for i in range(n)]}
                except (KeyError, ValueError, TypeError):
                    continue
    except OSError:
        pass
    games = []
    try:
        for entry in _json_lines(folder / RECORDS) if _inside(folder / RECORDS, root) else ():
            game_id = entry.get("game_id") if isinstance(entry, dict) else None
            if isinstance(game_id, int) and not isinstance(game_id, bool):
                games.append({"game_id": game_id, **rows.get(game_id, {})})
    except OSError:
        pass
    return games[:MAX_LISTED]


def _tournament_record(path: Path, game_id: int) -> dict:
    for entry in _json_lines(path):
        if isinstance(entry, dict) and entry.get("game_id") == game_id:
            return entry.get("record")
    raise ApiError(404, f"game: no game {game_id} in the tournament's {RECORDS}")


class Replay:
    """A recorded game replayed once: the state after every decision, the decisions in words and the
    score totals over time."""

    def __init__(self, record: dict, seats: list[str] | None, title: str):
        try:
            game = Game.from_record(record)
        except ValueError as err:  # SetupError and the set-up layers' own errors: a bad record
            raise ApiError(400, f"record: {err}") from None
        self.id = secrets.token_hex(8)
        self.title = title
        self.setup = game.setup
        self.actions = list(game.actions)
        start = Game.from_setup(game.setup)
        self.seats = seats if seats and len(seats) == start.num_players else ["?"] * start.num_players
        self.states: list[np.ndarray] = [start.state.copy()]
        self.decisions: list[dict] = []
        self.timeline: list[list[int]] = [[int(v) for v in start.score_table()[:, -1]]]
        self.curves: dict[tuple, dict] = {}  # evaluation curves by (analyst spec, seat)
        self.lock = threading.Lock()
        for action in self.actions:
            self.decisions.append({"seat": start.decider, "action": action, "words": describe_decision(start, action)})
            start.step(action)
            self.states.append(start.state.copy())
            self.timeline.append([int(v) for v in start.score_table()[:, -1]])

    @property
    def steps(self) -> int:
        return len(self.actions)

    def game_at(self, step: int) -> Game:
        return Game(self.setup, self.states[step].copy(), self.actions[:step])

    def summary(self) -> dict:
        return {"id": self.id, "title": self.title, "steps": self.steps, "seats": self.seats,
                "decisions": self.decisions, "timeline": self.timeline}

    def view(self, step, seat) -> dict:
        """The game after `step` decisions as a seat sees it (None: as a watcher)."""
        step = integer(step, "step", 0, self.steps, text=True)
        game = self.game_at(step)
        if seat is not None:
            seat = integer(seat, "seat", 0, game.num_players - 1, text=True)
        out = spectator_view(game, self.seats) if seat is None else seat_view(game, seat, self.seats)
        out.update(step=step, steps=self.steps, next_decision=self.decisions[step] if step < self.steps else None)
        return out

    def analysed_view(self, step, seat) -> PlayerView:
        """The view the analysis of the position after `step` decisions is made from: `seat`'s, or for a watcher
        (None) the view of the seat after the one that decides (kbenv.serve.analysis)."""
        from .analysis import watcher_viewer

        step = integer(step, "step", 0, self.steps, text=True)
        game = self.game_at(step)
        if seat is not None:
            seat = integer(seat, "seat", 0, game.num_players - 1, text=True)
        return PlayerView(game, watcher_viewer(game) if seat is None else seat)

    def curve(self, analyst, seat) -> dict:
        """The analyst's evaluation curve: one point per decision (the position it was taken in), kept per
        analyst and seat."""
        from .analysis import curve_json

        key = (analyst.spec, seat)
        with self.lock:
            cached = self.curves.get(key)
        if cached is None:
            cached = curve_json(analyst, [self.analysed_view(k, seat) for k in range(self.steps)])
            with self.lock:
                self.curves[key] = cached
        return cached


class ReplayStore:
    """Open replays by id (the oldest dropped beyond MAX_REPLAYS)."""

    def __init__(self):
        self.replays: OrderedDict[str, Replay] = OrderedDict()
        self.lock = threading.Lock()

    def add(self, replay: Replay) -> None:
        with self.lock:
            self.replays[replay.id] = replay
            while len(self.replays) > MAX_REPLAYS:
                self.replays.popitem(last=False)

    def get(self, replay_id: str) -> Replay:
        with self.lock:
            replay = self.replays.get(replay_id)
        if replay is None:
            raise ApiError(404, f"replay: no open replay with id {short_repr(replay_id)}")
        return replay
