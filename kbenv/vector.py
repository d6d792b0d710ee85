"""A batch of N games stepped together by parallel numba kernels.

Each game (slot) has its own seed and player count; all share the set-up options. Games that end
are reset automatically with the next seed of their slot (seed + N by default), so slot i plays
seeds s_i, s_i + N, s_i + 2N, ...  The same seed and actions give the same game as `Game.new`
(records on request prove it: `Game.from_record` replays them).

Observations come as float32 (C, 20, 20) planes, or with `packed=True` (on the batch or per call of
`observations`) as uint8 rows of `packed_layout.nbytes` bytes (kbenv.packed: bit planes plus float32
features, 2-5.3 KB instead of 45-80 KB, written by numba without touching the float planes);
`packed_layout.unpack` (numpy) or agents.training.packed.UnpackObservations (torch, on the network's
device) gives back exactly the float planes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .board.island_files import SUBSTITUTE_SIDES
from .board.tables import TABLE_SECTIONS
from .catalogue import section_name
from .engine import batch
from .engine import state as S
from .engine.init import (
    DRAW_CARDS,
    DRAW_SECTIONS,
    DRAW_START,
    DRAW_TURNED,
    FORCED_EXPANSIONS,
    FORCED_ISLAND_SIDE,
    FORCED_RULES,
    FORCED_SIZE,
)
from .engine.rng import seed_u32
from .engine.scoring import SCORE_COLUMNS, score_table
from .expansions.island.setup import IslandSetupError, side_option
from .game import RECORD_FORMAT, Game, IllegalActionError, describe_action, record_version
from .layout import LAYOUTS
from .observation import OBSERVATION_SHAPE, hint_code
from .packed import layout_of, split
from .policies import TEACHERS
from .policies import batch as policy_batch
from .policies.greedy import TIE
from .rewards import REWARD_SCHEMES, terminal_rewards
from .safe_json import short_repr
from .setup import SetupError, card_id, check_reward, resolve_preset, ruleset_of, standard_setup


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




def best_sets(values: np.ndarray) -> np.ndarray:
    """(n, A) int8 masks of the highest-valued actions (all ties) in (n, A) teacher values."""
    return (values > values.max(axis=1, keepdims=True) - TIE).astype(np.int8)


class BatchArgumentError(ValueError):
    """A bad argument to a batch-engine method; the message names the argument. Nothing was changed."""


MAX_SEED = 2**63 - 1


def int_array(value, name: str) -> np.ndarray:
    """`value` as a 1-D int64 array; BatchArgumentError naming `name` for anything but integers."""
    arr = np.asarray(value)
    if arr.size == 0:
        return np.zeros(0, dtype=np.int64)
    if arr.dtype.kind not in "iu":
        raise BatchArgumentError(f"{name}: expected integers, got dtype {arr.dtype}")
    if arr.ndim != 1:
        raise BatchArgumentError(f"{name}: expected a 1-D sequence, got shape {arr.shape}")
    if arr.dtype.kind == "u" and arr.max() > np.iinfo(np.int64).max:
        raise BatchArgumentError(f"{name}: value {int(arr.max())} is too large")
    return arr.astype(np.int64)


def forced_options(preset=None, sections=None, cards=None, start_player=None, expansions: int = 0,
                   rules: int = 0) -> np.ndarray:
    """The `forced` array of the set-up kernels (-1 = draw from the seed), with the ruleset bits."""
    forced = np.full(FORCED_SIZE, -1, dtype=np.int64)
    forced[FORCED_EXPANSIONS] = expansions
    forced[FORCED_RULES] = rules
    sections, cards = resolve_preset(preset, sections, cards)
    if sections is not None:
        if len(sections) != 4:
            raise SetupError(f"sections: expected 4 (TL, TR, BL, BR), got {len(sections)}")
        for k, (name, turned) in enumerate(sections):
            name = section_name(name)  # a former name (cityhall) is today's section
            if name not in TABLE_SECTIONS:
                raise SetupError(f"sections: the batch engine takes built-in sections only, not {short_repr(name)}")
            forced[DRAW_SECTIONS + k] = TABLE_SECTIONS.index(name)
            forced[DRAW_TURNED + k] = int(bool(turned))
    if cards is not None:
        if len(cards) != 3 or len(set(cards)) != 3:
            raise SetupError("cards: expected 3 different Kingdom Builder card names")
        for k, name in enumerate(cards):
            forced[DRAW_CARDS + k] = card_id(name, expansions)
    if start_player is not None:
        forced[DRAW_START] = start_player
    return forced


def batch_island_side(island_side, expansion_bits: int) -> str | None:
    """The checked `island_side` of a batch: None (each seed chooses) or a shipped side's name; SetupError naming
    the option for a side file (the batch engine deals shipped sides only) or anything else."""
    if island_side is None:
        return None
    try:
        side_option(island_side, expansion_bits)  # names the fault: no island expansion, an unknown side
    except IslandSetupError as err:
        raise SetupError(str(err)) from None
    if island_side not in SUBSTITUTE_SIDES:
        raise SetupError(f"island_side: the batch engine deals the shipped sides only ({', '.join(SUBSTITUTE_SIDES)}), "
                         f"not the side file {short_repr(island_side)} (Game.new takes one)")
    return island_side


def chosen_layout(ruleset, name: str | None):
    """The layout of VectorGames' `layout` option: the ruleset's own for None, else V0 or V1 by name (V0 only
    for a base game: its observation has no expansion pieces)."""
    if name is None:
        return ruleset.layout
    if name not in LAYOUTS:
        raise SetupError(f"layout: expected one of {', '.join(LAYOUTS)} or None, got {short_repr(name)}")
    if name == "v0" and ruleset.expansions:
        raise SetupError(f"layout: v0 cannot show the expansions of {ruleset.text()}; use v1 or None")
    return LAYOUTS[name]


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
        expansions=None,
        rules=None,
        packed: bool = False,
        ruleset=None,
        island_side=None,
        layout: str | None = None,
    ):
        """`island_side`: with the island expansion, a shipped side (kbenv.board.island_files.SUBSTITUTE_SIDES) for
        every game; by default each game's seed chooses, as in `Game.new`. `layout`: "v1" plays a base game in
        the v1 layout (as `kingdom_builder_v1` does; games of several rulesets then share one observation
        shape); None: the ruleset's own (v1 with expansions, else v0)."""
        if isinstance(num_games, (bool, np.bool_)) or not isinstance(num_games, (int, np.integer)) or num_games < 1:
            raise SetupError(f"num_games: expected a positive integer, got {short_repr(num_games)}")
        raw_players = np.asarray(num_players)
        if raw_players.dtype.kind not in "iu" or raw_players.ndim > 1:
            raise SetupError(f"num_players: expected an integer or one integer per game, got {short_repr(num_players)}")
        if raw_players.ndim == 1 and raw_players.shape != (num_games,):
            raise SetupError(f"num_players: expected {num_games} player counts, got {len(raw_players)}")
        players = np.broadcast_to(raw_players.astype(np.int64), (num_games,)).copy()
        if players.min() < 2 or players.max() > 5:
            raise SetupError("num_players: expected 2 to 5 for every game")
        for flag, value in (("auto_reset", auto_reset), ("record", record), ("packed", packed)):
            if not isinstance(value, (bool, np.bool_)):
                raise SetupError(f"{flag}: expected true or false, got {short_repr(value)}")
        check_reward(reward)
        self.num_games = num_games
        self.ruleset = ruleset_of(expansions, rules, lords_count_zero, ruleset)  # lords_count_zero: the old keyword
        self.expansion_bits, self.rule_bits = self.ruleset.bits
        self.island_side = batch_island_side(island_side, self.expansion_bits)
        self.layout = chosen_layout(self.ruleset, layout)  # kbenv.layout: v1 with expansions; base keeps v0
        self.v1 = self.layout.v1
        self.hint_code = hint_code(hints)
        try:
            self.observation_shape = self.layout.shape(hints)
        except ValueError as err:
            raise SetupError(str(err)) from None
        self.action_size = self.layout.action_size
        self.hints = hints
        self.packed = bool(packed)
        self.packed_layout = layout_of(self.v1, self.hint_code)
        self.num_players = players
        self.options = {"preset": preset, "sections": sections, "cards": cards}
        self.forced = forced_options(preset, sections, cards, expansions=self.expansion_bits, rules=self.rule_bits)
        if self.island_side is not None:
            self.forced[FORCED_ISLAND_SIDE] = SUBSTITUTE_SIDES.index(self.island_side)
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
        raw = np.asarray(seeds)
        if raw.dtype.kind not in "iu" or raw.ndim > 1 or (raw.ndim == 1 and raw.shape != (self.num_games,)):
            raise SetupError(f"seeds: expected one base seed or {self.num_games} integer seeds")
        if raw.min() < 0 or int(raw.max()) + (self.num_games if raw.ndim == 0 else 0) > MAX_SEED:
            raise SetupError(f"seeds: expected seeds from 0 to {MAX_SEED}")
        raw = raw.astype(np.int64)
        self.seeds = raw.copy() if raw.ndim else raw + np.arange(self.num_games, dtype=np.int64)
        self.episodes[:] = 0
        self.actions = [[] for _ in range(self.num_games)]
        self.rng_state = np.array([seed_u32(int(s) * 7919 + 17) for s in self.seeds], dtype=np.int64)
        batch.new_games(self.states, self.all_rows, self.num_players, self.seeds, self.forced)

    def reset_rows(self, rows) -> None:
        """Start the next game in each of these slots (seed + N)."""
        rows = self.check_rows(rows)
        if len(rows) and int(self.seeds[rows].max()) > MAX_SEED - self.num_games:
            raise SetupError(f"seeds: slot seeds would pass {MAX_SEED}; call reset() with smaller seeds")
        self._reset_rows(rows)

    def _reset_rows(self, rows: np.ndarray) -> None:
        self.seeds[rows] += self.num_games
        self.episodes[rows] += 1
        for i in rows:
            self.actions[i] = []
        batch.new_games(self.states, rows, self.num_players, self.seeds, self.forced)

    # ----- queries ------------------------------------------------------------------------
    def current_players(self) -> np.ndarray:
        """The player who takes the next decision in each game (S.DECIDER)."""
        return self.states[:, S.DECIDER].copy()

    def done(self) -> np.ndarray:
        return self.states[:, S.PHASE] == S.PHASE_OVER

    # ----- argument checks ------------------------------------------------------------------
    def check_rows(self, rows, name: str = "rows") -> np.ndarray:
        """Validated game indices (all games for None): integers in [0, N), each at most once."""
        if rows is None:
            return self.all_rows
        rows = int_array(rows, name)
        if len(rows) == 0:
            return rows
        bad = rows[(rows < 0) | (rows >= self.num_games)]
        if len(bad):
            raise BatchArgumentError(f"{name}: game index {int(bad[0])} is out of range 0..{self.num_games - 1}")
        if len(np.unique(rows)) != len(rows):
            raise BatchArgumentError(f"{name}: each game may appear once (repeated indices)")
        return rows

    def check_players(self, players, rows: np.ndarray) -> np.ndarray:
        """Validated seats, one per row, each a seat of its game."""
        players = int_array(players, "players")
        if players.shape != rows.shape:
            raise BatchArgumentError(f"players: expected {len(rows)} seats (one per row), got {len(players)}")
        bad = np.flatnonzero((players < 0) | (players >= self.num_players[rows]))
        if len(bad):
            j = int(bad[0])
            raise BatchArgumentError(f"players: seat {int(players[j])} does not exist in game {int(rows[j])} "
                                     f"({int(self.num_players[rows[j]])} players)")
        return players

    def check_running(self, rows: np.ndarray) -> None:
        """Refuse finished games (they end only with auto_reset=False until reset)."""
        over = rows[self.states[rows, S.PHASE] == S.PHASE_OVER]
        if len(over):
            raise BatchArgumentError(f"rows: game {int(over[0])} has ended; reset() or reset_rows() starts a new one")

    # ----- queries ------------------------------------------------------------------------
    def legal_masks(self, rows=None) -> np.ndarray:
        rows = self.check_rows(rows)
        out = np.zeros((len(rows), self.action_size), dtype=np.int8)
        batch.legal_masks(self.states, rows, out)
        return out

    def observations(self, rows=None, players=None, packed: bool | None = None) -> np.ndarray:
        """(len(rows), C, 20, 20) float32 observations (by default of the player to move), with hints
        when the batch was made with them; packed (default: the batch's `packed`): (len(rows), nbytes)
        uint8 rows of `packed_layout` instead."""
        if packed is not None and not isinstance(packed, (bool, np.bool_)):
            raise BatchArgumentError(f"packed: expected true or false, got {short_repr(packed)}")
        rows = self.check_rows(rows)
        players = self.states[rows, S.DECIDER] if players is None else self.check_players(players, rows)
        if self.packed if packed is None else packed:
            buffer = self.packed_layout.empty(len(rows))
            bits, values = split(buffer, self.packed_layout)
            policy_batch.packed_observations(self.states, rows, players, bits, values, self.v1, self.hint_code)
            return buffer.view(np.uint8)
        out = np.empty((len(rows), *self.observation_shape), dtype=np.float32)
        if self.v1:
            batch.observations_v1(self.states, rows, players, out)
        else:
            policy_batch.observations(self.states, rows, players, out, self.hint_code)
        return out

    def final_totals(self, i: int) -> np.ndarray:
        """Gold totals of the players of game i (no Game object, no set-up rebuilt)."""
        i = self._game_index(i)
        table = np.zeros((S.MAX_PLAYERS, SCORE_COLUMNS), dtype=np.int64)
        score_table(self.states[i], table)
        return table[: self.num_players[i], -1]

    def game(self, i: int) -> Game:
        """A `Game` copy of slot i (with its record when recording)."""
        i = self._game_index(i)
        setup = self.setup_of(i)
        g = Game(setup, self.states[i].copy(), list(self.actions[i]))
        g._replayable = self.record
        return g

    def _game_index(self, i) -> int:
        if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)) or not 0 <= i < self.num_games:
            raise BatchArgumentError(f"i: expected a game index 0..{self.num_games - 1}, got {short_repr(i)}")
        return int(i)

    def setup_of(self, i: int):
        i = self._game_index(i)
        return standard_setup(int(self.num_players[i]), int(self.seeds[i]), ruleset=self.ruleset,
                              **self._setup_kwargs())

    def _setup_kwargs(self) -> dict:
        opts = dict(self.options)
        opts["sections"], opts["cards"] = resolve_preset(opts.pop("preset"), opts["sections"], opts["cards"])
        if self.island_side is not None:
            opts["island_side"] = self.island_side
        return opts

    def record_of(self, i: int) -> dict:
        i = self._game_index(i)
        setup = self.setup_of(i)
        return {
            "format": RECORD_FORMAT,
            "version": record_version(setup),
            "setup": setup.to_dict(),
            "actions": list(self.actions[i]),
        }

    # ----- stepping -----------------------------------------------------------------------
    def step(self, actions, rows=None) -> StepResult:
        """Apply one action in each game of `rows` (default: all). Bad arguments and illegal actions raise
        and change nothing."""
        rows = self.check_rows(rows)
        try:
            actions = int_array(actions, "actions")
        except BatchArgumentError as err:
            raise IllegalActionError(str(err)) from None
        if actions.shape != rows.shape:
            raise IllegalActionError(f"actions: expected {len(rows)} actions, got {len(actions)}")
        self.check_running(rows)
        ok = np.zeros(len(rows), dtype=np.bool_)
        batch.check_legal(self.states, rows, actions, ok)
        if not ok.all():
            j = int(np.flatnonzero(~ok)[0])
            i, a = int(rows[j]), int(actions[j])
            g = Game(self.setup_of(i), self.states[i].copy())
            from .game.explain import explain_illegal

            raise IllegalActionError(
                f"game {i}: action {a} ({describe_action(a)}) is illegal: {explain_illegal(g, a)}"
            )
        return self._apply(actions, rows)

    def _apply(self, actions: np.ndarray, rows: np.ndarray) -> StepResult:
        """Apply actions known to be legal (from the batch policies, or checked by `step`); handle ends
        and resets. Internal: the kernels do not check, so callers must pass legal actions of running
        games with distinct, in-range rows."""
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
            self._reset_rows(rows[ended])
        return StepResult(rewards=rewards, done=done, totals=totals, records=records)

    def step_random(self, observe: bool = False) -> tuple[np.ndarray, StepResult, np.ndarray | None]:
        """One fused random step of every game (pick, apply, restart finished games, observe).

        Returns (actions taken, StepResult, next observations or None: packed rows when the batch is
        `packed`); the fastest way to collect random-play data. Without auto_reset, finished games are
        left alone: their action is -1 and they are not reported done again.
        """
        if not self.auto_reset and self.done().any():
            return self._step_random_running(observe)
        n = self.num_games
        rows = self.all_rows
        actions = np.empty(n, dtype=np.int64)
        done = np.zeros(n, dtype=np.bool_)
        totals = np.zeros((n, S.MAX_PLAYERS), dtype=np.int64)
        # the fused kernel writes the float v0 planes, or packed v0 and v1 observations (no hints)
        fused = observe and not self.hint_code and (self.packed or not self.v1)
        obs = np.empty((n, *OBSERVATION_SHAPE), dtype=np.float32) if fused and not self.packed else self._no_obs
        # unused (2 rows): its float view is then non-contiguous like a batch's, one compiled kernel for both
        buffer = self.packed_layout.empty(n if fused and self.packed else 2)
        bits, values = split(buffer, self.packed_layout)
        rewards = np.zeros((n, S.MAX_PLAYERS), dtype=np.float64)
        seeds_before = self.seeds.copy() if self.record else None
        policy_batch.random_steps(self.states, rows, self.rng_state, self.num_players, self.seeds, n, self.forced,
                           self.auto_reset, REWARD_SCHEMES.index(self.reward_scheme),
                           actions, done, totals, rewards, fused, obs, self.packed, bits, values, self.v1)
        if fused and self.packed:
            obs = buffer.view(np.uint8)
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

    def _step_random_running(self, observe: bool) -> tuple[np.ndarray, StepResult, np.ndarray | None]:
        """step_random without auto_reset when some games have ended: random steps of the others only."""
        n = self.num_games
        rows = np.flatnonzero(~self.done()).astype(np.int64)
        actions = np.full(n, -1, dtype=np.int64)
        if len(rows):
            actions[rows] = self.random_actions(rows)
            part = self._apply(actions[rows], rows)
        done = np.zeros(n, dtype=np.bool_)
        totals = np.zeros((n, S.MAX_PLAYERS), dtype=np.int64)
        rewards = np.zeros((n, S.MAX_PLAYERS), dtype=np.float64)
        records: list[dict] = []
        if len(rows):
            done[rows], totals[rows], rewards[rows], records = part.done, part.totals, part.rewards, part.records
        obs = self.observations() if observe else None
        return actions, StepResult(rewards=rewards, done=done, totals=totals, records=records), obs

    # ----- built-in batched policies --------------------------------------------------------
    def random_actions(self, rows=None) -> np.ndarray:
        rows = self.check_rows(rows)
        out = np.empty(len(rows), dtype=np.int64)
        policy_batch.random_actions(self.states, rows, self.rng_state, out)
        return out

    def greedy_best_masks(self, rows=None) -> np.ndarray:
        """(len(rows), A) int8: every action the greedy policy values highest (its ties)."""
        return best_sets(self.greedy_values(rows))

    def teacher_values(self, teacher: str, rows=None) -> np.ndarray:
        """(len(rows), A) float64: a built-in policy's value of every legal action, -inf for illegal ones."""
        if teacher not in TEACHERS:
            raise ValueError(f"teacher: expected one of {', '.join(TEACHERS)}, got {short_repr(teacher)}")
        rows = self.check_rows(rows)
        out = np.empty((len(rows), self.action_size), dtype=np.float64)
        kernel = policy_batch.greedy_value_table if teacher == "greedy" else policy_batch.lookahead_value_table
        kernel(self.states, rows, out)
        return out

    def greedy_values(self, rows=None) -> np.ndarray:
        """(len(rows), A) float64: greedy's value of every legal action, -inf for illegal ones."""
        return self.teacher_values("greedy", rows)

    def greedy_actions(self, rows=None) -> np.ndarray:
        rows = self.check_rows(rows)
        out = np.empty(len(rows), dtype=np.int64)
        policy_batch.greedy_actions(self.states, rows, self.rng_state, out)
        return out

    def lookahead_actions(self, rows=None) -> np.ndarray:
        """The lookahead policy's decisions (greedy over the rest of the mover's turn), ties at random."""
        rows = self.check_rows(rows)
        out = np.empty(len(rows), dtype=np.int64)
        policy_batch.lookahead_actions(self.states, rows, self.rng_state, out)
        return out
