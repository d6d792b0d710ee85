"""README.md's code blocks, and those of the docs pages that took over the README's former sections, run as
pasted: every ```python block is executed, every `kbenv` command in a ```bash block parses with the real argument
parser (not executed).

A python block may be skipped only when it needs a file that cannot exist here (a trained model): it
then holds the comment `# readme-test: skip (<why>)`.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from kbenv.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
# The pages that hold what README.md held before it became a front page (kbenv issue 50).
PAGE_NAMES = ("getting-started", "libraries", "agents", "training", "cli", "browser", "position-files", "rulesets",
              "benchmarks")
PAGES = [README, *(ROOT / "docs" / f"{name}.md" for name in PAGE_NAMES)]
SKIP_MARK = "# readme-test: skip"


def code_blocks(language: str, pages: list[Path] = PAGES) -> list[tuple[str, str]]:
    """(where: page and line number, source) of every fenced block of `language` in the pages."""
    blocks = []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for match in re.finditer(rf"^```{language}\n(.*?)^```", text, flags=re.M | re.S):
            blocks.append((f"{page.name}:{text[: match.start()].count(chr(10)) + 1}", match.group(1)))
    return blocks


def kbenv_commands(pages: list[Path] = PAGES) -> list[tuple[str, str]]:
    """(where, command) of every `kbenv ...` line of the bash blocks, continuation lines joined."""
    commands = []
    for where, source in code_blocks("bash", pages):
        joined = source.replace("\\\n", " ")
        for offset, line in enumerate(joined.splitlines()):
            command = line.split(" #", 1)[0].strip()
            if command.startswith("kbenv "):
                commands.append((f"{where}+{offset + 1}", command))
    return commands


def kbenv_argv(command: str) -> list[str]:
    """The arguments of a README command, with the optional parts' brackets removed: `[--json]` -> `--json`."""
    return [token.lstrip("[").rstrip("]") for token in shlex.split(command)[1:] if token.strip("[]")]


PYTHON_BLOCKS = code_blocks("python")
COMMANDS = kbenv_commands()


def test_the_readme_has_code_to_check():
    assert len(code_blocks("python", [README])) >= 2 and len(kbenv_commands([README])) >= 3
    assert len(PYTHON_BLOCKS) >= 10 and len(COMMANDS) >= 20  # with the pages: what the README held before


@pytest.mark.parametrize(("where", "source"), PYTHON_BLOCKS, ids=[w for w, _ in PYTHON_BLOCKS])
def test_python_block_runs(where, source, tmp_path, monkeypatch):
    if SKIP_MARK in source:
        pytest.skip(source.split(SKIP_MARK, 1)[1].splitlines()[0].strip())
    monkeypatch.chdir(tmp_path)  # whatever a block writes stays out of the checkout
    exec(compile(source, where, "exec"), {"__name__": "__readme__"})


@pytest.mark.parametrize(("where", "command"), COMMANDS, ids=[w for w, _ in COMMANDS])
def test_kbenv_command_parses(where, command):
    args = build_parser().parse_args(kbenv_argv(command))
    assert callable(args.func)
