"""The `kbenv` command line: play, score, legal, tournament, train, bench, sections and serve (each command's help ends
with example command lines, which tests/test_readme.py parses).

Exit codes: 0 success (also `kbenv play` ended by a human's end of input or `quit`, with a message);
2 a user error (bad option, agent spec, file or setting: one line `kbenv <command>: error: ...` on
stderr, or argparse's usage and error for a bad option value; a named error such as a model asked to
play outside its training shows its name, `error: ModelRulesetError: ...`); warnings are one line
`kbenv <command>: warning: ...`; 130 interrupted by Ctrl-C (one line `kbenv <command>: interrupted`);
141 (128 + SIGPIPE, as a shell reports a program killed by a closed pipe) when stdout is closed early,
e.g. `kbenv play | head`, with nothing printed on stderr. Internal errors (bugs) still show a traceback.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np

from . import catalogue as CAT
from ._version import __version__
from .board.colours import SEAT_COLOUR_NAMES, seat_name
from .board.island_files import SUBSTITUTE_SIDES
from .game import Game
from .positions.files import game_from_position, legal_position, load_position, record_position
from .present.image import board_image, save_gif, save_png
from .present.text import board_text, legend, score_notes, score_text
from .ruleset import Ruleset
from .safe_json import short_repr, short_text
from .setup import SetupError

MAX_SEED = 2**63 - 1
EXIT_USER_ERROR = 2
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141


# ----- argparse value types (ArgumentTypeError: argparse prints usage and the option's name) -----------
def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {short_repr(text)}") from None


def player_count(text: str) -> int:
    """A player count 2..5."""
    n = _integer(text)
    if not 2 <= n <= 5:
        raise argparse.ArgumentTypeError(f"expected a player count from 2 to 5, got {n}")
    return n


def player_counts(text: str) -> list[int]:
    """Comma-separated player counts 2..5, each once: '2,3,4' -> [2, 3, 4]."""
    parts = text.split(",")
    if any(not p.strip() for p in parts):
        raise argparse.ArgumentTypeError(f"expected comma-separated player counts such as 2,3,4, got "
                                         f"{short_repr(text)}")
    counts = [player_count(p.strip()) for p in parts]
    if len(set(counts)) != len(counts):
        raise argparse.ArgumentTypeError(f"expected each player count once, got {short_repr(text)}")
    return counts


def seed(text: str) -> int:
    """A game seed 0 .. 2**63-1."""
    value = _integer(text)
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"expected a seed from 0 to 2**63-1, got {value}")
    return value


def positive_int(text: str) -> int:
    """An integer >= 1."""
    value = _integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


def actor_count(text: str) -> int | str:
    """`auto` or an integer >= 0 (kbenv train --actors)."""
    if text == "auto":
        return text
    value = _integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected auto or an integer >= 0, got {value}")
    return value


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {short_repr(text)}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {short_repr(text)}")
    return value


def positive_number(text: str) -> float:
    """A finite number > 0."""
    value = _number(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a number > 0, got {text}")
    return value


def non_negative_number(text: str) -> float:
    """A finite number >= 0."""
    value = _number(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {text}")
    return value


def batch_sizes(text: str) -> tuple[int, ...]:
    """Comma-separated positive batch sizes: '1,16,256' -> (1, 16, 256)."""
    parts = text.split(",")
    if any(not p.strip() for p in parts):
        raise argparse.ArgumentTypeError(f"expected comma-separated batch sizes such as 1,16,256, got "
                                         f"{short_repr(text)}")
    return tuple(positive_int(p.strip()) for p in parts)


def _names(text: str, what: str, example: str) -> list[str]:
    """Comma-separated names, each once: 'a, b' -> ['a', 'b']."""
    parts = [p.strip() for p in text.split(",")]
    if any(not p for p in parts):
        raise argparse.ArgumentTypeError(f"expected comma-separated {what} such as {example}, got {short_repr(text)}")
    if len(set(parts)) != len(parts):
        raise argparse.ArgumentTypeError(f"expected each {what[:-1]} once, got {short_repr(text)}")
    return parts


IMPLEMENTED_EXPANSIONS = tuple(e.name for e in CAT.EXPANSIONS if e.implemented)
RULE_FLAG_NAMES = tuple(f.name for f in CAT.RULE_FLAGS)


def expansion_list(text: str) -> list[str]:
    """Comma-separated expansions in play, each one a ruleset may name now (implemented, or under construction
    and opted into with KBENV_EXPERIMENTAL): 'nomads,caves' -> ['nomads', 'caves']."""
    names = _names(text, "expansions", "nomads,capitol,caves")
    playable = CAT.playable_expansions()
    for name in names:
        if name not in playable:
            known = {e.name for e in CAT.EXPANSIONS}
            why = CAT.expansion_refusal(name) if name in known else f"{short_repr(name)} is not an expansion"
            raise argparse.ArgumentTypeError(f"expected expansions from {', '.join(playable)}; {why}")
    return names


def rule_list(text: str) -> list[str]:
    """Comma-separated rule flags to switch on (kbenv.catalogue.RULE_FLAGS): 'lords_count_zero' -> [...]."""
    names = _names(text, "rule flags", "lords_count_zero,capitol_replaces_castle")
    for name in names:
        if name not in RULE_FLAG_NAMES:
            raise argparse.ArgumentTypeError(f"expected rule flags from {', '.join(RULE_FLAG_NAMES)}; "
                                              f"{short_repr(name)} is not one")
    return names


def ruleset_of_args(args: argparse.Namespace) -> Ruleset:
    """The `Ruleset` of --expansions and --rules; ValueError for a rule flag whose expansion is not in play."""
    expansions, rules = args.expansions or [], args.rules or []
    for name in rules:
        flag = next(f for f in CAT.RULE_FLAGS if f.name == name)
        if flag.expansion is not None and flag.expansion not in expansions:
            raise ValueError(f"--rules: {name} needs the {flag.expansion} expansion (--expansions {flag.expansion})")
    return Ruleset(expansions, rules)


def island_side_of(args: argparse.Namespace) -> dict:
    """`Game.new`'s island_side for --island-side ({} without it): a shipped side's name or the path of a side file
    (kbenv.expansions.island.setup); ValueError starting with --island-side without the island expansion or for a bad
    side."""
    name = getattr(args, "island_side", None)
    if name is None:
        return {}
    if "island" not in (args.expansions or []):
        raise ValueError("--island-side: needs the island expansion (--expansions island)")
    from .expansions.island.setup import IslandSetupError, side_option

    try:
        side_option(name, CAT.ISLAND)
    except IslandSetupError as err:
        raise ValueError(f"--island-side: {str(err).removeprefix('island_side: ')}") from None
    return {"island_side": name}


def ruleset_options(args: argparse.Namespace) -> dict:
    """`Game.new` options for --expansions and --rules, as names in catalogue order (none for the base game)."""
    return {key: names for key, names in ruleset_of_args(args).options().items() if names}


# ----- commands ---------------------------------------------------------------------------------------
def cmd_play(args: argparse.Namespace) -> int:
    specs = seat_specs(args.agents, args.players)
    ruleset = ruleset_of_args(args)
    island = island_side_of(args)
    for path in (args.record, args.png, args.gif):
        _check_writable(path)
    game = Game.new(args.players, seed=args.seed, preset=args.preset, ruleset=ruleset, **island)
    agents = _seat_agents(specs, args.seed) if args.agents else None
    notes = _check_rulesets(agents, game) if agents else {}
    _set_hints(agents or [], args.hint, game)
    colour = args.colour or (not args.no_colour and sys.stdout.isatty())
    human = "human" in specs
    if human:  # a person needs the set-up before the first decision
        _print_setup(game, args.seed, specs, colour, notes)
    left: tuple = ()
    if human:
        from kbenv.agents.human import EndOfInput

        left = (EndOfInput,)  # the person left: end of input or `quit`
    try:
        frames = _play_out(game, agents, np.random.default_rng(args.seed), record_frames=bool(args.gif))
    except left as err:
        print(f"\n{'end of input' if str(err) == 'end of input' else 'you left'}: the game stopped unfinished "
              f"after {len(game.actions)} decision{'' if len(game.actions) == 1 else 's'} (no winner)")
        return 0
    if args.gif:
        save_gif(frames, args.gif)
    if args.png:
        save_png(board_image(game), args.png)
    _print_game(game, args.seed, specs, colour=colour, notes=notes, legend_shown=human)
    if args.record:
        with open(args.record, "w", encoding="utf-8") as f:
            json.dump(game.to_record(), f)
        print(f"record written to {args.record}")
    for path in (args.png, args.gif):
        if path:
            print(f"picture written to {path}")
    return 0


def _config_with_overrides(model, args: argparse.Namespace, steps_field: str):
    """The config file, with --timesteps (as `steps_field`), --out and --max-minutes applied and checked."""
    config = model.load(args.config)
    overrides = {}
    if args.timesteps:
        overrides[steps_field] = args.timesteps
    if args.out:
        overrides["out_dir"] = args.out
    if args.max_minutes is not None:
        overrides["max_minutes"] = args.max_minutes
    if overrides:
        config = model.from_dict({**config.to_dict(), **overrides}, source=args.config)
    return config


def _train_alphazero(args: argparse.Namespace) -> int:
    from kbenv.agents.training.alphazero import train_alphazero
    from kbenv.agents.training.az_config import AlphaZeroConfig

    config = _config_with_overrides(AlphaZeroConfig, args, "iterations")
    ray = {k: v for k, v in (("actors", args.actors), ("ray_address", args.address)) if v is not None}
    if ray:
        config = AlphaZeroConfig.from_dict({**config.to_dict(), **ray}, source=args.config)
    card = train_alphazero(config, resume=args.resume, progress=not args.quiet)
    print(f"trained {card['name']}: {card['rounds']} rounds, {card['self_play_positions']:,} self-play positions "
          f"in {card['wall_seconds']} s ({card['positions_per_second']} positions/s, "
          f"{card['evaluations_per_second']} network evaluations/s in self-play) -> "
          f"{Path(config.out_dir) / config.name / 'model.pt'}")
    if card.get("actors"):
        print(f"  self-play by Ray actors: {card['actors']} (inference: {card['inference']})")
    for r in card["evaluation"]:
        print(f"  {r['agent']} vs {r['opponent']}: win share {r['win_share']:.3f} "
              f"[{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}] over {r['games']} games")
    return 0


def seat_specs(specs: list[str] | None, players: int) -> list[str]:
    """One agent spec per seat: the last spec fills the remaining seats; more specs than seats is an error."""
    if not specs:
        return ["random"] * players
    if len(specs) > players:
        raise ValueError(f"--agents: {len(specs)} agent specs for {players} players; give at most one spec per seat")
    return list(specs) + [specs[-1]] * (players - len(specs))


def _check_writable(path: str | None) -> None:
    """Refuse an output path in a folder that does not exist, or that is itself a folder, before playing."""
    if not path:
        return
    if os.path.isdir(path):
        raise IsADirectoryError(f"{path}: is a folder, expected a file name")
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"{path}: the folder {folder} does not exist")


def _seat_agents(specs: list[str], game_seed: int) -> list:
    """Agents for the seats from their spec strings, seeded from the game seed."""
    from kbenv.agents import make_agent

    return [make_agent(spec, seed=game_seed * 31 + i) for i, spec in enumerate(specs)]


def _set_hints(agents: list, spec: str | None, game: Game) -> None:
    """--hint: the analyst of the human seats' `hint` command, checked before the game (ValueError naming --hint
    for a spec that names no analyst; ModelRulesetError for a model outside its training)."""
    humans = [a for a in agents if getattr(a, "name", None) == "human"]
    if spec is None or not humans:
        if spec is not None:
            raise ValueError("--hint: needs a human seat (--agents human ...)")
        return
    from kbenv.agents.analysis import make_analyst

    try:
        analyst = make_analyst(spec)
    except (ValueError, OSError) as err:
        raise ValueError(f"--hint: {err}") from None
    analyst.check(game)
    for agent in humans:
        agent.set_hint(analyst)


def _check_rulesets(agents: list, game: Game) -> dict[str, str]:
    """ModelRulesetError before the game for a trained agent outside its training; the notes of those that
    play outside it (outside_training=1), each also printed as a warning."""
    from kbenv.agents.rulesets import check_agents

    notes = check_agents(agents, Ruleset.of_game(game))
    for note in notes.values():
        print(f"kbenv play: warning: {note}", file=sys.stderr)
    return notes


def _play_out(game: Game, agents: list | None, rng: np.random.Generator, record_frames: bool) -> list:
    """Play the game to its end (agents, or uniformly random legal moves); frames after each turn if asked.

    The agent of the player who decides next acts, with the observation and mask of the game's ruleset;
    agents that listen (the human) hear every decision in words."""
    frames = []
    turn = game.turn
    if agents:
        from kbenv.agents.evaluation.play import agent_inputs, announce, listeners

        hearing = listeners(agents)
    while not game.done:
        if agents:
            p = game.decider
            action = agents[p].act(*agent_inputs(game, p))
            announce(hearing, game, p, action)
            game.step(action)
        else:
            game.step(int(rng.choice(game.legal_actions())))
        if record_frames and game.turn != turn:
            frames.append(board_image(game))
            turn = game.turn
    if record_frames:
        frames.append(board_image(game))
    return frames


def _print_header(game: Game, game_seed: int, specs: list[str], notes: dict[str, str]) -> None:
    """Sections, ruleset and who sits where (with a note for a model outside its training)."""
    sections = ", ".join(section_label(n, t) for n, t in game.setup.sections or [])
    print(f"Kingdom Builder, {game.num_players} players, seed {game_seed}: {sections}")
    if game.expansions or game.setup.rules:
        rules = ", ".join(game.setup.rules or ()) or "default"
        print(f"expansions: {', '.join(game.expansions) or 'none'}; rules: {rules}")
    if game.setup.island is not None:
        side = game.setup.island[0]
        note = " (a substitute side, not a printed one)" if side in SUBSTITUTE_SIDES else ""
        print(f"island side: {side}{note}")
    for p, spec in enumerate(specs):
        outside = " - outside its training" if spec in notes else ""
        print(f"{seat_name(p)}: {spec} ({SEAT_COLOUR_NAMES[p]}){outside}")


def _print_setup(game: Game, game_seed: int, specs: list[str], colour: bool, notes: dict[str, str]) -> None:
    """What a person needs before the first decision: header and seats, the Kingdom Builder cards and
    locations in play (each with one line), task cards, the start player, the board and its legend."""
    from .board.colours import NOMAD_TILE_LABELS
    from .expansions.island.view import hex_words
    from .present.words import LOCATION_TEXT, NOMAD_TILE_TEXT, SCORING_CARD_TEXT, locations_in_play, title

    _print_header(game, game_seed, specs, notes)
    print("Kingdom Builder cards in play:")
    for card in game.cards:
        print(f"  {title(card)}: {SCORING_CARD_TEXT[card]}")
    print("locations (take a tile by building next to one; a tile gives its extra action every turn):")
    for name, hexes in locations_in_play(game):
        where = ", ".join(hex_words(rc) for rc in hexes)  # the island's location: "island r,c"
        print(f"  {title(name)} at {where}: {LOCATION_TEXT[name]}")
    tiles = sorted((rc, kind) for rc, kind in game.nomad_spaces().items() if kind is not None)
    if tiles:
        print("nomad tiles (claimed by building next to their space, usable once in the next round):")
    for (r, c), kind in tiles:
        print(f"  {NOMAD_TILE_LABELS[kind]} at {r},{c}: {kind}, {NOMAD_TILE_TEXT[kind]}")
    for task in game.tasks() if "crossroads" in game.expansions else ():
        rule = next(t for t in CAT.TASK_CARDS if t.name == task)
        print(f"  task {title(task)}: {rule.gold} gold for {rule.rule}")
    print(f"start player: {seat_name(game.start_player)}")
    print(board_text(game, colour=colour))
    print(legend(game.num_players, game.expansions))


def _print_game(game: Game, game_seed: int, specs: list[str], colour: bool, notes: dict[str, str] | None = None,
                legend_shown: bool = False) -> None:
    """Header, seat-to-agent map, board, legend (unless shown before the game), score table and winners."""
    _print_header(game, game_seed, specs, notes or {})
    print(f"cards: {', '.join(game.cards)}; start player: {seat_name(game.start_player)}; "
          f"{len(game.actions)} decisions")
    print(board_text(game, colour=colour))
    if not legend_shown:
        print(legend(game.num_players, game.expansions))
    print(score_text(game.scores(), game.cards))
    for note in score_notes(game):
        print(note)
    print("winner(s): " + ", ".join(seat_name(p) for p in game.winners()))


def cmd_train(args: argparse.Namespace) -> int:
    from kbenv.agents.training.az_config import config_method
    from kbenv.agents.training.config import TrainConfig, read_yaml
    from kbenv.agents.training.training import train

    if config_method(read_yaml(args.config)) == "alphazero":
        return _train_alphazero(args)
    if args.actors is not None or args.address is not None:
        raise ValueError("--actors and --address: only for search self-play configs (method: alphazero)")
    config = _config_with_overrides(TrainConfig, args, "total_timesteps")
    card = train(config, resume=args.resume, progress=not args.quiet)
    print(f"trained {card['name']}: {card['timesteps']:,} steps in {card['wall_seconds']} s "
          f"({card['env_steps_per_second']} steps/s) -> {card['model']}")
    for r in card["evaluation"]:
        print(f"  vs {r['opponent']}: win share {r['win_share']:.3f} [{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}]")
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    position = load_position(args.file)
    game = game_from_position(position)
    scores = game.scores(expansion_columns=True)  # as score_position
    if args.json:
        print(json.dumps({"players": scores}))
    else:
        if not position.get("expansions"):  # a base-game position: its table keeps the base columns
            scores = [{k: v for k, v in s.items() if k not in ("capitols", "gold")} for s in scores]
        print(score_text(scores, tuple(scores[0]["cards"])))
        for note in score_notes(game):
            print(note)
    return 0


def cmd_legal(args: argparse.Namespace) -> int:
    position = load_position(args.file)
    legal = legal_position(position)
    if args.json:
        print(json.dumps(legal))
    else:
        print(legal_text(legal))
    return 0


def cmd_position(args: argparse.Namespace) -> int:
    if args.out is not None:
        _check_writable(args.out)
    position = record_position(load_position(args.record), args.at)
    text = json.dumps(position, indent=1 if args.out is None else None)
    if args.out is None:
        print(text)
    else:
        Path(args.out).write_text(text + "\n")
        print(f"wrote the position after {args.at if args.at is not None else 'every'} decision(s) to {args.out}")
    return 0


def legal_text(legal: dict, per_line: int = 12) -> str:
    """A readable table of `legal_position`'s answer: player, phase, then the hexes (as r,c), the island's hexes
    (as r,c on a row `island`), the powers (by name) and done / end_turn."""
    decisions = legal["legal"]
    hexes = [f"{d[0]},{d[1]}".ljust(5) for d in decisions if isinstance(d, list) and len(d) == 2]
    island = [f"{d[1]},{d[2]}".ljust(5) for d in decisions if isinstance(d, list) and len(d) == 3]  # ["island", r, c]
    named = ("build", "move", "done", "pass", "end_turn")  # decisions that are no power (a silo's build / move)
    powers = [d for d in decisions if isinstance(d, str) and d not in named]
    others = [d for d in decisions if d in named]
    rows = [("player", seat_name(legal["player"])), ("phase", legal["phase"]),
            ("legal", f"{len(decisions)} decision{'' if len(decisions) == 1 else 's'}")]
    for k in range(0, len(hexes), per_line):
        rows.append(("hexes" if k == 0 else "", " ".join(hexes[k:k + per_line])))
    for k in range(0, len(island), per_line):
        rows.append(("island" if k == 0 else "", " ".join(island[k:k + per_line])))
    if powers:
        rows.append(("powers", ", ".join(powers)))
    if others:
        rows.append(("other", ", ".join(others)))
    return "\n".join(f"{name:<8}{value}".rstrip() for name, value in rows)


def cmd_bench(args: argparse.Namespace) -> int:
    try:
        from kbenv.benchmarks.suite import run_suite, table
    except ImportError as err:
        raise ValueError(f"kbenv bench needs kbenv.benchmarks (benchmarks/ in a checkout): {err}") from None
    try:
        results = run_suite(seconds=args.seconds, players=args.players, out_dir=args.out,
                            batch_sizes=args.batch_sizes,
                            progress=lambda msg: print(f"[bench] {msg}", file=sys.stderr, flush=True))
    except ImportError as exc:
        raise ValueError(str(exc)) from None
    print(table(results))
    print("wrote " + " and ".join(output_paths(args.out, ("bench.json", "bench.png"))))
    return 0


TOURNAMENT_FILES = ("games.csv", "records.jsonl", "summary.json", "ratings.csv", "ratings.png")


def output_paths(folder: str, names: tuple[str, ...]) -> list[str]:
    """The paths of files written in `folder`, spelt as proper paths ('results/' -> 'results/games.csv')."""
    folder = os.path.normpath(folder)
    return [os.path.join(folder, name) for name in names]


def cmd_tournament(args: argparse.Namespace) -> int:
    from kbenv.agents.evaluation.tournament import run_tournament, table_text

    setup = {"preset": args.preset} if args.preset else {}
    setup.update(ruleset_options(args))
    setup.update(island_side_of(args))
    summary = run_tournament(args.agents, args.players, args.games, seed=args.seed, out_dir=args.out,
                             workers=args.workers, backend=args.backend, setup=setup, progress=not args.quiet,
                             field=args.field)
    print(table_text(summary))
    print("wrote " + ", ".join(output_paths(args.out, TOURNAMENT_FILES)))
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the web app (kbenv.serve) until Ctrl-C; needs the `serve` extra (starlette, uvicorn)."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401

        from .serve import serve
    except ImportError as err:
        raise ValueError(f"needs the serve extra: pip install \"kbenv[serve]\" (in a checkout: "
                         f"pip install -e \".[serve]\") ({err})") from None
    serve(args.host, args.port, args.records or ())
    return 0


def cmd_warmup(args: argparse.Namespace) -> int:
    """Compile kbenv's kernels ahead (kbenv.warmup); prints what it compiled, or the report as JSON."""
    from .warmup import warmup

    report = warmup(args.targets, progress=not args.quiet, workers=args.workers)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"kbenv warmup: {report['compiled']} compilations in {report['seconds']:.0f} s "
              f"({'all loaded from the cache' if report['compiled'] == 0 else 'now cached'} in {report['cache']})")
    return 0


def cmd_sections(args: argparse.Namespace) -> int:
    """The board sections: name, expansion, locations, former names and where the grid comes from.

    A section is named after one of its location types, spelt as that location (city_hall); a former name
    (cityhall) is still read in records and position files, and listed as `also`. The Marshlands sections are
    generated substitutes (no printed layout is reachable); a real section file in the folder named by
    KBENV_SECTIONS replaces its substitute, is listed after it and checked here (kbenv.board.user_sections)."""
    from .board.sections import load_section
    from .board.user_sections import REPLACES, user_section_paths
    from .catalogue import LOCATION_LETTERS_TO_NAMES, SECTION_ALIASES, SECTIONS

    def row(name, expansion, provenance, source, grid):
        locations = sorted({LOCATION_LETTERS_TO_NAMES[ch] for line in grid for ch in line if ch.islower()})
        aliases = sorted(old for old, new in SECTION_ALIASES.items() if new == name)
        return {"name": name, "expansion": expansion or "base", "locations": locations, "aliases": aliases,
                "verified": source == "kb-data", "substitute": source == "substitute", "source": source,
                "provenance": provenance}

    user = user_section_paths()
    rows = []
    for sec in SECTIONS:
        source = ("unverified" if sec.provenance.startswith("UNVERIFIED")
                  else "substitute" if sec.provenance.startswith("SUBSTITUTE") else "kb-data")
        rows.append(row(sec.name, sec.expansion, sec.provenance, source, load_section(sec.name)))
        if sec.stands_for in user:
            rows[-1]["replaced_by"] = sec.stands_for
            rows.append(row(sec.stands_for, sec.expansion, f"user file {user[sec.stands_for]} (checked); replaces "
                            f"{REPLACES[sec.stands_for]}", "user file", load_section(sec.stands_for)))
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    width = max(len(r["name"]) for r in rows) + 2
    marks = {"unverified": "  [UNVERIFIED]", "substitute": "  [SUBSTITUTE]", "user file": "  [USER FILE]"}
    print(f"{'section':<{width}}{'expansion':<11}{'locations':<28}")
    for r in rows:
        also = f"  (also read as {', '.join(r['aliases'])})" if r["aliases"] else ""
        replaced = f"  (replaced by {r['replaced_by']})" if r.get("replaced_by") else ""
        print(f"{r['name']:<{width}}{r['expansion']:<11}{', '.join(r['locations']):<28}{marks.get(r['source'], '')}"
              f"{also}{replaced}")
        print(f"{'':<{width + 11}}{r['provenance']}")
    return 0


def section_label(name: str, turned: bool) -> str:
    """A section as the play header shows it: turned, and unverified or substitute data said so."""
    from .catalogue import SECTIONS

    unverified = any(sec.name == name and sec.provenance.startswith("UNVERIFIED") for sec in SECTIONS)
    substitute = any(sec.name == name and sec.provenance.startswith("SUBSTITUTE") for sec in SECTIONS)
    return (f"{name}{' (turned)' if turned else ''}{' (unverified section data)' if unverified else ''}"
            f"{' (substitute section, not the printed one)' if substitute else ''}")


# ----- parser -----------------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    """The `kbenv` argument parser: one subcommand per command, every option with its help text."""
    parser = argparse.ArgumentParser(prog="kbenv", description="Kingdom Builder environment tools",
                                     epilog="exit codes: 0 ok (also a human's end of input), 2 user error, "
                                            "130 interrupted, 141 stdout closed")
    parser.add_argument("--version", action="version", version=f"kbenv {__version__}",
                        help="print the version of kbenv and exit")
    sub = parser.add_subparsers(dest="command", required=True, metavar="command",
                                help="play, score, legal, position, tournament, train, bench, sections, serve or "
                                     "warmup "
                                     "(kbenv <command> -h for its options)")
    for add in (_add_play, _add_score, _add_legal, _add_position, _add_train, _add_tournament, _add_bench,
                _add_sections, _add_serve, _add_warmup):
        add(sub)
    return parser


# Example command lines of each command, shown under its help (tests/test_readme.py parses every one).
EXAMPLES = {
    "play": ("kbenv play --players 2 --agents human trained:2p",
             "kbenv play --players 4 --seed 1 --agents aznet:path=runs/quick/model.pt greedy --png final.png",
             "kbenv play --players 3 --expansions nomads,capitol,caves --rules capitol_replaces_castle "
             "--agents greedy"),
    "score": ("kbenv score position.json --json",),
    "legal": ("kbenv legal position.json",),
    "position": ("kbenv position game.json --at 20 --out position.json",),
    "train": ("kbenv train --config configs/quick.yaml",
              "kbenv train --config configs/selfplay_2p.yaml --resume --max-minutes 30",
              "kbenv train --config configs/ppo_quick.yaml --timesteps 50000"),
    "tournament": ("kbenv tournament --agents random greedy lookahead --players 2,3 --games 100 --workers 2 "
                   "--out results/",
                   "kbenv tournament --agents aznet:path=runs/quick/model.pt greedy --players 4 --field "
                   "--out results/field/",
                   "kbenv tournament --agents random greedy --expansions crossroads,caves --games 20 "
                   "--out results/crossroads/"),
    "bench": ("kbenv bench --seconds 2 --batch-sizes 1,16,256,1024,4096",),
    "sections": ("kbenv sections --json",),
    "serve": ("kbenv serve", "kbenv serve --port 8080 --records results/ games/"),
    "warmup": ("kbenv warmup", "kbenv warmup --workers 2", "kbenv warmup --targets env,games --json"),
}


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's wrapping of descriptions and options; the examples epilog keeps its lines as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith("examples:"):
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


def _command(sub, name: str, help_text: str, func: Callable[[argparse.Namespace], int]) -> argparse.ArgumentParser:
    epilog = "examples:\n" + "\n".join(f"  {line}" for line in EXAMPLES[name])
    parser = sub.add_parser(name, help=help_text, description=help_text, epilog=epilog,
                            formatter_class=_HelpFormatter)
    parser.set_defaults(func=func)
    return parser


def _add_play(sub) -> None:
    play = _command(sub, "play", "play one full game (random agents unless --agents) and show the result", cmd_play)
    play.add_argument("--players", type=player_count, default=4, help="number of players, 2 to 5 (default 4)")
    play.add_argument("--seed", type=seed, default=0, help="game seed, 0 to 2**63-1 (default 0)")
    play.add_argument("--preset", choices=["first-game"], default=None,
                      help="a fixed set-up instead of a random one from the seed")
    _add_ruleset(play)
    play.add_argument("--record", help="write the game record (JSON) to this file")
    play.add_argument("--png", help="write a picture of the final board (PNG)")
    play.add_argument("--gif", help="write an animation, one frame per turn (GIF)")
    play.add_argument("--agents", nargs="+", metavar="SPEC",
                      help="agent spec per seat, player_0 first (default: random for every seat); with fewer "
                           "specs than players the last spec fills the remaining seats, more specs than players "
                           "is an error; e.g. --agents aznet:path=runs/quick/model.pt greedy (the network "
                           "`make demo` trains) or --agents human trained:2p. `human` is you at the "
                           "terminal: the set-up comes first, `help` lists the commands, end of input stops the "
                           "game (exit 0). A trained model plays only the rulesets its card states "
                           "(ModelRulesetError otherwise) unless its spec says outside_training=1")
    play.add_argument("--hint", metavar="SPEC",
                      help="the analyst of a human seat's `hint` command (agents.analysis): greedy, lookahead (the "
                           "default), network:NAME (a shipped model's network policy), trained:NAME (its search) or "
                           "an az: / aznet: spec; a model must fit the game's ruleset")
    colours = play.add_mutually_exclusive_group()
    colours.add_argument("--colour", action="store_true",
                         help="force ANSI colours (default: colours when stdout is a terminal)")
    colours.add_argument("--no-colour", action="store_true", help="plain text, no ANSI colours")


def _add_ruleset(parser: argparse.ArgumentParser, games: str = "the game") -> None:
    """--expansions and --rules: the ruleset of `Game.new` (kbenv.catalogue)."""
    parser.add_argument("--expansions", type=expansion_list, metavar="LIST",
                        help=f"comma-separated expansions in play for {games}, from "
                             f"{', '.join(IMPLEMENTED_EXPANSIONS)} (default: the base game)")
    parser.add_argument("--rules", type=rule_list, metavar="LIST",
                        help="comma-separated rule flags to switch on (alternative readings of the rulebook), "
                             f"from {', '.join(RULE_FLAG_NAMES)}; a flag of an expansion needs that expansion")
    parser.add_argument("--island-side", metavar="NAME|FILE",
                        help=f"with --expansions island: the island side of {games}, a shipped side "
                             f"({', '.join(SUBSTITUTE_SIDES)}: substitutes, no printed layout is known) or the path "
                             "of a side file (.txt, the board-section format; kbenv.board.island_files) (default: "
                             "a choice from the seed)")


def _add_score(sub) -> None:
    score = _command(sub, "score", "score a position file (JSON)", cmd_score)
    score.add_argument("file", help="position file: JSON with board or sections, cards and settlements")
    score.add_argument("--json", action="store_true", help="print the breakdown as JSON")


def _add_legal(sub) -> None:
    legal = _command(sub, "legal", "list the legal decisions of a position file (JSON)", cmd_legal)
    legal.add_argument("file", help="position file: JSON as for score, optionally with expansions and "
                                    "\"then\" (decisions to take first)")
    legal.add_argument("--json", action="store_true",
                       help='print {"player": p, "phase": ..., "legal": [[r, c], power names, "done", "end_turn"]}')


def _add_position(sub) -> None:
    position = _command(sub, "position", "write the whole state of a recorded game after N decisions as a position "
                        "file (JSON) that `kbenv legal` and `kbenv score` read back exactly", cmd_position)
    position.add_argument("record", help="game record (JSON), as written by kbenv play --record")
    position.add_argument("--at", type=_integer, default=None, metavar="N",
                          help="the number of the record's decisions to apply first, 0 to all (default: all)")
    position.add_argument("--out", default=None, metavar="FILE", help="write the position here (default: print it)")


def _add_train(sub) -> None:
    tr = _command(sub, "train", "train an agent by self-play from a YAML config: search-based self-play "
                  "(method: alphazero, e.g. configs/quick.yaml, writing runs/<name>/model.pt) or MaskablePPO "
                  "(method: ppo, e.g. configs/ppo_quick.yaml, writing runs/<name>/model.zip)", cmd_train)
    tr.add_argument("--config", required=True, help="training config (YAML), e.g. configs/quick.yaml")
    tr.add_argument("--resume", action="store_true", help="continue from the run folder's last checkpoint")
    tr.add_argument("--timesteps", type=positive_int,
                    help="override total_timesteps (PPO) or iterations (method: alphazero)")
    tr.add_argument("--out", help="override out_dir")
    tr.add_argument("--max-minutes", type=non_negative_number,
                    help="override max_minutes (stop learning after this wall time; 0 = no limit)")
    tr.add_argument("--actors", type=actor_count, help="override actors (method: alphazero): N Ray actors play, "
                    "this process learns; auto = the Ray cluster's CPUs - 1; 0 = one process (docs/training.md)")
    tr.add_argument("--address", help="override ray_address: the Ray cluster of the actors (auto, ray://HOST:10001; "
                    "default: a new local Ray instance)")
    tr.add_argument("--quiet", action="store_true", help="no progress output")


def _add_tournament(sub) -> None:
    tour = _command(sub, "tournament", "seat-rotated games between agents, with ratings", cmd_tournament)
    tour.add_argument("--agents", nargs="+", required=True, metavar="SPEC",
                      help="agent specs, e.g. random greedy lookahead mcts:sims=200 trained:2p "
                           "aznet:path=runs/quick/model.pt az:path=runs/quick/model.pt,sims=16 "
                           "ppo:path=runs/ppo_quick/model.zip")
    tour.add_argument("--players", type=player_counts, default="2",
                      help="comma-separated player counts from 2 to 5, e.g. 2,3,4 (default 2)")
    tour.add_argument("--games", type=positive_int, default=100,
                      help="games per player count, rounded up to whole rotation blocks (default 100)")
    tour.add_argument("--workers", type=positive_int, default=1, help="parallel worker processes (default 1)")
    tour.add_argument("--backend", choices=["process", "spawn", "ray"], default="process",
                      help="how workers run: forked local processes, freshly started local processes (spawn) "
                           "or a Ray cluster (default process)")
    tour.add_argument("--seed", type=seed, default=0, help="tournament seed, 0 to 2**63-1 (default 0)")
    tour.add_argument("--preset", choices=["first-game"], default=None,
                      help="play every game on a fixed set-up instead of random ones")
    _add_ruleset(tour, "every game")
    tour.add_argument("--out", default="results",
                      help="output folder (default results); an interrupted run resumes from it, a run with other "
                           "settings is refused (the order of --expansions and --rules does not matter)")
    tour.add_argument("--quiet", action="store_true", help="no progress bar")
    tour.add_argument("--field", action="store_true",
                      help="seat the first agent alone against the others (ppo:path=X greedy: one ppo, n-1 greedy)")


def _add_sections(sub) -> None:
    sec = _command(sub, "sections", "list the board sections and where their data comes from (Marshlands: "
                   "generated substitutes, replaced by real section files in the folder named by KBENV_SECTIONS, "
                   "which this command checks)", cmd_sections)
    sec.add_argument("--list", action="store_true", help="list them (the default; kept for the docs' spelling)")
    sec.add_argument("--json", action="store_true", help="print the list as JSON")


def port_number(text: str) -> int:
    """A TCP port 1..65535."""
    value = _integer(text)
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port from 1 to 65535, got {value}")
    return value


def _add_serve(sub) -> None:
    serve = _command(sub, "serve", "play, watch and replay games in the browser: a local web app (needs the serve "
                     "extra); prints its address", cmd_serve)
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this computer only; 0.0.0.0 opens it to "
                            "the network)")
    serve.add_argument("--port", type=port_number, default=8000, help="port to listen on (default 8000)")
    serve.add_argument("--records", nargs="+", metavar="DIR",
                       help="folders whose record files (kbenv play --record) and tournament folders (kbenv "
                            "tournament --out) may be replayed; no file outside them is read")


def warmup_targets(text: str) -> list[str]:
    """A comma-separated list of kbenv.warmup targets."""
    from .warmup import TARGETS, check_targets

    names = [t.strip() for t in text.split(",") if t.strip()]
    if not names:
        raise argparse.ArgumentTypeError(f"expected some of {', '.join(TARGETS)}")
    try:
        return check_targets(names)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _add_warmup(sub) -> None:
    from .warmup import DEFAULT_TARGETS, TARGETS

    warm = _command(sub, "warmup", "compile kbenv's numba kernels ahead, with a progress bar (the set-up runs it; "
                    "later runs load them from the cache)", cmd_warmup)
    warm.add_argument("--targets", type=warmup_targets, default=list(DEFAULT_TARGETS), metavar="LIST",
                      help=f"comma-separated, from {', '.join(TARGETS)} (default {','.join(DEFAULT_TARGETS)}; "
                           "search needs torch)")
    warm.add_argument("--workers", type=positive_int, default=1,
                      help="processes compiling at once after the engine's core (default 1: this one)")
    warm.add_argument("--json", action="store_true", help="print the report (compilations per target) as JSON")
    warm.add_argument("--quiet", action="store_true", help="no progress bar")


def _add_bench(sub) -> None:
    bench = _command(sub, "bench", "throughput of every layer next to PettingZoo/pgx anchors", cmd_bench)
    bench.add_argument("--seconds", type=positive_number, default=2.0, help="time per measurement (default 2)")
    bench.add_argument("--players", type=player_count, default=2, help="number of players, 2 to 5 (default 2)")
    bench.add_argument("--batch-sizes", type=batch_sizes, default="1,4,16,64,256,1024,4096",
                       help="comma-separated batch sizes of the batch-engine curve (default 1,4,16,64,256,1024,4096)")
    bench.add_argument("--out", default="bench_results", help="output folder for bench.json and bench.png")


# ----- entry point ------------------------------------------------------------------------------------
USER_ERRORS = (SetupError, ValueError, OSError)  # OSError: missing, unreadable or unwritable files and folders


def is_user_error(err: BaseException) -> bool:
    """Errors caused by what the user gave (options, files, settings), shown as one line without a traceback."""
    if isinstance(err, USER_ERRORS):
        return True
    yaml = sys.modules.get("yaml")  # only loaded (and only raised) when a YAML config was read
    return yaml is not None and isinstance(err, yaml.YAMLError)


def one_line(err: BaseException) -> str:
    """The error's message on one line (file errors as 'path: reason'; a named error, one whose class sets
    `show_name`, as 'ModelRulesetError: message'), cut at 2000 characters (kbenv.safe_json.short_text)."""
    if isinstance(err, OSError) and err.filename is not None and err.strerror:
        return short_text(f"{err.filename}: {err.strerror}")
    lines = [line.strip() for line in str(err).splitlines() if line.strip()]
    text = "; ".join(lines) or type(err).__name__
    return short_text(f"{type(err).__name__}: {text}" if getattr(err, "show_name", False) else text)


def _warning_printer(command: str) -> Callable:
    """warnings.showwarning that prints one line `kbenv <command>: warning: message` on stderr."""
    def show(message, category, filename, lineno, file=None, line=None) -> None:
        print(f"kbenv {command}: warning: {message}", file=sys.stderr)
    return show


def _stdout_closed() -> bool:
    """Whether the reader of stdout has gone (a pipe with no reader polls as an error); True where unknown."""
    try:
        import select

        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))
    except (AttributeError, OSError, ValueError):  # no poll (Windows) or no file descriptor
        return True


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (AttributeError, OSError, ValueError):  # stdout without a file descriptor (e.g. captured)
        pass


def main(argv: list[str] | None = None) -> int:
    """Run one command; user errors, Ctrl-C and a closed stdout end with one line (or none) and an exit code."""
    args = build_parser().parse_args(argv)
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _warning_printer(args.command)
            code = args.func(args)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        if not _stdout_closed():  # a broken pipe elsewhere (e.g. to a worker) is not the reader leaving
            raise
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:
        print(f"kbenv {args.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as err:
        if not is_user_error(err):
            raise
        print(f"kbenv {args.command}: error: {one_line(err)}", file=sys.stderr)
        return EXIT_USER_ERROR


if __name__ == "__main__":
    sys.exit(main())
