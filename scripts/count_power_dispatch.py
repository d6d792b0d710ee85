"""Count how engine code branches on which power it is (issue 21): comparisons of a power value (a
variable named `power` or `st[POWER]`) with a named constant, the `elif power ==` lines, the calls of
per-power predicates, and the functions holding any of them; beside them the comparisons of a rule code
(`rule == RULE_...`), the registration spots of the trait dispatcher.

Run: `python scripts/count_power_dispatch.py [TREE]` (default: this tree); reads TREE/kbenv/engine/**/*.py.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PREDICATES = {"is_donation", "is_crossroads_power", "is_piece_power"}


def is_power(node: ast.AST) -> bool:
    if isinstance(node, ast.Name):
        return node.id == "power"
    return isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Name) and node.slice.id == "POWER"


def is_named_constant(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id.isupper()


def count(tree: Path) -> dict[str, int]:
    totals = {"functions branching on the power": 0, "power comparisons": 0, "elif power ==": 0,
              "per-power predicate calls": 0, "rule-code comparisons": 0, "functions comparing rule codes": 0}
    for path in sorted((tree / "kbenv" / "engine").rglob("*.py")):
        text = path.read_text()
        totals["elif power =="] += sum(line.strip().startswith("elif power ==") for line in text.splitlines())
        for fn in ast.walk(ast.parse(text)):
            if not isinstance(fn, ast.FunctionDef):
                continue
            power_hits = rule_hits = 0
            for node in ast.walk(fn):
                if isinstance(node, ast.Compare):
                    sides = [node.left, *node.comparators]
                    for a, b in zip(sides, sides[1:], strict=False):
                        if (is_power(a) and is_named_constant(b)) or (is_power(b) and is_named_constant(a)):
                            power_hits += 1
                        if (isinstance(a, ast.Name) and a.id == "rule" and is_named_constant(b)):
                            rule_hits += 1
                elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in PREDICATES:
                    totals["per-power predicate calls"] += 1
                    power_hits += 1
            totals["power comparisons"] += power_hits
            totals["functions branching on the power"] += power_hits > 0
            totals["rule-code comparisons"] += rule_hits
            totals["functions comparing rule codes"] += rule_hits > 0
    return totals


if __name__ == "__main__":
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent
    for key, value in count(root).items():
        print(f"{key:<36}{value:>5}")
