"""Playing one game between agents: the loop every tournament and `kbenv play` uses.

Before the first decision every trained agent is checked against the game's ruleset
(agents.rulesets.check_agents: ModelRulesetError outside its training). Agents with a `notice(player,
words)` method (the human agent) are told every decision in words as it is taken (`announce`).
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, field

from kbenv import Game
from kbenv.game.view import PlayerView
from kbenv.present.words import describe_decision

from ..rulesets import OutsideTrainingWarning, Ruleset, check_agents


@dataclass
class GameResult:
    game_id: int
    num_players: int
    seed: int
    seats: list[str]
    gold: list[int]
    places: list[float]  # 1 = first; tied players share the mean of their places
    winners: list[int]
    decisions: int
    seconds_per_decision: list[float]
    record: dict = field(repr=False)


def places_of(gold: list[int]) -> list[float]:
    places = []
    for g in gold:
        better = sum(1 for x in gold if x > g)
        tied = sum(1 for x in gold if x == g)
        places.append(better + (tied + 1) / 2)
    return places


def agent_inputs(game: Game, player: int) -> tuple:
    """(observation, action mask, view) of `player` for the game's ruleset.

    Base games: the v0 planes (kingdom_builder_v0) and the 409-action mask, as always. Games with
    expansions: the v1 planes (kingdom_builder_v1) and the mask over the v1 layout (`game.action_size`).
    """
    layout = game.layout  # kbenv.layout: V0 in base games, V1 with expansions
    return layout.planes(game.state, player), layout.mask(game.state, player), PlayerView(game, player)


def listeners(agents: list) -> list:
    """The agents that want to hear every decision (those with a `notice` method)."""
    return [a for a in agents if callable(getattr(a, "notice", None))]


def announce(agents: list, game: Game, player: int, action: int) -> None:
    """Tell `agents` (listeners) that `player` takes `action`, in words read before it is applied."""
    if agents:
        words = describe_decision(game, action)
        for agent in agents:
            agent.notice(player, words)


def play_game(game_id: int, seed: int, seats: list[str], agents: list, **setup) -> GameResult:
    """Play one game; `agents[i]` sits in seat i and only ever sees that seat's view.

    `setup` holds `Game.new` options (preset, expansions, rules, ...); the player who decides next
    (`game.decider`) acts, with the observation and mask of the ruleset (see `agent_inputs`).
    """
    game = Game.new(len(seats), seed=seed, **setup)
    for note in check_agents(agents, Ruleset.of_game(game)).values():
        warnings.warn(note, OutsideTrainingWarning, stacklevel=2)
    hearing = listeners(agents)
    for i, agent in enumerate(agents):
        if hasattr(agent, "reset"):
            agent.reset(seed * 101 + i)
    spent = [0.0] * len(seats)
    moves = [0] * len(seats)
    while not game.done:
        p = game.decider
        t0 = time.perf_counter()
        action = agents[p].act(*agent_inputs(game, p))
        spent[p] += time.perf_counter() - t0
        moves[p] += 1
        announce(hearing, game, p, action)
        game.step(action)
    gold = [int(x) for x in game.score_table()[:, -1]]
    return GameResult(
        game_id=game_id,
        num_players=len(seats),
        seed=seed,
        seats=list(seats),
        gold=gold,
        places=places_of(gold),
        winners=game.winners(),
        decisions=len(game.actions),
        seconds_per_decision=[spent[i] / max(1, moves[i]) for i in range(len(seats))],
        record=game.to_record(),
    )
