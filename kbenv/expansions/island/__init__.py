"""The Island: its set-up (`setup`: side, tiles, positions) and its hexes in views (`view`)."""
