"""A batch of N games stepped together by parallel numba kernels.

Each game (slot) has its own seed and player count; all share the set-up options. Games that end
are reset automatically with the next seed of their slot (seed + N by default), so slot i plays
seeds s_i, s_i + N, s_i + 2N, ...  The same seed and actions give the same game as `Game.new`
(records on request prove it: `Game.from_record` replays them).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .board.codes import CARD_NAMES
from .board.tables import TABLE_SECTIONS
from .engine import batch
from .engine import state as S
from .engine.greedy import TIE
from .engine.init import DRAW_CARDS, DRAW_DECK, DRAW_SECTIONS, DRAW_START, DRAW_TURNED
from .engine.legal import ACTION_SIZE
from .engine.rng import seed_u32
from .engine.scoring import SCORE_COLUMNS, score_table
from .game import RECORD_FORMAT, RECORD_VERSION, Game, IllegalActionError, describe_action
from .observation import OBSERVATION_SHAPE, hint_code, observation_shape
from .rewards import REWARD_SCHEMES, terminal_rewards
from .setup import PRESETS, SetupError, standard_setup


@dataclass
class StepResult:
    """What one batch step produced.

    rewards: (N, 5) terminal rewards per seat for games that ended in this step (0 elsewhere);
    done: (N,) games that ended; totals: (N, 5) their final gold; records: the finished games'
    records (when recording).
    """

    rewards: np.ndarray
    done: np.ndarray
    totals: np.ndarray
    records: list[dict]


TEACHERS = ("greedy", "lookahead")  # built-in policies whose action values label imitation and guidance


def best_sets(values: np.ndarray) -> np.ndarray:
    """(n, A) int8 masks of the highest-valued actions (all ties) in (n, A) teacher values."""
    return (values > values.max(axis=1, keepdims=True) - TIE).astype(np.int8)


def forced_options(preset=None, sections=None, cards=None, start_player=None) -> np.ndarray:
    """The `forced` array of the set-up kernels (-1 = draw from the seed)."""
    forced = np.full(DRAW_DECK, -1, dtype=np.int64)
    if preset is not None:
        if preset not in PRESETS:
            raise SetupError(f"preset: unknown preset {preset!r}; known: {', '.join(PRESETS)}")
        sections = sections or PRESETS[preset]["sections"]
        cards = cards or PRESETS[preset]["cards"]
    if sections is not None:
        if len(sections) != 4:
            raise SetupError(f"sections: expected 4 (TL, TR, BL, BR), got {len(sections)}")
        for k, (name, turned) in enumerate(sections):
            if name not in TABLE_SECTIONS:
                raise SetupError(f"sections: the batch engine takes built-in sections only, not {name!r}")
            forced[DRAW_SECTIONS + k] = TABLE_SECTIONS.index(name)
            forced[DRAW_TURNED + k] = int(bool(turned))
    if cards is not None:
        if len(cards) != 3 or len(set(cards)) != 3:
            raise SetupError("cards: expected 3 different Kingdom Builder card names")
        for k, name in enumerate(cards):
            if name not in CARD_NAMES:
                raise SetupError(f"cards: unknown card {name!r}")
            forced[DRAW_CARDS + k] = CARD_NAMES.index(name)
    if start_player is not None:
        forced[DRAW_START] = start_player
    return forced


class VectorGames:
    """N games as one (N, STATE_SIZE) int64 array; every method is one parallel numba call."""

    def __init__(
        self,
        num_games: int,
        num_players=2,
        preset: str | None = None,
        sections=None,
        cards=None,
        lords_count_zero: bool = False,
        reward: str = "win",
        auto_reset: bool = True,
        record: bool = False,
        hints: str = "none",
    ):
        if num_games < 1:
            raise SetupError(f"num_games: expected at least 1, got {num_games}")
        players = np.broadcast_to(np.asarray(num_players, dtype=np.int64), (num_games,)).copy()
        if players.min() < 2 or players.max() > 5:
            raise SetupError("num_players: expected 2 to 5 for every game")
        if reward not in REWARD_SCHEMES:
            raise SetupError(f"reward: unknown scheme {reward!r}; expected one of {', '.join(REWARD_SCHEMES)}")
        self.num_games = num_games
        self.hints = hints
        self.hint_code = hint_code(hints)
        self.observation_shape = observation_shape(hints)
        self.num_players = players
        self.options = {"preset": preset, "sections": sections, "cards": cards}
        self.forced = forced_options(preset, sections, cards)
        self.lords_count_zero = bool(lords_count_zero)
        self.reward_scheme = reward
        self.auto_reset = auto_reset
        self.record = record
        self.states = np.zeros((num_games, S.STATE_SIZE), dtype=np.int64)
        self.seeds = np.zeros(num_games, dtype=np.int64)
        self.episodes = np.zeros(num_games, dtype=np.int64)
        self.all_rows = np.arange(num_games, dtype=np.int64)
        self.actions: list[list[int]] = [[] for _ in range(num_games)]
        self.rng_state = np.zeros(num_games, dtype=np.int64)
        self._no_obs = np.zeros((1, *self.observation_shape), dtype=np.float32)

    # ----- life cycle ---------------------------------------------------------------------
    def reset(self, seeds=0) -> None:
        """Start every game; `seeds` is one seed per game, or a base seed s giving s, s+1, ..."""
        seeds = np.asarray(seeds, dtype=np.int64)
        self.seeds = seeds.copy() if seeds.ndim else seeds + np.arange(self.num_games, dtype=np.int64)
        if self.seeds.shape != (self.num_games,) or self.seeds.min() < 0:
            raise SetupError(f"seeds: expected {self.num_games} non-negative seeds")
        self.episodes[:] = 0
        self.actions = [[] for _ in range(self.num_games)]
        self.rng_state = np.array([seed_u32(int(s) * 7919 + 17) for s in self.seeds], dtype=np.int64)
        batch.new_games(self.states, self.all_rows, self.num_players, self.seeds, self.forced, self.lords_count_zero)

    def reset_rows(self, rows: np.ndarray) -> None:
        """Start the next game in each of these slots (seed + N)."""
        self.seeds[rows] += self.num_games
        self.episodes[rows] += 1
        for i in rows:
            self.actions[i] = []
        batch.new_games(self.states, rows, self.num_players, self.seeds, self.forced, self.lords_count_zero)

    # ----- queries ------------------------------------------------------------------------
    def current_players(self) -> np.ndarray:
        return self.states[:, S.CURRENT].copy()

    def done(self) -> np.ndarray:
        return self.states[:, S.PHASE] == S.PHASE_OVER

    def legal_masks(self, rows: np.ndarray | None = None) -> np.ndarray:
        rows = self.all_rows if rows is None else rows
        out = np.zeros((len(rows), ACTION_SIZE), dtype=np.int8)
        batch.legal_masks(self.states, rows, out)
        return out

    def observations(self, rows: np.ndarray | None = None, players: np.ndarray | None = None) -> np.ndarray:
        """(len(rows), C, 20, 20) float32 observations (by default of the player to move), with hints
        when the batch was made with them."""
        rows = self.all_rows if rows is None else rows
        if players is None:
            players = self.states[rows, S.CURRENT]
        out = np.empty((len(rows), *self.observation_shape), dtype=np.float32)
        batch.observations(self.states, rows, np.asarray(players, dtype=np.int64), out, self.hint_code)
        return out

    def final_totals(self, i: int) -> np.ndarray:
        """Gold totals of the players of game i (no Game object, no set-up rebuilt)."""
        table = np.zeros((S.MAX_PLAYERS, SCORE_COLUMNS), dtype=np.int64)
        score_table(self.states[i], table)
        return table[: self.num_players[i], -1]

    def game(self, i: int) -> Game:
        """A `Game` copy of slot i (with its record when recording)."""
        setup = self.setup_of(i)
        g = Game(setup, self.states[i].copy(), list(self.actions[i]))
        g._replayable = self.record
        return g

    def setup_of(self, i: int):
        return standard_setup(int(self.num_players[i]), int(self.seeds[i]), lords_count_zero=self.lords_count_zero,
                              **self._setup_kwargs())

    def _setup_kwargs(self) -> dict:
        opts = dict(self.options)
        if opts["preset"] is not None:
            preset = PRESETS[opts.pop("preset")]
            opts["sections"] = opts["sections"] or preset["sections"]
            opts["cards"] = opts["cards"] or preset["cards"]
        else:
            opts.pop("preset")
        return opts

    def record_of(self, i: int) -> dict:
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "setup": self.setup_of(i).to_dict(),
            "actions": list(self.actions[i]),
        }

    # ----- stepping -----------------------------------------------------------------------
    def step(self, actions, rows: np.ndarray | None = None) -> StepResult:
        """Apply one action in each game of `rows` (default: all). Illegal actions raise and change nothing."""
        rows = self.all_rows if rows is None else np.asarray(rows, dtype=np.int64)
        actions = np.asarray(actions, dtype=np.int64)
        if actions.shape != rows.shape:
            raise IllegalActionError(f"actions: expected {len(rows)} actions, got shape {actions.shape}")
        ok = np.zeros(len(rows), dtype=np.bool_)
        batch.check_legal(self.states, rows, actions, ok)
        if not ok.all():
            j = int(np.flatnonzero(~ok)[0])
            i, a = int(rows[j]), int(actions[j])
            g = Game(self.setup_of(i), self.states[i].copy())
            from .explain import explain_illegal

            raise IllegalActionError(
                f"game {i}: action {a} ({describe_action(a)}) is illegal: {explain_illegal(g, a)}"
            )
        return self.apply_legal(actions, rows)

    def apply_legal(self, actions: np.ndarray, rows: np.ndarray) -> StepResult:
        """Apply actions known to be legal (e.g. from the batch policies); handle ends and resets."""
        n = len(rows)
        done = np.zeros(n, dtype=np.bool_)
        totals = np.zeros((n, S.MAX_PLAYERS), dtype=np.int64)
        batch.apply_actions(self.states, rows, actions, done, totals)
        if self.record:
            for i, a in zip(rows, actions, strict=True):
                self.actions[i].append(int(a))
        rewards = np.zeros((n, S.MAX_PLAYERS), dtype=np.float64)
        records = []
        ended = np.flatnonzero(done)
        for j in ended:
            i = rows[j]
            k = int(self.num_players[i])
            rewards[j, :k] = terminal_rewards(totals[j, :k], self.reward_scheme)
            if self.record:
                records.append(self.record_of(int(i)))
        if self.auto_reset and len(ended):
            self.reset_rows(rows[ended])
        return StepResult(rewards=rewards, done=done, totals=totals, records=records)

    def step_random(self, observe: bool = False) -> tuple[np.ndarray, StepResult, np.ndarray | None]:
        """One fused random step of every game (pick, apply, restart finished games, observe).

        Returns (actions taken, StepResult, next observations or None); the fastest way to collect
        random-play data.
        """
        n = self.num_games
        rows = self.all_rows
        actions = np.empty(n, dtype=np.int64)
        done = np.zeros(n, dtype=np.bool_)
        totals = np.zeros((n, S.MAX_PLAYERS), dtype=np.int64)
        fused = observe and not self.hint_code  # the fused kernel writes the standard planes only
        obs = np.empty((n, *OBSERVATION_SHAPE), dtype=np.float32) if fused else self._no_obs
        rewards = np.zeros((n, S.MAX_PLAYERS), dtype=np.float64)
        seeds_before = self.seeds.copy() if self.record else None
        batch.random_steps(self.states, rows, self.rng_state, self.num_players, self.seeds, n, self.forced,
                           self.lords_count_zero, self.auto_reset, REWARD_SCHEMES.index(self.reward_scheme),
                           actions, done, totals, rewards, fused, obs)
        if self.auto_reset:
            self.episodes += done
        records = []
        if self.record:
            for i in range(n):
                self.actions[i].append(int(actions[i]))
            for i in np.flatnonzero(done):
                seed_now, self.seeds[i] = self.seeds[i], seeds_before[i]
                records.append(self.record_of(int(i)))
                self.seeds[i] = seed_now
                if self.auto_reset:
                    self.actions[i] = []
        if observe and not fused:
            obs = self.observations()
        return actions, StepResult(rewards=rewards, done=done, totals=totals, records=records), (
            obs if observe else None)

    # ----- built-in batched policies --------------------------------------------------------
    def random_actions(self, rows: np.ndarray | None = None) -> np.ndarray:
        rows = self.all_rows if rows is None else rows
        out = np.empty(len(rows), dtype=np.int64)
        batch.random_actions(self.states, rows, self.rng_state, out)
        return out

    def greedy_best_masks(self, rows: np.ndarray | None = None) -> np.ndarray:
        """(len(rows), A) int8: every action the greedy policy values highest (its ties)."""
        return best_sets(self.greedy_values(rows))

    def teacher_values(self, teacher: str, rows: np.ndarray | None = None) -> np.ndarray:
        """(len(rows), A) float64: a built-in policy's value of every legal action, -inf for illegal ones."""
        if teacher not in TEACHERS:
            raise ValueError(f"teacher: expected one of {', '.join(TEACHERS)}, got {teacher!r}")
        rows = self.all_rows if rows is None else rows
        out = np.empty((len(rows), ACTION_SIZE), dtype=np.float64)
        kernel = batch.greedy_value_table if teacher == "greedy" else batch.lookahead_value_table
        kernel(self.states, rows, out)
        return out

    def greedy_values(self, rows: np.ndarray | None = None) -> np.ndarray:
        """(len(rows), A) float64: greedy's value of every legal action, -inf for illegal ones."""
        return self.teacher_values("greedy", rows)

    def greedy_actions(self, rows: np.ndarray | None = None) -> np.ndarray:
        rows = self.all_rows if rows is None else rows
        out = np.empty(len(rows), dtype=np.int64)
        batch.greedy_actions(self.states, rows, self.rng_state, out)
        return out

    def lookahead_actions(self, rows: np.ndarray | None = None) -> np.ndarray:
        """The lookahead policy's decisions (greedy over the rest of the mover's turn), ties at random."""
        rows = self.all_rows if rows is None else rows
        out = np.empty(len(rows), dtype=np.int64)
        batch.lookahead_actions(self.states, rows, self.rng_state, out)
        return out
