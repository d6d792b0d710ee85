"""Measure a power's footprint (issue 21): for every location power of the catalogue (base, Nomads,
Crossroads, Marshlands), the non-test Python files of kbenv/, agents/, scripts/ and benchmarks/ that name it.

A file names a power when it holds the power's name or an identifier made from it, case-insensitively, as a
whole word where `_` also separates words: `temple`, `Temple`, `TEMPLE_RESERVE`, `RULE_TEMPLE`,
`temple_owed`, `temples`, `TempleHook` all name the Temple; `temperature` does not. A name of several words
(`foresters_lodge`, `city_hall`) matches with any separator or none (`city hall`, `CITY_HALL`, `cityhall`,
`Forester's Lodge`). Names of task cards (`TaskCard(...)` rows) that hold a power's name (`place_of_refuge`)
are blanked out first: they name the task, not the power. The power list is read from the `LocationType(...)`
rows of kbenv/catalogue.py (parsed, not imported: the script loads no numba). This script is left out of its
own count; folders named `tests` are left out, and so is the table of old module paths (kbenv/envs/old_paths.py:
it names modules that moved, such as `kbenv.engine.canoe`, not rules).

Run: `python scripts/power_footprint.py [--json] [--root TREE] [--files]`.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from pathlib import Path

FOLDERS = ("kbenv", "agents", "scripts", "benchmarks")
NOT_COUNTED = ("scripts/power_footprint.py", "kbenv/envs/old_paths.py")
ROOT = Path(__file__).resolve().parent.parent


def powers(root: Path) -> list[tuple[str, str | None]]:
    """(name, expansion) of every `LocationType(...)` row of root/kbenv/catalogue.py, in catalogue order."""
    tree = ast.parse((root / "kbenv" / "catalogue.py").read_text())
    rows = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "LocationType":
            name, _letter, expansion = (ast.literal_eval(arg) for arg in node.args[:3])
            rows.append((node.lineno, name, expansion))
    return [(name, expansion) for _line, name, expansion in sorted(rows)]


def task_names(root: Path) -> list[str]:
    """The names of the `TaskCard(...)` rows of root/kbenv/catalogue.py."""
    tree = ast.parse((root / "kbenv" / "catalogue.py").read_text())
    return [ast.literal_eval(node.args[0]) for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "TaskCard"]


def blank_tasks(text: str, tasks: list[str]) -> str:
    """`text` with every task-card name (any separator, any case) replaced by spaces."""
    for task in tasks:
        if "_" in task:
            text = name_pattern(task).sub(lambda m: " " * len(m.group(0)), text)
    return text


def name_pattern(name: str) -> re.Pattern[str]:
    """The regular expression of a power name and the identifiers made from it (see the module docstring)."""
    words = []
    for word in name.split("_"):
        # `foresters` also reads `forester's`
        words.append(re.escape(word[:-1]) + "'?s" if word.endswith("s") else re.escape(word))
    body = r"[ _'\-]?".join(words)
    return re.compile(rf"{body}(?:e?s)?", re.IGNORECASE)


def names(text: str, pattern: re.Pattern[str]) -> bool:
    """Whether `text` names the power of `pattern`: an occurrence with no letter or digit on either side,
    or at a camel-case seam (`isTemple`, `TempleHook`)."""
    for match in pattern.finditer(text):
        word, start, end = match.group(0), match.start(), match.end()
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        left = not before.isalnum() or (word[0].isupper() and (before.islower() or before.isdigit()))
        right = not after.isalnum() or (after.isupper() and word[-1].islower())
        if left and right:
            return True
    return False


def source_files(root: Path) -> list[Path]:
    """The non-test Python files of the measured folders, this script excluded."""
    me = Path(__file__).resolve()
    files = []
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            parts = path.relative_to(root).parts
            if "tests" in parts or "__pycache__" in parts or any(p.startswith(".") for p in parts):
                continue
            if path.resolve() == me or path.relative_to(root).as_posix() in NOT_COUNTED:
                continue
            files.append(path)
    return files


def footprint(root: Path = ROOT) -> dict[str, dict]:
    """power name -> {"expansion": ..., "files": [paths relative to root, sorted]}."""
    tasks = task_names(root)
    texts = {path.relative_to(root).as_posix(): blank_tasks(path.read_text(encoding="utf-8"), tasks)
             for path in source_files(root)}
    result = {}
    for name, expansion in powers(root):
        pattern = name_pattern(name)
        result[name] = {"expansion": expansion, "files": sorted(f for f, t in texts.items() if names(t, pattern))}
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print {power: {expansion, files}} as JSON")
    parser.add_argument("--files", action="store_true", help="list the files naming each power")
    parser.add_argument("--root", type=Path, default=ROOT, help="the tree to measure (default: this one)")
    args = parser.parse_args(argv)
    if not (args.root / "kbenv" / "catalogue.py").is_file():
        parser.error(f"--root: {args.root} holds no kbenv/catalogue.py")
    result = footprint(args.root)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{'power':<16} {'expansion':<11} files")
    for name, row in result.items():
        print(f"{name:<16} {row['expansion'] or 'base':<11} {len(row['files'])}")
        if args.files:
            for path in row["files"]:
                print(f"    {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
