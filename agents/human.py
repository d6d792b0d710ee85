"""A person at the terminal as an agent (`kbenv play --agents human trained:2p`).

Before each decision it prints the board, the scores so far, the other players' decisions since its
last one (in words: "player_0: build at 3,4"), its seat, its terrain card by name ("Flower field") and
what the phase asks for, then lists the legal decisions by number, in words, with what to type for
each (`[1] build at 3,4`, `[9] use the Oracle tile (oracle)`). It accepts a number from that list, a
hex as `r,c` (or `r c`), an island hex as `island r,c`, or a decision's name (`end_turn`, `done`,
`tavern`, ...); `help` or `?` prints the commands and the legal decisions, `board` shows the board
again, `hint` prints an analyst's top decisions with their shares and values and its best line for the rest of the
turn (agents.analysis, made from this seat's view only; the analyst is `lookahead` unless `kbenv play --hint SPEC`
names another), and `quit` (or the end of input, Ctrl-D) stops the game with `EndOfInput`, which `kbenv play`
reports and ends with exit code 0. Input that is not a legal decision is answered with the reason, and asked again.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import numpy as np

from kbenv.board.colours import seat_name
from kbenv.board.geometry import ISLAND_COLS
from kbenv.catalogue import ACTION_ID, ISLAND_ACTION_BASE
from kbenv.expansions.island.view import parse_island_hex
from kbenv.game.explain import explain_illegal
from kbenv.game.view import PlayerView
from kbenv.positions.files import OPTION_NAMES
from kbenv.present.text import board_text, score_text
from kbenv.present.words import action_phrase, describe_decision, hand_words, phase_words


class EndOfInput(Exception):
    """The person left: input ended (Ctrl-D, a closed pipe) or they typed `quit`."""


def decision_label(action: int, phase: str = "") -> str:
    """A decision as the player types it: `r,c` for a hex, else its name (kbenv.catalogue.ACTION_NAMES; option-1 /
    option-2 by their name in `phase`: kbenv.present.words.action_phrase)."""
    return action_phrase(action, phase)


# Every named decision, as typed: lower case, spaces for underscores ("end turn", "terrain-g").
NAMED_ACTIONS = {name.replace("_", " ").lower(): action for name, action in ACTION_ID.items()}
# Harvest's option-1 / option-2 by phase (kbenv.positions.files.OPTION_NAMES): a silo's "build" / "move" (H-5), the
# number tiles' "take" / "return" (A-H5), a repeat's "crossroads" (A-H3); each word is read in its own phase only.
OPTION_WORDS = {phase: {word: ACTION_ID[f"option-{k + 1}"] for k, word in enumerate(words)}
                for phase, words in OPTION_NAMES.items()}
HELP_WORDS = ("help", "?")
HINT_WORDS = ("hint",)
DEFAULT_HINT = "lookahead"  # the analyst of `hint` (agents.analysis)
QUIT_WORDS = ("quit", "exit")
COMMANDS = (
    "  a number from the list      take that decision (e.g. 1)",
    "  r,c  or  r c                the hex in row r, column c (e.g. 3,4)",
    "  island r,c                  the island's hex in line r, column c (with the Island)",
    "  a decision's name           end_turn, done, oracle, tavern, ... (as shown in brackets)",
    "  help  or  ?                 this help and the legal decisions",
    "  board                       show the board and the scores again",
    "  hint                        the analyst's best decisions now and its line for the rest of the turn",
    "  quit  (or end of input)     stop the game here",
)


def parse_decision(text: str, legal: list[int], phase: str = "") -> int | str:
    """The action id `text` names, or the reason it names none of the legal decisions (`phase`: the game's, which
    gives option-1 / option-2 their words)."""
    text = text.strip().lower().replace(" ", ",")
    if not text:
        return "type a number from the list, a hex as r,c, or a decision's name (help lists them)"
    if text.isdigit():
        k = int(text)
        return legal[k - 1] if 1 <= k <= len(legal) else f"{k} is not in the list (1..{len(legal)})"
    island = parse_island_hex(text)
    if isinstance(island, str):
        return island  # off the island: the reason
    if island is not None:
        r, c = island
        return ISLAND_ACTION_BASE + ISLAND_COLS * r + c
    parts = [p for p in text.split(",") if p]
    if len(parts) == 2 and all(p.lstrip("-").isdigit() for p in parts):
        r, c = (int(p) for p in parts)
        if not (0 <= r < 20 and 0 <= c < 20):
            return f"{r},{c} is off the board (rows and columns run 0..19)"
        return r * 20 + c
    name = text.replace(",", " ").replace("_", " ")
    if name in OPTION_WORDS.get(phase, {}):
        return OPTION_WORDS[phase][name]
    if name in NAMED_ACTIONS:
        return NAMED_ACTIONS[name]  # the caller says why, if it is not legal now
    elsewhere = [p for p, words in OPTION_WORDS.items() if name in words]
    if elsewhere and not phase:  # no phase given: the word's option (each word belongs to one phase)
        return OPTION_WORDS[elsewhere[0]][name]
    if elsewhere:
        return f"{name!r} is a choice of the {' or '.join(elsewhere)} phase, not of this one ({phase or 'unknown'})"
    return f"{text!r} is neither a number from the list, a hex r,c, nor a decision's name (type help)"


def legal_list(game, legal: list[int], width: int = 100) -> list[str]:
    """The legal decisions in words, numbered: hexes grouped by what choosing them does
    (`build at: [1] 0,3  [2] 0,4 ...`), every other decision with what to type for it
    (`[60] use the Oracle tile (oracle)`); lines wrapped at about `width` characters."""
    groups: dict[str, list[str]] = {}
    for k, a in enumerate(legal, 1):
        words = describe_decision(game, a)
        typed = action_phrase(a, game.phase)  # Harvest's options by their words: "build", "take", "crossroads"
        if words.endswith(f" {typed}") and "," in typed:  # a hex: grouped under what it does
            groups.setdefault(words[: -len(typed) - 1], []).append(f"[{k}] {typed}")
        else:
            groups.setdefault("", []).append(f"[{k}] {words}" + ("" if typed in words else f" ({typed})"))
    lines = []
    for head, items in sorted(groups.items(), key=lambda kv: kv[0] == ""):
        line = f"  {head}:" if head else " "
        for item in items:
            if len(line) + len(item) + 2 > width and line.strip() not in ("", f"{head}:"):
                lines.append(line)
                line = "    "
            line += f"  {item}"
        lines.append(line)
    return lines


class HumanAgent:
    name = "human"

    def __init__(self, read: Callable[[str], str] | None = None, write: Callable[[str], None] = print,
                 colour: bool | None = None, hint: str = DEFAULT_HINT):
        self.read = read if read is not None else (lambda prompt: input(prompt))  # input() as it is when asked
        self.write = write
        self.colour = sys.stdout.isatty() if colour is None else colour
        self.heard: list[tuple[int, str]] = []
        self.hint = hint  # the analyst spec of `hint`
        self._analyst = None

    def set_hint(self, analyst) -> None:
        """Use `analyst` (agents.analysis.make_analyst's, already made and checked) for `hint`."""
        self.hint = analyst.spec
        self._analyst = analyst

    def analyst(self):
        """The analyst of `hint`, made at its first use (ValueError naming the spec if it names none)."""
        from .analysis import make_analyst

        if self._analyst is None or self._analyst.spec != self.hint:
            self._analyst = make_analyst(self.hint)
        return self._analyst

    def hint_lines(self, view: PlayerView) -> list[str]:
        """What `hint` prints: the analyst's top decisions from this seat's view, or why there is none."""
        from .analysis import analyse, hint_lines
        from .rulesets import ModelRulesetError

        try:
            return hint_lines(analyse(self.analyst(), view))
        except (ModelRulesetError, ValueError, OSError) as err:
            return [f"  no hint: {err}"]

    def reset(self, seed: int | None = None) -> None:
        self.heard = []

    def notice(self, player: int, words: str) -> None:
        """A decision another player took (the play loop tells every agent that has this method)."""
        self.heard.append((player, words))

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: PlayerView) -> int:
        game = view.public_game()
        legal = [int(a) for a in np.flatnonzero(action_mask)]
        self.write("")
        self._show_board(game)
        others = [(p, w) for p, w in self.heard if p != view.player]
        if others:
            self.write("since your last decision:")
            for p in sorted({p for p, _ in others}, key=lambda q: (q - view.player) % game.num_players):
                self.write(f"  {seat_name(p)}: " + "; ".join(w for q, w in others if q == p))
        self.heard = []
        self.write(f"you are {seat_name(view.player)}; your card: {hand_words(view.hand_cards(view.player))}; "
                   f"{phase_words(game)}")
        self.write("legal decisions:")
        for line in legal_list(game, legal):
            self.write(line)
        while True:
            try:
                answer = self.read("your decision (help for commands)> ")
            except EOFError:
                raise EndOfInput("end of input") from None
            word = answer.strip().lower()
            if word in HELP_WORDS:
                self.write("commands:")
                for line in COMMANDS:
                    self.write(line)
                self.write("legal decisions:")
                for line in legal_list(game, legal):
                    self.write(line)
                continue
            if word in QUIT_WORDS:
                raise EndOfInput(word)
            if word == "board":
                self._show_board(game)
                continue
            if word in HINT_WORDS:
                for line in self.hint_lines(view):
                    self.write(line)
                continue
            choice = parse_decision(answer, legal, game.phase)
            if isinstance(choice, str):
                self.write(f"  not understood: {choice}")
            elif choice not in legal:
                self.write(f"  {decision_label(choice, game.phase)} is illegal: {explain_illegal(game, choice)}")
            else:
                return choice

    def _show_board(self, game) -> None:
        self.write(board_text(game, colour=self.colour))
        self.write(score_text(game.scores(), game.cards))
