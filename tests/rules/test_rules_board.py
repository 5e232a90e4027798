"""Rules spec §1: the board, its names, directions, turns and home sides."""

from __future__ import annotations

import pytest

from rules import board


def test_board_has_91_cells_named_a1_to_k11() -> None:
    assert board.CELL_COUNT == 91
    assert board.name(0) == "a1"
    assert board.name(90) == "k11"
    assert len(set(board.NAMES)) == 91


@pytest.mark.parametrize(
    ("row", "first", "last"), [("a", 1, 6), ("c", 1, 8), ("f", 1, 11), ("h", 3, 11), ("k", 6, 11)]
)
def test_row_i_holds_numbers_max1_iminus4_to_min11_iplus6(row: str, first: int, last: int) -> None:
    names = [n for n in board.NAMES if n[0] == row]
    assert names == [f"{row}{n}" for n in range(first, last + 1)]


def test_cell_names_are_case_insensitive_and_canonical_lower_case() -> None:
    assert board.name(board.cell("K11")) == "k11"
    with pytest.raises(ValueError, match="not a cell"):
        board.cell("a7")


def test_neighbours_follow_the_spec() -> None:
    d4 = board.cell("d4")
    expected = {"E": "d5", "W": "d3", "NE": "e5", "NW": "e4", "SE": "c4", "SW": "c3"}
    for direction, neighbour in expected.items():
        assert board.name(board.step(d4, board.direction(direction))) == neighbour


def test_never_off_the_board() -> None:
    assert board.step(board.cell("a1"), board.SW) == board.NO_CELL
    assert board.step(board.cell("k11"), board.E) == board.NO_CELL
    assert board.RAY[board.cell("f1") * 6 + board.E][-1] == board.cell("f11")


def test_left_turn_is_counter_clockwise_right_turn_clockwise() -> None:
    order = ["E", "NE", "NW", "W", "SW", "SE"]
    for i, d in enumerate(order):
        assert board.DIRECTIONS[board.turn(board.direction(d), 1)] == order[(i + 1) % 6]
        assert board.DIRECTIONS[board.turn(board.direction(d), -1)] == order[(i - 1) % 6]


def test_six_home_sides_six_cells_each_corners_shared() -> None:
    names = {side: [board.name(c) for c in cells] for side, cells in board.HOME.items()}
    assert names["S"] == ["a1", "a2", "a3", "a4", "a5", "a6"]
    assert names["SW"] == ["a1", "b1", "c1", "d1", "e1", "f1"]
    assert names["NW"] == ["f1", "g2", "h3", "i4", "j5", "k6"]
    assert names["N"] == ["k6", "k7", "k8", "k9", "k10", "k11"]
    assert names["NE"] == ["f11", "g11", "h11", "i11", "j11", "k11"]
    assert names["SE"] == ["a6", "b7", "c8", "d9", "e10", "f11"]
    assert list(board.SIDES) == ["S", "SW", "NW", "N", "NE", "SE"]


def test_rotation_maps_each_side_to_the_next_clockwise() -> None:
    for i, side in enumerate(board.SIDES):
        turned = {board.rotate(c, -1) for c in board.HOME[side]}
        assert turned == set(board.HOME[board.SIDES[(i + 1) % 6]])
