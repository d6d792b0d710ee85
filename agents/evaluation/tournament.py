"""Tournaments: seat-rotated games between agents, in parallel, with ratings, files and plots.

Schedule: for each player count n, the tables are the sets of n distinct agents (or, with fewer
agents than seats, every balanced multiset of them). Each deal (a set-up seed, so the same board,
cards and terrain deck) is played once per cyclic rotation of the table, so every agent sits in
every seat equally often on the same deals.

Output folder: `tournament.json` (the settings that identify the schedule, written before the first
game), `games.csv` and `records.jsonl` (one line per finished game, streamed as games finish),
`summary.json`, `ratings.csv` and `ratings.png`. An interrupted run resumes from its folder when the
settings match; `tournament.lock` keeps two runs out of one folder at the same time (it names the
process that holds it, is removed when the run ends, and a lock left by a killed process does not block).

Before any game, every agent is checked against the tournament's ruleset (`check_rulesets`): a trained
model asked to play a ruleset it was not trained for stops the tournament with ModelRulesetError
(agents.rulesets); one whose spec says `outside_training=1` plays, with a warning, and the summary
(`config.outside_training`) and the printed table say so.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import itertools
import json
import os
import signal
import sys
import threading
import warnings
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from functools import lru_cache

from kbenv.safe_json import loads, read_json

from ..registry import make_agent, parse_spec
from ..rulesets import OutsideTrainingWarning, Ruleset, check_agents
from .play import play_game
from .ratings import head_to_head, rate, seat_stats

GAMES_CSV = "games.csv"
RECORDS = "records.jsonl"
SUMMARY = "summary.json"
CONFIG = "tournament.json"
LOCK = "tournament.lock"
CONFIG_VERSION = 1
MAX_GAMES = 1_000_000
MAX_SEED = (2**63 - 1 - 2 * MAX_GAMES) // 1_000_003
IDENTITY_FIELDS = ("agents", "players", "games", "seed", "setup", "field", "models")


@dataclass(frozen=True)
class GameTask:
    game_id: int
    num_players: int
    seed: int
    seats: tuple[str, ...]


def tables_for(agents: list[str], n: int, field: bool = False) -> list[tuple[str, ...]]:
    """The agent line-ups for n seats (before seat rotation).

    With `field`, the first agent sits alone against the others, which fill the other n - 1 seats in
    turn (one ppo against three greedy players, say).
    """
    if field:
        if len(agents) < 2:
            raise ValueError("field: needs a first agent and at least one other to fill the seats")
        others = agents[1:]
        return [(agents[0], *(others[i % len(others)] for i in range(n - 1)))]
    if len(agents) >= n:
        return list(itertools.combinations(agents, n))
    k = len(agents)
    base, extra = divmod(n, k)
    tables = []
    for lucky in itertools.combinations(agents, extra):
        table = []
        for a in agents:
            table += [a] * (base + (1 if a in lucky else 0))
        tables.append(tuple(table))
    return tables


def schedule(agents: list[str], player_counts: list[int], games: int, seed: int,
             field: bool = False) -> list[GameTask]:
    """At least `games` games per player count, whole rotation blocks, deterministic given the seed."""
    tasks: list[GameTask] = []
    game_id = 0
    for n in player_counts:
        tables = tables_for(agents, n, field)
        per_deal = len(tables) * n
        deals = max(1, -(-games // per_deal))
        for deal in range(deals):
            deal_seed = seed * 1_000_003 + n * 10_007 + deal
            for table in tables:
                for shift in range(n):
                    seats = table[shift:] + table[:shift]
                    tasks.append(GameTask(game_id, n, deal_seed, seats))
                    game_id += 1
    return tasks


# ----- arguments and the identity of a tournament ----------------------------------------------


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_spec(spec: str) -> None:
    """ValueError (FileNotFoundError for a missing model) for a spec that could not make an agent."""
    if not isinstance(spec, str) or any(c in spec for c in "\r\n"):
        raise ValueError(f"agents: expected one-line spec strings, got {spec!r}")
    kind, _ = parse_spec(spec)  # checks every parameter, and that a ppo checkpoint exists
    if kind != "ppo":
        make_agent(spec)


# how workers run: forked local processes, freshly spawned local processes (no state of the caller: for a
# caller that has started threads, such as a training run), or Ray
BACKENDS = ("process", "spawn", "ray")


def check_arguments(agents: list[str], player_counts: list[int], games: int, seed: int, workers: int,
                    backend: str) -> None:
    """ValueError naming the argument at fault (agents, players, games, seed, workers or backend)."""
    if not isinstance(agents, list | tuple) or not agents:
        raise ValueError("agents: expected at least one agent spec")
    for spec in agents:
        check_spec(spec)
    if len(set(agents)) != len(agents):
        raise ValueError("agents: each agent spec may appear once")
    if not isinstance(player_counts, list | tuple) or not player_counts:
        raise ValueError("players: expected at least one player count")
    for n in player_counts:
        if not _is_int(n) or not 2 <= n <= 5:
            raise ValueError(f"players: expected counts from 2 to 5, got {n!r}")
    if len(set(player_counts)) != len(player_counts):
        raise ValueError("players: each player count may appear once")
    if not _is_int(games) or not 1 <= games <= MAX_GAMES:
        raise ValueError(f"games: expected 1 to {MAX_GAMES} games per player count, got {games!r}")
    if not _is_int(seed) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed: expected an integer from 0 to {MAX_SEED}, got {seed!r}")
    if not _is_int(workers) or workers < 1:
        raise ValueError(f"workers: expected at least 1 worker, got {workers!r}")
    if backend not in BACKENDS:
        raise ValueError(f"backend: expected 'process', 'spawn' or 'ray', got {backend!r}")


def check_setup(setup: dict, tasks: list[GameTask]) -> dict:
    """The set-up options as JSON values; ValueError (or SetupError) if a scheduled game could not start."""
    from kbenv import Game

    if not isinstance(setup, dict):
        raise ValueError(f"setup: expected a dict of Game.new options, got {setup!r}")
    try:
        as_json = json.loads(json.dumps(setup, sort_keys=True))
    except (TypeError, ValueError) as err:
        raise ValueError(f"setup: expected JSON values only ({err})") from None
    first = {}
    for t in tasks:
        first.setdefault(t.num_players, t)
    for n, t in first.items():
        try:
            Game.new(n, seed=t.seed, **setup)
        except TypeError as err:
            raise ValueError(f"setup: {err}") from None
    return canonical_setup(as_json)


def canonical_setup(setup: dict) -> dict:
    """The set-up with its ruleset as sets: expansions and the rule flags switched on, in catalogue order.

    `expansions: [crossroads, caves]` and `[caves, crossroads]` are one ruleset and play the same games, so
    they are one tournament; `rules` as a {flag: bool} mapping becomes the list of flags that are on, and an
    empty `expansions` or `rules` is left out (the base game). Values that are not a valid ruleset are kept
    as given (Game.new refuses them first).
    """
    from kbenv import catalogue as CAT

    if not isinstance(setup, dict):
        return setup
    out = {k: v for k, v in setup.items() if k not in ("expansions", "rules")}
    try:
        bits = CAT.parse_expansions(setup.get("expansions"))
        rule_bits = CAT.parse_rules(setup.get("rules"), bits)
    except (TypeError, ValueError):
        return setup
    if bits:
        out["expansions"] = list(CAT.expansion_names(bits))
    if rule_bits:
        out["rules"] = list(CAT.rule_names(rule_bits))
    return out


def check_rulesets(agents: list[str], setup: dict, tasks: list[GameTask]) -> dict[str, str]:
    """ModelRulesetError for an agent asked to play outside its training; {spec: note} of those that
    may (outside_training=1). Every game of a tournament has the ruleset of its first."""
    from kbenv import Game

    game = Game.new(tasks[0].num_players, seed=tasks[0].seed, **setup)
    made = [_cached_agent(spec) if parse_spec(spec)[0] == "ppo" else make_agent(spec) for spec in agents]
    for spec, agent in zip(agents, made, strict=True):
        agent.spec = spec
    return check_agents(made, Ruleset.of_game(game))


def _model_hashes(agents: list[str]) -> dict[str, str]:
    """sha256 of each ppo agent's model file: the same spec with another model is another tournament."""
    hashes = {}
    for spec in agents:
        kind, params = parse_spec(spec)
        if kind == "ppo" and os.path.isfile(str(params.get("path", ""))):
            digest = hashlib.sha256()
            with open(str(params["path"]), "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    digest.update(block)
            hashes[spec] = digest.hexdigest()
    return hashes


def tournament_identity(agents: list[str], player_counts: list[int], games: int, seed: int, setup: dict,
                        field: bool) -> dict:
    """The settings that fix the schedule and its games (not workers or backend), as JSON values."""
    return {"agents": list(agents), "players": list(player_counts), "games": games, "seed": seed,
            "setup": setup, "field": bool(field), "models": _model_hashes(agents)}


def _show(name: str, value) -> str:
    if name in ("agents", "players"):
        return (" " if name == "agents" else ",").join(map(str, value or []))
    if name == "setup":
        return json.dumps(value, sort_keys=True)
    if name == "field":
        return "on" if value else "off"
    return str(value)


def _difference(name: str, stored, wanted) -> str:
    """'seed 0, not 1': the stored setting, then the one asked for."""
    if name == "models":
        stored, wanted = stored or {}, wanted or {}
        spec = next((s for s in sorted(set(stored) | set(wanted)) if stored.get(s) != wanted.get(s)), "")
        return f"model {spec} of sha256 {str(stored.get(spec))[:16]}, not {str(wanted.get(spec))[:16]}"
    return f"{name} {_show(name, stored)}, not {_show(name, wanted)}"


def claim_out_dir(out_dir: str, identity: dict) -> None:
    """Write `tournament.json` in a new folder, or check that the stored tournament is this one.

    A folder with `games.csv` or `records.jsonl` but no `tournament.json` (written by kbenv before
    tournaments stored their settings) is refused: nothing in it shows which settings its games were
    played under, so resuming could silently mix two tournaments.
    """
    path = os.path.join(out_dir, CONFIG)
    if not os.path.exists(path):
        for name in (GAMES_CSV, RECORDS):
            if os.path.exists(os.path.join(out_dir, name)):
                raise ValueError(f"out folder {out_dir} holds {name} but no {CONFIG} (an older format), so its "
                                 "settings cannot be checked: use another --out, or delete the folder to start over")
        _write_atomic(path, json.dumps({"version": CONFIG_VERSION, **identity}, indent=2) + "\n")
        return
    try:
        stored = read_json(path)  # kbenv.safe_json: bounded size and depth, no key twice
    except (OSError, ValueError) as err:
        raise ValueError(f"out folder {out_dir}: {CONFIG} is unreadable ({err}): use another --out") from None
    if not isinstance(stored, dict) or stored.get("version") != CONFIG_VERSION:
        raise ValueError(f"out folder {out_dir}: {CONFIG} is not a version {CONFIG_VERSION} tournament file: "
                         "use another --out")
    stored = {**stored, "setup": canonical_setup(stored.get("setup"))}  # files written before rulesets were sets
    for name in IDENTITY_FIELDS:
        if stored.get(name) != identity[name]:
            raise ValueError(f"out folder {out_dir} holds a tournament with "
                             f"{_difference(name, stored.get(name), identity[name])}: "
                             "use another --out or the same settings")


@contextlib.contextmanager
def _locked(out_dir: str) -> Iterator[None]:
    """Create the folder and hold `tournament.lock` (an advisory lock): two runs never write one folder.

    The lock file names the process that holds it and is removed when the run ends, however it ends
    (done, an error, Ctrl-C or SIGTERM). A file left by a killed process does not block: the kernel drops
    a dead process's lock, so the next run takes the file over.
    """
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as err:
        raise ValueError(f"out folder {out_dir}: cannot write there ({err.strerror or err})") from None
    path = os.path.join(out_dir, LOCK)
    lock = _acquire_lock(path, out_dir)
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)  # while the lock is held: a run waiting on this file then sees it gone and retries
        lock.close()


def _acquire_lock(path: str, out_dir: str):
    """The open lock file, locked by this process; ValueError if a live run holds it."""
    while True:
        try:
            lock = open(path, "a+", encoding="utf-8")
        except OSError as err:
            raise ValueError(f"out folder {out_dir}: cannot write there ({err.strerror or err})") from None
        try:
            locked = _lock_or_refuse(lock, out_dir)
        except BaseException:
            lock.close()
            raise
        if locked and not _same_file(lock, path):  # the holder removed the file as we waited: lock the new one
            lock.close()
            continue
        lock.seek(0)
        lock.truncate()
        lock.write(f"{os.getpid()}\n")
        lock.flush()
        return lock


def _same_file(lock, path: str) -> bool:
    try:
        return os.path.samestat(os.fstat(lock.fileno()), os.stat(path))
    except OSError:
        return False


def _lock_or_refuse(lock, out_dir: str) -> bool:
    """Lock the file; ValueError naming the holder if another run has it. False where there are no locks."""
    try:
        import fcntl
    except ImportError:  # no advisory locks on this platform
        return False
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.seek(0)
        holder = lock.read().strip()
        who = f" (process {holder})" if holder.isdigit() else ""
        raise ValueError(f"out folder {out_dir} is in use by another tournament{who}: use another --out") from None
    except OSError:  # a file system without locks: go on unlocked
        return False
    return True


# ----- games.csv and records.jsonl ------------------------------------------------------------


@lru_cache(maxsize=32)
def _cached_agent(spec: str):
    return make_agent(spec)


def run_task(task: GameTask, setup: dict) -> dict:
    """Play one scheduled game (in a worker): fresh agents seeded from the game, PPO models cached."""
    agents = []
    for i, spec in enumerate(task.seats):
        kind, _ = parse_spec(spec)
        agent = _cached_agent(spec) if kind == "ppo" else make_agent(spec, seed=task.seed * 31 + i)
        agents.append(agent)
    result = play_game(task.game_id, task.seed, list(task.seats), agents, **setup)
    return asdict(result)


def _result_row(r: dict) -> dict:
    row = {"game_id": r["game_id"], "num_players": r["num_players"], "seed": r["seed"], "decisions": r["decisions"],
           "winners": " ".join(str(w) for w in r["winners"])}
    for i in range(5):
        row[f"seat{i}"] = r["seats"][i] if i < r["num_players"] else ""
        row[f"gold{i}"] = r["gold"][i] if i < r["num_players"] else ""
        row[f"place{i}"] = r["places"][i] if i < r["num_players"] else ""
        row[f"sec_per_decision{i}"] = round(r["seconds_per_decision"][i], 6) if i < r["num_players"] else ""
    return row


def _row_result(row: dict) -> dict:
    n = int(row["num_players"])
    return {
        "game_id": int(row["game_id"]), "num_players": n, "seed": int(row["seed"]),
        "seats": [row[f"seat{i}"] for i in range(n)], "gold": [int(row[f"gold{i}"]) for i in range(n)],
        "places": [float(row[f"place{i}"]) for i in range(n)],
        "winners": [int(w) for w in row["winners"].split()], "decisions": int(row["decisions"]),
        "seconds_per_decision": [float(row[f"sec_per_decision{i}"]) for i in range(n)],
    }


CSV_FIELDS = list(_result_row({"game_id": 0, "num_players": 0, "seed": 0, "decisions": 0, "winners": [],
                               "seats": [], "gold": [], "places": [], "seconds_per_decision": []}))


def _csv_line(values: list) -> str:
    buffer = io.StringIO()
    csv.writer(buffer).writerow(values)
    return buffer.getvalue()


CSV_HEADER = _csv_line(CSV_FIELDS)


def _complete_lines(path: str) -> list[str]:
    """The file's lines that end in a newline, without it (a last line cut short by a kill is left out)."""
    if not os.path.exists(path):
        return []
    with open(path, "rb") as f:
        pieces = f.read().split(b"\n")[:-1]
    lines = []
    for piece in pieces:
        try:
            lines.append(piece.decode("utf-8"))
        except UnicodeDecodeError:
            continue
    return lines


def _parse_csv_line(line: str) -> dict | None:
    """The result in one games.csv data line, or None for the header or a damaged line."""
    try:
        values = next(csv.reader([line]))
        if len(values) != len(CSV_FIELDS) or values == CSV_FIELDS:
            return None
        result = _row_result(dict(zip(CSV_FIELDS, values, strict=True)))
    except (csv.Error, ValueError, KeyError, IndexError, StopIteration):
        return None
    n = result["num_players"]
    if not 2 <= n <= 5 or len(result["winners"]) == 0 or any(not 0 <= w < n for w in result["winners"]):
        return None
    return result


def _parse_record_line(line: str) -> tuple[int, int | None] | None:
    """(game id, set-up seed) of one records.jsonl line, or None for a damaged line."""
    try:
        entry = loads(line)  # kbenv.safe_json: a deeply nested line is damaged, not a crash
    except ValueError:
        return None
    if not isinstance(entry, dict) or not _is_int(entry.get("game_id")) or not isinstance(entry.get("record"), dict):
        return None
    setup = entry["record"].get("setup")
    return entry["game_id"], setup.get("seed") if isinstance(setup, dict) else None


def load_results(out_dir: str) -> list[dict]:
    """The results in games.csv, in file order (complete, readable lines only)."""
    results = (_parse_csv_line(line) for line in _complete_lines(os.path.join(out_dir, GAMES_CSV)))
    return [r for r in results if r is not None]


def _write_atomic(path: str, text: str) -> None:
    tmp = f"{path}.tmp"
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def reconcile(out_dir: str, tasks: list[GameTask]) -> dict[int, dict]:
    """Make games.csv and records.jsonl hold the same games, each once, in game id order; their results.

    A game counts as played only when both files hold a complete, readable line for it that matches the
    schedule (its seed and seats); partial last lines (a killed run), duplicates and games found in only
    one of the files are dropped, so those games are played again.
    """
    by_id = {t.game_id: t for t in tasks}
    rows: dict[int, tuple[str, dict]] = {}
    for line in _complete_lines(os.path.join(out_dir, GAMES_CSV)):
        r = _parse_csv_line(line)
        t = by_id.get(r["game_id"]) if r else None
        if t and r["seed"] == t.seed and tuple(r["seats"]) == t.seats and t.game_id not in rows:
            rows[t.game_id] = (line, r)
    records: dict[int, str] = {}
    for line in _complete_lines(os.path.join(out_dir, RECORDS)):
        game_id, seed = _parse_record_line(line) or (None, None)
        if game_id in by_id and seed == by_id[game_id].seed and game_id not in records:
            records[game_id] = line
    done = sorted(rows.keys() & records.keys())
    _rewrite_if_changed(os.path.join(out_dir, GAMES_CSV), CSV_HEADER + "".join(rows[i][0] + "\n" for i in done))
    _rewrite_if_changed(os.path.join(out_dir, RECORDS), "".join(records[i] + "\n" for i in done))
    return {i: rows[i][1] for i in done}


def _rewrite_if_changed(path: str, text: str) -> None:
    if os.path.exists(path):
        with open(path, "rb") as f:
            if f.read() == text.encode("utf-8"):
                return
    _write_atomic(path, text)


# ----- running games, with clean interrupts ---------------------------------------------------


def _worker_init() -> None:
    """Pool workers leave Ctrl-C to the parent (which terminates them) and die on SIGTERM. They run their
    numerical libraries on one thread: the workers share the cores (a network agent's batch-1 forward passes
    on torch's default threads ran 2x slower with 2 workers on 2 cores)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.environ["OMP_NUM_THREADS"] = "1"
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(1)


@contextlib.contextmanager
def _signals_ignored() -> Iterator[None]:
    """Hold off Ctrl-C and SIGTERM (main thread only) while workers are being stopped."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.signal(s, signal.SIG_IGN) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler if handler is not None else signal.SIG_DFL)


def _raise_interrupt(signum, frame) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


@contextlib.contextmanager
def _sigterm_interrupts() -> Iterator[None]:
    """While the tournament runs (main thread only), SIGTERM raises KeyboardInterrupt like Ctrl-C."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)


def _stop_pool(pool) -> None:
    """Cancel pending games and terminate the worker processes now (not after the queued games)."""
    with _signals_ignored():
        processes = list((getattr(pool, "_processes", None) or {}).values())
        manager = getattr(pool, "_executor_manager_thread", None)
        pool.shutdown(wait=False, cancel_futures=True)
        for p in processes:
            p.terminate()
        for p in processes:
            p.join(timeout=5)
            if p.is_alive():
                p.kill()
                p.join(timeout=5)
        if manager is not None:
            manager.join(timeout=5)


def _execute_pool(tasks: list[GameTask], setup: dict, workers: int, start_method: str | None = None) -> Iterator[dict]:
    """Games on a local process pool: forked workers (the platform's default), or with `start_method`
    'spawn' fresh interpreters (for callers whose threads, e.g. torch's or numba's OpenMP pools, a fork
    would copy in a locked state)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    context = multiprocessing.get_context(start_method) if start_method else None
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker_init, mp_context=context)
    finished = False
    try:
        futures = [pool.submit(run_task, t, setup) for t in tasks]
        for fut in as_completed(futures):
            yield fut.result()
        finished = True
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:  # an interrupt, a failed game or the consumer stopped: no queued game may run on
            _stop_pool(pool)


def _execute_ray(tasks: list[GameTask], setup: dict, workers: int) -> Iterator[dict]:
    import ray

    if not ray.is_initialized():
        ray.init(num_cpus=max(1, workers), include_dashboard=False, log_to_driver=False)
    remote = ray.remote(run_task)
    pending = [remote.remote(t, setup) for t in tasks]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
    finally:
        with _signals_ignored():
            for ref in pending:
                with contextlib.suppress(Exception):
                    ray.cancel(ref, force=True)


def _execute(tasks: list[GameTask], setup: dict, workers: int, backend: str) -> Iterator[dict]:
    if backend == "ray":
        return _execute_ray(tasks, setup, workers)
    if workers <= 1 or len(tasks) <= 1:
        return (run_task(t, setup) for t in tasks)
    return _execute_pool(tasks, setup, workers, "spawn" if backend == "spawn" else None)


def _play(todo: list[GameTask], setup: dict, workers: int, backend: str, out_dir: str,
          on_result: Callable[[dict], None] | None, bar) -> None:
    """Play the games still to do, appending one complete line per game to both files as each finishes."""
    results = _execute(todo, setup, workers, backend)
    with open(os.path.join(out_dir, GAMES_CSV), "a", encoding="utf-8", newline="") as fcsv, \
            open(os.path.join(out_dir, RECORDS), "a", encoding="utf-8", newline="") as frec:
        writer = csv.DictWriter(fcsv, fieldnames=CSV_FIELDS)
        try:
            for result in results:
                frec.write(json.dumps({"game_id": result["game_id"], "record": result["record"]}) + "\n")
                writer.writerow(_result_row(result))
                frec.flush()
                fcsv.flush()
                if bar:
                    bar.update(1)
                if on_result:
                    on_result(result)
        finally:
            close = getattr(results, "close", None)
            if close:
                close()


def run_tournament(
    agents: list[str],
    player_counts: list[int],
    games: int,
    seed: int = 0,
    out_dir: str = "results",
    workers: int = 1,
    backend: str = "process",
    setup: dict | None = None,
    progress: bool = True,
    on_result: Callable[[dict], None] | None = None,
    field: bool = False,
) -> dict:
    """Run (or resume) a tournament and write its files; returns the summary.

    `field=True` seats the first agent alone against the others (see `tables_for`). A folder that holds
    another tournament (other agents, player counts, games, seed, setup, field or ppo model files) is
    refused with a ValueError naming the setting; `workers` and `backend` may change between runs.
    Ctrl-C or SIGTERM stops the workers and leaves complete lines only, then raises KeyboardInterrupt.
    """
    check_arguments(agents, player_counts, games, seed, workers, backend)
    setup = setup or {}
    tasks = schedule(list(agents), list(player_counts), games, seed, field)
    identity = tournament_identity(agents, player_counts, games, seed, check_setup(setup, tasks), field)
    outside = check_rulesets(list(agents), setup, tasks)
    for note in outside.values():
        warnings.warn(note, OutsideTrainingWarning, stacklevel=2)
    with _locked(out_dir), _sigterm_interrupts():
        claim_out_dir(out_dir, identity)
        done = reconcile(out_dir, tasks)
        todo = [t for t in tasks if t.game_id not in done]
        bar = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=len(tasks), initial=len(tasks) - len(todo), desc="tournament", unit="game")
        try:
            with warnings.catch_warnings():  # said once above, not again for every game
                warnings.simplefilter("ignore", OutsideTrainingWarning)
                _play(todo, setup, workers, backend, out_dir, on_result, bar)
        finally:
            if bar:
                bar.close()
        results = reconcile(out_dir, tasks)
        if len(results) != len(tasks):
            raise RuntimeError(f"tournament: {len(tasks) - len(results)} scheduled games have no result")
        summary = summarize([results[t.game_id] for t in tasks], list(agents), list(player_counts))
        summary["config"] = {"agents": list(agents), "players": list(player_counts), "games": games, "seed": seed,
                             "workers": workers, "backend": backend, "setup": identity["setup"], "field": field,
                             "outside_training": outside}
        _write_atomic(os.path.join(out_dir, SUMMARY), json.dumps(summary, indent=2))
        write_tables(summary, out_dir)
        plot_summary(summary, out_dir)
    return summary


def summarize(results: list[dict], agents: list[str], player_counts: list[int]) -> dict:
    summary = {"games": len(results), "overall": {"ratings": rate(results, agents)}, "by_players": {}}
    for n in player_counts:
        games_n = [r for r in results if r["num_players"] == n]
        summary["by_players"][str(n)] = {
            "games": len(games_n),
            "ratings": rate(games_n, agents),
            "seats": seat_stats(games_n, agents),
            "head_to_head": head_to_head(games_n, agents),
        }
    return summary


def write_tables(summary: dict, out_dir: str) -> None:
    """ratings.csv: one row per player count and agent (written whole or not at all)."""
    f = io.StringIO()
    w = csv.writer(f)
    w.writerow(["players", "agent", "mu", "sigma", "ordinal", "seats", "win_share", "ci95_low", "ci95_high",
                "fair_share", "mean_gold"])
    for n, block in summary["by_players"].items():
        for agent, r in block["ratings"].items():
            s = block["seats"].get(agent, {})
            ci = s.get("win_share_ci95", ["", ""])
            w.writerow([n, agent, round(r["mu"], 3), round(r["sigma"], 3), round(r["ordinal"], 3),
                        s.get("seats", 0), s.get("win_share", ""), ci[0], ci[1], s.get("fair_share", ""),
                        s.get("mean_gold", "")])
    _write_atomic(os.path.join(out_dir, "ratings.csv"), f.getvalue())


def table_text(summary: dict) -> str:
    lines = []
    for n, block in summary["by_players"].items():
        lines.append(f"{n} players, {block['games']} games")
        lines.append(f"  {'agent':<34}{'rating':>9}{'+-':>7}{'win share':>11}{'95% CI':>16}{'fair':>7}{'gold':>7}")
        order = sorted(block["ratings"], key=lambda a: -block["ratings"][a]["ordinal"])
        for a in order:
            r, s = block["ratings"][a], block["seats"].get(a, {})
            if not s.get("seats"):
                continue
            ci = s["win_share_ci95"]
            lines.append(f"  {a:<34}{r['mu']:>9.2f}{2 * r['sigma']:>7.2f}{s['win_share']:>11.3f}"
                         f"{f'[{ci[0]:.3f}, {ci[1]:.3f}]':>16}{s['fair_share']:>7.3f}{s['mean_gold']:>7.1f}")
    for note in (summary.get("config", {}).get("outside_training") or {}).values():
        lines.append(f"outside its training: {note}")
    return "\n".join(lines)


def plot_summary(summary: dict, out_dir: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    blocks = summary["by_players"]
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    width = 0.8 / max(1, len(blocks))
    agents = list(summary["overall"]["ratings"])
    for k, (n, block) in enumerate(blocks.items()):
        xs = [i + k * width for i in range(len(agents))]
        mus = [block["ratings"][a]["mu"] for a in agents]
        errs = [2 * block["ratings"][a]["sigma"] for a in agents]
        axes[0].bar(xs, mus, width, yerr=errs, capsize=3, label=f"{n} players")
        stats = [block["seats"].get(a, {}) for a in agents]
        shares = [s.get("win_share", 0.0) for s in stats]
        cis = [s.get("win_share_ci95", [v, v]) for s, v in zip(stats, shares, strict=True)]
        lows = [v - ci[0] for v, ci in zip(shares, cis, strict=True)]
        highs = [ci[1] - v for v, ci in zip(shares, cis, strict=True)]
        axes[1].bar(xs, shares, width, yerr=[lows, highs], capsize=3, label=f"{n} players")
        axes[1].axhline(1 / int(n), linestyle="--", color=f"C{k}", linewidth=1)
    titles = ("openskill rating (mu, bars = 2 sigma)", "win share (95% CI; dashed = fair)")
    for ax, title in zip(axes, titles, strict=True):
        ax.set_xticks([i + width * (len(blocks) - 1) / 2 for i in range(len(agents))])
        ax.set_xticklabels(agents, rotation=15, fontsize=8)
        ax.set_title(title)
        ax.legend(fontsize=8)
    fig.tight_layout()
    path = os.path.join(out_dir, "ratings.png")
    fig.savefig(f"{path}.tmp", dpi=110, format="png")
    plt.close(fig)
    os.replace(f"{path}.tmp", path)


def task_seats(tasks: list[GameTask]) -> dict[tuple[str, int], int]:
    """How often each agent sits in each seat (for checks of the rotation)."""
    counts: dict[tuple[str, int], int] = {}
    for t in tasks:
        for seat, spec in enumerate(t.seats):
            counts[spec, seat] = counts.get((spec, seat), 0) + 1
    return counts
