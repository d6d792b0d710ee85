"""OpenSpiel bots as kbenv agents: `openspiel:bot=mcts,sims=32,rollouts=1`, `openspiel:bot=ismcts,sims=32`,
`openspiel:bot=random`.

The agent never hands the bot the real game. For each decision it deals a world consistent with its
player's information (`view.determinize(rng)`: other hands, the draw pile and the in-game generator dealt
anew), wraps that world as a `python_kingdom_builder` state (kbenv.openspiel) and asks the bot for an
action. With `dets=D` an MCTS bot searches D such worlds and the action with the most visits over all of
them is played (determinized MCTS); other bots vote, one vote per world.

Bots (`BOTS`): `mcts` (open_spiel.python.algorithms.mcts.MCTSBot with a RandomRolloutEvaluator: `sims`
simulations, `rollouts` random rollouts per leaf, each at most `max_rollout` decisions when given, UCT
constant `c`), `ismcts` (open_spiel.python.algorithms.ismcts.ISMCTSBot, the same evaluator and parameters:
one search tree over the player's information sets, each simulation in a world re-dealt by the state's
`resample_from_infostate`, seeded), `random` (pyspiel's C++ uniform random bot) and `uniform` (OpenSpiel's Python
UniformRandomBot). Any other bot: pass `bot_factory(game, player, seed) -> pyspiel.Bot`.

This module imports without OpenSpiel; pyspiel is needed once an agent is made.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import numpy as np

from kbenv.game.view import PlayerView

BOTS = ("mcts", "ismcts", "random", "uniform")


def check_bot(text: str) -> str:
    """A bot name of BOTS (for spec parsing); ValueError otherwise."""
    if text not in BOTS:
        raise ValueError(f"must be one of {', '.join(BOTS)}, got {text!r}")
    return text


class OpenSpielAgent:
    """A kbenv agent that plays through an OpenSpiel bot on determinized `python_kingdom_builder` states."""

    name = "openspiel"

    def __init__(self, bot: str = "mcts", sims: int = 32, rollouts: int = 1, dets: int = 1, c: float = 2.0,
                 max_rollout: int | None = None, seed: int | None = None,
                 bot_factory: Callable[[object, int, int], object] | None = None):
        try:
            import kbenv.envs.openspiel  # noqa: F401  (registers the game)
        except ImportError as err:
            raise ImportError(f"openspiel agents need OpenSpiel (pip install open_spiel): {err}") from err

        if bot_factory is None:
            check_bot(bot)
        for key, value in (("sims", sims), ("rollouts", rollouts), ("dets", dets)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{key}: expected an integer >= 1, got {value!r}")
        if max_rollout is not None and (not isinstance(max_rollout, int) or max_rollout < 1):
            raise ValueError(f"max_rollout: expected an integer >= 1, got {max_rollout!r}")
        self.bot = "custom" if bot_factory is not None else bot
        self.sims, self.rollouts, self.dets, self.c, self.max_rollout = sims, rollouts, dets, float(c), max_rollout
        self.bot_factory = bot_factory
        searched = self.bot in ("mcts", "ismcts")
        self.name = f"openspiel:bot={self.bot}" + (f",sims={sims},rollouts={rollouts}" if searched else "")
        self._games: dict = {}
        self._bots: dict = {}
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        """Re-seed the determinizations and the bots (bots are made anew)."""
        self.seed = 0 if seed is None else int(seed)
        self.rng = np.random.default_rng(self.seed)
        self._bots = {}

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: PlayerView) -> int:
        legal = np.flatnonzero(action_mask)
        if len(legal) == 1:
            return int(legal[0])
        game = self._game(view)
        bot = self._bot(game, view.player)
        votes: Counter = Counter()
        for _ in range(self.dets):
            state = game.state_from_kbenv(view.determinize(self.rng))
            if self.bot == "mcts" and self.dets > 1:
                root = bot.mcts_search(state)
                for child in root.children:
                    votes[int(child.action)] += child.explore_count
            else:
                votes[int(bot.step(state))] += 1
        action = max(sorted(votes), key=lambda a: votes[a])
        if not 0 <= action < len(action_mask) or not action_mask[action]:
            raise RuntimeError(f"{self.name}: the bot chose action {action}, which is not legal")
        return action

    def _game(self, view: PlayerView):
        """The pyspiel game of the view's ruleset (one per ruleset, kept)."""
        import pyspiel

        from kbenv.envs.openspiel import GAME_NAME, GameSpec

        spec = GameSpec.of_game(view)  # players and ruleset
        if spec not in self._games:
            self._games[spec] = pyspiel.load_game(GAME_NAME, spec.params())
        return self._games[spec]

    def _bot(self, game, player: int):
        key = (id(game), player)
        if key not in self._bots:
            seed = int(self.rng.integers(2**31 - 1))
            self._bots[key] = self._make_bot(game, player, seed)
        return self._bots[key]

    def _make_bot(self, game, player: int, seed: int):
        if self.bot_factory is not None:
            return self.bot_factory(game, player, seed)
        if self.bot == "random":
            import pyspiel

            return pyspiel.make_uniform_random_bot(player, seed)
        if self.bot == "uniform":
            from open_spiel.python.bots.uniform_random import UniformRandomBot

            return UniformRandomBot(player, np.random.RandomState(seed))
        from open_spiel.python.algorithms.mcts import MCTSBot, RandomRolloutEvaluator

        random_state = np.random.RandomState(seed)
        evaluator = RandomRolloutEvaluator(n_rollouts=self.rollouts, random_state=random_state,
                                           max_length=self.max_rollout)
        if self.bot == "ismcts":
            from open_spiel.python.algorithms.ismcts import ISMCTSBot

            from kbenv.envs.openspiel import seeded_resampler

            bot = ISMCTSBot(game, evaluator, self.c, self.sims, random_state=random_state)
            bot.set_resampler(seeded_resampler(seed))  # the bot's own resampler is not seeded
            return bot
        # solve=False: a determinized world is one guess at the hidden cards, not something to prove wins in.
        return MCTSBot(game, self.c, self.sims, evaluator, solve=False, random_state=random_state)
