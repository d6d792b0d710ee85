"""Position files: a game as JSON (`files`: position_of, load_position, ...) and the full state of a position
mid-turn (`state`: what Game.to_position writes and make_setup reads back)."""
