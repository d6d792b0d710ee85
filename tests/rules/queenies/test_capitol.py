"""Queenie 1: Capitol (QC-1, QC-2, A-QC1..A-QC3).

Hex distance: odd-r cells converted to cube coordinates (conftest ``hex_distance``); "next to or up to
2 hexes away" = distance 1 or 2.

Rule text quoted (the comments below name these):

CAPITOL (EN 1409): "If the game board sections with location harbor or oracle are in play, place the capitol on one
    of the castles. If both sections are in play, you may use both capitols."
CAPITOL_SCORING (EN 1411-1413): "At the end of the game 1 gold for each of your own settlements built next to or up
    to 2 hexes away from the capitol. Example: 4 gold"
CASTLE (EN 221): "At the end of the game, players will earn 3 gold for each castle hex if they have built at least
    one of their own settlements next to it."
"""

import pytest

A_QC1 = "(a) It [the castle under the capitol] still scores 3 per castle. (b) The capitol replaces it. Default (a)."
A_QC2 = "A settlement within 2 of both capitols counts twice (R)."
A_QC3 = "Default: set-up option; in random set-ups, always used and the castle drawn at random."

OWN_CASTLES = {"oracle": [(1, 3), (7, 2)], "harbor": [(4, 2), (8, 2)]}   # kb-data section coordinates


def board_castles(sections, names):
    """Board hexes of the castles of the sections called ``names``, per section index."""
    out = {}
    for q, (name, turned) in enumerate(sections):
        if name in names:
            r0, c0 = (q // 2) * 10, (q % 2) * 10
            out[q] = {(r0 + (9 - r if turned else r), c0 + (9 - c if turned else c)) for r, c in OWN_CASTLES[name]}
    return out


# --------------------------------------------------------------------------- QC-2 scoring

K = (10, 10)
# distance from K: (10, 11) 1 (also next to the castle), (10, 12) 2, (8, 10) 2, (12, 9) 2, (10, 13) 3
P0 = [(10, 11), (10, 12), (8, 10), (12, 9), (10, 13)]
P1 = [(11, 11)]   # distance 2, not next to the castle


@pytest.mark.parametrize("options,castles0", [(None, 3), ({"capitol_replaces_castle": True}, 0)],
                         ids=["castle-still-scores", "capitol-replaces-castle"])
def test_QC2_en1413_example_four_gold_and_A_QC1(kx, options, castles0):
    cells = {K: "K", **{h: "G" for h in P0 + P1}}
    pos = kx.position(cells, settlements=[P0, P1], expansions=["capitol"], capitols=[K], options=options,
                      cards=["fishermen", "hermits", "discoverers"])
    s0, s1 = kx.scores(pos)
    assert s0["capitols"] == 4                       # the settlement at distance 3 gives nothing
    assert s0["castles"] == castles0                 # A-QC1
    assert s1["capitols"] == 1 and s1["castles"] == 0


def test_A_QC2_settlement_near_both_capitols_counts_twice(kx):
    # castles (10, 8) and (10, 12) are 4 apart; (10, 10) is at distance 2 from each -> 2.
    # (12, 8): distance 2 from (10, 8), 5 from (10, 12) -> 1. Neither touches a castle.
    cells = {(10, 8): "K", (10, 12): "K", (10, 10): "G", (12, 8): "G"}
    pos = kx.position(cells, settlements=[[(10, 10)], [(12, 8)]], expansions=["capitol"],
                      capitols=[(10, 8), (10, 12)], cards=["fishermen", "hermits", "discoverers"])
    s0, s1 = kx.scores(pos)
    assert (s0["capitols"], s0["castles"]) == (2, 0)
    assert (s1["capitols"], s1["castles"]) == (1, 0)


def test_QC2_capitols_on_real_sections(kx):
    # Harbor top left, Oracle top right (not turned). Capitols on the harbor castle (4, 2) and the oracle
    # castle (1, 3) + (0, 10) = (1, 13). Player 0: (4, 3) T distance 1 (next to the castle), (3, 3) T 2,
    # (2, 2) F 2, (4, 5) G 3 -> 3 for (4, 2); (1, 14) T distance 1 (next to the castle) -> 1 for (1, 13).
    sections = [("harbor", False), ("oracle", False), ("tavern", False), ("farm", False)]
    own = [(4, 3), (3, 3), (2, 2), (4, 5), (1, 14)]
    pos = kx.position(sections=sections, settlements=[own, []], expansions=["capitol"], capitols=[(4, 2), (1, 13)],
                      cards=["fishermen", "hermits", "discoverers"])
    s0, s1 = kx.scores(pos)
    assert s0["capitols"] == 4
    assert s0["castles"] == 6                        # (4, 2) and (1, 13), A-QC1 default
    assert s1["capitols"] == 0 and s1["total"] == 0


# --------------------------------------------------------------------------- QC-1 placement


def test_QC1_capitol_must_sit_on_an_oracle_or_harbor_castle(kx):
    # CAPITOL: the Tavern castle (3, 3) is not an Oracle or Harbor castle
    sections = [("tavern", False), ("paddock", False), ("oasis", False), ("farm", False)]
    kx.setup_error(kx.position(sections=sections, settlements=[[], []], expansions=["capitol"], capitols=[(3, 3)]),
                   "capitols")
    # not a castle at all
    pos = kx.position({(10, 10): "G"}, settlements=[[], []], expansions=["capitol"], capitols=[(10, 10)])
    kx.setup_error(pos, "capitols")


def test_QC1_random_setup_one_capitol_per_oracle_or_harbor_section(kx):
    from kbenv import Game

    seen = {}
    for seed in range(160):
        n = 2 + seed % 4
        g = Game.new(n, seed=seed, expansions=["capitol"])
        sections = [(name, bool(turned)) for name, turned in g.setup.sections]
        assert {name for name, _ in sections} <= set(kx.BASE_SECTIONS)      # Capitol adds no section
        castles = board_castles(sections, ("oracle", "harbor"))
        caps = {tuple(h) for h in g.capitols()}
        assert len(caps) == len(castles), (seed, sections, caps)          # A-QC3: always used
        for q, cells in castles.items():
            assert len(caps & cells) == 1, (seed, sections, caps)
            (r, c), = caps & cells
            lr, lc = r - (q // 2) * 10, c - (q % 2) * 10
            name, turned = sections[q]
            seen.setdefault(name, set()).add((9 - lr, 9 - lc) if turned else (lr, lc))
        assert {tuple(h) for h in Game.new(n, seed=seed, expansions=["capitol"]).capitols()} == caps
    # over the seeds the castle is drawn at random: both castles of each section get the capitol
    assert seen == {name: set(cells) for name, cells in OWN_CASTLES.items()}
