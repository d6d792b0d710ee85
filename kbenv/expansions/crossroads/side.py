"""Crossroads, as the generic Python code sees it (kbenv.expansions.registry)."""

from ...board.codes import CARD_TEXT
from ...engine import state as S
from ...engine.deck import pile_size
from ..checks import card_letters
from ..registry import ExpansionSide, TextLayer
from . import setup
from .draw import IMAGE_BOARD

# An empty hex of a warrior zone shows its terrain or location letter followed by ZONE_MARK on the text board.
ZONE_MARK = "-"


def piece_marks(kind) -> tuple[tuple[str, str], ...]:
    """(mark, name) of a piece kind in the key: one, or for a piece covering several hexes its centre and the
    other cells ("city hall (centre)", "city hall (other 6 cells)")."""
    if not kind.cell_mark:
        return ((kind.mark, kind.label),)
    return ((kind.mark, f"{kind.label} (centre)"), (kind.cell_mark, f"{kind.label} (other {kind.cells - 1} cells)"))


def text_legend() -> list[str]:
    """The key to the Crossroads pieces (owner's digit and mark) and the warrior zone."""
    marks = ", ".join(f"0{mark} {name}" for kind in setup.CROSSROADS_KINDS for mark, name in piece_marks(kind))
    return [f"crossroads pieces (owner's digit, then the piece's mark; 0 = player_0): {marks}",
            f"warrior zone: an empty hex next to a warrior shows its letter, then {ZONE_MARK} (g{ZONE_MARK})"]


def check_decision(decision: dict, bits: int) -> dict:
    """The card the Fort tile drew (C-9; with Marshlands also a swamp card, A-C9), null when none."""
    fort = decision.get("fort_card")
    return {"fort_card": None if fort is None else card_letters([fort], "decision.fort_card", pile_size(bits))[0]}


def apply_decision(st, decision: dict) -> None:
    fort = decision.get("fort_card")
    st[S.FORT_CARD] = S.NO_CARD if fort is None else CARD_TEXT.index(fort)


def decision_keys(st) -> dict:
    fort = int(st[S.FORT_CARD])
    return {"fort_card": None if fort == S.NO_CARD else CARD_TEXT[fort]}


def score_keys(game, player: int, row) -> dict:
    """The gold of each task card in play (C-2)."""
    return {"tasks": {name: game.task_gold(player, name) for name in game.tasks()}}


# The owner's digit is followed by the kind's mark (a piece covering several hexes marks its other cells with its
# cell mark: Game.piece_cells names them "<label> cell").
PIECE_MARKS = {**{kind.label: kind.mark for kind in setup.CROSSROADS_KINDS},
               **{f"{kind.label} cell": kind.cell_mark for kind in setup.CROSSROADS_KINDS if kind.cell_mark}}


def text_lines(game) -> list[str]:
    tasks = game.tasks()
    return ["tasks: " + ", ".join(f"{name} {setup.TASK_GOLD[name]} gold" for name in tasks)] if tasks else []


TEXT_BOARD = TextLayer(owned=lambda game: {rc: (p, PIECE_MARKS[kind]) for rc, (p, kind) in game.piece_cells().items()},
                       zone=lambda game: game.warrior_zone(), lines=text_lines)


SIDES = (ExpansionSide(
    "crossroads",
    setup_fields=setup.CROSSROADS_PIECES,
    check_pieces=setup.check_pieces,
    apply_pieces=setup.apply_pieces,
    position_keys=setup.position_keys,
    text_legend=text_legend,
    text_board=TEXT_BOARD,
    image_board=IMAGE_BOARD,
    decision_fields=("fort_card",),
    hand_cards=1 + S.MAX_EXTRA_CARDS,
    score_keys=score_keys,  # a hand and the extra cards of the Crossroads tiles
    check_decision=check_decision,
    apply_decision=apply_decision,
    decision_keys=decision_keys,
),)
