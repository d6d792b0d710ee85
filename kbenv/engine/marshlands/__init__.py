"""Marshlands (M-1..M-24): swamp cards, the four locations, bonus tiles and the six cards.

Modules: `powers`, three of the locations and the bonus tiles; `hooks`, what generic code asks of Marshlands;
`reactions`, reactions in other players' turns, on the interrupt stack; `swamp`, the swamp cards; `scoring`, the six
Marshlands cards.

`kbenv.engine.marshlands` was one module before each expansion got its package: its names still resolve here (from
`powers`), so old imports keep working.
"""

from .. import old_module_names

__getattr__ = old_module_names(__name__, "powers")
