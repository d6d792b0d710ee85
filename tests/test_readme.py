"""README.md code blocks run as pasted: every ```python block is executed, every `kbenv` command in a ```bash
block parses with the real argument parser (not executed).

A python block may be skipped only when it needs a file that cannot exist here (a trained model): it
then holds the comment `# readme-test: skip (<why>)`.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from kbenv.cli import build_parser

README = Path(__file__).resolve().parents[1] / "README.md"
SKIP_MARK = "# readme-test: skip"


def code_blocks(language: str) -> list[tuple[int, str]]:
    """(line number, source) of every fenced block of `language` in the README."""
    text = README.read_text(encoding="utf-8")
    blocks = []
    for match in re.finditer(rf"^```{language}\n(.*?)^```", text, flags=re.M | re.S):
        blocks.append((text[: match.start()].count("\n") + 1, match.group(1)))
    return blocks


def kbenv_commands() -> list[tuple[int, str]]:
    """(line number, command) of every `kbenv ...` line of the bash blocks, continuation lines joined."""
    commands = []
    for line_no, source in code_blocks("bash"):
        joined = source.replace("\\\n", " ")
        for offset, line in enumerate(joined.splitlines()):
            command = line.split(" #", 1)[0].strip()
            if command.startswith("kbenv "):
                commands.append((line_no + offset + 1, command))
    return commands


def kbenv_argv(command: str) -> list[str]:
    """The arguments of a README command, with the optional parts' brackets removed: `[--json]` -> `--json`."""
    return [token.lstrip("[").rstrip("]") for token in shlex.split(command)[1:] if token.strip("[]")]


PYTHON_BLOCKS = code_blocks("python")
COMMANDS = kbenv_commands()


def test_the_readme_has_code_to_check():
    assert len(PYTHON_BLOCKS) >= 4 and len(COMMANDS) >= 7


@pytest.mark.parametrize(("line_no", "source"), PYTHON_BLOCKS, ids=[f"line{n}" for n, _ in PYTHON_BLOCKS])
def test_python_block_runs(line_no, source, tmp_path, monkeypatch):
    if SKIP_MARK in source:
        pytest.skip(source.split(SKIP_MARK, 1)[1].splitlines()[0].strip())
    monkeypatch.chdir(tmp_path)  # whatever a block writes stays out of the checkout
    exec(compile(source, f"README.md line {line_no}", "exec"), {"__name__": "__readme__"})


@pytest.mark.parametrize(("line_no", "command"), COMMANDS, ids=[f"line{n}" for n, _ in COMMANDS])
def test_kbenv_command_parses(line_no, command):
    args = build_parser().parse_args(kbenv_argv(command))
    assert callable(args.func)
