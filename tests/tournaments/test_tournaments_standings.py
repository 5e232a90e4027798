"""Standings and tie-breaks against examples worked by hand."""

from __future__ import annotations

from competition.model import Entrant, PairingResult, placement_points
from competition.standings import (
    TieBreak,
    buchholz,
    head_to_head,
    median_buchholz,
    sonneborn_berger,
    standings,
)

A, B, C, D = (
    Entrant(pid, rating, seed)
    for seed, (pid, rating) in enumerate(
        [("A", 2000.0), ("B", 1900.0), ("C", 1800.0), ("D", 1700.0)], start=1
    )
)
FOUR = [
    PairingResult.duel("A", "B", 1.0),  # round 1
    PairingResult.duel("C", "D", 0.5),
    PairingResult.duel("A", "C", 0.5),  # round 2
    PairingResult.duel("B", "D", 1.0),
    PairingResult.duel("D", "A", 1.0),  # round 3
    PairingResult.duel("B", "C", 1.0),
]
# Scores: A 1 + 0.5 + 0 = 1.5, B 0 + 1 + 1 = 2, C 0.5 + 0.5 + 0 = 1, D 0.5 + 0 + 1 = 1.5.


def test_buchholz_median_and_sonneborn_berger_by_hand() -> None:
    # A met B (2), C (1), D (1.5): 4.5.  D met C (1), B (2), A (1.5): 4.5.
    assert buchholz("A", FOUR) == 4.5 and buchholz("D", FOUR) == 4.5
    # B met A (1.5), D (1.5), C (1): 4.   C met D, A (1.5 each), B (2): 5.
    assert buchholz("B", FOUR) == 4.0 and buchholz("C", FOUR) == 5.0
    # Median: of [1, 1.5, 2] only the middle 1.5 is left, for A and for D.
    assert median_buchholz("A", FOUR) == median_buchholz("D", FOUR) == 1.5
    # A: 1 x B's 2 + 0.5 x C's 1 + 0 x D's 1.5 = 2.5.   D: 0.5 x 1 + 0 x 2 + 1 x 1.5 = 2.
    assert sonneborn_berger("A", FOUR) == 2.5 and sonneborn_berger("D", FOUR) == 2.0
    # D beat A, the only game between the two.
    assert head_to_head("D", ["A", "D"], FOUR) == 1.0
    assert head_to_head("A", ["A", "D"], FOUR) == 0.0


def test_organiser_order_decides_between_a_and_d() -> None:
    def table(order: list[TieBreak]) -> list[tuple[int, str]]:
        return [(s.place, s.player) for s in standings([A, B, C, D], FOUR, order)]

    # Buchholz leaves A and D level at 4.5; Sonneborn-Berger 2.5 against 2 puts A first.
    assert table([TieBreak.BUCHHOLZ, TieBreak.SONNEBORN_BERGER]) == [
        (1, "B"),
        (2, "A"),
        (3, "D"),
        (4, "C"),
    ]
    # Head-to-head first: D beat A.
    assert table([TieBreak.HEAD_TO_HEAD, TieBreak.BUCHHOLZ]) == [
        (1, "B"),
        (2, "D"),
        (3, "A"),
        (4, "C"),
    ]
    # Median Buchholz cannot separate them: they share second place, seed order shown.
    assert table([TieBreak.MEDIAN_BUCHHOLZ]) == [(1, "B"), (2, "A"), (2, "D"), (4, "C")]
    # Rating alone: A (2000) above D (1700).
    assert table([TieBreak.RATING])[1:3] == [(2, "A"), (3, "D")]


def test_byes_and_forfeits_meet_a_virtual_opponent_on_the_players_own_score() -> None:
    x, y, z = Entrant("X", 1500.0, 1), Entrant("Y", 1500.0, 2), Entrant("Z", 1500.0, 3)
    results = [
        PairingResult.duel("X", "Y", 1.0),  # round 1
        PairingResult.bye("Z"),
        PairingResult.duel("Z", "X", 1.0, forfeit=True),  # round 2: X did not show
        PairingResult.bye("Y"),
    ]
    # Scores: X 1 + 0 = 1, Y 0 + 1 = 1, Z 1 + 1 = 2.
    # X: Y's 1, then the forfeit as a virtual opponent on X's own 1: Buchholz 2.
    # Y: X's 1, then the bye on Y's own 1: 2.   Z: bye and forfeit, own 2 twice: 4.
    assert [buchholz(p, results) for p in "XYZ"] == [2.0, 2.0, 4.0]
    # X: 1 x Y's 1 + 0 x 1 = 1.   Y: 0 x 1 + 1 x 1 = 1.   Z: 1 x 2 + 1 x 2 = 4.
    assert [sonneborn_berger(p, results) for p in "XYZ"] == [1.0, 1.0, 4.0]
    order = [TieBreak.BUCHHOLZ, TieBreak.SONNEBORN_BERGER, TieBreak.HEAD_TO_HEAD]
    table = standings([x, y, z], results, order)
    # X and Y are level on both; X beat Y in round 1.
    assert [(s.place, s.player, s.score) for s in table] == [
        (1, "Z", 2.0),
        (2, "X", 1.0),
        (3, "Y", 1.0),
    ]
    assert table[1].tiebreaks == {
        TieBreak.BUCHHOLZ: 2.0,
        TieBreak.SONNEBORN_BERGER: 1.0,
        TieBreak.HEAD_TO_HEAD: 1.0,
    }


def test_tables_count_as_one_game_against_the_mean_opponent() -> None:
    # Three at a table finish P, Q, R: 1, 0.5, 0; then R beats P in a duel.
    results = [
        PairingResult(("P", "Q", "R"), placement_points([1, 2, 3])),
        PairingResult.duel("R", "P", 1.0),
    ]
    # Scores: P 1, Q 0.5, R 1.  P's Buchholz: mean(Q 0.5, R 1) = 0.75, plus R's 1 = 1.75.
    assert buchholz("P", results) == 1.75
    # Head-to-head P against R: above R at the table (1), lost the duel (0).
    assert head_to_head("P", ["P", "R"], results) == 1.0


def test_placement_points_share_tied_places() -> None:
    assert placement_points([1, 2, 3, 4]) == (1.0, 2 / 3, 1 / 3, 0.0)
    assert placement_points([1, 1, 3]) == (0.75, 0.75, 0.0)
