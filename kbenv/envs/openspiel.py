"""Kingdom Builder as an OpenSpiel game: `import kbenv.openspiel` registers `python_kingdom_builder`.

```python
import pyspiel
import kbenv.openspiel  # noqa: F401  (registers the game)

game = pyspiel.load_game("python_kingdom_builder", {"players": 3, "expansions": "nomads,crossroads"})
state = game.new_initial_state()      # a chance node: the deal
```

Design (docs/openspiel.md has the details):

- Chance: the only chance nodes are the first two. Together they choose kbenv's 32-bit set-up seed (high 16
  bits, then low 16 bits, each uniform over 65,536 outcomes), which fixes the board, the cards in play, the
  start player, every hand and the order of the draw pile, and seeds the engine's in-game generator (the
  reshuffles). `Game.new(n, seed=hi * 65536 + lo, ...)` is the same game. After the deal the game is
  deterministic; what the players do not know (other hands, the deck order, the generator) is hidden
  information, so the game is EXPLICIT_STOCHASTIC and IMPERFECT_INFORMATION, like a card game whose
  whole deck is shuffled by one chance event at the start.
- Actions: kbenv's own layouts: 409 actions in base games (kingdom_builder_v0), 478 with expansions
  (kingdom_builder_v1; the base ids are its prefix). The player to move is `Game.decider`.
- Returns: win/tie/loss, zero-sum and scaled to [-1/(n-1), 1]: the k players with the most gold get
  (n/k - 1)/(n - 1) each, the others -1/(n - 1); two players: +1 / -1, a tie 0 / 0. `state.gold()` has the gold.
- Observations show a player only what it may see (as `kbenv.game.view.PlayerView`): the observation tensor is
  kbenv's v0 planes (28, 20, 20) in base games and v1 planes (50, 20, 20) with expansions, those kbenv
  agents get; the observation string is a text rendering of the player's view; the information-state
  string is perfect recall (the public set-up and every decision with the cards the player saw after it).
  No information-state tensor is provided.
- Imperfect-information search: `state.resample_from_infostate(player, sampler)` re-deals the cards that
  player has not seen (as `PlayerView.determinize`) and keeps its perfect recall, so OpenSpiel's Python
  ISMCTSBot runs (`seeded_resampler(seed)` makes it reproducible). OpenSpiel's C++ MCTSBot and ISMCTSBot
  crash on Python games (docs/openspiel.md). `load_game(players, expansions, **flags)` takes the
  expansions as a string, list or tuple (pyspiel.load_game itself refuses lists).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pyspiel

from .. import catalogue as CAT
from ..board.codes import CARD_TEXT
from ..engine import state as S
from ..game import Game, describe_action
from ..game.view import PlayerView
from ..layout import V0, V1
from ..present.text import board_text
from ..ruleset import Ruleset, RulesetError  # kbenv.openspiel.Ruleset: the one ruleset object (kbenv.ruleset)
from ..safe_json import short_repr

GAME_NAME = "python_kingdom_builder"
SEED_BITS = 16  # each of the two chance nodes picks 16 bits of kbenv's 32-bit set-up seed
SEED_OUTCOMES = 1 << SEED_BITS
CHANCE_NODES = 2
MAX_DECISIONS_PER_PLAYER = 1000  # a wide bound: random games took at most 102 a player (docs/openspiel.md)
MIN_PLAYERS, MAX_PLAYERS = 2, S.MAX_PLAYERS
OBSERVATION_CHANNELS_V0 = V0.num_channels  # kingdom_builder_v0's planes (kbenv.layout)
OBSERVATION_CHANNELS_V1 = V1.num_channels  # kingdom_builder_v1's planes

IMPLEMENTED_EXPANSIONS = tuple(e.name for e in CAT.EXPANSIONS if e.implemented)
RULE_FLAG_NAMES = tuple(f.name for f in CAT.RULE_FLAGS)
PARAMETERS: dict[str, object] = {"players": 2, "expansions": "", **{name: False for name in RULE_FLAG_NAMES}}

_CHANCE_OUTCOMES = [(k, 1.0 / SEED_OUTCOMES) for k in range(SEED_OUTCOMES)]

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Kingdom Builder (kbenv)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)


EXPANSIONS_FORM = ("a string of names separated by ',' or '+' (such as 'nomads,crossroads'), "
                   "or a list or tuple of names (such as ['nomads', 'crossroads'])")


def parse_expansions(text: str | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """('nomads', 'crossroads') from 'nomads,crossroads' (also '+', ';' or spaces between names) or from a
    list or tuple of names; '' or [] = base game.

    Names are checked against kbenv.catalogue and returned in catalogue order, without repeats.
    """
    if isinstance(text, (list, tuple)):
        if not all(isinstance(name, str) for name in text):
            raise ValueError(f"expansions: expected {EXPANSIONS_FORM}; got {short_repr(text)}")
        text = ",".join(text)
    if not isinstance(text, str):
        raise ValueError(f"expansions: expected {EXPANSIONS_FORM}; got {short_repr(text)}")
    names = [name for name in text.replace("+", ",").replace(";", ",").replace(" ", ",").split(",") if name]
    playable = CAT.playable_expansions()  # implemented, or under construction and opted into (KBENV_EXPERIMENTAL)
    for name in names:
        if name not in playable:
            raise ValueError(f"expansions: unknown or not implemented expansion {short_repr(name)}; "
                             f"expected names among {', '.join(playable)}")
    return tuple(name for name in playable if name in names)


@dataclass(frozen=True)
class GameSpec:
    """What a `python_kingdom_builder` game is played with: the player count and the ruleset (kbenv.ruleset).

    (Before issue 21 this was `kbenv.openspiel.Ruleset(num_players, expansions, rules)`; `Ruleset` is now the
    one ruleset object of kbenv, without the player count, and `KingdomBuilderGame.ruleset` is one.)"""

    num_players: int
    ruleset: Ruleset = Ruleset()

    @classmethod
    def from_params(cls, params: dict) -> GameSpec:
        players = params.get("players", PARAMETERS["players"])
        if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"players: expected {MIN_PLAYERS}..{MAX_PLAYERS}, got {short_repr(players)}")
        unknown = set(params) - set(PARAMETERS)
        if unknown:
            raise ValueError(f"unknown parameter(s) {', '.join(sorted(unknown))}; known: {', '.join(PARAMETERS)}")
        for name in RULE_FLAG_NAMES:
            if not isinstance(params.get(name, False), bool):
                raise ValueError(f"{name}: expected true or false, got {short_repr(params[name])}")
        rules = tuple(name for name in RULE_FLAG_NAMES if params.get(name, False))
        expansions = parse_expansions(params.get("expansions", ""))
        try:
            ruleset = Ruleset(expansions, rules)  # checks the combination (a flag needs its expansion)
        except RulesetError as err:
            raise ValueError(str(err)) from None
        return cls(players, ruleset)

    @classmethod
    def of_game(cls, game: Game | PlayerView) -> GameSpec:
        """The player count and ruleset of a kbenv game (or a player's view of one)."""
        return cls(game.num_players, Ruleset.of_game(game))

    @property
    def expansions(self) -> tuple[str, ...]:
        return self.ruleset.expansions

    @property
    def rules(self) -> tuple[str, ...]:
        return self.ruleset.rules

    def params(self) -> dict:
        """The game parameters of this spec, for pyspiel.load_game."""
        return {"players": self.num_players, "expansions": "+".join(self.expansions),
                **{name: True for name in self.rules}}

    @property
    def action_size(self) -> int:
        return self.ruleset.layout.action_size

    @property
    def channels(self) -> int:
        return self.ruleset.layout.num_channels

    def new_game(self, seed: int) -> Game:
        return Game.new(self.num_players, seed=seed, ruleset=self.ruleset)


def seed_actions(seed: int) -> tuple[int, int]:
    """The two chance outcomes that deal kbenv's `Game.new(n, seed=seed)` (seeds agree modulo 2**32)."""
    seed = int(seed) % (1 << (SEED_BITS * CHANCE_NODES))
    return seed >> SEED_BITS, seed & (SEED_OUTCOMES - 1)


def load_game(players: int = 2, expansions: str | list[str] | tuple[str, ...] = "", **rules: bool) -> pyspiel.Game:
    """`pyspiel.load_game("python_kingdom_builder", ...)` that also takes the expansions as a list or tuple.

    pyspiel.load_game itself takes string, int, float or bool parameters only: a list there fails inside
    pyspiel, before this module sees it. Here the names are checked (ValueError naming `expansions`) and
    passed on as one '+'-joined string.
    """
    names = parse_expansions(expansions)
    return pyspiel.load_game(GAME_NAME, {"players": players, "expansions": "+".join(names), **rules})


def seeded_resampler(seed: int):
    """A reproducible resampler for OpenSpiel's Python ISMCTSBot: `bot.set_resampler(seeded_resampler(0))`.

    The bot's own resampler draws from `pyspiel.UniformProbabilitySampler(0., 1.)`, which is not seeded
    (a new sampler gives new numbers each run); this one calls `resample_from_infostate` with one sampler
    seeded by `seed` (0 .. 2**31 - 1), so a bot with a seeded random_state repeats its choices.
    """
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**31:
        raise ValueError(f"seed: expected an integer 0..2**31-1, got {short_repr(seed)}")
    sampler = pyspiel.UniformProbabilitySampler(int(seed), 0.0, 1.0)

    def resample(state: KingdomBuilderState, player: int) -> KingdomBuilderState:
        return state.resample_from_infostate(player, sampler)

    return resample


def game_info(spec: GameSpec) -> pyspiel.GameInfo:
    n = spec.num_players
    return pyspiel.GameInfo(
        num_distinct_actions=spec.action_size,
        max_chance_outcomes=SEED_OUTCOMES,
        num_players=n,
        min_utility=-1.0 / (n - 1),
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=MAX_DECISIONS_PER_PLAYER * n,
    )


def win_returns(gold: list[int]) -> list[float]:
    """Zero-sum win/tie/loss: the k players with the most gold get (n/k - 1)/(n - 1), the others -1/(n - 1)."""
    n = len(gold)
    best = max(gold)
    k = sum(1 for g in gold if g == best)
    return [(n / k - 1) / (n - 1) if g == best else -1.0 / (n - 1) for g in gold]


class KingdomBuilderGame(pyspiel.Game):
    """The OpenSpiel game: parameters `players` (2-5), `expansions` and the kbenv rule flags."""

    def __init__(self, params: dict | None = None):
        params = dict(params or {})
        self.spec = GameSpec.from_params(params)
        self.ruleset = self.spec.ruleset  # kbenv.ruleset.Ruleset
        # '+' between expansion names: commas would split the game string ("python_kingdom_builder(...)").
        params["expansions"] = "+".join(self.ruleset.expansions)
        super().__init__(GAME_TYPE, game_info(self.spec), params)

    def new_initial_state(self) -> KingdomBuilderState:
        """The deal: a chance node (two of them) choosing kbenv's set-up seed."""
        return KingdomBuilderState(self)

    def state_from_kbenv(self, game: Game) -> KingdomBuilderState:
        """A state that continues a kbenv game (a copy), e.g. one dealt by `PlayerView.determinize`.

        Its OpenSpiel history is empty and its information-state strings start at this position.
        """
        if GameSpec.of_game(game) != self.spec:
            raise ValueError(f"game: its players and ruleset ({game.num_players}, {Ruleset.of_game(game)}) are not "
                             f"this game's ({self.spec.num_players}, {self.ruleset})")
        state = KingdomBuilderState(self)
        state._core.start(game.clone())
        return state

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: dict | None = None) -> KingdomBuilderObserver:
        """A player's observer: kbenv's planes and view text (default) or the perfect-recall information state."""
        return KingdomBuilderObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                                      self.spec, params)


class _Core:
    """Everything a state holds; copied by `deepcopy` (OpenSpiel's clone) without copying shared parts."""

    __slots__ = ("spec", "seed_high", "game", "origin", "setup_text", "first", "log")

    def __init__(self, spec: GameSpec):
        self.spec = spec
        self.seed_high: int | None = None
        self.game: Game | None = None
        self.origin: Game | None = None  # the position the game started from (never changed: shared by copies)
        self.setup_text: str | None = None  # text of the origin's public set-up, made when first asked for
        self.first: tuple = ()  # card snapshot of the origin
        self.log: list[tuple[int, int, tuple]] = []  # (decider, action, card snapshot after it) per decision

    def __deepcopy__(self, memo: dict) -> _Core:
        other = _Core.__new__(_Core)
        other.spec = self.spec
        other.seed_high = self.seed_high
        other.game = None if self.game is None else self.game.clone()
        other.origin = self.origin
        other.setup_text = self.setup_text
        other.first = self.first
        other.log = list(self.log)
        return other

    def __getstate__(self) -> dict:
        return {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, values: dict) -> None:
        for name, value in values.items():
            setattr(self, name, value)

    def start(self, game: Game) -> None:
        self.game = game
        self.origin = game.clone()
        self.first = snapshot(game.state)

    def public_setup(self) -> str:
        """The public set-up the game started from: ruleset, cards, start player and board (same for every seat)."""
        if self.setup_text is None:
            origin = self.origin
            flags = ", ".join(self.spec.rules) or "none"
            head = (f"{origin.num_players} players, expansions: {', '.join(origin.expansions) or 'none'}, "
                    f"rules: {flags}; cards: {', '.join(origin.cards)}; start player: player_{origin.start_player}; "
                    f"turn {origin.turn}")
            self.setup_text = "\n".join([head, *public_lines(origin, PlayerView(origin, 0))])
        return self.setup_text


def snapshot(st: np.ndarray) -> tuple:
    """The card-related fields of a state (hands, piles, Fort card): what `cards_seen` shows to a seat."""
    n = int(st[S.NUM_PLAYERS])
    discards, removed = int(st[S.DISCARD_COUNT]), int(st[S.REMOVED_COUNT])
    marsh = bool(st[S.EXPANSIONS] & CAT.MARSHLANDS)  # the 30-card piles of Marshlands (kbenv.engine.deck)
    discard_at, removed_at = (S.MARSH_DISCARD, S.MARSH_REMOVED) if marsh else (S.DISCARD, S.REMOVED)
    return (
        int(st[S.PHASE]) == S.PHASE_OVER,
        int(st[S.CURRENT]),
        int(st[S.TERRAIN_FIXED]),
        int(st[S.FORT_CARD]) if st[S.EXPANSIONS] & CAT.CROSSROADS else S.NO_CARD,
        int(st[S.DECK_COUNT]),
        tuple(st[S.HAND : S.HAND + n].tolist()),
        tuple(st[S.EXTRA_COUNT : S.EXTRA_COUNT + n].tolist()),
        tuple(st[S.EXTRA_CARDS : S.EXTRA_CARDS + n * S.MAX_EXTRA_CARDS].tolist()),
        tuple(st[discard_at : discard_at + discards].tolist()),
        tuple(st[removed_at : removed_at + removed].tolist()),
    )


UNSEEN_CARD = -2  # a card in a resampled state's history that the resampling player never saw (shown "?")


def masked_snapshot(snap: tuple, player: int) -> tuple:
    """The snapshot with every card `player` could not see replaced by UNSEEN_CARD (rule of `cards_seen`).

    `cards_seen(masked_snapshot(snap, p), p) == cards_seen(snap, p)`: the player's view is unchanged.
    """
    over, mover, fixed, fort, deck, hands, extra_counts, extras, discards, removed = snap
    if over:
        return snap
    open_hand = mover != player and extra_counts[mover] > 0 and not fixed
    hands = tuple(card if card == S.NO_CARD or q == player or (q == mover and not open_hand) else UNSEEN_CARD
                  for q, card in enumerate(hands))
    extras = list(extras)
    for q, count in enumerate(extra_counts):
        if q != player:
            for k in range(q * S.MAX_EXTRA_CARDS, q * S.MAX_EXTRA_CARDS + count):
                extras[k] = UNSEEN_CARD
    return (over, mover, fixed, fort, deck, hands, extra_counts, tuple(extras), discards, removed)


def _letters(cards) -> str:
    return "".join("?" if c == UNSEEN_CARD else CARD_TEXT[c] for c in cards if c != S.NO_CARD) or "-"  # "S/G": swamp


@lru_cache(maxsize=1 << 16)
def cards_seen(snap: tuple, player: int) -> str:
    """The cards of a snapshot that `player` may see (the rule of Game.hidden_from / hidden_extra_from)."""
    over, mover, fixed, fort, deck, hands, extra_counts, extras, discards, removed = snap
    open_hand = mover != player and extra_counts[mover] > 0 and not fixed
    parts = []
    for q, card in enumerate(hands):
        own_extras = extras[q * S.MAX_EXTRA_CARDS : q * S.MAX_EXTRA_CARDS + extra_counts[q]]
        hand_seen = over or q == player or (q == mover and not open_hand)
        text = _letters([card]) if hand_seen else ("?" if card != S.NO_CARD else "-")
        if extra_counts[q]:
            text += "+" + (_letters(own_extras) if over or q == player else "?" * extra_counts[q])
        parts.append(text)
    fort_text = f" fort {_letters([fort])}" if fort != S.NO_CARD else ""
    return (f"mover {mover} hands {' '.join(parts)} deck {deck} discard {_letters(discards)} "
            f"removed {_letters(removed)}{fort_text}")


class KingdomBuilderState(pyspiel.State):
    """A `python_kingdom_builder` state over one kbenv `Game` (None until the deal)."""

    def __init__(self, game: KingdomBuilderGame):
        super().__init__(game)
        self._core = _Core(game.spec)

    # ----- OpenSpiel API ----------------------------------------------------------------------------
    def current_player(self) -> int:
        game = self._core.game
        if game is None:
            return pyspiel.PlayerId.CHANCE
        if game.done:
            return pyspiel.PlayerId.TERMINAL
        return game.decider

    def _legal_actions(self, player: int) -> list[int]:
        return self._core.game.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The 65,536 values of 16 bits of the set-up seed, uniform."""
        return _CHANCE_OUTCOMES

    def _apply_action(self, action: int) -> None:
        core = self._core
        if core.game is None:
            if not 0 <= action < SEED_OUTCOMES:
                raise ValueError(f"chance outcome {action} is not in 0..{SEED_OUTCOMES - 1}")
            if core.seed_high is None:
                core.seed_high = int(action)
            else:
                core.start(core.spec.new_game((core.seed_high << SEED_BITS) | int(action)))
            return
        decider = core.game.decider
        core.game.step(int(action))
        core.log.append((decider, int(action), snapshot(core.game.state)))

    def resample_from_infostate(self, player_id: int, probability_sampler) -> KingdomBuilderState:
        """A state `player_id` cannot tell from this one: the cards it has not seen dealt anew.

        As `PlayerView.determinize`: the other players' hidden hands, their hidden extra Crossroads cards
        and the order of the draw pile are dealt at random from the cards the player cannot see, and the
        in-game generator is re-seeded; everything the player sees is kept. The randomness comes from
        `probability_sampler` (a callable returning floats in [0, 1), such as
        `pyspiel.UniformProbabilitySampler(seed, 0., 1.)`): two draws seed the deal, so a seeded sampler
        gives the same state. The new state keeps the player's perfect recall (its
        `information_state_string(player_id)` and observation are this state's) but none of the past cards
        the player did not see: those read "?" in every seat's history. Its OpenSpiel history is empty,
        as `state_from_kbenv`'s. OpenSpiel's ISMCTS (open_spiel.python.algorithms.ismcts) calls this.
        """
        core = self._core
        n = core.spec.num_players
        if isinstance(player_id, bool) or not isinstance(player_id, (int, np.integer)) or not 0 <= player_id < n:
            raise ValueError(f"player_id: expected a seat 0..{n - 1}, got {short_repr(player_id)}")
        player = int(player_id)
        draws = []
        for _ in range(2):
            u = probability_sampler()
            if not isinstance(u, (float, int, np.floating)) or not 0.0 <= u <= 1.0:
                raise ValueError(f"probability_sampler: expected a float in [0, 1), got {short_repr(u)}")
            draws.append(min(int(u * (1 << 32)), (1 << 32) - 1))
        other = KingdomBuilderState(self.get_game())
        new = other._core
        if core.game is None:  # the deal: only the seed bits chosen so far, which no player sees
            if core.seed_high is not None:
                new.seed_high = draws[0] >> SEED_BITS
            return other
        new.seed_high = core.seed_high
        new.setup_text = core.public_setup()
        new.origin = PlayerView(core.origin, player).public_game()
        new.first = masked_snapshot(core.first, player)
        new.log = [(d, a, masked_snapshot(snap, player)) for d, a, snap in core.log]
        new.game = PlayerView(core.game, player).determinize(np.random.default_rng(draws))
        return other

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            part = "high" if self._core.seed_high is None else "low"
            return f"seed {part} bits {action}"
        return describe_action(int(action))

    def is_terminal(self) -> bool:
        return self._core.game is not None and self._core.game.done

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._core.spec.num_players
        return win_returns(self.gold())

    def __str__(self) -> str:
        core = self._core
        game = core.game
        if game is None:
            high = "not chosen" if core.seed_high is None else str(core.seed_high)
            return f"deal: seed high bits {high}, low bits not chosen"
        status = "game over" if game.done else f"player_{game.decider} to move ({game.phase})"
        digest = hashlib.sha1(game.state_key()).hexdigest()[:16]
        gold = " ".join(str(g) for g in self.gold())
        hands = " ".join(_letters(game.state[S.HAND + p : S.HAND + p + 1]) for p in range(game.num_players))
        return (f"turn {game.turn}, {status}; decisions {len(core.log)}; gold {gold}; hands {hands}; "
                f"deck {game.deck_size()}; state {digest}")

    # ----- kbenv helpers ------------------------------------------------------------------------------
    @property
    def kbenv_game(self) -> Game | None:
        """The kbenv game behind this state (None before the deal). Reading it shows hidden cards."""
        return self._core.game

    def gold(self) -> list[int]:
        """Each player's gold so far (final gold once the game is over)."""
        game = self._core.game
        if game is None:
            return [0] * self._core.spec.num_players
        return [int(x) for x in game.score_table()[:, -1]]

    def player_view(self, player: int) -> PlayerView:
        """What `player` may see (kbenv.game.view.PlayerView); the game must be dealt."""
        if self._core.game is None:
            raise ValueError("the set-up is not dealt yet (chance node)")
        return PlayerView(self._core.game, player)


class KingdomBuilderObserver:
    """OpenSpiel python observer: `tensor`, `dict`, `set_from` and `string_from` for one player.

    Default (perfect_recall=False): the PlayerView planes (28 or 50, 20, 20) and a text rendering of the
    same view. perfect_recall=True: the information-state string only (no tensor).
    """

    def __init__(self, iig_obs_type: pyspiel.IIGObservationType, spec: GameSpec, params: dict | None):
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        if not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("only a player's own observation is supported "
                             "(public_info=True, private_info=SINGLE_PLAYER)")
        self.ruleset = spec.ruleset
        self.layout = spec.ruleset.layout  # kbenv.layout: V0 in base games, V1 with expansions
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        if self.perfect_recall:
            self.tensor = None
            self.dict: dict[str, np.ndarray] = {}
        else:
            shape = self.layout.observation_shape
            self.tensor = np.zeros(int(np.prod(shape)), np.float32)
            self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: KingdomBuilderState, player: int) -> None:
        """Fill `tensor` with `player`'s planes (zeros before the deal)."""
        if self.tensor is None:
            return
        game = state.kbenv_game
        if game is None:
            self.tensor.fill(0.0)
            return
        # kbenv's observation kernels read only what `player` may see: these are the planes of
        # PlayerView.observation / observation_v1 and of agents.evaluation.play.agent_inputs.
        out = self.dict["observation"]
        out[...] = self.layout.planes(game.state, player)

    def string_from(self, state: KingdomBuilderState, player: int) -> str:
        if self.perfect_recall:
            return information_state_string(state, player)
        return observation_string(state, player)


def information_state_string(state: KingdomBuilderState, player: int) -> str:
    """Perfect recall: the public set-up, then every decision (who, what) with the cards `player` saw after it."""
    core = state._core
    if core.game is None:
        return f"player {player}: the set-up is not dealt yet"
    lines = [f"player {player}", core.public_setup(), "start: " + cards_seen(core.first, player)]
    lines += [f"{d}:{a} {cards_seen(snap, player)}" for d, a, snap in core.log]
    return "\n".join(lines)


def observation_string(state: KingdomBuilderState, player: int) -> str:
    """A text rendering of `player`'s view: status, the cards the player sees, then `public_lines`."""
    game = state.kbenv_game
    if game is None:
        return f"player {player}: the set-up is not dealt yet"
    view = PlayerView(game, player)
    status = "game over" if view.done else f"turn {view.turn}, player_{view.current_player} to move ({view.phase})"
    hands = []
    for q in range(view.num_players):
        seen = "".join(view.hand_cards(q))
        hands.append(seen + "?" * (view.hand_size(q) - len(seen)) or "-")
    return "\n".join([f"player {player} sees: {status}; hands {' '.join(hands)}", *public_lines(game, view)])


def public_lines(game: Game, view: PlayerView) -> list[str]:
    """What every seat sees alike: supplies, tiles, nomad tiles, piles, the Fort's card, gold and the board."""
    lines = []
    for q in range(view.num_players):
        tiles = ", ".join(f"{name} {rc[0]},{rc[1]}" for name, rc in view.tiles(q)) or "no tiles"
        nomads = ", ".join(t["kind"] for t in view.nomad_tiles(q)) if view.expansions else ""
        lines.append(f"player_{q}: supply {view.supply(q)}, {tiles}" + (f"; nomad tiles {nomads}" if nomads else ""))
    fort = view.fort_card() if view.expansions else None
    lines.append(f"deck {view.deck_size()}, discard {''.join(view.discard_pile()) or '-'}, "
                 f"removed {''.join(view.removed_cards()) or '-'}" + (f", fort card {fort}" if fort else ""))
    lines.append("gold " + " ".join(str(s["total"]) for s in view.scores()))
    lines.append(public_board_text(game, view))
    return lines


_BOARD_CACHE: dict[bytes, str] = {}


def public_board_text(game: Game, view: PlayerView) -> str:
    """board_text of the view's public game, shared by every seat of one position (it shows no cards)."""
    key = game.state_key()
    text = _BOARD_CACHE.get(key)
    if text is None:
        if len(_BOARD_CACHE) >= 64:
            _BOARD_CACHE.clear()
        text = _BOARD_CACHE[key] = board_text(view.public_game(), colour=False)
    return text


pyspiel.register_game(GAME_TYPE, KingdomBuilderGame)
