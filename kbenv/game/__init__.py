"""A game: `Game` (kbenv.game.core) and what belongs to one game beside it, below the modules that show or store it.

- `core`: the Game (decisions, scores, records, set-ups);
- `explain`: why an action is illegal (the message of IllegalActionError);
- `view`: what one seat may see of a game (PlayerView, determinizations);
- `position`: a game written as a position file (Game.to_position);
- `actions`: the hex of a hex action (the board's and the island's).
"""

from .core import RECORD_FORMAT, TILE_ACTION, Game, IllegalActionError, describe_action, hex_action, record_version

__all__ = ["RECORD_FORMAT", "TILE_ACTION", "Game", "IllegalActionError", "describe_action", "hex_action",
           "record_version"]
