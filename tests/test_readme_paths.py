"""The docs match the project (kbenv issue 19).

- Every repository path that README.md or docs/*.md names exists in the repository (tracked by git), or is an
  output: of `make demo` (read from the Makefile's demo recipe and the configs it trains), of a training config
  (configs/*.yaml: `out_dir`/`name`, with the files its trainer writes), or of a command line in the docs (its
  `--out`, `--record`, `--png`, `--gif`). Outputs are checked against what the code writes, never against the disk.
- Every command line in the docs (`kbenv ...`, `python -m ...`, `python scripts/...`, `bash scripts/...`) and every
  example in the help of `kbenv` parses with the real argument parser; cheap ones run.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import re
import runpy
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kbenv.cli import EXAMPLES, TOURNAMENT_FILES, build_parser, main
from kbenv.envs.pettingzoo_ids import KINGDOM_BUILDER_V0, KINGDOM_BUILDER_V1
from kbenv.registration import SELF_PLAY_V0, SELF_PLAY_V1

ROOT = Path(__file__).resolve().parents[1]
DOC_FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
OUTPUT_ROOTS = ("runs", "results", "bench_results")
NOT_PATHS = {SELF_PLAY_V0, SELF_PLAY_V1, KINGDOM_BUILDER_V0, KINGDOM_BUILDER_V1}  # Gymnasium and PettingZoo ids
# The files each kind of run writes in its folder (test_the_writers_write_these_files checks their sources).
AZ_FILES = ("model.pt", "checkpoint.pt", "curve.csv", "curve.png", "losses.csv", "model_card.json")
PPO_FILES = ("model.zip", "checkpoints", "snapshots", "tb", "eval.csv", "eval.png", "progress.json",
             "model_card.json", "model_card.md")
RLLIB_FILES = ("metrics.csv", "metrics.json", "summary.json", "checkpoint", "checkpoint/kbenv_run.json")
WRITERS = {"agents/training/alphazero.py": AZ_FILES, "agents/training/training.py": PPO_FILES,
           "scripts/rllib_selfplay.py": RLLIB_FILES}
OUTPUT_OPTIONS = ("out", "record", "png", "gif")
# Command lines cheap enough to run here (each must be in the docs or the help examples).
CHEAP = ("kbenv play --players 3 --expansions nomads,capitol,caves --rules capitol_replaces_castle --agents greedy",
         "kbenv sections --json")


# ----- reading the docs ----------------------------------------------------------------------------------------
def doc_text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """(language, source) of every fenced block."""
    found = re.finditer(r"^[ \t]*```(\w*)\n(.*?)^[ \t]*```", text, flags=re.M | re.S)  # also in list items
    return [(m.group(1), m.group(2)) for m in found]


def prose(text: str) -> str:
    """The text outside fenced blocks."""
    return re.sub(r"^[ \t]*```\w*\n.*?^[ \t]*```", "", text, flags=re.M | re.S)


def inline_spans(text: str) -> list[str]:
    return re.findall(r"`([^`\n]+)`", prose(text))


def link_targets(text: str) -> list[str]:
    return [t for t in re.findall(r"\]\(([^)\s]+)\)", prose(text)) if not re.match(r"\w+:|#", t)]


def snippets(text: str) -> list[str]:
    """Where docs name paths and commands: inline code, and the fenced blocks that are not Python."""
    return inline_spans(text) + [source for lang, source in fenced_blocks(text) if lang != "python"]


# ----- paths ---------------------------------------------------------------------------------------------------
@functools.cache
def tracked() -> frozenset[str]:
    """The repository's files and folders (git's index; the disk where there is no git checkout)."""
    files: list[str] = []
    if (ROOT / ".git").exists() and shutil.which("git"):
        out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
        files = out.splitlines()
    if not files:
        files = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*")
                 if p.is_file() and p.relative_to(ROOT).parts[0] not in (*OUTPUT_ROOTS, ".git", ".venv")]
    names = set(files)
    for f in files:
        parts = f.split("/")
        names.update("/".join(parts[:k]) for k in range(1, len(parts)))
    return frozenset(names)


def path_tokens(snippet: str) -> list[str]:
    """Paths in a snippet that start in the repository or in an output folder ('docs/api.md', 'runs/<name>/')."""
    roots = {name.split("/")[0] for name in tracked()} | set(OUTPUT_ROOTS)
    found = []
    for token in re.findall(r"(?<![\w.:/=-])(\.?[\w.-]+(?:/[\w.<>*-]*)+)", snippet):
        token = token.rstrip(".,:;")
        if token.split("/")[0] in roots and token.rstrip("/") not in NOT_PATHS and "//" not in token:
            found.append(token)
    return found


def named_paths() -> list[tuple[str, str]]:
    """(doc, path) of every repository path the docs name; markdown links resolved from the doc's folder."""
    out = []
    for doc in DOC_FILES:
        text = doc_text(doc)
        for snippet in snippets(text):
            out += [(doc.name, p) for p in path_tokens(snippet)]
        for target in link_targets(text):
            resolved = (doc.parent / target.split("#")[0]).resolve()
            out.append((doc.name, str(resolved.relative_to(ROOT)) + ("/" if target.endswith("/") else "")))
    return out


@functools.cache
def _load_script():
    import importlib.util

    spec = importlib.util.spec_from_file_location("rllib_selfplay_docs", ROOT / "scripts" / "rllib_selfplay.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the script runs
    spec.loader.exec_module(module)
    return module


def config_outputs(config: str) -> set[str]:
    """What training with `config` writes: its run folder and the files in it, from the config's own fields."""
    from agents.training.az_config import AlphaZeroConfig, config_method
    from agents.training.config import TrainConfig, read_yaml

    path = ROOT / config
    if path.name.startswith("rllib"):
        run, files = _load_script().RLlibSelfPlayConfig.from_yaml(path).checkpoint_dir, RLLIB_FILES
    elif config_method(read_yaml(str(path))) == "alphazero":
        c = AlphaZeroConfig.load(str(path))
        run, files = f"{c.out_dir}/{c.name}", AZ_FILES
    else:
        c = TrainConfig.load(str(path))
        run, files = f"{c.out_dir}/{c.name}", PPO_FILES
    run = run.rstrip("/")
    return {run, *(f"{run}/{f}" for f in files)}


def command_outputs(argv: list[str]) -> set[str]:
    """The files and folders a kbenv command line writes (its output options; a tournament's files)."""
    args = build_parser().parse_args(argv)
    out = set()
    for name in OUTPUT_OPTIONS:
        value = getattr(args, name, None)
        if isinstance(value, str):
            out.add(value.rstrip("/"))
            if args.command == "tournament" and name == "out":
                out |= {f"{value.rstrip('/')}/{f}" for f in TOURNAMENT_FILES}
            if args.command == "bench" and name == "out":
                out |= {f"{value.rstrip('/')}/{f}" for f in ("bench.json", "bench.png")}
    if args.command == "train":
        out |= config_outputs(args.config)
    return out


def makefile_demo_commands() -> list[list[str]]:
    """The kbenv command lines of the Makefile's demo recipe, as argument lists."""
    text = (ROOT / "Makefile").read_text().replace("\\\n", " ")
    recipe = re.search(r"^demo:.*\n((?:\t.*\n)+)", text, flags=re.M).group(1)
    return [shlex.split(line.split("#")[0])[1:] for line in recipe.splitlines()
            if line.strip().startswith("$(BIN)/kbenv ")]


@functools.cache
def demo_outputs() -> frozenset[str]:
    return frozenset(set().union(*(command_outputs(argv) for argv in makefile_demo_commands())))


def benchmark_outputs() -> set[str]:
    """The default `--out` files of the benchmark scripts (benchmarks/*.py)."""
    pattern = re.compile(r'"--out"[^)]*?default=(?:Path\()?"([^"]+)"')
    return {m.group(1) for path in (ROOT / "benchmarks").glob("*.py") for m in pattern.finditer(path.read_text())}


@functools.cache
def all_outputs() -> frozenset[str]:
    outputs = set(demo_outputs()) | benchmark_outputs()
    for config in sorted((ROOT / "configs").glob("*.yaml")):
        outputs |= config_outputs(f"configs/{config.name}")
    for command in kbenv_commands():
        with contextlib.suppress(SystemExit):  # a line that does not parse fails test_kbenv_command_lines_parse
            outputs |= command_outputs(argv_of(command))
    return frozenset(outputs)


def is_known(path: str) -> bool:
    escaped = re.escape(path.rstrip("/")).replace(r"\*", "[^/]*")  # a glob's * is any name
    pattern = re.compile(re.sub(r"<[^>]*>", "[^/]+", escaped) + r"$")  # <name>: a placeholder
    return any(pattern.match(name) for name in (*tracked(), *all_outputs()))


# ----- commands ------------------------------------------------------------------------------------------------
def command_lines() -> list[tuple[str, str]]:
    """(doc, line) of every command line in the docs: lines of non-Python blocks (continuations joined, comments
    cut) and inline code spans that carry an option or run a script."""
    out = []
    for doc in DOC_FILES:
        text = doc_text(doc)
        for lang, source in fenced_blocks(text):
            if lang in ("python", "text"):  # code, or output shown as text
                continue
            for line in source.replace("\\\n", " ").splitlines():
                out.append((doc.name, line.split(" #", 1)[0].strip()))
        out += [(doc.name, span.strip()) for span in inline_spans(text)
                if (" --" in span or span.startswith(("bash scripts/", "python "))) and "|" not in span]
    return [(doc, re.sub(r"^(\.venv/bin/|\$ )", "", line)) for doc, line in out if line]


def kbenv_commands() -> list[str]:
    lines = [line for _, line in command_lines() if line.startswith("kbenv ")]
    return lines + [line for examples in EXAMPLES.values() for line in examples]


def argv_of(command: str) -> list[str]:
    """A command's arguments: optional parts' brackets dropped, placeholders (<...>) filled in with 0."""
    command = re.sub(r"<[^>]*>", "0", command)
    return [token.lstrip("[").rstrip("]") for token in shlex.split(command)[1:] if token.strip("[]")]


def python_commands() -> list[str]:
    """The python command lines of the docs and of the examples in scripts/rllib_selfplay.py's help."""
    script_examples = [line.strip() for line in _load_script().build_parser().epilog.splitlines()[1:]]
    lines = [line for _, line in command_lines()] + script_examples
    return sorted({line for line in lines if re.match(r"python (-m \w|scripts/)", line)})


class Parsed(Exception):
    """Raised by the patched parse_args once the real parser has accepted the arguments."""


def parses_with_its_own_parser(command: str, monkeypatch) -> argparse.Namespace:
    """Run the module or script up to its argparse call; SystemExit (a failed test) if it refuses the line."""
    tokens = argv_of(command)
    original = argparse.ArgumentParser.parse_args

    def parse_args(self, args=None, namespace=None):
        raise Parsed(original(self, args, namespace))

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parse_args)
    target, rest = (tokens[1], tokens[2:]) if tokens[0] == "-m" else (tokens[0], tokens[1:])
    monkeypatch.setattr(sys, "argv", [target, *rest])
    environ = dict(os.environ)  # a benchmark sets NUMBA_NUM_THREADS as it is imported: keep it out of later tests
    try:
        with pytest.raises(Parsed) as parsed:
            try:
                if tokens[0] == "-m":
                    runpy.run_module(target, run_name="__main__", alter_sys=True)
                else:
                    runpy.run_path(str(ROOT / target), run_name="__main__")
            except ImportError as err:
                pytest.skip(f"{target} needs an optional package: {err}")
    finally:
        os.environ.clear()
        os.environ.update(environ)
    return parsed.value.args[0]


# ----- tests ---------------------------------------------------------------------------------------------------
NAMED = named_paths()


def test_the_docs_name_paths_and_commands():
    assert len(NAMED) > 50 and len(kbenv_commands()) > 15 and len(python_commands()) >= 8


@pytest.mark.parametrize(("doc", "path"), NAMED, ids=[f"{d}:{p}" for d, p in NAMED])
def test_every_named_path_exists_or_is_an_output(doc, path):
    assert is_known(path), f"{doc} names {path}, which is neither in the repository nor written by any command"


def test_make_demo_writes_what_the_readme_says():
    readme = doc_text(ROOT / "README.md")
    intro = readme.split("## Two commands")[1].split("\n## ")[0]  # the section of `make demo` and `make test`
    said = [p for p in path_tokens(intro) if p.split("/")[0] in OUTPUT_ROOTS]
    assert said == ["runs/quick/", "results/demo/"]
    outputs = demo_outputs()
    assert {"runs/quick", "runs/quick/model.pt", "runs/quick/curve.png", "runs/quick/model_card.json",
            "results/demo", "results/demo/ratings.png", "results/demo/game.png"} <= outputs
    assert "runs/quick/model.zip" not in outputs  # quick.yaml is search-based self-play: it writes model.pt
    # every model spec the README plays is written by a config (make demo's, or another one's run folder)
    for spec_path in re.findall(r"(?:ppo|az|aznet):path=([\w.-]*/[\w./-]+)", readme):  # X: a placeholder
        assert spec_path in all_outputs(), spec_path


def test_the_writers_write_these_files():
    for source, files in WRITERS.items():
        text = (ROOT / source).read_text()
        for name in files:
            assert f'"{name.split("/")[-1]}"' in text or f"'{name.split('/')[-1]}'" in text, (source, name)


def subcommand_help(name: str) -> str:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[name].format_help()


def test_no_doc_or_help_names_a_ppo_model_for_the_demo_run():
    texts = [doc_text(d) for d in DOC_FILES] + [subcommand_help(name) for name in EXAMPLES]
    assert not any("runs/quick/model.zip" in t or "docs/runs/" in t for t in texts)
    assert "MaskablePPO training" not in subcommand_help("train")
    assert "search-based self-play" in subcommand_help("train") and "method: alphazero" in subcommand_help("train")
    for name, examples in EXAMPLES.items():
        assert all(line in subcommand_help(name) for line in examples), name


KBENV = kbenv_commands()


@pytest.mark.parametrize("command", KBENV, ids=range(len(KBENV)))
def test_kbenv_command_lines_parse(command):
    if argv_of(command) == ["--version"]:  # argparse's version action prints the version and exits 0
        with pytest.raises(SystemExit) as stop:
            build_parser().parse_args(["--version"])
        assert stop.value.code == 0
        return
    args = build_parser().parse_args(argv_of(command))
    assert callable(args.func)


PYTHON = python_commands()


@pytest.mark.parametrize("command", PYTHON, ids=PYTHON)
def test_python_command_lines_parse_with_their_own_parser(command, monkeypatch):
    assert isinstance(parses_with_its_own_parser(command, monkeypatch), argparse.Namespace)


def test_shell_scripts_named_exist():
    scripts = {line.split()[1] for _, line in command_lines() if line.startswith("bash scripts/")}
    assert scripts and all((ROOT / s).is_file() for s in scripts), scripts


@pytest.mark.parametrize("command", CHEAP)
def test_cheap_command_lines_run(command, tmp_path, monkeypatch, capsys):
    assert command in KBENV
    monkeypatch.chdir(tmp_path)
    assert main(argv_of(command)) == 0
    assert capsys.readouterr().out
