"""Random Marshlands games for the property suites (tests/test_marshlands_properties.py,
tests/test_position_roundtrip_all.py): a random policy biased towards the Marshlands powers, set-ups that
deal the substitute Marshlands sections, and a tally of the Marshlands decisions that occur."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import numpy as np

from kbenv import Game
from kbenv import catalogue as CAT
from kbenv.board.codes import SWAMP
from kbenv.board.geometry import NUM_HEXES
from kbenv.engine import state as S
from tests.biased_play import biased_pick, biased_play_until

ALL = ["nomads", "capitol", "caves", "crossroads", "marshlands"]
MARSH = ["marshlands"]
# Three substitute Marshlands sections (canoe, fountain, temple / refuge ...) and one section of another
# expansion, so that every Marshlands location type meets the other rules.
SECTIONS = {
    "marsh": [("marsh-substitute-1", False), ("marsh-substitute-2", True), ("marsh-substitute-3", False),
              ("marsh-substitute-4", True)],
    "all": [("marsh-substitute-1", False), ("quarry", True), ("marsh-substitute-3", False), ("lighthouse", False)],
    "all2": [("marsh-substitute-2", True), ("barracks", False), ("marsh-substitute-4", False), ("caravan", True)],
}
SIX = ("geologists", "messengers", "noblewomen", "vassals", "captains", "scouts")
PREFERRED = {CAT.ACTION_ID[name] for name in ("canoe", "fountain", "temple", "refuge", "canoe_bonus",
                                               "refuge_bonus", "fort", "city_hall", "barracks", "quarry")}
CANOE, PASS = CAT.ACTION_ID["canoe"], CAT.DONE
NAMED = {CAT.ACTION_ID[name]: name for name in ("fountain", "temple", "refuge", "canoe_bonus", "refuge_bonus")}


def pick(game: Game, rng: np.random.Generator, bias: float) -> int:
    """A random legal action; with probability `bias` one of the preferred powers when one is legal."""
    return biased_pick(game, rng, bias, PREFERRED)


def marsh_game(players: int, seed: int, expansions=MARSH, sections: str | None = "marsh", cards=None,
               rules=None) -> Game:
    return Game.new(players, seed=seed, expansions=expansions, rules=rules, cards=cards,
                    sections=SECTIONS[sections] if sections else None)


def play_until(game: Game, rng: np.random.Generator, wanted: Callable[[Game], bool], bias: float = 0.6,
               limit: int = 5000) -> bool:
    """Play biased random decisions until `wanted(game)` or the end; whether `wanted` holds."""
    return biased_play_until(game, rng, wanted, PREFERRED, bias, limit)


class Tally:
    """Counts the Marshlands decisions of the games it watches (`before` and `after` each step)."""

    def __init__(self) -> None:
        self.seen: Counter = Counter()
        self._turn_swamp: dict = {}

    def step(self, game: Game, action: int) -> None:
        """Record one decision: call instead of game.step(action)."""
        st = game.state
        p = game.current_player
        phase = game.phase
        reserve = int(st[S.TEMPLE_RESERVE + p])
        bonus = sum(bin(int(st[S.BONUS_HELD + q])).count("1") for q in range(game.num_players))
        if phase == "reaction":
            self.seen["canoe reaction asked"] += 1
            self.seen["canoe reaction taken" if action == CANOE else "pass" if action == PASS else "?"] += 1
        if action in NAMED:
            self.seen[NAMED[action]] += 1
        game.step(action)
        st = game.state
        if phase == "mandatory" or phase == "idle":
            fixed_swamp = st[S.TERRAIN_FIXED] and int(st[S.TURN_TERRAIN]) == SWAMP and not game.done
            if fixed_swamp and int(st[S.MANDATORY_BUILT]) == 2 and int(st[S.MANDATORY_TARGET]) == 2:
                self.seen["swamp 2-build"] += 1
        if int(st[S.TEMPLE_RESERVE + p]) < reserve and action < NUM_HEXES:
            self.seen["temple reserve built"] += 1
        if sum(bin(int(st[S.BONUS_HELD + q])).count("1") for q in range(game.num_players)) > bonus:
            self.seen["bonus tile taken"] += 1

    def finish(self, game: Game) -> None:
        """Record the end of a game: palaces and the six cards that scored, the Scouts set-up."""
        rows = game.scores()
        if any(row["palaces"] for row in rows):
            self.seen["palace scored"] += 1
        for card in SIX:
            if card in game.cards and any(row["cards"].get(card, 0) for row in rows):
                self.seen[f"{card} scored"] += 1
        if int(game.state[S.REMOVED_TERRAIN]):
            self.seen["scouts set-up"] += 1
