"""Ship a trained search network as `trained:<name>`: copy its model.pt into agents/models/ and write its
model card (JSON and markdown) from the run's card and the tournaments that rated it.

    python scripts/ship_model.py --run runs/selfplay_mixed --name 2p \\
        --tournaments results/rate_2p_lookahead results/rate_2p_mcts \\
        [--play sims=64,considered=8,search=compiled] [--previous-as 2p-selfplay]

    python scripts/ship_model.py --rate nomads-2p --tournaments results/rate_nomads_128_lookahead \\
        --play sims=128,considered=16,search=compiled [--summary "..."]

`--rate NAME` rates a model already shipped (its network stays as it is): the tournaments go first in its card,
before the ratings it had, and `--play` / `--summary` replace the card's when given.
`--play` stores the search the model was rated with in its card: `trained:<name>` plays with it unless the
spec says otherwise (cards without it play with the az agent's defaults). `--previous-as` keeps the model
shipped under `<name>` so far, renamed (its files and card), and the new card names it as `previous`.

The card states the rulesets the model was trained for (`rulesets`, from the run's recorded ruleset;
agents.rulesets). Each tournament folder is one written by `kbenv tournament` (its summary.json); the card lists, per
tournament, the command's agents, player counts, games and seed, and the win share with its 95% CI
of every seat.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # the checkout's agents/ (kbenv.bundled), when run as `python scripts/...`
    sys.path.insert(0, str(ROOT))

MODELS = Path(__file__).resolve().parent.parent / "agents" / "models"


def tournament_rows(folder: Path) -> dict:
    summary = json.loads((folder / "summary.json").read_text())
    config = summary["config"]
    out = {"agents": config["agents"], "players": config["players"], "games": summary["games"],
           "seed": config["seed"], "field": config.get("field", False), "setup": config.get("setup", {}),
           "results": {}}
    setup_flags(out["setup"])  # a set-up the command line cannot ask for stops the script here
    for players, block in summary["by_players"].items():
        out["results"][players] = {agent: {"win_share": round(seat["win_share"], 3),
                                           "ci95": [round(x, 3) for x in seat["win_share_ci95"]],
                                           "fair_share": seat["fair_share"], "mean_gold": seat["mean_gold"]}
                                   for agent, seat in block["seats"].items()}
    return out


SETUP_FLAGS = {"preset": "--preset", "expansions": "--expansions", "rules": "--rules", "island_side": "--island-side"}


def setup_flags(setup: dict) -> str:
    """A tournament's game set-up (summary.json's config.setup) as the `kbenv tournament` options that ask for it."""
    unknown = set(setup) - set(SETUP_FLAGS)
    if unknown:
        raise SystemExit(f"tournament setup: no kbenv tournament option for {', '.join(sorted(unknown))}")
    return "".join(f" {SETUP_FLAGS[key]} {','.join(value) if isinstance(value, list) else value}"
                   for key, value in setup.items())


def rulesets_line(card: dict) -> str:
    """The card's rulesets in words (agents.rulesets), and where they come from."""
    from agents.rulesets import Ruleset

    text = " or ".join(Ruleset.from_dict(r).text() for r in card["rulesets"])
    return (f"- trained for (rulesets): {text} ({card['rulesets_source']}); any other ruleset is refused with "
            f"ModelRulesetError unless the spec says outside_training=1")


def policy_target_words(run: dict) -> str:
    """How the policy was trained, when not the plain improved policy (run cards before these fields: plain)."""
    if run.get("policy_weight", 1.0) == 0:
        return "; the policy loss weighted 0 (the value head alone learned)"
    weight = run.get("policy_teacher_weight", 0.0)
    if weight:
        return (f"; policy targets {1 - weight:g} the search's improved policy, {weight:g} "
                f"{run['policy_teacher']}'s best set")
    return ""


def warm_start_lines(run: dict) -> list[str]:
    """What the network learned from: the teacher's games (a warm start) and self-play, in words."""
    lines = []
    warm = run.get("warm_start")
    if warm:
        pooled = ", all games first then shuffled passes" if warm.get("pool") else ""
        lines.append(f"- warm start: imitated {warm['teacher']} on {warm['samples']:,} decisions of its games "
                     f"({warm.get('random_share', 0.2):g} of the moves random{pooled}), {warm['epochs']} pass(es); "
                     f"held out: agreement"
                     f" {warm['agreement_held_out']:.3f}, value loss {warm['value_loss_held_out']:.4f}")
    if run["self_play_positions"] or not warm:
        opponent = run.get("opponent", "self")
        against = "" if opponent == "self" else f" (the search in one seat, {opponent} in all the others" + (
            f"; {opponent}'s decisions trained the value head too)" if run.get("opponent_positions") else ")")
        lines.append(f"- trained on: {run['players']}-player games{against}, {run['self_play_positions']:,} "
                     f"self-play positions, {run['games_finished']:,} games, {run['simulations']} simulations "
                     f"per decision{policy_target_words(run)}")
    else:
        lines.append("- no self-play rounds after the warm start")
    return lines


def markdown(card: dict) -> str:
    lines = [f"# trained:{card['shipped_as']}", "", card["summary"], "", rulesets_line(card),
             *([f"- plays with: {', '.join(f'{k}={v}' for k, v in card['play'].items())} (the spec's defaults)"]
               if card.get("play") else []),
             *([f"- previous model: `{card['previous']}`"] if card.get("previous") else []),
             f"- method: {card['run']['method']}", f"- observation: {card['run']['observation']}",
             f"- network: {card['run']['network']}",
             *warm_start_lines(card['run']),
             f"- training wall time: {card['run']['wall_seconds']} s ({card['hardware']})", "", "## Ratings", ""]
    own = f"trained:{card['shipped_as']}"
    for t in card["tournaments"]:
        lines.append(f"`kbenv tournament --agents {' '.join(t['agents'])} --players "
                     f"{','.join(map(str, t['players']))} --games {t['games']} --seed {t['seed']}"
                     f"{' --field' if t['field'] else ''}{setup_flags(t.get('setup', {}))}`")
        lines.append("")
        named = {spec.split(",")[0] for spec in t["agents"]}  # trained:2p,sims=64 names trained:2p
        renamed = sorted(name for name in named if name.startswith("trained:") and name != own)
        if renamed:
            lines.append(f"({', '.join(f'`{name}`' for name in renamed)} in this command was this model when it was "
                         f"rated; it is `{own}` now.)")
            lines.append("")
        lines.append("| players | agent | win share [95% CI] | fair | mean gold |")
        lines.append("|---|---|---|---|---|")
        for players, seats in t["results"].items():
            for agent, r in seats.items():
                lines.append(f"| {players} | {agent} | {r['win_share']:.3f} [{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}] "
                             f"| {r['fair_share']:.2f} | {r['mean_gold']:.1f} |")
        lines.append("")
    return "\n".join(lines)


def stem_of(name: str) -> str:
    return f"trained_{name.replace('-', '_')}"


def play_settings(text: str) -> dict:
    """`sims=64,considered=8,search=compiled[,dets=4]` -> the card's `play` (checked as the trained spec does)."""
    from agents.registry import parse_spec

    _kind, params = parse_spec(f"trained:2p,{text}")
    params.pop("model")
    unknown = set(params) - {"sims", "considered", "dets", "search"}
    if unknown:
        raise SystemExit(f"--play: only sims, considered, dets and search (got {', '.join(sorted(unknown))})")
    return params


def write_card(stem: str, card: dict) -> None:
    """A model's card in agents/models: the JSON and the markdown written from it."""
    (MODELS / f"{stem}.json").write_text(json.dumps(card, indent=2))
    (MODELS / f"{stem}.md").write_text(markdown(card))


MODEL_FILES = (".pt", ".json", ".md")  # a shipped model: its network, its card and the card in words


def keep_previous(name: str, new_name: str) -> str:
    """Rename the files of the model shipped as `name` to `new_name`'s; its card says so. Returns the spec."""
    old, new = stem_of(name), stem_of(new_name)
    missing = [f"{old}{suffix}" for suffix in MODEL_FILES if not (MODELS / f"{old}{suffix}").exists()]
    if missing:
        raise SystemExit(f"--previous-as: no model is shipped as trained:{name} "
                         f"({', '.join(missing)} missing in {MODELS})")
    taken = [f"{new}{suffix}" for suffix in MODEL_FILES if (MODELS / f"{new}{suffix}").exists()]
    if taken:
        raise SystemExit(f"--previous-as: trained:{new_name} is already shipped ({', '.join(taken)} in {MODELS})")
    for suffix in MODEL_FILES:
        (MODELS / f"{old}{suffix}").replace(MODELS / f"{new}{suffix}")
    card = json.loads((MODELS / f"{new}.json").read_text())
    card["shipped_as"] = new_name
    write_card(new, card)
    return f"trained:{new_name}"


def rate_shipped(name: str, tournaments: list[dict], play: dict | None, summary: str) -> Path:
    """Add ratings (first) to the card of the model shipped as `name`; `play` and `summary` replace the card's."""
    path = MODELS / f"{stem_of(name)}.json"
    if not path.exists():
        raise SystemExit(f"--rate: no model is shipped as trained:{name} ({path.name} missing in {MODELS})")
    card = json.loads(path.read_text())
    card["tournaments"] = tournaments + card.get("tournaments", [])
    if play:
        card["play"] = play
    if summary:
        card["summary"] = summary
    write_card(stem_of(name), card)
    return path


def main() -> None:
    from agents.az import PRIMARY_NAMES

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--run", help="the run folder (holds model.pt and model_card.json); ships it with --name")
    mode.add_argument("--rate", metavar="NAME", help="a model already shipped: add ratings (and --play) to its card")
    parser.add_argument("--name", choices=PRIMARY_NAMES)
    parser.add_argument("--tournaments", nargs="*", default=[], help="tournament folders rating the model")
    parser.add_argument("--hardware", default="2 CPU cores", help="where it was trained, in words")
    parser.add_argument("--summary", default="", help="one paragraph: what the model is and how strong")
    parser.add_argument("--play", default="",
                        help="the search it plays with, e.g. sims=64,considered=8,search=compiled")
    parser.add_argument("--previous-as", default="", help="keep the model shipped under --name so far as this name")
    args = parser.parse_args()
    play = play_settings(args.play) if args.play else None  # checked before any file moves
    tournaments = [tournament_rows(Path(t)) for t in args.tournaments]  # so are the tournaments
    if args.rate:
        if args.name or args.previous_as:
            parser.error("--rate takes no --name or --previous-as (the model keeps its name and files)")
        if not tournaments and not play and not args.summary:
            parser.error("--rate: give --tournaments, --play or --summary (nothing to change)")
        print(f"rated trained:{args.rate}: {rate_shipped(args.rate, tournaments, play, args.summary)}")
        return
    if not args.name:
        parser.error("--run needs --name")
    run = Path(args.run)
    MODELS.mkdir(exist_ok=True)
    stem = stem_of(args.name)
    previous = keep_previous(args.name, args.previous_as) if args.previous_as else None
    shutil.copyfile(run / "model.pt", MODELS / f"{stem}.pt")
    run_card = json.loads((run / "model_card.json").read_text())
    start = run_card.get("initial_network") or {}
    if previous and start.get("init_from") == f"trained:{args.name}":  # a second step from the model it replaces:
        # the start is now shipped under the previous name (the run's trained:NAME and file name the new model)
        run_card["initial_network"] = {**start, "init_from": previous,
                                       "file": f"agents/models/{stem_of(args.previous_as)}.pt"}
    ruleset = run_card.get("ruleset") or {}
    card = {"shipped_as": args.name, "summary": args.summary,
            "rulesets": [{"expansions": list(ruleset.get("expansions", [])), "rules": list(ruleset.get("rules", []))}],
            "rulesets_source": "recorded in the run's model card (run.ruleset)", "hardware": args.hardware,
            "run": run_card,
            "config": json.loads((run / "config.json").read_text()) if (run / "config.json").exists() else None,
            "tournaments": tournaments}
    if play:
        card["play"] = play
    if previous:
        card["previous"] = previous
    write_card(stem, card)
    print(f"shipped {run / 'model.pt'} as trained:{args.name} ({MODELS})")


if __name__ == "__main__":
    main()
