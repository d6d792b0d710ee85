"""The one place that asks which expansions are in play: each generic event calls the expansions' kernels for it.

Generic modules call these events and never test an expansion bit themselves; each event is a plain `if` ladder
over the expansion bits (numba compiles the calls statically). Base games skip the ladders where the caller
checks `st[EXPANSIONS] != 0` first. The order inside each event is the order the rules apply them in.

Two modules, one per layer of the engine, so that no import goes in a circle: `board` holds the events of the
board operations (kbenv.engine.board_ops imports it, and the expansion kernels it calls build nothing through
board_ops), `flow` the events of the decision flow (legality, actions, turns; its expansion kernels may build
and move through board_ops). This package imports neither: import the module you need.
"""
