"""Which rulesets a trained model may play, and the refusal when it is asked to play another.

A ruleset is the set of expansions in play plus the rule flags switched on (`kbenv.ruleset.Ruleset`,
importable from here too); the player count is not part of it. Every trained model states the rulesets it
was trained for (`TrainedFor`): a shipped model in its card (`agents/models/*.json`, field `rulesets`), a search
network in the card saved inside its file (`card.ruleset`), a PPO checkpoint in its policy kwargs.
A file that records none (saved before rulesets were recorded) is read from its network: a v0
network (observation and actions of `kingdom_builder_v0`) was trained on the base game; a v1 network
that records nothing is of no known ruleset.

"Another ruleset" means any game whose expansions and rule flags are not exactly one of the trained
rulesets (order does not matter): `trained:nomads-2p` (Nomads + Capitol + Caves) is outside its
training in a Nomads-only game, in a Crossroads game and in a base game, and `trained:2p` in a base
game with `lords_count_zero`. An agent asked to play another ruleset raises `ModelRulesetError`,
unless its spec says `outside_training=1`: then it plays, and says so (a warning, the tournament's
summary and `kbenv play`'s header). The option cannot make a v0 network play a game with expansions:
its observation has no expansion pieces and its 409 actions no expansion decisions, so that stays a
`ModelRulesetError`. A v1 network made before Crossroads (35 observation channels) plays a Crossroads
game only with the option, and the warning says that it cannot see the Crossroads pieces.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

from kbenv import catalogue as CAT
from kbenv.ruleset import Ruleset  # noqa: F401  (the one ruleset object; agents.rulesets.Ruleset as before)

V0_SEES: tuple[str, ...] = ()  # a v0 network sees no expansion piece
PRE_CROSSROADS = ("nomads", "capitol", "caves")  # what the 35 v1 channels made before Crossroads show
PRE_MARSHLANDS = (*PRE_CROSSROADS, "crossroads")  # what the 40 v1 channels made before Marshlands show
PRE_HARVEST = (*PRE_MARSHLANDS, "marshlands")  # what the 43 v1 channels made before Harvest show
PRE_ISLAND = (*PRE_HARVEST, "harvest")  # what the 48 v1 channels made before the Island show


class ModelRulesetError(ValueError):
    """A trained agent asked to play a ruleset it was not trained for; the message names both."""

    show_name = True  # `kbenv` prints "ModelRulesetError: ..." in its one-line error


class OutsideTrainingWarning(UserWarning):
    """A trained agent plays a ruleset outside its training because its spec says outside_training=1."""


@dataclass(frozen=True)
class TrainedFor:
    """The rulesets a model was trained for, where that was read, and what its network can see.

    `rulesets` empty and no `subsets_of`: not known (every game is outside its training). `subsets_of`: the
    model was trained on games whose ruleset was drawn per chunk of games among the subsets of this one's
    expansions (field `ruleset_rotation` with its `random` entry), so every such subset with the default
    readings is within its training. `v1`: the network has the v1 layout (it can be given any ruleset's
    observation and actions); `sees`: the expansions whose pieces its observation shows."""

    rulesets: tuple[Ruleset, ...]
    source: str
    v1: bool
    sees: tuple[str, ...]
    subsets_of: Ruleset | None = None

    def covers(self, ruleset: Ruleset) -> bool:
        """Whether `ruleset` is within the model's training."""
        if ruleset in self.rulesets:
            return True
        return (self.subsets_of is not None and not ruleset.rules
                and set(ruleset.expansions) <= set(self.subsets_of.expansions))

    def text(self) -> str:
        if self.subsets_of is not None:
            return f"any subset of {self.subsets_of.text()} (the default readings)"
        return " or ".join(r.text() for r in self.rulesets) if self.rulesets else "an unknown ruleset"

    def card_fields(self) -> dict:
        """The fields a model card states: `rulesets` (or `rulesets_any_subset_of`) and where they come from."""
        fields = {"rulesets": [r.to_dict() for r in self.rulesets], "rulesets_source": self.source}
        if self.subsets_of is not None:
            fields["rulesets_any_subset_of"] = self.subsets_of.to_dict()
        return fields


def sees_of(v1: bool, input_channels: int | None) -> tuple[str, ...]:
    """The expansions a network's observation shows: none (v0), those before Crossroads (35 v1
    channels), those before Marshlands (40), those before Harvest (43), those before the Island (48) or every
    one the 50 channels show (every expansion)."""
    from kbenv.engine.observe_v1 import (
        V1_BASE_CHANNELS,
        V1_CROSSROADS_CHANNELS,
        V1_HARVEST_CHANNELS,
        V1_MARSHLANDS_CHANNELS,
    )

    if not v1:
        return V0_SEES
    if input_channels is not None and input_channels <= V1_BASE_CHANNELS:
        return PRE_CROSSROADS
    if input_channels is not None and input_channels <= V1_CROSSROADS_CHANNELS:
        return PRE_MARSHLANDS
    if input_channels is not None and input_channels <= V1_MARSHLANDS_CHANNELS:
        return PRE_HARVEST
    if input_channels is not None and input_channels <= V1_HARVEST_CHANNELS:
        return PRE_ISLAND
    return tuple(e.name for e in CAT.EXPANSIONS if e.implemented or e.under_construction)


def inferred(v1: bool, input_channels: int | None, what: str) -> TrainedFor:
    """For a model that records no ruleset: a v0 network was trained on the base game; a v1 one is unknown."""
    sees = sees_of(v1, input_channels)
    if not v1:
        return TrainedFor((Ruleset(),), f"inferred: {what} records no ruleset, and its v0 network reads the base "
                                        "game only", False, sees)
    return TrainedFor((), f"unknown: {what} records no ruleset and its network is v1", True, sees)


def from_network(info: dict, config: dict, what: str) -> TrainedFor:
    """A search network's rulesets, from the card saved in its file (`load_network`'s info)."""
    v1 = bool(config.get("v1"))
    channels = config.get("input_channels")
    card = info.get("card") if isinstance(info.get("card"), dict) else None
    if card is None or "ruleset" not in card:
        return inferred(v1, channels, what)
    ruleset = Ruleset.from_dict(card["ruleset"])
    rotation = card.get("ruleset_rotation") or []
    if "random" in rotation:
        return TrainedFor((), f"recorded in {what} (ruleset_rotation {'/'.join(rotation)})", v1, sees_of(v1, channels),
                          subsets_of=ruleset)
    if rotation:  # fixed entries: base, all (the run's expansions) or expansions joined by '+'
        drawn = [Ruleset() if e == "base" else ruleset if e == "all" else Ruleset(e.split("+")) for e in rotation]
        return TrainedFor(tuple(dict.fromkeys(drawn)), f"recorded in {what} (ruleset_rotation)", v1,
                          sees_of(v1, channels))
    return TrainedFor((ruleset,), f"recorded in {what}", v1, sees_of(v1, channels))


def from_card(card: dict, v1: bool, input_channels: int | None, what: str) -> TrainedFor:
    """A shipped model's rulesets, from its model card's `rulesets` field."""
    if "rulesets" not in card:
        raise ValueError(f"{what}: the model card states no rulesets")
    rulesets = tuple(Ruleset.from_dict(r) for r in card["rulesets"])
    subsets = card.get("rulesets_any_subset_of")
    return TrainedFor(rulesets, card.get("rulesets_source", f"stated in {what}"), v1, sees_of(v1, input_channels),
                      subsets_of=None if subsets is None else Ruleset.from_dict(subsets))


def agent_name(agent) -> str:
    return getattr(agent, "spec", None) or getattr(agent, "name", type(agent).__name__)


def check_agent(agent, ruleset: Ruleset) -> str | None:
    """None if the agent may play `ruleset` within its training (every untrained agent may play any
    ruleset); the note to show if it plays outside its training with `outside_training`; else
    ModelRulesetError naming the agent, its rulesets and the game's."""
    trained: TrainedFor | None = getattr(agent, "trained_for", None)
    if trained is None or trained.covers(ruleset):
        return None
    name = agent_name(agent)
    message = f"{name} was trained for {trained.text()}; this game is {ruleset.text()}"
    if ruleset.expansions and not trained.v1:
        raise ModelRulesetError(f"{message}: its network was trained on the base game's observation and actions "
                                "(v0), which hold no expansion pieces or decisions, so it cannot play this game, "
                                "not even with outside_training=1")
    blind = [e for e in ruleset.expansions if e not in trained.sees]
    if blind:
        message += f" (its network cannot see the {', '.join(blind)} pieces)"
    if not getattr(agent, "outside_training", False):
        raise ModelRulesetError(f"{message}; add outside_training=1 to the agent spec to let it play anyway")
    return f"{message}; playing outside its training (outside_training=1)"


def check_agents(agents: list, ruleset: Ruleset) -> dict[str, str]:
    """check_agent for every agent: {agent name: note} of those that play outside their training (the
    caller shows the notes; the agents' own first-use checks then stay silent for this ruleset)."""
    notes = {}
    for agent in agents:
        note = check_agent(agent, ruleset)
        if note:
            notes[agent_name(agent)] = note
        first_use = getattr(agent, "_first_use", None)
        if isinstance(first_use, FirstUseCheck):
            first_use.checked.add(ruleset)
    return notes


class FirstUseCheck:
    """The check at an agent's first decision in a ruleset (and again whenever the ruleset changes):
    raises ModelRulesetError, or warns once (OutsideTrainingWarning) when playing outside its training."""

    def __init__(self) -> None:
        self.checked: set[Ruleset] = set()

    def __call__(self, agent, game) -> None:
        ruleset = Ruleset.of_game(game)
        if ruleset in self.checked:
            return
        note = check_agent(agent, ruleset)
        self.checked.add(ruleset)
        if note:
            warnings.warn(note, OutsideTrainingWarning, stacklevel=3)
