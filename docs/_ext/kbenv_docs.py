"""Sphinx extension of kbenv's documentation: pages whose tables come from the code at build time.

Directives (in MyST pages: ```` ```{kbenv-table} NAME ```` etc.):

- `kbenv-table NAME`: a generated Markdown table or list, rendered in place. NAME is one of TABLES (the
  observation channels and features of layouts v0 and v1, the action ids, the rule flags, the board letters,
  the expansions, the environment ids, the shipped models, the benchmark results).
- `kbenv-ruleset NAME`: the catalogue's rows of one ruleset (`base` or an expansion of kbenv.catalogue.EXPANSIONS):
  its description, sections, locations with their powers, cards, pieces, tiles and rule flags.
- `kbenv-cli COMMAND`: the `--help` of `kbenv COMMAND` (`kbenv` for the top-level parser), from kbenv.cli's parser.

Only tables are read: importing kbenv.catalogue, kbenv.layout and kbenv.cli loads numba but compiles no kernel.
The build fails (a warning under -W) when a ruleset of the catalogue or a command of the CLI has no page, so a new
one cannot be left out of the site.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"
MODELS = ROOT / "agents" / "models"
LOG = logging.getLogger(__name__)


# ----- Markdown helpers ---------------------------------------------------------------------------------------
def cell(value: Any) -> str:
    """A table cell: the text with `|` escaped and newlines folded."""
    return str(value).replace("|", "\\|").replace("\n", " ")


def table(header: Iterable[str], rows: Iterable[Iterable[Any]]) -> str:
    """A Markdown pipe table."""
    header = list(header)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def span(first: int, size: int) -> str:
    """"5" or "5-9": the indices a row of `size` entries from `first` covers."""
    return str(first) if size == 1 else f"{first}-{first + size - 1}"


def code(name: str) -> str:
    return f"`{name}`"


def number(value: float, digits: int = 0) -> str:
    """A figure with thousands separators."""
    return f"{value:,.{digits}f}"


# ----- observation and action layouts ----------------------------------------------------------------------------
def observation_channels(version: str) -> str:
    """The channel table of layout v0 or v1 (v1: the channels after v0's)."""
    from kbenv.engine import observe as O0
    from kbenv.engine import observe_layout as O1

    if version == "v0":
        rows = [(span(O0.CH0[name], size), code(name), meaning) for name, size, meaning in O0.V0_CHANNELS]
    else:
        rows = [(span(O1.CH1[name], size), code(name), meaning) for name, size, meaning in O1.V1_CHANNELS]
    return table(("channels", "name", "meaning"), rows)


def observation_features(version: str) -> str:
    """The scalar-feature table of layout v0 (channel 27) or v1 (its second features plane)."""
    from kbenv.engine import observe as O0
    from kbenv.engine import observe_layout as O1

    rows_in = O0.V0_FEATURES if version == "v0" else O1.V1_FEATURES
    offsets = O0.F0 if version == "v0" else O1.F1
    return table(("features", "name", "meaning"),
                 [(span(offsets[name], size), code(name), meaning) for name, size, meaning in rows_in])


def layouts() -> str:
    """The sizes of both layouts (kbenv.layout)."""
    from kbenv.layout import LAYOUTS

    return table(("layout", "actions", "observation shape", "scalar features", "channels named"),
                 [(layout.name, layout.action_size, str(layout.observation_shape), layout.num_features,
                   len(layout.channels)) for layout in LAYOUTS.values()])


def _action_meaning(name: str) -> tuple[str, str]:
    """(expansion, meaning) of an action name of the v1 tail."""
    from kbenv import catalogue as CAT

    location = {loc.name: loc for loc in CAT.LOCATION_TYPES}
    if name in location:
        loc = location[name]
        return loc.expansion or "base", f"location power ({loc.power}): {loc.text}"
    if name in CAT.NOMAD_USABLE_KINDS:
        return "nomads", "use a nomad tile"
    if name in CAT.BONUS_POWERS:
        return "marshlands", "use a bonus tile"
    if name == CAT.FARM_ACTION:
        return "harvest", "the farm action, once a turn"
    if name == "cave":
        return "caves", "the once-a-turn move between caves"
    if name.startswith("terrain-"):
        return "-", "a terrain choice (reserved)"
    if name.startswith("option-"):
        return "-", "an option of the decision in progress (named by phase: docs/api.md, Action layout v1)"
    if name == "done":
        return "-", "end a power where stopping is allowed"
    return "-", ""


def actions(version: str) -> str:
    """The action ids of layout v0 or v1 (ranges for the hexes and the island hexes)."""
    from kbenv import catalogue as CAT
    from kbenv.layout import LAYOUTS, NUM_HEX_ACTIONS

    size = LAYOUTS[version].action_size
    rows = [(span(0, NUM_HEX_ACTIONS), "hex r,c", "base", "a hex of the board, id = row * 20 + column")]
    for k in range(NUM_HEX_ACTIONS, CAT.END_TURN):
        name = CAT.ACTION_NAMES[k]
        rows.append((k, code(name), "base", _action_meaning(name)[1]))
    rows.append((CAT.END_TURN, code("end_turn"), "base", "end the turn"))
    if version == "v1":
        first_island = CAT.ISLAND_ACTION_BASE
        for k in range(CAT.END_TURN + 1, first_island):
            name = CAT.ACTION_NAMES[k]
            rows.append((k, code(name), *_action_meaning(name)))
        rows.append((span(first_island, len(CAT.ISLAND_ACTIONS)), "island r,c", "island",
                     f"island hex r,c: id = {first_island} + 4r + c"))
    assert sum(int(r[0].split("-")[1]) - int(r[0].split("-")[0]) + 1 if isinstance(r[0], str) and "-" in r[0]
               else 1 for r in rows) == size
    return table(("id", "name", "expansion", "meaning"), rows)


def power_traits() -> str:
    """The power traits the engine's dispatcher reads (kbenv.catalogue.power_trait_table)."""
    from kbenv import catalogue as CAT

    return CAT.power_trait_table()


# ----- rulesets --------------------------------------------------------------------------------------------
def expansions() -> str:
    """The expansions of the catalogue."""
    from kbenv import catalogue as CAT

    return table(("name", "bit", "implemented", "what it adds", "page"),
                 [(code(e.name), e.bit, "yes" if e.implemented else "under construction" if e.under_construction
                   else "no", e.description.split(": ", 1)[-1], f"[{e.name}](/rulesets/{e.name}.md)")
                  for e in CAT.EXPANSIONS])


def rule_flags(expansion: str | None = "*") -> str:
    """The rule flags (of one expansion, `None` for the base game, `*` for all)."""
    from kbenv import catalogue as CAT

    rows = [(code(f.name), f.bit, f.expansion or "base", f.alternative) for f in CAT.RULE_FLAGS
            if expansion == "*" or f.expansion == expansion]
    if not rows:
        return "No rule flag: the rulebook leaves no reading of it open that kbenv offers as a switch."
    return table(("flag", "bit", "needs", "switched on, it plays"), rows)


def board_letters() -> str:
    """The one-letter codes of section and board files: terrains, then location types."""
    from kbenv import catalogue as CAT

    rows = [(code(t.letter), t.name, t.expansion or "base", "terrain") for t in CAT.TERRAINS if t.letter]
    for loc in CAT.LOCATION_TYPES:
        letter = code(loc.letter) if loc.letter.isascii() else f"`L` (type `{loc.name}`)"
        rows.append((letter, loc.name.replace("_", " "), loc.expansion or "base", "location"))
    return table(("letter", "hex", "expansion", "kind"), rows)


def position_fields() -> str:
    """The top-level keys a position file may hold (kbenv.positions.files.POSITION_FIELDS), in the reader's order."""
    from kbenv.positions.files import POSITION_FIELDS

    return "Keys read by `kbenv score`, `kbenv legal` and `Game.custom`: " + ", ".join(
        code(k) for k in POSITION_FIELDS) + "."


def _ruleset_rows(name: str) -> str:
    """The Markdown of one ruleset's catalogue rows."""
    from kbenv import catalogue as CAT

    exp = None if name == "base" else name
    known = {e.name: e for e in CAT.EXPANSIONS}
    if exp is not None and exp not in known:
        raise ValueError(f"kbenv-ruleset: unknown ruleset {name!r}; known: base, {', '.join(known)}")
    parts = []
    if exp is not None:
        row = known[exp]
        state = "implemented" if row.implemented else "under construction"
        parts.append(f"{row.description} ({state}; `expansions=[\"{exp}\"]`, `--expansions {exp}`, "
                     f"expansion bit {row.bit}).")
    sections = [s for s in CAT.SECTIONS if s.expansion == exp]
    if sections:
        parts += ["**Board sections**", table(
            ("section", "data source", "stands for"),
            [(code(s.name), s.provenance, s.stands_for or "-") for s in sections])]
    locations = [loc for loc in CAT.LOCATION_TYPES if loc.expansion == exp]
    if locations:
        rows = []
        for loc in locations:
            action = CAT.LOCATION_ACTION[loc.name]
            text = loc.text + (f" (bonus tile: {loc.bonus_text})" if loc.bonus_text else "")
            rows.append((code(loc.name), code(loc.letter) if loc.letter.isascii() else "`L`", loc.power,
                         action if action >= 0 else "-", loc.tiles, text))
        parts += ["**Locations**", table(("location", "letter", "power", "action", "tiles", "its power"), rows)]
    cards = [c for c in CAT.SCORING_CARDS if c.expansion == exp]
    if cards:
        parts += ["**Kingdom Builder cards**", table(
            ("card", "scored", "gold", "source"),
            [(code(c.name), "at the end" if c.scored == "end" else "during play",
              "-" if c.gold is None else c.gold, c.provenance) for c in cards])]
    if exp == "crossroads":
        parts += ["**Task cards**", table(("task", "gold", "met by"),
                                          [(code(t.name), t.gold, t.rule) for t in CAT.TASK_CARDS])]
    if exp == "nomads":
        parts += ["**Nomad tiles** (15, in deal order)", table(
            ("tile", "count", "kept as a power", "builds"),
            [(code(t.kind), t.count, "yes" if t.usable else "no (cashed in)", "yes" if t.builds else "-")
             for t in CAT.NOMAD_TILES])]
    if exp == "marshlands":
        parts.append(f"**Swamp cards**: {', '.join(code(n) for n in CAT.SWAMP_CARD_NAMES)}, one each; with them "
                     f"the deck has {CAT.MARSHLANDS_DECK_SIZE} cards. Palaces: {CAT.PALACE_GOLD} gold to the "
                     "majority next to each.")
    pieces = [k for k in CAT.PIECE_KINDS if k.expansion == exp]
    if pieces:
        parts += ["**Pieces**", table(
            ("piece", "how many", "placed by", "moves", "position-file key", "text-board mark"),
            [(code(k.name), f"{k.per_player} each" if k.per_player else f"{k.pool} shared",
              k.power or "building", "yes" if k.moves else "no", code(k.key), code(k.mark) if k.mark else "digit")
             for k in pieces])]
    counters = [c for c in CAT.COUNTERS if c.expansion == exp]
    if counters:
        parts += ["**Counters** (state fields, position-file keys and v1 features of the same name)", table(
            ("counter", "per seat", "largest value"),
            [(code(c.name), "yes" if c.per_player else "turn owner's", c.high) for c in counters])]
    parts += ["**Rule flags** (`rules=[...]`, `--rules ...`; each is off by default)", rule_flags(exp)]
    return "\n\n".join(parts)


# ----- environments and models ----------------------------------------------------------------------------------
def env_ids() -> str:
    """The PettingZoo and Gymnasium ids that `import kbenv` registers."""
    from kbenv.envs import pettingzoo_ids, registration

    rows = [(code(env_id), "PettingZoo AEC and parallel", code(entry)) for env_id, entry in
            pettingzoo_ids.AEC_ENTRY_POINTS.items()]
    for env_id, entry in registration.ENTRY_POINTS.items():
        rows.append((code(env_id), "Gymnasium", code(f"{registration.ENTRY_MODULE}:{entry.__name__}")))
    return table(("id", "registry", "entry point"), rows)


def models() -> str:
    """The shipped models of agents/models/*.json: spec, rulesets, play defaults, summary."""
    rows = []
    for path in sorted(MODELS.glob("*.json")):
        card = json.loads(path.read_text())
        rulesets = "; ".join("+".join(r["expansions"]) or "base" for r in card.get("rulesets", [])) or "-"
        play = ", ".join(f"{k}={v}" for k, v in (card.get("play") or {}).items()) or "-"
        rows.append((f"[`trained:{card['shipped_as']}`](/agents/models/{path.stem}.md)", rulesets, play))
    return table(("agent spec", "rulesets", "plays with"), rows)


# ----- benchmarks --------------------------------------------------------------------------------------------
def _git_date(path: Path) -> str:
    """The commit (short hash, date) that last changed `path`, or "" outside a git checkout."""
    try:
        out = subprocess.run(["git", "log", "-1", "--format=%h %cs", "--", str(path)], cwd=ROOT,
                             capture_output=True, text=True, timeout=20, check=False).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""
    return f" (committed in {out.split()[0]}, {out.split()[1]})" if out else ""


def _source(name: str) -> str:
    path = RESULTS / name
    return f"From `benchmarks/results/{name}`{_git_date(path)}."


def bench_suite() -> str:
    """`kbenv bench` at batch 1024 (the run of benchmarks/results/bench_c3bdc3c.json)."""
    name = "bench_c3bdc3c.json"
    d = json.loads((RESULTS / name).read_text())
    c4 = d["connect_four_v3_raw_env"]["decisions_per_s"]
    rows = [("single-game engine (one numba call per game)", d["single_engine"]["decisions_per_s"])]
    labels = {"batch_obs_off": "batch engine, observations off", "batch_obs_on": "batch engine, float observations",
              "batch_obs_packed": "batch engine, packed observations", "batch_playouts": "batched playouts"}
    for key, label in labels.items():
        for batch, row in d[key].items():
            rows.append((f"{label} (batch {batch})", row["decisions_per_s"]))
    rows += [("kbenv `raw_env` (AEC, observation every step)", d["aec_raw_env"]["decisions_per_s"]),
             ("PettingZoo connect_four_v3 `raw_env`", c4),
             ("PettingZoo chess_v6 `raw_env`", d["chess_v6_raw_env"]["decisions_per_s"])]
    machine = d.get("machine", {})
    head = (f"`kbenv bench`, {d['players']} players, random legal play, {d['seconds_per_run']} s a run, on "
            f"{machine.get('cores', '?')} cores ({machine.get('cpu', '?')}, Python {machine.get('python', '?')}). ")
    return head + _source(name) + "\n\n" + table(
        ("run", "decisions/s", "x connect_four_v3 raw_env"),
        [(label, number(rate), f"{rate / c4:,.1f}") for label, rate in rows])


def platform_speed() -> str:
    """Decisions/s per ruleset (benchmarks/results/platform_speed.json)."""
    name = "platform_speed.json"
    d = json.loads((RESULTS / name).read_text())
    rows = [(r["case"], number(r["this"]), number(r["baseline"]) if r.get("baseline") else "-",
             f"{r['ratio']:.3f}" if r.get("ratio") else "-") for r in d["rows"]]
    return ("`python -m benchmarks.platform_speed --baseline <tree>`: decisions/s of random games, medians; the "
            f"baseline is the tree the run compared with. {_source(name)}\n\n"
            + table(("case", "decisions/s", "baseline", "ratio"), rows))


def compile_time() -> str:
    """Compile CPU seconds from an empty numba cache (benchmarks/results/compile_time.json)."""
    name = "compile_time.json"
    d = json.loads((RESULTS / name).read_text())
    rows = []
    for case, this in d["this"].items():
        base = d.get("baseline", {}).get(case, {})
        rows.append((case, _seconds(this), _seconds(base) if base else "-"))
    return ("`python -m benchmarks.compile_time --baseline <tree> --paired`: each case in a fresh process from an "
            f"empty numba cache; CPU seconds inside numba's compiles (compilations). {_source(name)}\n\n"
            + table(("what runs first", "this tree", "baseline tree"), rows))


def _seconds(row: dict) -> str:
    for key in ("compile_cpu_s", "compile_s", "cpu_s", "seconds"):
        if key in row:
            count = next((row[k] for k in ("compilations", "compiles", "count") if k in row), None)
            return f"{row[key]:.0f}" + (f" ({count})" if count is not None else "")
    return "-"


def vector_env_speed() -> str:
    """Learner steps/s of the vectorised envs (benchmarks/results/vector_env_speed.json)."""
    name = "vector_env_speed.json"
    d = json.loads((RESULTS / name).read_text())
    head = (f"`python -m benchmarks.vecenv_speed`-style run: {d['envs']} envs, {d['players']} players, layout "
            f"{d['layout']}, opponents {', '.join(d['opponents'])}, {d['cpus']} CPUs. {_source(name)}")
    return head + "\n\n" + table(("run", "steps/s"), [(k, number(v)) for k, v in d["steps_per_s"].items()])


def soak() -> str:
    """The soak's rows (benchmarks/results/soak.json)."""
    name = "soak.json"
    d = json.loads((RESULTS / name).read_text())
    rows = [(r["ruleset"], number(r["games"]), number(r["decisions"]), r["violations"], f"{r['seconds']:.0f}")
            for r in d["rows"]]
    total = d["total"]
    return (f"`python -m benchmarks.soak` (docs/soak.md), seed {d['seed']}, {len(d['invariants'])} invariants "
            f"checked after every decision: {number(total['games'])} games, {number(total['decisions'])} decisions, "
            f"{total['violations']} violations. {_source(name)}\n\n"
            + table(("ruleset", "games", "decisions", "violations", "seconds"), rows))


TABLES: dict[str, Callable[[], str]] = {
    "layouts": layouts,
    "observation-v0-channels": lambda: observation_channels("v0"),
    "observation-v0-features": lambda: observation_features("v0"),
    "observation-v1-channels": lambda: observation_channels("v1"),
    "observation-v1-features": lambda: observation_features("v1"),
    "actions-v0": lambda: actions("v0"),
    "actions-v1": lambda: actions("v1"),
    "power-traits": power_traits,
    "expansions": expansions,
    "rule-flags": rule_flags,
    "board-letters": board_letters,
    "position-fields": position_fields,
    "env-ids": env_ids,
    "models": models,
    "bench-suite": bench_suite,
    "platform-speed": platform_speed,
    "compile-time": compile_time,
    "vector-env-speed": vector_env_speed,
    "soak": soak,
}


# ----- the CLI ---------------------------------------------------------------------------------------------------
def cli_parsers() -> dict[str, argparse.ArgumentParser]:
    """{"kbenv": the top-level parser, command: its subparser} from kbenv.cli.build_parser()."""
    from kbenv.cli import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {"kbenv": parser, **commands.choices}


def cli_help(command: str) -> str:
    """The help text of `kbenv COMMAND -h` at 100 columns."""
    parsers = cli_parsers()
    if command not in parsers:
        raise ValueError(f"kbenv-cli: unknown command {command!r}; known: {', '.join(parsers)}")
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"
    try:
        return parsers[command].format_help()
    finally:
        if old is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = old


# ----- directives ------------------------------------------------------------------------------------------------
class _Generated(SphinxDirective):
    """A directive whose Markdown is made by `markdown()` and rendered in place, as MyST's include does."""

    required_arguments = 1
    has_content = False

    def markdown(self) -> str:
        raise NotImplementedError

    def run(self) -> list[nodes.Node]:
        try:
            text = self.markdown()
        except Exception as exc:  # a bad name or a changed table: a warning that -W turns into a failure
            raise self.error(f"{self.name}: {exc}") from exc
        renderer = getattr(self.state, "_renderer", None)
        if renderer is None:
            raise self.error(f"{self.name} works in MyST Markdown pages only")
        renderer.nested_render_text(text, self.lineno)
        return []


class TableDirective(_Generated):
    """```` ```{kbenv-table} NAME ````: one of TABLES."""

    def markdown(self) -> str:
        name = self.arguments[0]
        if name not in TABLES:
            raise ValueError(f"unknown table {name!r}; known: {', '.join(TABLES)}")
        return TABLES[name]()


class RulesetDirective(_Generated):
    """```` ```{kbenv-ruleset} NAME ````: the catalogue's rows of a ruleset."""

    def markdown(self) -> str:
        self.env.kbenv_rulesets = getattr(self.env, "kbenv_rulesets", set()) | {self.arguments[0]}
        return _ruleset_rows(self.arguments[0])


class CliDirective(_Generated):
    """```` ```{kbenv-cli} COMMAND ````: the help of a command as a text block."""

    def markdown(self) -> str:
        self.env.kbenv_commands = getattr(self.env, "kbenv_commands", set()) | {self.arguments[0]}
        text = cli_help(self.arguments[0])
        return "````text\n" + text.rstrip() + "\n````"


def _merge(app: Sphinx, env: Any, docnames: list[str], other: Any) -> None:
    for attr in ("kbenv_rulesets", "kbenv_commands"):
        setattr(env, attr, getattr(env, attr, set()) | getattr(other, attr, set()))


def _check_coverage(app: Sphinx, env: Any) -> None:
    """Warn for a ruleset or a command without its generated page (only on a full build, where every page is
    read)."""
    from kbenv import catalogue as CAT

    if not getattr(env, "kbenv_rulesets", None):
        return  # an incremental build that read no page of them
    missing = ({"base", *(e.name for e in CAT.EXPANSIONS)} - env.kbenv_rulesets)
    missing_commands = set(cli_parsers()) - getattr(env, "kbenv_commands", set())
    if missing:
        LOG.warning("kbenv-ruleset: no page shows the ruleset(s) %s (docs/rulesets/)", ", ".join(sorted(missing)))
    if missing_commands:
        LOG.warning("kbenv-cli: no page shows the command(s) %s (docs/cli.md)", ", ".join(sorted(missing_commands)))


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directives and the coverage check."""
    app.add_directive("kbenv-table", TableDirective)
    app.add_directive("kbenv-ruleset", RulesetDirective)
    app.add_directive("kbenv-cli", CliDirective)
    app.connect("env-merge-info", _merge)
    app.connect("env-check-consistency", _check_coverage)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}
