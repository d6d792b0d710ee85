"""Generate the substitute sections of Marshlands and Harvest (kbenv/data/sections/marsh-substitute-1..4.txt,
harvest-substitute-1..4.txt).

No layout of the printed Marshlands sections is reachable (spec decision 5), so kbenv ships substitutes made
by this seeded procedure; they are named as substitutes everywhere, and a real section file replaces its
substitute (kbenv.board.user_sections). The same seed always gives the same files (Python's random.Random
with integer seeds), and a test regenerates them and compares with the committed ones.

The procedure follows the printed component counts (EN 984, 990-996): each section has swamp hexes, one
palace instead of castles, and the two location hexes of its one Marshlands type (substitute k: the k-th Marshlands
location type of kbenv.catalogue). The rest is invented, with the usual terrain mix of the 16 known sections
(kb-data: median 13 water and 6 mountain hexes; 13 to 18 of each card terrain):

    G C D F T S: 13 each, W: 13, M: 6, P: 1, L: 2  (100 hexes)

1. Special hexes: shuffle the 64 hexes off the section border (rows and columns 1..8) and keep, in that order,
   each hex at least 3 steps from those kept, until there are 3: the palace, then the two locations.
2. Terrain: until every quota is used, pick a terrain with quota left at random, a patch size of 2..6 (at most
   the quota left) and a random free hex, and grow the patch from it (each step adds a random free neighbour
   of the patch) until it has its size or cannot grow. Real boards are made of such small areas.
3. Keep the result if every special hex has at least 3 buildable neighbours (G C D F T S; so that tiles can be
   taken and the palace contested) and the section passes kbenv.board.section_files.check_marshlands_section
   (the checks a user's real section must pass); otherwise try again (the generator goes on from its state).

Harvest (issue 22, spec decision 5, EN 1227-1233, 1279): no layout of the printed Harvest sections is reachable
either. Each Harvest substitute has farmland, one silo, one castle (whether the printed sections have castles is
unknown; the base sections all have some) and two location hexes of two different Harvest types (16 tiles, 2 of
each of the 8 types, 2 per location hex: "8 new types of locations, two on each section", EN 1231; the pairing
is pmw57's, unverified: substitute k holds the types 2k-1 and 2k of kbenv.catalogue's Harvest rows):

    G C D F T: 13 each, A (farmland): 10, W: 13, M: 8, O (silo): 1, K: 1, L: 2  (100 hexes)

The same three steps, with four special hexes (the silo, the castle, then the two locations, in that order) and
the seed 22 (issue 22); step 3 checks the Harvest counts above instead of the Marshlands ones.

Usage: python scripts/make_substitute_sections.py [--seed 21] [--out kbenv/data/sections] [--check]
(--check: exit 1 if the files in --out differ from what the seed gives).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kbenv import catalogue as CAT  # noqa: E402
from kbenv.board.section_files import check_marshlands_section, parse_section_file  # noqa: E402

SEED = 21  # issue 21
HARVEST_SEED = 22  # issue 22
SIZE = 10
KINDS = CAT.BONUS_TYPES  # the Marshlands location types: substitute k + 1 stands in for the section of KINDS[k]
QUOTAS = {"G": 13, "C": 13, "D": 13, "F": 13, "T": 13, "S": 13, "W": 13, "M": 6}
HARVEST_TYPES = tuple(loc.name for loc in CAT.LOCATION_TYPES if loc.expansion == "harvest")
HARVEST_PAIRS = tuple(HARVEST_TYPES[2 * k : 2 * k + 2] for k in range(4))  # substitute k + 1: (type, type)
HARVEST_QUOTAS = {"G": 13, "C": 13, "D": 13, "F": 13, "T": 13, "A": 10, "W": 13, "M": 8}
HARVEST_BUILDABLE = set("GCDFTA")
assert sum(HARVEST_QUOTAS.values()) + 4 == SIZE * SIZE and len(HARVEST_TYPES) == 8
BUILDABLE = set("GCDFTS")
MIN_SPECIAL_DISTANCE = 3
MIN_BUILDABLE_NEIGHBOURS = 3
PATCH_SIZES = (2, 6)
assert sum(QUOTAS.values()) + 3 == SIZE * SIZE


def neighbours(r: int, c: int) -> list[tuple[int, int]]:
    """Odd-r neighbours inside the section (odd rows sit half a hex to the right)."""
    odd = r % 2
    cand = [(r, c - 1), (r, c + 1), (r - 1, c - 1 + odd), (r - 1, c + odd), (r + 1, c - 1 + odd), (r + 1, c + odd)]
    return [(a, b) for a, b in cand if 0 <= a < SIZE and 0 <= b < SIZE]


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Hex steps between two hexes (cube coordinates of the odd-r grid)."""
    def cube(r, c):
        x = c - (r - (r & 1)) // 2
        return x, -x - r, r
    return max(abs(p - q) for p, q in zip(cube(*a), cube(*b), strict=True))


def place_specials(rng: random.Random, count: int = 3) -> list[tuple[int, int]]:
    """`count` interior hexes, each at least MIN_SPECIAL_DISTANCE steps from the others (palace or silo first)."""
    cells = [(r, c) for r in range(1, SIZE - 1) for c in range(1, SIZE - 1)]
    rng.shuffle(cells)
    kept: list[tuple[int, int]] = []
    for cell in cells:
        if all(distance(cell, k) >= MIN_SPECIAL_DISTANCE for k in kept):
            kept.append(cell)
            if len(kept) == count:
                return kept
    raise RuntimeError(f"no room for {count} special hexes")  # cannot happen on a 10x10 section


def fill_terrain(rng: random.Random, grid: list[list[str]], quotas: dict[str, int] = QUOTAS) -> None:
    """Fill the free hexes ('.') with patches of the quota terrains."""
    left = dict(quotas)
    while any(left.values()):
        terrain = rng.choice(sorted(t for t, n in left.items() if n))
        size = min(left[terrain], rng.randint(*PATCH_SIZES))
        free = [(r, c) for r in range(SIZE) for c in range(SIZE) if grid[r][c] == "."]
        start = rng.choice(free)
        patch = [start]
        grid[start[0]][start[1]] = terrain
        while len(patch) < size:
            frontier = sorted({n for cell in patch for n in neighbours(*cell) if grid[n[0]][n[1]] == "."})
            if not frontier:
                break
            r, c = rng.choice(frontier)
            grid[r][c] = terrain
            patch.append((r, c))
        left[terrain] -= len(patch)


def section_text(index: int, seed: int, grid: list[list[str]], palace, locations) -> str:
    """The kb-data format file of substitute `index` (1..4)."""
    kind = KINDS[index - 1]
    counts = {code: sum(row.count(code) for row in grid) for code in "GCDFTSWMPL"}
    lines = [
        f"# section: Marshlands substitute {index} (stands in for the printed {kind.capitalize()} section)",
        f"# id: marsh-substitute-{index}",
        "# expansion: marshlands",
        f"# SUBSTITUTE: generated by scripts/make_substitute_sections.py (seed {seed}); no printed layout is reachable",
        f"#   Not the printed section: its component counts (swamp, a palace instead of castles, two {kind} location",
        f"#   hexes) with invented terrain. A real {kind}.txt in the folder named by KBENV_SECTIONS replaces it.",
        f"# location_types: {kind} x2 hexes (4 tiles)",
        *(f"# location: {r},{c} {kind}" for r, c in locations),
        f"# palace: {palace[0]},{palace[1]}",
        "# counts: " + " ".join(f"{k}={v}" for k, v in counts.items()),
        "# coords: (row,col); odd rows (1,3,5,7,9) sit half a hex to the right (odd-r), as in kb-data",
        *("".join(row) for row in grid),
    ]
    return "\n".join(lines) + "\n"


def generate(index: int, seed: int = SEED) -> str:
    """The file text of substitute `index` (1..4) from the seed."""
    rng = random.Random(seed * 1000 + index)
    for _ in range(1000):
        palace, *locations = place_specials(rng)
        locations = sorted(locations)
        grid = [["."] * SIZE for _ in range(SIZE)]
        grid[palace[0]][palace[1]] = "P"
        for r, c in locations:
            grid[r][c] = "L"
        fill_terrain(rng, grid)
        specials = [palace, *locations]
        if any(sum(grid[a][b] in BUILDABLE for a, b in neighbours(*s)) < MIN_BUILDABLE_NEIGHBOURS for s in specials):
            continue
        text = section_text(index, seed, grid, palace, locations)
        sf = parse_section_file(text, f"marsh-substitute-{index}")
        check_marshlands_section(sf, KINDS[index - 1], f"marsh-substitute-{index}")
        return text
    raise RuntimeError(f"substitute {index}: no acceptable section in 1000 tries")


def harvest_section_text(index: int, seed: int, grid: list[list[str]], silo, castle, locations) -> str:
    """The kb-data format file of Harvest substitute `index` (1..4); `locations`: [(hex, type)]."""
    kinds = HARVEST_PAIRS[index - 1]
    counts = {code: sum(row.count(code) for row in grid) for code in "GCDFTAWMOKL"}
    lines = [
        f"# section: Harvest substitute {index} (stands in for the printed {kinds[0]} / {kinds[1]} section)",
        f"# id: harvest-substitute-{index}",
        "# expansion: harvest",
        f"# SUBSTITUTE: generated by scripts/make_substitute_sections.py (seed {seed}); no printed layout is reachable",
        "#   Not the printed section: its component counts (farmland, a silo, one location hex of each of two",
        "#   Harvest types) with invented terrain and one castle (unknown whether the printed sections have any).",
        f"# location_types: {kinds[0]} x1 hex, {kinds[1]} x1 hex (2 tiles each)",
        *(f"# location: {r},{c} {kind}" for (r, c), kind in locations),
        f"# silo: {silo[0]},{silo[1]}",
        f"# castle: {castle[0]},{castle[1]}",
        "# counts: " + " ".join(f"{k}={v}" for k, v in counts.items()),
        "# coords: (row,col); odd rows (1,3,5,7,9) sit half a hex to the right (odd-r), as in kb-data",
        *("".join(row) for row in grid),
    ]
    return "\n".join(lines) + "\n"


def check_harvest_grid(rows: list[str], locations: dict, kinds: tuple[str, str]) -> None:
    """The Harvest substitute counts: farmland, one silo, one castle, two location hexes of the two types."""
    letters = "".join(rows)
    assert letters.count("O") == 1 and letters.count("K") == 1 and letters.count("A") > 0, letters
    assert sorted(locations.values()) == sorted(kinds), locations


def generate_harvest(index: int, seed: int = HARVEST_SEED) -> str:
    """The file text of Harvest substitute `index` (1..4) from the seed."""
    rng = random.Random(seed * 1000 + index)
    kinds = HARVEST_PAIRS[index - 1]
    for _ in range(1000):
        silo, castle, *hexes = place_specials(rng, 4)
        locations = list(zip(sorted(hexes), kinds, strict=True))
        grid = [["."] * SIZE for _ in range(SIZE)]
        grid[silo[0]][silo[1]] = "O"
        grid[castle[0]][castle[1]] = "K"
        for (r, c), _kind in locations:
            grid[r][c] = "L"
        fill_terrain(rng, grid, HARVEST_QUOTAS)
        specials = [silo, castle, *hexes]
        if any(sum(grid[a][b] in HARVEST_BUILDABLE for a, b in neighbours(*s)) < MIN_BUILDABLE_NEIGHBOURS
               for s in specials):
            continue
        text = harvest_section_text(index, seed, grid, silo, castle, locations)
        sf = parse_section_file(text, f"harvest-substitute-{index}")
        check_harvest_grid(sf.rows, sf.locations, kinds)
        return text
    raise RuntimeError(f"harvest substitute {index}: no acceptable section in 1000 tries")


def expected_files(seed: int = SEED, harvest_seed: int = HARVEST_SEED) -> dict[str, str]:
    """{file name: text} of every substitute section."""
    out = {f"marsh-substitute-{k}.txt": generate(k, seed) for k in range(1, len(KINDS) + 1)}
    out.update({f"harvest-substitute-{k}.txt": generate_harvest(k, harvest_seed)
                for k in range(1, len(HARVEST_PAIRS) + 1)})
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=SEED,
                        help=f"the Marshlands seed (default {SEED}, the shipped files)")
    parser.add_argument("--harvest-seed", type=int, default=HARVEST_SEED,
                        help=f"the Harvest seed (default {HARVEST_SEED}, the shipped files)")
    parser.add_argument("--out", type=Path, default=ROOT / "kbenv" / "data" / "sections", help="output folder")
    parser.add_argument("--check", action="store_true", help="compare with the files in --out instead of writing")
    args = parser.parse_args(argv)
    differ = []
    for name, text in expected_files(args.seed, args.harvest_seed).items():
        path = args.out / name
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                differ.append(str(path))
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    if differ:
        print("differ from the seed: " + ", ".join(differ))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
