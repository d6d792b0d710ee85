"""What the page gets of a game: JSON built from `kbenv.game.view.PlayerView` only, never from the state.

`seat_view(game, seat)` is what one seat may see (its own hand, the other hands hidden); `spectator_view(game)`
is what a watcher may see: every part of it is what some opponent of that seat sees (each seat's hand as the
next seat sees it), so a hand is shown only when it is public. `board_meta()` is the drawing data shared by
every view: the hex centres of kbenv.present.image and the colours of kbenv.board.colours. With the Island a view's
board has an "island" object (its hexes in island (r, c) coordinates; a legal island hex is a decision of kind
"island" whose action is `island r,c`), drawn right of the board as in the PNG.
"""

from __future__ import annotations

from .. import catalogue as CAT
from ..board.codes import LOCATION_LETTERS, LOCATION_NAMES
from ..board.colours import (
    CAPITOL_RGB,
    CAVE_RGB,
    LOCATION_RGB,
    NOMAD_TILE_LABELS,
    NOMAD_TILE_RGB,
    SEAT_COLOUR_NAMES,
    SEAT_RGB,
    TERRAIN_RGB,
    UNKNOWN_RGB,
    WALL_MORTAR_RGB,
    WALL_RGB,
    seat_name,
)
from ..board.geometry import ISLAND_COLS, ISLAND_ROWS, ROWS
from ..board.island_files import SUBSTITUTE_SIDES
from ..expansions.harvest.view import HarvestFacts
from ..expansions.island.setup import hex_label
from ..expansions.island.view import island_rc, on_island
from ..game import Game
from ..game.view import PlayerView
from ..present.image import (
    HEX_W,
    ISLAND_W,
    MARGIN,
    RADIUS,
    TASK_GOLD,
    TERRAIN_KEY,
    ZONE_RGB,
    hex_centre,
    mayor_mark_centre,
)
from ..present.words import LOCATION_TEXT, SCORING_CARD_TEXT, card_words, describe_decision, title

BOARD_W = round(MARGIN * 2 + HEX_W * 20.5)
BOARD_H = round(MARGIN * 2 + RADIUS * 2 + 1.5 * RADIUS * 19)
ISLAND_WIDTH = round(BOARD_W + ISLAND_W)  # the drawing's width in an island game (the island right of the board)
TASK_TEXT = {task.name: task.rule for task in CAT.TASK_CARDS}  # a task card's full text (the page's hover)


def _hex(rc) -> list[int]:
    return [int(rc[0]), int(rc[1])]


def _hexes(cells) -> list[list[int]]:
    """The board's hexes of `cells`, sorted (island hexes go to the view's "island" object)."""
    return [_hex(rc) for rc in sorted(cells) if rc[0] < ROWS]


def board_meta() -> dict:
    """Geometry and colours of the board drawing (the same as render_image's PNG) and the names a page needs."""
    rgb = {k: list(v) for k, v in TERRAIN_RGB.items()}
    return {
        "geometry": {"radius": RADIUS, "hex_w": HEX_W, "margin": MARGIN, "width": BOARD_W, "height": BOARD_H,
                     "centres": [[[round(v, 3) for v in hex_centre(r, c)] for c in range(20)] for r in range(20)],
                     "mayor_marks": [[round(v, 3) for v in mayor_mark_centre(r)] for r in range(20)],
                     "island": {"width": ISLAND_WIDTH, "rows": ISLAND_ROWS, "cols": ISLAND_COLS,
                                "centres": [[[round(v, 3) for v in hex_centre(ROWS + r, c)]
                                             for c in range(ISLAND_COLS)] for r in range(ISLAND_ROWS)],
                                "mayor_marks": [[round(v, 3) for v in mayor_mark_centre(ROWS + r)]
                                                for r in range(ISLAND_ROWS)]}},
        "colours": {"terrain": rgb, "location": list(LOCATION_RGB), "unknown": list(UNKNOWN_RGB),
                    "seats": [list(c) for c in SEAT_RGB], "seat_names": list(SEAT_COLOUR_NAMES),
                    "wall": list(WALL_RGB), "wall_mortar": list(WALL_MORTAR_RGB), "cave": list(CAVE_RGB),
                    "capitol": list(CAPITOL_RGB), "nomad_tile": list(NOMAD_TILE_RGB), "zone": list(ZONE_RGB)},
        "terrain_key": [[name, list(c)] for name, c in TERRAIN_KEY],
        "location_letters": LOCATION_LETTERS,
        "location_names": list(LOCATION_NAMES),
        "nomad_tile_labels": dict(NOMAD_TILE_LABELS),
        "expansions": [{"name": e.name, "text": e.description} for e in CAT.EXPANSIONS
                       if e.name in CAT.playable_expansions()],
        "island_sides": list(SUBSTITUTE_SIDES),
        "rules": [{"name": f.name, "expansion": f.expansion, "text": f.alternative} for f in CAT.RULE_FLAGS],
    }


def decision_entry(public: Game, action: int) -> dict:
    """One decision of the public game `public`: its action number, kind (hex / island / power / done / end_turn),
    hex and words."""
    if action < 400:
        kind, name = "hex", f"{action // 20},{action % 20}"
    elif CAT.ISLAND_ACTION_BASE <= action < CAT.ISLAND_ACTION_BASE + ISLAND_ROWS * ISLAND_COLS:
        kind, name = "island", CAT.ACTION_NAMES[action]  # "island r,c": a click on the island's hex
    else:
        name = CAT.ACTION_NAMES[action] if action < len(CAT.ACTION_NAMES) else str(action)
        kind = name if name in ("done", "end_turn") else "power"
    entry = {"action": action, "kind": kind, "name": name, "words": describe_decision(public, action)}
    if kind == "hex":
        entry["hex"] = [action // 20, action % 20]
    if kind == "island":
        entry["island"] = list(divmod(action - CAT.ISLAND_ACTION_BASE, ISLAND_COLS))
    return entry


def legal_decisions(view: PlayerView) -> list[dict]:
    """The seat's legal decisions (empty when another seat decides)."""
    public = view.public_game()
    if view.done or public.decider != view.player:
        return []
    return [decision_entry(public, a) for a in view.legal_actions()]


def _board(view: PlayerView, public: Game) -> dict:
    crossroads = "crossroads" in view.expansions
    return {
        "rows": list(view.board),
        "settlements": [_hexes(view.settlements(p)) for p in range(view.num_players)],
        "locations": [{"hex": _hex(rc), "letter": view.board[rc[0]][rc[1]], "tiles_left": view.tiles_left(rc)}
                      for rc in view.location_hexes() if rc[0] < ROWS],  # the island's: under "island"
        "walls": _hexes(view.walls()),
        "caves": _hexes(view.caves()),
        "capitols": _hexes(view.capitols()),
        "nomad_spaces": [{"hex": _hex(rc), "tile": kind} for rc, kind in sorted(view.nomad_spaces().items())],
        "warrior_zone": _hexes(view.warrior_zone()) if crossroads else [],
        "pieces": [{"hex": _hex(rc), "seat": owner, "kind": kind}
                   for rc, (owner, kind) in sorted(view.piece_cells().items()) if rc[0] < ROWS] if crossroads else [],
        **_harvest_board(view.harvest()),
        "island": _island_board(view),
    }


def _island_board(view: PlayerView) -> dict | None:
    """The island (kbenv.expansions.island.view), None without it: its side and rows, and in island (r, c) coordinates
    the settlements per seat, its location with the tiles left, the pieces on it and the lines marked for Mayors."""
    facts = view.island()
    if facts is None:
        return None

    def cells(hexes) -> list[list[int]]:
        return [list(island_rc(rc)) for rc in sorted(hexes) if on_island(rc)]

    r, c = facts.location if facts.location is not None else (None, None)
    return {
        "side": facts.side,
        "rows": list(facts.rows),
        "settlements": [cells(view.settlements(p)) for p in range(view.num_players)],
        "location": None if r is None else {"hex": [r, c], "letter": facts.rows[r][c], "type": facts.location_type,
                                            "tiles_left": facts.tiles_left},
        "walls": cells(view.walls()),
        "pieces": [{"hex": list(island_rc(rc)), "seat": owner, "kind": kind}
                   for rc, (owner, kind) in sorted(view.piece_cells().items()) if on_island(rc)]
        if "crossroads" in view.expansions else [],
        "warrior_zone": cells(view.warrior_zone()) if "crossroads" in view.expansions else [],
        "scouts": [{"hex": list(island_rc(rc)), "seat": h.scout_owner} for rc in h.scouts if on_island(rc)]
        if (h := view.harvest()) is not None else [],
        "mayor_lines": [{"row": line, "seat": p} for line, p in sorted(facts.mayor_lines.items())],
    }


def _harvest_board(facts: HarvestFacts | None) -> dict:
    """Harvest's public board facts (kbenv.expansions.harvest.view): the turn owner's scouts, the Mayors rows."""
    if facts is None:
        return {"scouts": [], "mayor_lines": []}
    return {"scouts": [{"hex": _hex(rc), "seat": facts.scout_owner} for rc in facts.scouts if rc[0] < ROWS],
            "mayor_lines": [{"row": r, "seat": p} for r, p in sorted(facts.mayor_lines.items())]}


def _harvest(facts: HarvestFacts | None) -> dict | None:
    """Harvest's public side facts: number tiles per seat and the pool, Rovers sections, the silo phase."""
    if facts is None:
        return None
    silo = facts.silo
    return {"number_tiles": list(facts.number_tiles), "number_tiles_left": facts.number_tiles_left,
            "pool": CAT.NUMBER_TILE_POOL, "rover_sections": list(facts.rover_sections),
            "scouts_left": facts.scouts_left, "farmland_used": facts.farmland_used,
            "silo": None if silo is None else {"seat": silo.seat, "hex": None if silo.at is None else _hex(silo.at),
                                               "mode": silo.mode, "steps": silo.steps}}


def _seat(view: PlayerView, hand_view: PlayerView, p: int, score: dict, agent: str) -> dict:
    hand = hand_view.hand_cards(p)  # the cards this view shows; the others are counted, not named
    return {
        "seat": p, "name": seat_name(p), "colour": SEAT_COLOUR_NAMES[p], "agent": agent,
        "supply": view.supply(p), "gold": view.gold(p), "total": score["total"], "score": score,
        "hand": hand, "hand_words": [card_words(c) for c in hand],
        "hand_size": view.hand_size(p), "hidden_cards": view.hand_size(p) - len(hand),
        "tiles": [{"type": t, "hex": hex_label(rc)} for t, rc in view.tiles(p)],  # the island's: ["island", r, c]
        "nomad_tiles": view.nomad_tiles(p),
    }


def _view_json(views: list[PlayerView], hand_views: list[PlayerView], agents: list[str], seat: int | None) -> dict:
    view = views[0]
    public = view.public_game()
    scores = view.scores()
    n = view.num_players
    out = {
        "seat": seat,
        "players": n,
        "turn": view.turn,
        "phase": view.phase,
        "current_player": view.current_player,
        "decider": public.decider,
        "start_player": view.start_player,
        "done": view.done,
        "winners": public.winners() if view.done else [],
        "expansions": list(view.expansions),
        "rules": list(public.setup.rules or ()),
        "cards": [{"name": c, "title": title(c), "text": SCORING_CARD_TEXT.get(c, "")} for c in view.cards],
        "tasks": [{"name": t, "title": title(t), "gold": TASK_GOLD[t], "text": TASK_TEXT.get(t, "")}
                  for t in view.tasks()]
        if "crossroads" in view.expansions else [],
        "locations_text": {name: LOCATION_TEXT.get(name, "") for name in LOCATION_NAMES},
        "deck_size": view.deck_size(),
        "discard_size": len(view.discard_pile()),
        "fort_card": view.fort_card(),
        "board": _board(view, public),
        "harvest": _harvest(view.harvest()),
        "seats": [_seat(view, hand_views[p], p, scores[p], agents[p]) for p in range(n)],
        "legal": legal_decisions(views[0]) if seat is not None else [],
    }
    return out


def seat_view(game: Game, seat: int, agents: list[str]) -> dict:
    """What `seat` may see: its PlayerView as JSON, with its legal decisions when it decides."""
    view = PlayerView(game, seat)
    return _view_json([view], [view] * game.num_players, agents, seat)


def spectator_view(game: Game, agents: list[str]) -> dict:
    """What a watcher may see: the public board, and each seat's hand only as another seat sees it."""
    n = game.num_players
    views = [PlayerView(game, p) for p in range(n)]
    return _view_json(views, [views[(p + 1) % n] for p in range(n)], agents, None)
