"""Harvest (H-1..H-20): farmland and the farm action, silos, the eight locations and the six cards.

Modules: `builds`, the farm action and the four locations that build next to something; `powers`, the locations with
pieces or tiles of their own; `hooks`, what generic code asks of Harvest; `scoring`, the six Harvest cards; `silo`,
the silo end phase.

`kbenv.engine.harvest` was one module before each expansion got its package: its names still resolve here (from
`builds`), so old imports keep working.
"""

from .. import old_module_names

__getattr__ = old_module_names(__name__, "builds")
