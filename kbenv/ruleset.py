"""`Ruleset`: the expansions in play and the rule flags switched on, the one form every layer uses.

`Game`, `VectorGames`, both AEC envs, the gymnasium wrappers, the VecEnv, OpenSpiel, records, position
files, trained models' cards and the CLI all take and give a `Ruleset` (or anything `Ruleset.coerce`
reads). Names come from `kbenv.catalogue` (EXPANSIONS, RULE_FLAGS) and are kept in catalogue order, so
two rulesets with the same names are equal however they were written (they compare as sets; `<=` is
"every expansion and flag of this one is in the other").

```python
from kbenv.ruleset import Ruleset

r = Ruleset.parse("crossroads,nomads", {"zone_blocks_settlements_only": True})
str(r)                     # 'nomads+crossroads with rules zone_blocks_settlements_only'
r.to_json()                # '{"expansions": ["nomads", "crossroads"], "rules": ["zone_blocks_settlements_only"]}'
r.bits                     # (9, 32): expansion bits and rule bits for the kernels (kbenv.catalogue)
Ruleset(rules=["lords_count_zero"]) == Ruleset.parse(lords_count_zero=True)  # the old keyword is a flag
```

`lords_count_zero` is a rule flag like the others. The keyword `lords_count_zero=True` of the older APIs
(`Game.new`, `VectorGames`, the envs, `make_setup`) and the key `"lords_count_zero": true` of older records,
position files and config files are read as that flag (`legacy_lords` below). Errors are `RulesetError`
(a ValueError; the set-up layer turns them into SetupError) naming the field at fault.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import catalogue as CAT
from .safe_json import loads, short_repr

IMPLEMENTED_EXPANSIONS = tuple(e.name for e in CAT.EXPANSIONS if e.implemented)
RULE_FLAG_NAMES = tuple(f.name for f in CAT.RULE_FLAGS)
LORDS_COUNT_ZERO = "lords_count_zero"
EXPANSIONS_FORM = ("a list of names (such as ['nomads', 'crossroads']) or a string of names separated by ',' "
                   "or '+' (such as 'nomads+crossroads')")
RULES_FORM = "a list of flag names that are on, a {flag: true/false} mapping, or a string of names"
DICT_KEYS = ("expansions", "rules", LORDS_COUNT_ZERO)  # LORDS_COUNT_ZERO: the key of older files


class RulesetError(ValueError):
    """A ruleset that cannot be: the message names the field at fault (`expansions`, `rules.<flag>`, ...)."""


def _split(text: str) -> list[str]:
    return [name for name in text.replace("+", ",").replace(";", ",").replace(" ", ",").split(",") if name]


def _expansion_names(value: Any) -> tuple[str, ...]:
    """Expansion names in catalogue order; RulesetError naming `expansions`."""
    if value is None:
        return ()
    if isinstance(value, str):
        names = _split(value)
    elif isinstance(value, (list, tuple, set, frozenset)) and all(isinstance(name, str) for name in value):
        names = list(value)
    else:
        raise RulesetError(f"expansions: expected {EXPANSIONS_FORM}; got {short_repr(value)}")
    known = {e.name: e for e in CAT.EXPANSIONS}
    for name in names:
        if name not in known:
            raise RulesetError(f"expansions: unknown expansion {short_repr(name)}; known: "
                               f"{', '.join(IMPLEMENTED_EXPANSIONS)}")
        why = CAT.expansion_refusal(name)  # not implemented, or under construction without KBENV_EXPERIMENTAL
        if why:
            raise RulesetError(f"expansions: {why}; implemented: {', '.join(IMPLEMENTED_EXPANSIONS)}")
    return tuple(e.name for e in CAT.EXPANSIONS if e.name in names)


def _rule_names(value: Any, expansions: tuple[str, ...]) -> tuple[str, ...]:
    """Rule flag names (those on) in catalogue order; RulesetError naming `rules` or `rules.<flag>`."""
    if value is None:
        return ()
    if isinstance(value, str):
        items = [(name, True) for name in _split(value)]
    elif isinstance(value, Mapping):
        items = list(value.items())
    elif isinstance(value, (list, tuple, set, frozenset)):
        items = [(name, True) for name in value]
    else:
        raise RulesetError(f"rules: expected {RULES_FORM}; got {short_repr(value)}")
    known = {f.name: f for f in CAT.RULE_FLAGS}
    on = set()
    for name, flag_value in items:
        if not isinstance(name, str) or name not in known:
            raise RulesetError(f"rules: unknown rule flag {short_repr(name)}; known: {', '.join(RULE_FLAG_NAMES)}")
        if not isinstance(flag_value, bool):
            raise RulesetError(f"rules.{name}: expected true or false, got {short_repr(flag_value)}")
        flag = known[name]
        if flag_value and flag.expansion is not None and flag.expansion not in expansions:
            raise RulesetError(f"rules.{name}: needs the {short_repr(flag.expansion)} expansion")
        if flag_value:
            on.add(name)
    return tuple(name for name in RULE_FLAG_NAMES if name in on)


def legacy_lords(value: Any, field: str = LORDS_COUNT_ZERO) -> bool:
    """The old separate `lords_count_zero` option (keyword or file key): a bool, or RulesetError naming it."""
    if not isinstance(value, (bool, np.bool_)):
        raise RulesetError(f"{field}: expected true or false, got {short_repr(value)}")
    return bool(value)


@dataclass(frozen=True)
class Ruleset:
    """Expansions and rule flags, kept in catalogue order (so equal rulesets are equal however written).

    `Ruleset(expansions, rules)` takes names (any order, a list, tuple, set or string; rules also as a
    {flag: bool} mapping) and checks them: RulesetError names the field at fault."""

    expansions: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        expansions = _expansion_names(self.expansions)
        object.__setattr__(self, "expansions", expansions)
        object.__setattr__(self, "rules", _rule_names(self.rules, expansions))

    # ----- making one --------------------------------------------------------------------------------
    @classmethod
    def parse(cls, expansions: Any = None, rules: Any = None, lords_count_zero: Any = False) -> Ruleset:
        """From the options of the public APIs; `lords_count_zero=True` (the old keyword) adds that flag."""
        ruleset = cls(expansions, rules)
        if legacy_lords(lords_count_zero) and LORDS_COUNT_ZERO not in ruleset.rules:
            ruleset = cls(ruleset.expansions, (*ruleset.rules, LORDS_COUNT_ZERO))
        return ruleset

    of = parse  # the name agents.rulesets used

    @classmethod
    def coerce(cls, value: Any) -> Ruleset:
        """A Ruleset from a Ruleset, a dict (`from_dict`), a JSON string of one, a string of expansion names, or
        None (the base game)."""
        if isinstance(value, Ruleset):
            return value
        if value is None:
            return cls()
        if isinstance(value, Mapping):
            return cls.from_dict(value)
        if isinstance(value, str):
            return cls.from_json(value) if value.lstrip().startswith("{") else cls(value)
        raise RulesetError(f"ruleset: expected a Ruleset, a {{'expansions': [...], 'rules': [...]}} mapping or a "
                           f"string of expansion names; got {short_repr(value)}")

    @classmethod
    def from_bits(cls, expansion_bits: int, rule_bits: int) -> Ruleset:
        """From the kernels' bits (kbenv.catalogue EXPANSION_BIT, RULE_BIT)."""
        return cls(CAT.expansion_names(int(expansion_bits)), CAT.rule_names(int(rule_bits)))

    @classmethod
    def from_dict(cls, data: Mapping | None) -> Ruleset:
        """From {"expansions": [...], "rules": [...]} (keys may be missing; None or {}: the base game).

        The key "lords_count_zero": true of older files is read as that rule flag."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise RulesetError(f"ruleset: expected a mapping with keys expansions and rules, got {short_repr(data)}")
        unknown = sorted(set(data) - set(DICT_KEYS), key=str)
        if unknown:
            raise RulesetError(f"ruleset: unknown key(s) {', '.join(map(short_repr, unknown))}; "
                               f"known: expansions, rules")
        return cls.parse(data.get("expansions"), data.get("rules"), data.get(LORDS_COUNT_ZERO, False))

    @classmethod
    def from_json(cls, text: str) -> Ruleset:
        """The inverse of `to_json`."""
        if not isinstance(text, (str, bytes, bytearray)):
            raise RulesetError(f"ruleset: expected JSON text, got {type(text).__name__}")
        try:
            data = loads(text)  # kbenv.safe_json: bounded size and depth, no key twice
        except ValueError as err:
            raise RulesetError(f"ruleset: not JSON ({err})") from None
        return cls.from_dict(data)

    @classmethod
    def of_game(cls, game: Any) -> Ruleset:
        """The ruleset of a `kbenv.Game`, a `PlayerView` (its public game) or a state vector."""
        from .engine import state as S

        if hasattr(game, "public_game"):
            game = game.public_game()
        st = getattr(game, "state", game)
        rule_bits = int(st[S.RULE_FLAGS]) | (CAT.RULE_BIT[LORDS_COUNT_ZERO] if st[S.LORDS_COUNT_ZERO] else 0)
        return cls.from_bits(int(st[S.EXPANSIONS]), rule_bits)

    # ----- giving it back ----------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """{"expansions": [...], "rules": [...]} (JSON-ready; `from_dict` reads it back)."""
        return {"expansions": list(self.expansions), "rules": list(self.rules)}

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    def text(self) -> str:
        """'base game', 'nomads+capitol+caves', 'base game with rules lords_count_zero', ..."""
        text = "+".join(self.expansions) or "base game"
        return f"{text} with rules {'+'.join(self.rules)}" if self.rules else text

    __str__ = text

    @property
    def expansion_bits(self) -> int:
        """The expansion bits of the kernels (kbenv.catalogue.EXPANSION_BIT)."""
        return sum(CAT.EXPANSION_BIT[name] for name in self.expansions)

    @property
    def rule_bits(self) -> int:
        """The rule bits of the kernels (kbenv.catalogue.RULE_BIT)."""
        return sum(CAT.RULE_BIT[name] for name in self.rules)

    @property
    def bits(self) -> tuple[int, int]:
        """(expansion bits, rule bits)."""
        return self.expansion_bits, self.rule_bits

    @property
    def is_base(self) -> bool:
        """No expansion and no rule flag: the base game as printed."""
        return not self.expansions and not self.rules

    @property
    def layout(self):
        """The action and observation layout this ruleset is played with (kbenv.layout: v0 without
        expansions, v1 with)."""
        from .layout import layout_for

        return layout_for(self)

    def has(self, name: str) -> bool:
        """Whether an expansion or rule flag of that name is in this ruleset."""
        return name in self.expansions or name in self.rules

    __contains__ = has

    def options(self) -> dict:
        """The keyword arguments of `Game.new` and friends for this ruleset (None where empty)."""
        return {"expansions": list(self.expansions) or None, "rules": list(self.rules) or None}

    # ----- as sets -----------------------------------------------------------------------------------
    def names(self) -> frozenset[str]:
        return frozenset((*self.expansions, *self.rules))

    def __le__(self, other: Ruleset) -> bool:
        if not isinstance(other, Ruleset):
            return NotImplemented
        return self.names() <= other.names()

    def __lt__(self, other: Ruleset) -> bool:
        if not isinstance(other, Ruleset):
            return NotImplemented
        return self.names() < other.names()

    def __ge__(self, other: Ruleset) -> bool:
        if not isinstance(other, Ruleset):
            return NotImplemented
        return self.names() >= other.names()

    def __gt__(self, other: Ruleset) -> bool:
        if not isinstance(other, Ruleset):
            return NotImplemented
        return self.names() > other.names()

    def __or__(self, other: Ruleset) -> Ruleset:
        if not isinstance(other, Ruleset):
            return NotImplemented
        return Ruleset((*self.expansions, *other.expansions), (*self.rules, *other.rules))


BASE = Ruleset()

