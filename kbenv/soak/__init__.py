"""The soak: millions of random games over every ruleset family, every decision checked against the engine's
invariants (kbenv.soak.invariants), run by `python scripts/soak.py` (docs/soak.md)."""
