"""The `kbenv` command line: play and score (bench, tournament and train come with later issues)."""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

from .game import Game
from .observation import action_mask, observation_planes
from .position import load_position, score_position
from .render_image import board_image, save_gif, save_png
from .render_text import board_text, legend, score_text
from .setup import SetupError
from .view import PlayerView


def cmd_play(args: argparse.Namespace) -> int:
    game = Game.new(args.players, seed=args.seed, preset=args.preset)
    rng = np.random.default_rng(args.seed)
    agents = _seat_agents(args.agents, args.players, args.seed) if args.agents else None
    frames = []
    turn = game.turn
    while not game.done:
        if agents:
            p = game.current_player
            game.step(agents[p].act(observation_planes(game.state, p), action_mask(game.state, p), PlayerView(game, p)))
        else:
            game.step(int(rng.choice(game.legal_actions())))
        if args.gif and game.turn != turn:
            frames.append(board_image(game))
            turn = game.turn
    if args.gif:
        frames.append(board_image(game))
        save_gif(frames, args.gif)
    if args.png:
        save_png(board_image(game), args.png)
    colour = not args.no_colour and sys.stdout.isatty() or args.colour
    sections = ", ".join(f"{n}{' (turned)' if t else ''}" for n, t in game.setup.sections or [])
    print(f"Kingdom Builder, {args.players} players, seed {args.seed}: {sections}")
    print(f"cards: {', '.join(game.cards)}; start player {game.start_player}; {len(game.actions)} decisions")
    print(board_text(game, colour=colour))
    print(legend())
    print(score_text(game.scores(), game.cards))
    print("winner(s): " + ", ".join(f"player {p}" for p in game.winners()))
    if args.record:
        with open(args.record, "w") as f:
            json.dump(game.to_record(), f)
        print(f"record written to {args.record}")
    for path in (args.png, args.gif):
        if path:
            print(f"picture written to {path}")
    return 0


def _seat_agents(specs: list[str], players: int, seed: int) -> list:
    """Agents for the seats from spec strings (the last spec fills the remaining seats)."""
    from agents import make_agent

    specs = list(specs) + [specs[-1]] * (players - len(specs))
    return [make_agent(spec, seed=seed * 31 + i) for i, spec in enumerate(specs[:players])]


def cmd_train(args: argparse.Namespace) -> int:
    from agents.train_config import TrainConfig
    from agents.training import train

    config = TrainConfig.load(args.config)
    overrides = {}
    if args.timesteps:
        overrides["total_timesteps"] = args.timesteps
    if args.out:
        overrides["out_dir"] = args.out
    if args.max_minutes is not None:
        overrides["max_minutes"] = args.max_minutes
    if overrides:
        config = TrainConfig.from_dict({**config.to_dict(), **overrides}, source=args.config)
    card = train(config, resume=args.resume, progress=not args.quiet)
    print(f"trained {card['name']}: {card['timesteps']:,} steps in {card['wall_seconds']} s "
          f"({card['env_steps_per_second']} steps/s) -> {card['model']}")
    for r in card["evaluation"]:
        print(f"  vs {r['opponent']}: win share {r['win_share']:.3f} [{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}]")
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    position = load_position(args.file)
    scores = score_position(position)
    if args.json:
        print(json.dumps({"players": scores}))
    else:
        print(score_text(scores, tuple(scores[0]["cards"])))
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    try:
        from benchmarks.suite import run_suite, table
    except ImportError:
        print("kbenv bench: error: run it from a source checkout (the benchmarks/ folder)", file=sys.stderr)
        return 2
    sizes = tuple(int(b) for b in args.batch_sizes.split(","))
    results = run_suite(seconds=args.seconds, players=args.players, out_dir=args.out, batch_sizes=sizes,
                        progress=lambda msg: print(f"[bench] {msg}", file=sys.stderr, flush=True))
    print(table(results))
    print(f"wrote {args.out}/bench.json and {args.out}/bench.png")
    return 0


def cmd_tournament(args: argparse.Namespace) -> int:
    from agents.tournament import run_tournament, table_text

    players = [int(n) for n in args.players.split(",")]
    for n in players:
        if not 2 <= n <= 5:
            raise SetupError(f"--players: expected counts from 2 to 5, got {n}")
    setup = {"preset": args.preset} if args.preset else {}
    summary = run_tournament(args.agents, players, args.games, seed=args.seed, out_dir=args.out,
                             workers=args.workers, backend=args.backend, setup=setup, progress=not args.quiet,
                             field=args.field)
    print(table_text(summary))
    print(f"wrote {args.out}/games.csv, records.jsonl, summary.json, ratings.csv, ratings.png")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kbenv", description="Kingdom Builder environment tools")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play a full game between random agents and show the result")
    play.add_argument("--players", type=int, default=4)
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--preset", choices=["first-game"], default=None)
    play.add_argument("--record", help="write the game record (JSON) to this file")
    play.add_argument("--png", help="write a picture of the final board (PNG)")
    play.add_argument("--gif", help="write an animation, one frame per turn (GIF)")
    play.add_argument("--agents", nargs="+", help="agent specs per seat (default: random), e.g. ppo:path=X greedy")
    play.add_argument("--colour", action="store_true", help="force ANSI colours")
    play.add_argument("--no-colour", action="store_true", help="plain text")
    play.set_defaults(func=cmd_play)
    score = sub.add_parser("score", help="score a position file (JSON)")
    score.add_argument("file")
    score.add_argument("--json", action="store_true", help="print the breakdown as JSON")
    score.set_defaults(func=cmd_score)
    tr = sub.add_parser("train", help="self-play MaskablePPO training from a YAML config")
    tr.add_argument("--config", required=True)
    tr.add_argument("--resume", action="store_true", help="continue from the run folder's last checkpoint")
    tr.add_argument("--timesteps", type=int, help="override total_timesteps")
    tr.add_argument("--out", help="override out_dir")
    tr.add_argument("--max-minutes", type=float, help="override max_minutes (stop learning after this wall time)")
    tr.add_argument("--quiet", action="store_true")
    tr.set_defaults(func=cmd_train)
    tour = sub.add_parser("tournament", help="seat-rotated games between agents, with ratings")
    tour.add_argument("--agents", nargs="+", required=True,
                      help="agent specs: random greedy lookahead mcts:sims=200 ppo:path=X")
    tour.add_argument("--players", default="2", help="comma-separated player counts, e.g. 2,3,4")
    tour.add_argument("--games", type=int, default=100, help="games per player count (whole rotation blocks)")
    tour.add_argument("--workers", type=int, default=1)
    tour.add_argument("--backend", choices=["process", "ray"], default="process")
    tour.add_argument("--seed", type=int, default=0)
    tour.add_argument("--preset", choices=["first-game"], default=None)
    tour.add_argument("--out", default="results")
    tour.add_argument("--quiet", action="store_true", help="no progress bar")
    tour.add_argument("--field", action="store_true",
                      help="seat the first agent alone against the others (ppo:path=X greedy: one ppo, n-1 greedy)")
    tour.set_defaults(func=cmd_tournament)
    bench = sub.add_parser("bench", help="throughput of every layer next to PettingZoo/pgx anchors")
    bench.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    bench.add_argument("--players", type=int, default=2)
    bench.add_argument("--batch-sizes", default="1,4,16,64,256,1024,4096")
    bench.add_argument("--out", default="bench_results")
    bench.set_defaults(func=cmd_bench)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (SetupError, FileNotFoundError, ValueError) as err:
        print(f"kbenv {args.command}: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
