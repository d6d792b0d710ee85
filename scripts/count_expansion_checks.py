"""Count where the engine asks which expansions are in play (issue 49): the tests of a state's expansion bits
(`st[EXPANSIONS] & ...`) in the generic modules of kbenv/engine, in the dispatcher (kbenv/engine/dispatch/) and in
the expansion packages, and the generic modules that import an expansion package.

Run: `python scripts/count_expansion_checks.py [TREE] [--json]` (default: this tree). A test of `st[EXPANSIONS] != 0`
or `== 0` (any expansion at all: the base game's fast path) is not counted.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from pathlib import Path

BIT_TEST = re.compile(r"EXPANSIONS\]\s*&")
ARGUMENT_TEST = re.compile(r"\bexpansions\s*&")  # a kernel's `expansions` argument (the set-up's draws)
PACKAGES = ("nomads", "crossroads", "marshlands", "harvest", "island", "queenies")


def count(tree: Path) -> dict:
    engine = tree / "kbenv" / "engine"
    out = {"generic": {}, "dispatcher": 0, "packages": {}, "generic_importing_packages": {}, "argument_tests": {}}
    for path in sorted(engine.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        n = len(BIT_TEST.findall(path.read_text()))
        rel = path.relative_to(engine)
        if rel.parts[0] == "dispatch":
            out["dispatcher"] += n
        elif len(rel.parts) > 1:
            if n:
                out["packages"][str(rel)] = n
        else:
            if n:
                out["generic"][path.stem] = n
            arguments = len(ARGUMENT_TEST.findall(path.read_text()))
            if arguments:
                out["argument_tests"][path.stem] = arguments
            imported = sorted({node.module.split(".")[0] for node in ast.walk(ast.parse(path.read_text()))
                               if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module
                               and node.module.split(".")[0] in PACKAGES})
            if imported:
                out["generic_importing_packages"][path.stem] = imported
    out["generic_total"] = sum(out["generic"].values())
    out["packages_total"] = sum(out["packages"].values())
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="count the engine's expansion-bit tests (issue 49)")
    parser.add_argument("tree", nargs="?", type=Path, default=Path(__file__).resolve().parents[1],
                        help="the repository to count (default: this one)")
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    args = parser.parse_args(argv)
    result = count(args.tree)
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(f"expansion-bit tests in generic modules: {result['generic_total']} "
          f"({', '.join(f'{k} {v}' for k, v in result['generic'].items())})")
    print(f"in the dispatcher: {result['dispatcher']}; in the expansion packages: {result['packages_total']}")
    arguments = result["argument_tests"]
    print(f"tests of an `expansions` argument in generic modules (the set-up's draws, before a state exists): "
          f"{sum(arguments.values())} ({', '.join(f'{k} {v}' for k, v in arguments.items())})")
    print(f"generic modules importing an expansion package: {len(result['generic_importing_packages'])} "
          f"({', '.join(result['generic_importing_packages'])})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
