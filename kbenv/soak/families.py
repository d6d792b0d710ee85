"""The ruleset families the soak plays: the base game, each expansion alone, all seven together, each with its
rule flags off and with every flag that applies to it on."""

from __future__ import annotations

from .. import catalogue as CAT
from ..ruleset import IMPLEMENTED_EXPANSIONS, Ruleset


def flags_for(expansions: tuple[str, ...]) -> tuple[str, ...]:
    """The rule flags that apply to a ruleset of these expansions (the base game's flags apply to every one)."""
    return tuple(f.name for f in CAT.RULE_FLAGS if f.expansion is None or f.expansion in expansions)


def families() -> dict[str, Ruleset]:
    """Every soaked ruleset by name: 'base', '<expansion>', 'all' (the seven), each also as '<name>+flags'."""
    groups = {"base": (), **{name: (name,) for name in IMPLEMENTED_EXPANSIONS}, "all": IMPLEMENTED_EXPANSIONS}
    out: dict[str, Ruleset] = {}
    for name, expansions in groups.items():
        out[name] = Ruleset.parse(list(expansions))
        out[f"{name}+flags"] = Ruleset.parse(list(expansions), list(flags_for(expansions)))
    return out
