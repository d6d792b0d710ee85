"""A person at the terminal as an agent (`kbenv play --agents human trained:2p`).

Before each decision it prints the board, the scores so far, the player's card and the settlements
placed since its last decision, then lists the legal decisions by number, coordinates and name. It
accepts a number from that list, a hex as `r,c` (or `r c`), or a decision's name (`end_turn`, `done`,
`tavern`, ...). Input that is not a legal decision is answered with the reason, and asked again.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import numpy as np

from kbenv.catalogue import ACTION_ID
from kbenv.explain import explain_illegal
from kbenv.position import decision_name
from kbenv.render_text import board_text, score_text
from kbenv.view import PlayerView


def decision_label(action: int) -> str:
    """A decision as the player types it: `r,c` for a hex, else its name (kbenv.position.decision_name)."""
    name = decision_name(action)
    return f"{name[0]},{name[1]}" if isinstance(name, list) else name


# Every named decision, as typed: lower case, spaces for underscores ("end turn", "terrain-g").
NAMED_ACTIONS = {name.replace("_", " ").lower(): action for name, action in ACTION_ID.items()}


def parse_decision(text: str, legal: list[int]) -> int | str:
    """The action id `text` names, or the reason it names none of the legal decisions."""
    text = text.strip().lower().replace(" ", ",")
    if not text:
        return "type a number from the list, a hex as r,c, or a decision's name"
    if text.isdigit():
        k = int(text)
        return legal[k - 1] if 1 <= k <= len(legal) else f"{k} is not in the list (1..{len(legal)})"
    parts = [p for p in text.split(",") if p]
    if len(parts) == 2 and all(p.lstrip("-").isdigit() for p in parts):
        r, c = (int(p) for p in parts)
        if not (0 <= r < 20 and 0 <= c < 20):
            return f"{r},{c} is off the board (rows and columns run 0..19)"
        return r * 20 + c
    name = text.replace(",", " ").replace("_", " ")
    if name in NAMED_ACTIONS:
        return NAMED_ACTIONS[name]  # the caller says why, if it is not legal now
    return f"{text!r} is neither a number from the list, a hex r,c, nor a decision's name"


class HumanAgent:
    name = "human"

    def __init__(self, read: Callable[[str], str] = input, write: Callable[[str], None] = print,
                 colour: bool | None = None):
        self.read = read
        self.write = write
        self.colour = sys.stdout.isatty() if colour is None else colour
        self.seen: dict[int, set] = {}

    def reset(self, seed: int | None = None) -> None:
        self.seen = {}

    def act(self, observation: np.ndarray, action_mask: np.ndarray, view: PlayerView) -> int:
        game = view.public_game()
        legal = [int(a) for a in np.flatnonzero(action_mask)]
        self.write("")
        self.write(board_text(game, colour=self.colour))
        self.write(score_text(game.scores(), game.cards))
        placed = []
        for p in range(game.num_players):
            now = game.settlements(p)
            placed += [f"player {p}: {r},{c}" for r, c in sorted(now - self.seen.get(p, now))]
            self.seen[p] = now
        if placed:
            self.write("placed since your last decision: " + "; ".join(placed))
        self.write(f"you are player {view.player}; your card: {view.hand(view.player) or '-'}; "
                   f"phase: {view.phase}")
        self.write("legal decisions: " + "  ".join(f"[{k}] {decision_label(a)}" for k, a in enumerate(legal, 1)))
        while True:
            try:
                answer = self.read("your decision> ")
            except EOFError:
                raise KeyboardInterrupt from None  # no more input: stop the game as Ctrl-D would
            choice = parse_decision(answer, legal)
            if isinstance(choice, str):
                self.write(f"  not understood: {choice}")
            elif choice not in legal:
                self.write(f"  {decision_label(choice)} is illegal: {explain_illegal(game, choice)}")
            else:
                return choice
