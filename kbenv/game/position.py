"""A game written as a position file (JSON-ready): the set-up, every piece and the full state, so that
reading it back (kbenv.positions.files.game_from_position) continues exactly as the game does. Each expansion
adds its keys through its side (kbenv.expansions.registry)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import catalogue as CAT
from ..engine import state as S
from ..expansions.registry import sides_of
from ..ruleset import Ruleset
from ..setup.resume import resume_of

if TYPE_CHECKING:
    from .core import Game


def position_of(game: Game) -> dict:
    """The whole state of a game as a position file (JSON-ready): `game_from_position` of it continues
    exactly as the game does (same legal decisions, scores and future with the same actions)."""
    st, setup, n = game.state, game.setup, game.num_players

    bits = int(st[S.EXPANSIONS])
    pos: dict = {"sections": [list(x) for x in setup.sections]} if setup.sections is not None \
        else {"board": list(setup.board)}
    pos["cards"] = list(setup.cards)
    pos["settlements"] = [sorted(list(x) for x in game.settlements(p)) for p in range(n)]
    if bits:
        pos["expansions"] = list(CAT.expansion_names(bits))
    options = {name: True for name in Ruleset.of_game(game).rules}
    if options:
        pos["options"] = options
    pos["seed"] = setup.seed
    pos["current_player"] = game.current_player
    pos["start_player"] = game.start_player
    pos["hands"] = [hand_entry(game, p) for p in range(n)]
    pos["deck"] = game.deck_cards()
    pos["supply"] = [game.supply(p) for p in range(n)]
    pos["tiles"] = [sorted(list(loc) for _, loc in game.tiles(p)) for p in range(n)]
    pos["tiles_left"] = {"{},{}".format(*loc): game.tiles_left(loc) for loc in game.location_hexes()}
    if bits:
        pos["gold"] = [game.gold(p) for p in range(n)]
    sides = sides_of(bits)
    for side in sides:
        if side.position_keys is not None:
            pos.update(side.position_keys(game))
    pos.update(resume_of(st))
    for side in sides:
        if side.position_form is not None:
            pos = side.position_form(pos)
    return pos


def hand_entry(game: Game, player: int):
    """A player's "hands" entry: a letter or null, or with extra Crossroads cards a list (null first when
    only the extra cards are held)."""
    extra = game.hand_cards(player)[0 if game.hand(player) is None else 1:]
    return [game.hand(player), *extra] if extra else game.hand(player)
