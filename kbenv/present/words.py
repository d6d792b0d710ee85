"""Kingdom Builder in words, for a person at the terminal: the names of terrain cards, Kingdom Builder
cards, locations and nomad tiles, a one-line description of each card and power (restated from the
rulebooks), and each decision as a sentence ("build at 3,4", "use the Oracle tile", "end the turn"). An island
hex reads `island r,c` ("build at island 1,2", "Rope bridge: move it to island 0,3"): what a person types for it.

Only the play loop and the human agent use this module; nothing here changes a game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import catalogue as CAT
from ..board.geometry import NUM_HEXES, hex_rc
from ..engine import state as S
from ..expansions.island.setup import location_info, location_slots
from ..expansions.island.view import hex_words
from ..game.actions import action_hex, is_island_action

if TYPE_CHECKING:
    from ..game import Game

# Terrain cards by letter (G C D F T): "Flower field", not "F".
CARD_WORDS = {t.letter: t.name.capitalize() for t in CAT.TERRAIN_CARDS}

# One line per Kingdom Builder card (base rulebook; Nomads: the big box rulebook, scored during play).
SCORING_CARD_TEXT = {
    "fishermen": "1 gold for each of your settlements next to water",
    "miners": "1 gold for each of your settlements next to a mountain",
    "workers": "1 gold for each of your settlements next to a castle or location",
    "merchants": "4 gold for each castle or location linked to another one by a chain of your settlements",
    "discoverers": "1 gold for each horizontal row holding at least one of your settlements",
    "hermits": "1 gold for each of your separate settlement areas (a lone settlement counts)",
    "citizens": "1 gold for every 2 settlements of your largest settlement area",
    "knights": "2 gold for each of your settlements on the row where you have the most",
    "lords": "in each quarter of the board: 12 gold for the most settlements there, 6 for the second most",
    "farmers": "3 gold for each of your settlements in the quarter of the board where you have the fewest",
    "families": "during play: 2 gold when your mandatory action builds 3 settlements in a straight line",
    "shepherds": "during play: 2 gold for each settlement that leaves no empty hex of its terrain next to it",
    "ambassadors": "during play: 1 gold for each settlement built next to another player's settlement",
    # Marshlands (the printed texts are missing from the rulebook files: amounts unverified, catalogue rows)
    "geologists": "2 gold for each mountain area linked to another one by your settlements (amount unverified)",
    "messengers": "2 gold for each hex of the shortest path between your two farthest connected settlements, both "
                  "ends included (amount unverified)",
    "noblewomen": "every castle, location and other special hex scored like a palace: 5 gold to the most "
                  "settlements next to it (amount unverified)",
    "vassals": "1 gold for each of your settlements on the seams between the sections (amount unverified)",
    "captains": "1 gold for each of your settlements next to 3 or more of your own (amount unverified)",
    "scouts": "1 gold for each of your settlements next to the removed terrain (amount unverified)",
    # Harvest (EN 1367-1399; Rangers, Chainers, Travellers, Homesteaders: amounts unverified, catalogue rows)
    "mayors": "4 gold for each horizontal line you mark with a settlement from your supply when 4 of your "
              "settlements stand in it (a line has one owner)",
    "rangers": "2 gold for each horizontal line with exactly one of your settlements (amount unverified)",
    "chainers": "1 gold for each of your settlements next to exactly 2 of your own (amount unverified)",
    "travellers": "1 gold for each of your settlements on the edge of the board, a corner once (amount unverified)",
    "homesteaders": "1 gold for each of your settlements in the section where you have the most (amount "
                    "unverified)",
    "rovers": "during play: at the end of your turn 1 gold for each board section where you built a new settlement",
}
assert set(SCORING_CARD_TEXT) == {card.name for card in CAT.SCORING_CARDS}, "one line per card"

# One line per location power (base game, Nomads, Crossroads and Marshlands rulebooks) and per Marshlands
# bonus tile (taken with the second tile of its type, usable from the next turn): the catalogue rows' text.
LOCATION_TEXT = {loc.name: loc.text for loc in CAT.LOCATION_TYPES}
BONUS_TILE_TEXT = {loc.name: loc.bonus_text for loc in CAT.LOCATION_TYPES if loc.bonus_text}

# One line per nomad tile kind (a tile is used in the round after it is claimed, then removed).
NOMAD_TILE_TEXT = {
    **{f"donation-{t}": f"build 3 settlements on {name}" for t, name in
       (("G", "grass"), ("C", "canyon"), ("D", "desert"), ("F", "flower field"), ("T", "forest"),
        ("W", "water"), ("M", "mountain"))},
    "resettlement": "move 1 to 4 settlements, up to 4 hexes in all",
    "outpost": "one settlement of this turn need not be next to your own",
    "sword": "remove one settlement of each other player",
    "treasure": "3 gold at once",
}

def phase_words(game: Game) -> str:
    """What the decision at hand asks for, in words (the phase, the mandatory action's progress, the power)."""
    st = game.state
    phase = S.PHASE_NAMES[int(st[S.PHASE])]
    target, built = int(st[S.MANDATORY_TARGET]) or 3, int(st[S.MANDATORY_BUILT])
    power = _power(st)
    if phase == "idle" and not st[S.MANDATORY_DONE]:
        return (f"your turn: build {target} settlements on the terrain of your card (the mandatory action); "
                "you may use a tile before or after it")
    if phase == "idle":
        return "mandatory action done: use a tile or end the turn"
    if phase == "mandatory":
        return f"mandatory action: {built} of {target} settlements built"
    if phase == "game_over":
        return "the game is over"
    if phase == "silo":
        return silo_words(st)
    name = title(power) if power else "power"
    if phase == "choose_source":
        return f"{name}: choose the piece to move or take"
    if phase == "choose_power":  # Harvest: a repeat names the power it runs once more (A-H3)
        return f"{name}: choose the power to use once more"
    if phase == "choose_target" and not any(a < NUM_HEXES or is_island_action(a) for a in game.legal_actions()):
        return f"{name}: choose take or return"  # Harvest number tiles (A-H5)
    if phase == "choose_target":
        return f"{name}: choose the hex"
    return f"{name}: choose the next hex, or done"


def silo_words(st) -> str:
    """The silo end phase's decision at hand (H-5, A-H2)."""
    at = "{},{}".format(*hex_rc(int(st[S.SILO_AT]) - 1))
    mode, steps = int(st[S.SILO_MODE]), int(st[S.SILO_STEPS])
    if mode == 0:
        return f"silo at {at} (end of the game): build up to 3 settlements, move up to 3, or done"
    if mode == 1:
        return f"silo at {at}: build settlement {steps + 1} of up to 3 touching your own" + (", or done" if steps
                                                                                          else "")
    if st[S.SOURCE] < 0:
        return f"silo at {at}: choose settlement {steps + 1} of up to 3 to move" + (", or done" if steps else "")
    return f"silo at {at}: choose where it moves (touching your other settlements)"


def title(name: str) -> str:
    """A catalogue name as a person reads it: 'foresters_lodge' -> "Forester's lodge", 'oracle' -> 'Oracle',
    'farmland' (the power) -> 'Farm action'."""
    if name == "foresters_lodge":
        return "Forester's lodge"
    if name == CAT.FARM_ACTION:
        return "Farm action"
    return name.replace("_", " ").capitalize()


def card_words(letter: str | None) -> str:
    """A terrain card by name ('F' -> 'Flower field'); '-' for no card."""
    return CARD_WORDS.get(letter, letter) if letter else "-"


def hand_words(cards: list[str]) -> str:
    """A hand of terrain cards in words ('Flower field', or 'Grass and Forest' with Crossroads)."""
    return " and ".join(card_words(c) for c in cards) if cards else "-"


def locations_in_play(game: Game) -> list[tuple[str, list[tuple[int, int]]]]:
    """[(location type, its hexes)] of the board and the island (the island's as extended (row, col): write them
    with kbenv.expansions.island.view.hex_words), in catalogue order."""
    hexes: dict[int, list[tuple[int, int]]] = {}
    for i, h in location_slots(game.state):  # the island's location last (kbenv.expansions.island.setup)
        hexes.setdefault(location_info(game.state, i)[0], []).append(hex_rc(h))
    return [(CAT.LOCATION_NAMES[k], sorted(hexes[k])) for k in sorted(hexes)]


def _power(st) -> str | None:
    code = int(st[S.POWER])
    return CAT.POWER_NAMES[code] if 0 <= code < CAT.NUM_POWER_CODES else None


def _kind(power: str) -> str:
    """'build', 'move', 'walls', 'piece' or 'tile' for a power name."""
    for loc in CAT.LOCATION_TYPES:
        if loc.name == power:
            return loc.power
    if power in ("resettlement", "cave"):
        return "move"
    if power.startswith("donation-") or power == CAT.FARM_ACTION:
        return "build"
    return "tile"


def _placed_piece(power: str) -> str | None:
    """The piece kind a power places (catalogue PIECE_KINDS, e.g. the scouts), None for the others."""
    return next((kind.name for kind in CAT.PIECE_KINDS if kind.power == power), None)


def describe_decision(game: Game, action: int) -> str:
    """The decision `action` in words, read in the position before it is taken (its phase and power):
    'build at 3,4', 'Oracle: build at 5,6', 'Barn: move the settlement from 2,3', 'use the Oracle tile',
    'end the turn'. An action id outside the layout reads 'action N'."""
    st = game.state
    if 0 <= action < NUM_HEXES or is_island_action(action):
        where = hex_words(hex_rc(action_hex(action)))  # '3,4', or 'island 1,2' (kbenv.expansions.island.view)
        phase = S.PHASE_NAMES[int(st[S.PHASE])]
        power = _power(st)
        if phase == "silo":
            mode = int(st[S.SILO_MODE])
            verb = "build at" if mode == 1 else "move the settlement from" if st[S.SOURCE] < 0 else "move it to"
            return f"Silo: {verb} {where}"
        if phase in ("idle", "mandatory") or power is None:
            return f"build at {where}"
        kind = _kind(power)
        if phase == "choose_source":
            verb = "move the settlement from" if kind == "move" else "take from"
        elif kind == "build":
            verb = "build at"
        elif kind == "move":
            verb = "move it to"
        elif kind == "walls":
            verb = "stone wall at"
        elif _placed_piece(power) == "scout":
            verb = "place a scout at"
        else:
            verb = "choose"
        return f"{title(power)}: {verb} {where}"
    if not 0 <= action < CAT.ACTION_SIZE_V1:
        return f"action {action}"
    name = CAT.ACTION_NAMES[action]
    if S.PHASE_NAMES[int(st[S.PHASE])] == "silo" and name in ("option-1", "option-2"):
        return "Silo: build up to 3 settlements" if name == "option-1" else "Silo: move up to 3 settlements"
    if name == "end_turn":
        return "end the turn"
    if name == "done":
        return "done"
    if name == "cave":
        return "use a cave (move a settlement between caves)"
    if name.startswith("terrain-"):
        return f"choose {card_words(name[-1])}"
    if name in CAT.NOMAD_USABLE_KINDS:
        return f"use the {name} nomad tile"
    phase = S.PHASE_NAMES[int(st[S.PHASE])]
    if name in CAT.LOCATION_NAMES:
        if phase == "choose_power":  # Harvest: a repeat names the power it runs once more (A-H3)
            return f"use the {title(name)} power once more"
        return f"use the {title(name)} tile"
    if name in ("option-1", "option-2") and phase == "choose_target":  # Harvest number tiles (A-H5)
        return "take a number tile" if name == "option-1" else "return number tiles to build as many settlements"
    if name == "option-1" and phase == "choose_power":  # the Crossroads tile's extra action once more (A-H3, A-C8)
        return "use the Crossroads power once more (draw one more terrain card at the end of the turn)"
    if name == "farmland":
        return "take the farm action (build one settlement on farmland next to your own)"
    return name


def action_phrase(action: int, phase: str = "") -> str:
    """What a person types for an action: 'r,c' for a hex, 'island r,c' for an island hex, else its name ('oracle',
    'end_turn'); option-1 / option-2 by their name in `phase` (Harvest: "build" / "move" at a silo, "take" /
    "return" for the number tiles, "crossroads" in a repeat's choose_power; kbenv.positions.files.OPTION_NAMES)."""
    from ..positions.files import decision_name

    if 0 <= action < NUM_HEXES or is_island_action(action):
        return hex_words(hex_rc(action_hex(action)))
    name = decision_name(action, phase)
    return name if isinstance(name, str) and phase != "reaction" else CAT.ACTION_NAMES[action]
