"""Terrain, location and card codes shared by the board loader, the engine and the renderers.

Every name, letter and code here is derived from the rows of kbenv.catalogue (TERRAINS, TERRAIN_CARDS,
LOCATION_TYPES, SCORING_CARDS); the named constants are looked up by name, not by position.
"""

from __future__ import annotations

from ..catalogue import (
    BASE_CARD_NAMES,
    BASE_POWERS,
    LOCATION_NAMES,
    LOCATION_TYPES,
    SWAMP_CARD_NAMES,
    TERRAIN_CARDS,
    TERRAIN_CODE,
    TERRAINS,
)
from ..safe_json import short_repr

# Terrain code ids (index into per-terrain masks).  The terrain cards are the first codes (card id =
# terrain code; checked in the catalogue).
GRASS, CANYON, DESERT, FLOWER, FOREST = (
    TERRAIN_CODE[n] for n in ("grass", "canyon", "desert", "flower field", "forest"))
WATER, MOUNTAIN, CASTLE, NOMAD = (TERRAIN_CODE[n] for n in ("water", "mountain", "castle", "nomad space"))
SWAMP, FARMLAND, PALACE, SILO, LOCATION = (TERRAIN_CODE[n] for n in ("swamp", "farmland", "palace", "silo", "location"))
NUM_TERRAIN_CODES = len(TERRAINS)
NUM_BUILDABLE = len(TERRAIN_CARDS)  # the buildable terrains = the terrain-card kinds

TERRAIN_LETTERS = "".join(t.letter for t in TERRAINS)  # index = code id (LOCATION has no letter)
TERRAIN_NAMES = tuple(t.name for t in TERRAINS)
CARD_LETTERS = "".join(t.letter for t in TERRAIN_CARDS)
# Terrain-card ids as position files write them: the plain cards (id = terrain code), then the Marshlands
# swamp cards "S/G" .. "S/T" (id SWAMP_CARD_BASE + the other terrain's code, M-4).
SWAMP_CARD_BASE = len(CARD_LETTERS)
CARD_TEXT = tuple(CARD_LETTERS) + SWAMP_CARD_NAMES

# Location types.  The base game's powers come first, in action order.
LOCATION_LETTERS = "".join(loc.letter for loc in LOCATION_TYPES)


def display_letter(ch: str) -> str:
    """A location's letter as drawn: upper case where that is one letter (ß stays ß, not SS, which would push
    the rest of a text board's row one column right)."""
    return ch.upper() if len(ch.upper()) == 1 else ch
ORACLE, FARM, OASIS, TOWER, TAVERN, BARN, HARBOR, PADDOCK = (
    LOCATION_NAMES.index(n) for n in ("oracle", "farm", "oasis", "tower", "tavern", "barn", "harbor", "paddock"))
NUM_POWERS = BASE_POWERS

# Kingdom Builder (scoring) cards of the base game (the expansions' cards follow: catalogue.CARD_NAMES).
CARD_NAMES = BASE_CARD_NAMES
FISHERMEN, MINERS, WORKERS, MERCHANTS, DISCOVERERS, HERMITS, CITIZENS, KNIGHTS, LORDS, FARMERS = (
    CARD_NAMES.index(n) for n in (
        "fishermen", "miners", "workers", "merchants", "discoverers",
        "hermits", "citizens", "knights", "lords", "farmers"))


def card_index(name: str) -> int:
    """Index of a scoring card by name; ValueError naming the card if unknown."""
    try:
        return CARD_NAMES.index(name.lower())
    except (ValueError, AttributeError):
        raise ValueError(f"unknown Kingdom Builder card {short_repr(name)}; expected one of "
                         f"{', '.join(CARD_NAMES)}") from None


def terrain_card_index(letter: str) -> int:
    """Index of a terrain card letter (G C D F T) or of a swamp card "S/G" .. "S/T" (Marshlands)."""
    if isinstance(letter, str) and letter.upper() in SWAMP_CARD_NAMES:
        return SWAMP_CARD_BASE + SWAMP_CARD_NAMES.index(letter.upper())
    if not isinstance(letter, str) or len(letter) != 1 or letter.upper() not in CARD_LETTERS:
        raise ValueError(f"unknown terrain card {short_repr(letter)}; expected one of {' '.join(CARD_LETTERS)}")
    return CARD_LETTERS.index(letter.upper())


def decode_hex_code(ch: str) -> tuple[int, int]:
    """(terrain code id, location type or -1) of one board character."""
    if ch in LOCATION_LETTERS:
        return LOCATION, LOCATION_LETTERS.index(ch)
    if ch and ch in TERRAIN_LETTERS:
        return TERRAIN_LETTERS.index(ch), -1
    raise ValueError(f"unknown board code {short_repr(ch)}")


def encode_hex_code(terrain: int, location_type: int) -> str:
    """Board character of a hex."""
    return LOCATION_LETTERS[location_type] if terrain == LOCATION else TERRAIN_LETTERS[terrain]
