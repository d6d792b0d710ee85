"""Write the two substitute island sides (kbenv/data/islands/island-substitute-1.txt, -2.txt) by the seeded
procedure of kbenv.board.island_files (issue 23, spec decision 5). The same seed always gives the same files.

Usage: python scripts/make_island_substitutes.py [--check]   (--check: exit 1 if the committed files differ)
"""

from __future__ import annotations

import sys

from kbenv.board.island_files import DATA, SUBSTITUTE_SIDES, side_file_text


def main(argv: list[str]) -> int:
    differ = 0
    for k, name in enumerate(SUBSTITUTE_SIDES, start=1):
        path = DATA / f"{name}.txt"
        text = side_file_text(k)
        if "--check" in argv:
            differ += not path.exists() or path.read_text(encoding="utf-8") != text
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
