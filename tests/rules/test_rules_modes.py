"""Rules spec §2, §4 and §5 for the multi-player and team modes."""

from __future__ import annotations

import pytest
from rules_support import at, legal, of_type, play, pos

from rules import board, events
from rules.game import Game
from rules.modes import MODES, Settings
from rules.steps import PLACE


def opening(mode: str, turns: int) -> list[tuple[str, str, int]]:
    """Play the first player-turns placing planes (moving once none can be placed);
    return (seat label, home side, actions taken) per player-turn."""
    game = Game(Settings(mode=mode))
    record: list[tuple[str, str, int]] = []
    while len(record) < turns:
        seat, turn, taken = game.active, game.turn, 0
        while game.turn == turn and not game.is_over:
            steps = game.legal_steps()
            placements = [s for s in steps if s.kind == PLACE]
            step = placements[0] if placements else steps[0]
            if placements:
                assert board.name(step.cell) in {
                    board.name(c) for c in board.HOME[game.mode.sides[seat]]
                }
            acting = step.kind == PLACE or game.diving < 0
            game.play(step)
            taken += acting
        record.append((game.mode.seat_label(seat), game.mode.sides[seat], taken))
    return record


# The §2 table, row by row: (label, home side, actions) for the opening player-turns.
TABLE = {
    "duel": [("P1", "S", 1), ("P2", "N", 2), ("P1", "S", 3), ("P2", "N", 4), ("P1", "S", 5)],
    "ffa3": [
        ("P1", "S", 1),
        ("P2", "NW", 2),
        ("P3", "NE", 3),
        ("P1", "S", 4),
        ("P2", "NW", 5),
        ("P3", "NE", 5),
    ],
    "ffa4": [("P1", "S", 1), ("P2", "NW", 2), ("P3", "N", 3), ("P4", "SE", 4), ("P1", "S", 5)],
    "ffa5": [("P1", "S", 1), ("P2", "SW", 2), ("P3", "NW", 3), ("P4", "N", 4), ("P5", "SE", 4)],
    "ffa6": [
        ("P1", "S", 1),
        ("P2", "SW", 2),
        ("P3", "NW", 3),
        ("P4", "N", 4),
        ("P5", "NE", 4),
        ("P6", "SE", 4),
    ],
    "cod4": [("P1", "S", 1), ("P2", "NW", 2), ("P3", "N", 3), ("P4", "SE", 4), ("P1", "S", 4)],
    "1v2": [
        ("A", "S", 1),
        ("B", "NW", 1),
        ("C", "N", 1),
        ("A", "S", 3),
        ("B", "NW", 2),
        ("C", "N", 2),
        ("A", "S", 5),
    ],
    "1v3": [
        ("A", "S", 2),
        ("B", "NW", 1),
        ("C", "N", 1),
        ("D", "NE", 1),
        ("A", "S", 4),
        ("B", "NW", 2),
    ],
    "2v2": [
        ("A", "S", 1),
        ("B", "SW", 1),
        ("C", "N", 2),
        ("D", "NE", 2),
        ("A", "S", 3),
        ("B", "SW", 3),
        ("C", "N", 4),
        ("D", "NE", 4),
        ("A", "S", 5),
    ],
    "3v3": [
        ("A", "SE", 1),
        ("B", "S", 1),
        ("C", "SW", 1),
        ("D", "NW", 2),
        ("E", "N", 2),
        ("F", "NE", 2),
        ("A", "SE", 3),
        ("B", "S", 3),
        ("C", "SW", 3),
        ("D", "NW", 4),
    ],
}


@pytest.mark.parametrize("mode", sorted(TABLE))
def test_seats_sides_and_opening_schedule_follow_the_table(mode: str) -> None:
    assert opening(mode, len(TABLE[mode])) == TABLE[mode]


@pytest.mark.parametrize(
    ("mode", "planes", "teams"),
    [
        ("duel", (5, 5), (0, 1)),
        ("ffa3", (5,) * 3, (0, 1, 2)),
        ("ffa4", (5,) * 4, (0, 1, 2, 3)),
        ("ffa5", (4,) * 5, (0, 1, 2, 3, 4)),
        ("ffa6", (4,) * 6, (0, 1, 2, 3, 4, 5)),
        ("cod3", (4,) * 3, (0, 1, 2)),
        ("cod5", (4,) * 5, (0, 1, 2, 3, 4)),
        ("cod6", (4,) * 6, (0, 1, 2, 3, 4, 5)),
        ("1v2", (5, 3, 3), (0, 1, 1)),
        ("1v3", (5, 2, 2, 2), (0, 1, 1, 1)),
        ("2v2", (5, 5, 5, 5), (0, 0, 1, 1)),
        ("3v3", (4,) * 6, (0, 0, 0, 1, 1, 1)),
    ],
)
def test_planes_per_seat_and_teams_follow_the_table(
    mode: str, planes: tuple[int, ...], teams: tuple[int, ...]
) -> None:
    game = Game(Settings(mode=mode))
    assert tuple(game.seat(s).reserve for s in range(game.seats)) == planes
    assert game.mode.teams == teams


@pytest.mark.parametrize("mode", sorted(MODES))
def test_turn_order_runs_clockwise(mode: str) -> None:
    sides = [board.SIDES.index(s) for s in MODES[mode].sides]
    steps_round = [(b - a) % 6 for a, b in zip(sides, [*sides[1:], sides[0]], strict=True)]
    assert sum(steps_round) == 6  # one lap, always moving clockwise


def test_left_neighbour_is_next_in_turn_order_right_neighbour_the_previous() -> None:
    game = Game(Settings(mode="cod4"))
    assert [game.left_neighbour(s) for s in range(4)] == [1, 2, 3, 0]
    assert [game.right_neighbour(s) for s in range(4)] == [3, 0, 1, 2]


def test_duel_plane_count_is_a_setting_from_3_to_6() -> None:
    assert Game(Settings(planes=3)).seat(0).reserve == 3
    assert Game(Settings(planes=6)).seat(1).reserve == 6
    with pytest.raises(ValueError, match="3 to 6"):
        Settings(planes=7)


# ---------------------------------------------------------------- hostile fire


FFA3 = "ffa3/2026 t10 - | - | >e2E0 a6E0 +0 | e5W0 k6W0 +{r} | h8SW0 k11E0 +0"


def test_hostile_fire_two_planes_of_different_players_catch_a_plane() -> None:
    game = pos(FFA3.format(r=1))
    assert "*e5" in legal(game)


def test_hostile_fire_lets_the_active_player_shoot_a_plane_caught_by_two_others() -> None:
    # P2's plane at e5 is caught by two P3 planes (e2 and h8); P1 to move may shoot it.
    game = pos("ffa3/2026 t10 - | - | >a6E0 a5E0 +0 | e5W0 k6W0 +1 | e2E0 h8SW0 k11E0 +0")
    assert "*e5" in legal(game)


def test_no_friendly_fire_between_team_mates() -> None:
    # 2v2: B's plane at e5 is caught by C and D; A (B's team mate) may not shoot it.
    game = pos("2v2/2026 t12 - | - | >a6E0 a5E0 +0 | e5W0 b1E0 +0 | e2E0 k6W0 +0 | h8SW0 k11E0 +0")
    assert "*e5" not in legal(game)
    # C's plane at e5 caught by A and B: A may shoot it.
    game = pos("2v2/2026 t12 - | - | >e2E0 a6E0 +0 | h8SW0 b1E0 +0 | e5W0 k6W0 +1 | k11E0 k10E0 +0")
    assert "*e5" in legal(game)


# ---------------------------------------------------------------- ends


def test_free_for_all_shot_down_planes_are_the_active_players_trophies() -> None:
    game = pos(FFA3.format(r=1))
    happened = play(game, "*e5")
    assert [e.seat for e in of_type(happened, events.TrophyTaken)] == [0]
    assert game.seat(0).trophies == 1


def test_free_for_all_elimination_gives_the_last_plane_as_a_trophy_too() -> None:
    game = pos(FFA3.format(r=0))
    happened = play(game, "*e5")
    assert of_type(happened, events.Eliminated)[0].seat == 1
    assert game.seat(0).trophies == 2
    assert not game.is_over  # P1 and P3 fly on


def test_free_for_all_self_elimination_by_crash_gives_nobody_a_trophy() -> None:
    game = pos("ffa3/2026 t11 - | - | a6E0 a5E0 +0 | >k6W1 i4W0 +0 | h8SW0 k11E0 +0")
    happened = play(game, "k6X")
    elim = of_type(happened, events.Eliminated)
    assert elim and elim[0].cause == "crash" and elim[0].by is None
    assert all(game.seat(s).trophies == 0 for s in range(3))


def test_free_for_all_most_trophies_wins_when_one_player_is_left() -> None:
    game = pos("ffa3/2026 t10 - | - | >e2E0 h8SW0 a6E0 +0 T1 | e5W0 k6W0 +0 | x T2")
    play(game, "*e5")
    assert game.result is not None and game.result.winners == (0,)
    assert game.result.reason == "most trophies"


def test_free_for_all_trophy_tie_goes_to_the_player_left() -> None:
    game = pos("ffa3/2026 t10 - | - | >e2E0 h8SW0 a6E0 +0 T1 | e5W0 k6W0 +0 | x T3")
    play(game, "*e5")
    assert game.result is not None and game.result.winners == (0,)
    assert "player left" in game.result.reason


def test_free_for_all_trophy_tie_without_the_player_left_is_shared() -> None:
    game = pos("ffa3/2026 t10 - | - | >e2E0 h8SW0 a6E0 +0 | e5W0 k6W0 +0 T3 | x T3")
    play(game, "*e5")
    assert game.result is not None and game.result.winners == (1, 2)
    assert "shared" in game.result.reason


COD3 = "cod3/2026 t10 - | - | >e2E0 h8SW0 a6E0 +0 | {p2} | {p3}"


def test_circle_of_death_a_plane_falls_only_with_its_right_neighbours_help() -> None:
    # P3's right neighbour is P2: two P1 planes alone cannot shoot P3's plane down.
    game = pos(COD3.format(p2="k6W0 j5W0 +0", p3="e5W0 k11E0 +1"))
    assert "*e5" not in legal(game)
    # P2's right neighbour is P1: P1's own crossfire is enough.
    game = pos(COD3.format(p2="e5W0 k6W0 +1", p3="k11E0 k10E0 +0"))
    assert "*e5" in legal(game)


def test_circle_of_death_eliminating_your_left_neighbour_by_a_shot_wins() -> None:
    game = pos(COD3.format(p2="e5W0 k6W0 +0", p3="k11E0 k10E0 +0"))
    play(game, "*e5")
    assert game.result is not None and game.result.winners == (0,)
    assert game.result.reason == "circle"


def test_circle_of_death_the_winner_is_the_right_neighbour_of_the_eliminated() -> None:
    # P1 fires, but P3's plane is caught by P1 and by P2 (P3's right neighbour): P2 wins.
    game = pos("cod3/2026 t10 - | - | >e2E0 a6E0 +0 | h8SW0 k6W0 +0 | e5W0 k11E0 +0")
    play(game, "*e5")
    assert game.result is not None and game.result.winners == (1,)


def test_circle_of_death_a_crash_elimination_closes_the_circle() -> None:
    game = pos("cod3/2026 t11 - | - | a6E0 a5E0 +0 | >k6W1 i4W0 +0 | h8SW0 k11E0 +0")
    play(game, "k6X")
    assert not game.is_over
    assert game.right_neighbour(2) == 0 and game.left_neighbour(0) == 2


@pytest.mark.parametrize("fire", ["auto", "manual"])
def test_a_player_out_by_their_own_crash_shoots_nothing_when_the_circle_closes(fire: str) -> None:
    # Found by the fire-mode property: P5 crashes down to one plane and is out; the
    # circle closing up makes P1's a2 caught by guns of P2 and P3 with P5 "active".
    game = pos(
        "cod5/2026 t10 no-level | b3 b5 c3 c5 e4 e5 e8 f3 f9 g4 g7 g8 i7 i9 j7 j9 "
        "| a2SE0 a4E0 a6SW0 +0 | a1E1 c1NW0 f1E0 +0 | f2SE1 h3SE1 i4SW0 j5SE1 +0 | x "
        "| >b7W0 c8SW0 d9SW0 f11SE0 +0",
        fire=fire,
    )
    happened = play(game, "d9X", "c8X", "b7C", "f11X")
    assert game.seat(4).out and game.active == 0 and not game.is_over
    assert of_type(happened, events.ShotDown) == []
    assert at(game, "a2") == (0, "SE", 0)


def test_a_team_is_out_only_when_all_its_players_are() -> None:
    game = pos("2v2/2026 t12 - | - | >e2E0 a6E0 +0 | h8SW0 b1E0 +0 | e5W0 k6W0 +0 | d7W0 k11E0 +0")
    play(game, "*e5")
    assert game.seat(2).out and not game.is_over
    game = pos("2v2/2026 t12 - | - | >e2E0 a6E0 +0 | h8SW0 b1E0 +0 | e5W0 k6W0 +0 | x")
    play(game, "*e5")
    assert game.result is not None and game.result.winners == (0, 1)


def test_a_team_wins_together_members_already_out_included() -> None:
    game = pos("1v2/2026 t12 - | - | e5W0 a6E0 +0 | >e2E0 h8SW0 +0 | x")
    play(game, "*e5")
    assert game.result is not None and game.result.winners == (1, 2)


def test_a_resigning_player_leaves_and_the_others_play_on() -> None:
    game = pos(FFA3.format(r=1))
    game.concede(1)
    assert game.seat(1).out and game.planes(1) == [] and not game.is_over
    assert game.seat(0).trophies == 0
