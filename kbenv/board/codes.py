"""Terrain, location and card codes shared by the board loader, the engine and the renderers."""

from __future__ import annotations

# Terrain code ids (index into per-terrain masks).  0..4 are the buildable terrains and the terrain
# card types, in the order of the card letters G C D F T.
GRASS, CANYON, DESERT, FLOWER, FOREST = 0, 1, 2, 3, 4
WATER, MOUNTAIN, CASTLE, NOMAD, SWAMP, FARMLAND, PALACE, SILO, LOCATION = 5, 6, 7, 8, 9, 10, 11, 12, 13
NUM_TERRAIN_CODES = 14
NUM_BUILDABLE = 5

TERRAIN_LETTERS = "GCDFTWMKNSAPO"  # index = code id (LOCATION has no letter: its type letter is used)
TERRAIN_NAMES = (
    "grass", "canyon", "desert", "flower field", "forest", "water", "mountain", "castle",
    "nomad space", "swamp", "farmland", "palace", "silo", "location",
)
CARD_LETTERS = "GCDFT"

# Location types.  The first eight are the base game's powers, in action order.
LOCATION_LETTERS = "ofawtbhpcqvg"
LOCATION_NAMES = (
    "oracle", "farm", "oasis", "tower", "tavern", "barn", "harbor", "paddock",
    "caravan", "quarry", "village", "garden",
)
ORACLE, FARM, OASIS, TOWER, TAVERN, BARN, HARBOR, PADDOCK = range(8)
NUM_POWERS = 8

# Kingdom Builder (scoring) cards.
CARD_NAMES = (
    "fishermen", "miners", "workers", "merchants", "discoverers",
    "hermits", "citizens", "knights", "lords", "farmers",
)
FISHERMEN, MINERS, WORKERS, MERCHANTS, DISCOVERERS, HERMITS, CITIZENS, KNIGHTS, LORDS, FARMERS = range(10)


def card_index(name: str) -> int:
    """Index of a scoring card by name; ValueError naming the card if unknown."""
    try:
        return CARD_NAMES.index(name.lower())
    except (ValueError, AttributeError):
        raise ValueError(f"unknown Kingdom Builder card {name!r}; expected one of {', '.join(CARD_NAMES)}") from None


def terrain_card_index(letter: str) -> int:
    """Index 0..4 of a terrain card letter (G C D F T)."""
    if not isinstance(letter, str) or len(letter) != 1 or letter.upper() not in CARD_LETTERS:
        raise ValueError(f"unknown terrain card {letter!r}; expected one of G C D F T")
    return CARD_LETTERS.index(letter.upper())


def decode_hex_code(ch: str) -> tuple[int, int]:
    """(terrain code id, location type or -1) of one board character."""
    if ch in LOCATION_LETTERS:
        return LOCATION, LOCATION_LETTERS.index(ch)
    if ch in TERRAIN_LETTERS:
        return TERRAIN_LETTERS.index(ch), -1
    raise ValueError(f"unknown board code {ch!r}")


def encode_hex_code(terrain: int, location_type: int) -> str:
    """Board character of a hex."""
    return LOCATION_LETTERS[location_type] if terrain == LOCATION else TERRAIN_LETTERS[terrain]
