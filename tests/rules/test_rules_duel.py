"""Rules spec §2 to §6 for the duel, each rule on a small hand-built position."""

from __future__ import annotations

import pytest
from rules_support import LAYOUT, at, legal, legal_for, of_type, play, pos

from rules import board, clouds, events, notation, serialize
from rules.errors import IllegalStep, NotationError, RulesError
from rules.game import Game
from rules.modes import ALL_ACTIONS, Settings

# ---------------------------------------------------------------- §2 actions, ramp


def test_entry_ramp_is_1_2_3_4_then_all() -> None:
    game = Game(Settings())
    assert [game.mode.ramp(n) for n in range(1, 7)] == [1, 2, 3, 4, ALL_ACTIONS, ALL_ACTIONS]
    play(game, "+a3NE")
    assert (game.turn, game.active) == (2, 1)
    play(game, "+k7SW")
    assert game.active == 1  # the second action is still to come
    play(game, "+k9SW")
    assert (game.turn, game.active) == (3, 0)


def test_placement_is_on_an_empty_home_cell_at_height_0_any_facing() -> None:
    game = Game(Settings())
    placements = {t for t in legal(game) if t.startswith("+")}
    assert placements == {f"+a{n}{d}" for n in range(1, 7) for d in board.DIRECTIONS}
    play(game, "+a3W")
    assert at(game, "a3") == (0, "W", 0)
    with pytest.raises(IllegalStep, match="not in P2's home side"):
        play(game, "+a4SW")


def test_a_placed_plane_may_not_move_in_the_same_turn() -> None:
    game = pos("duel/2026 t3 - | - | >+5 | k7SW0 k10E0 +3")
    play(game, "+a3NE")
    assert legal_for(game, "a3") == set()
    with pytest.raises(IllegalStep, match="already acted"):
        play(game, "a3C")


def test_a_turn_needs_min_of_ramp_and_planes_able_to_act() -> None:
    # Turn 4 allows four actions, but P2 has only one plane on the board and none in reserve.
    game = pos("duel/2026 t4 - | - | a3NE0 a4NE0 +3 | >k7SW0 k8SW0 +0")
    play(game, "k7C")
    assert game.active == 1  # the plane at k8 must still act
    play(game, "k8C")
    assert (game.turn, game.active) == (5, 0)


def test_a_reserve_plane_cannot_act_when_its_home_side_is_full() -> None:
    full = " ".join(f"a{n}E0" for n in range(1, 7))
    game = pos(f"duel/2026 t10 - | - | {full} +1 | >k7SW0 k8SW0 +0")
    assert game.active == 1
    play(game, "k7C", "k8C")
    assert game.active == 0
    assert not any(t.startswith("+") for t in legal(game))


def test_after_the_ramp_every_plane_must_move_and_every_reserve_plane_be_placed() -> None:
    game = pos("duel/2026 t9 - | - | >c3NE0 c6NW0 +1 | k7SW0 k10E0 +0")
    play(game, "c3C")
    assert game.active == 0
    play(game, "+a1E")
    assert game.active == 0
    play(game, "c6C")
    assert game.active == 1


# ---------------------------------------------------------------- §3 moving


def test_climb_adds_one_height_moves_one_cell_then_may_turn() -> None:
    game = pos("duel/2026 t9 - | - | >d4E2 a1E0 +0 | k7SW0 k10E0 +0")
    assert {"d4C", "d4C<", "d4C>"} <= legal(game)
    play(game, "d4C<")
    assert at(game, "d5") == (0, "NE", 3)


def test_no_climb_at_height_6() -> None:
    game = pos("duel/2026 t9 - | - | >d4E6 a1E0 +0 | k7SW0 k10E0 +0")
    assert not any(t.startswith("d4C") for t in legal(game))


def test_level_flight_2026_moves_two_cells() -> None:
    game = pos("duel/2026 t9 - | - | >d4E2 a1E0 +0 | k7SW0 k10E0 +0")
    assert {t for t in legal_for(game, "d4") if "F" in t} == {"d4F", "d4F<", "d4F>"}
    play(game, "d4F>")
    assert at(game, "d6") == (0, "SE", 2)


def test_level_flight_classic_moves_one_or_two_cells() -> None:
    game = pos("duel/classic t9 - | - | >d4E2 a1E0 +0 | k7SW0 k10E0 +0")
    assert {t for t in legal_for(game, "d4") if "F" in t} == {
        "d4F",
        "d4F<",
        "d4F>",
        "d4F1",
        "d4F1<",
        "d4F1>",
    }
    play(game, "d4F1")
    assert at(game, "d5") == (0, "E", 2)


def test_f1_is_refused_in_the_2026_rules() -> None:
    game = pos("duel/2026 t9 - | - | >d4E2 a1E0 +0 | k7SW0 k10E0 +0")
    with pytest.raises(IllegalStep, match="classic only"):
        play(game, "d4F1")


def test_classic_climb_takes_a_ring_and_dives_give_them_back() -> None:
    game = pos("duel/classic t9 - | - | >d4E2 a1E0 +0 r1 | k7SW0 k10E0 +0")
    assert game.seat(0).rings == 1
    play(game, "d4C")
    assert game.seat(0).rings == 0
    assert not any(t.startswith("a1C") for t in legal(game))  # no ring, no climb
    assert "a1F" in legal(game)


def test_classic_rings_default_to_20_minus_heights() -> None:
    game = pos("duel/classic t9 - | - | >d4E2 a1E3 +0 | k7SW0 k10E0 +0")
    assert game.seat(0).rings == 15
    play(game, "d4S", "-")
    assert game.seat(0).rings == 16


def test_dive_is_a_series_of_swoops_and_power_dives_each_losing_height() -> None:
    game = pos("duel/2026 t9 - | - | >e6E5 a1E0 +0 | k7SW0 k10E0 +0")
    assert legal_for(game, "e6") >= {"e6S", "e6S<", "e6S>", "e6P", "e6P<", "e6P>"}
    play(game, "e6S")
    assert at(game, "e7") == (0, "E", 4)
    assert game.diving >= 0
    assert legal_for(game, "e7") == {"e7S", "e7S<", "e7S>", "e7P", "e7P<", "e7P>"}
    play(game, "e7S>", "e8P")
    assert at(game, "e8") == (0, "SE", 1)
    assert game.diving >= 0  # still height 1: a swoop is possible
    play(game, "-")
    assert game.diving == -1


def test_whole_plane_dive_token_equals_single_steps() -> None:
    one = pos("duel/2026 t9 - | - | >e6E5 a1E0 +0 | k7SW0 k10E0 +0")
    two = pos("duel/2026 t9 - | - | >e6E5 a1E0 +0 | k7SW0 k10E0 +0")
    play(one, "e6SS>P", "a1C")
    play(two, "e6S", "e7S>", "e8P", "a1C")
    assert one.state_key() == two.state_key()


def test_a_dive_ends_when_the_player_acts_with_another_plane() -> None:
    game = pos("duel/2026 t9 - | - | >e6E5 a1E0 +0 | k7SW0 k10E0 +0")
    play(game, "e6S")
    diving = game.diving
    happened = play(game, "a1C")
    assert diving >= 0
    assert of_type(happened, events.DiveEnded)
    assert game.active == 1


def test_a_dive_ends_by_itself_when_no_manoeuvre_is_left() -> None:
    game = pos("duel/2026 t9 - | - | >e6E1 a1E0 +0 | k7SW0 k10E0 +0")
    happened = play(game, "e6S")
    assert of_type(happened, events.DiveEnded)
    assert game.diving == -1


# b3 (height 2) swoops to c4 at height 1, facing E: c5 blocks the next swoop, but c5 is
# caught by c4 and a5, so shooting it clears the way (issue 13).
BLOCKED_DIVE = "duel/2026 t9 - | - | >b3NE2 a5NW0 +0 | c5W0 k7W0 k8W0 +0"


@pytest.mark.parametrize("fire", ["auto", "manual"])
def test_a_blocked_dive_stays_open_while_a_shot_could_clear_its_way(fire: str) -> None:
    game = pos(BLOCKED_DIVE, fire=fire)
    play(game, "b3S>")
    assert game.diving >= 0
    if fire == "manual":
        assert legal_for(game, "c4") == set()  # blocked for now: only the shot helps
        assert {"*c5", "-"} <= legal(game)
        play(game, "*c5")
    assert at(game, "c5") is None
    assert {"c4S", "c4S<", "c4S>"} <= legal_for(game, "c4")
    happened = play(game, "c4S")
    assert at(game, "c5") == (0, "E", 0)
    assert of_type(happened, events.DiveEnded)  # at height 0 the dive is over
    play(game, "a5C")
    end = game.state_key()[1:]  # everything but the settings, which name the fire mode
    other = pos(BLOCKED_DIVE, fire="auto")
    play(other, "b3S>", "c4S", "a5C")
    assert end == other.state_key()[1:]


def test_a_blocked_dive_stays_open_while_a_series_of_shots_could_clear_its_way() -> None:
    # c6 hides c5 from c8; shooting c6 (caught by c8 and d7) lets c8 and c4 catch c5.
    game = pos("duel/2026 t9 - | - | >b3NE2 a1E0 c8W0 d7SW0 +0 | c5W0 c6E0 k7W0 k8W0 +0")
    play(game, "b3S>")
    assert "*c5" not in legal(game)
    assert game.diving >= 0
    play(game, "*c6", "*c5", "c4S")
    assert at(game, "c5") == (0, "E", 0)


def test_a_blocked_dive_ends_when_no_shot_could_clear_its_way() -> None:
    # A shot is on offer (a3, caught by h8 and c3) but nothing it opens reaches c5.
    game = pos("duel/2026 t9 - | - | >b3NE2 a1E0 h8SE0 c3SE0 +0 | c5W0 a3NW0 k7W0 +0")
    happened = play(game, "b3S>")
    assert "*a3" in legal(game)
    assert of_type(happened, events.DiveEnded)
    assert game.diving == -1


def test_ending_a_dive_held_open_for_a_shot_keeps_the_shot() -> None:
    game = pos(BLOCKED_DIVE)
    play(game, "b3S>")
    happened = play(game, "-")
    assert of_type(happened, events.DiveEnded)
    assert "*c5" in legal(game)
    assert game.active == 0


@pytest.mark.parametrize("fire", ["auto", "manual"])
def test_a_dive_through_a_shot_round_trips_through_notation_and_json(fire: str) -> None:
    game = pos(BLOCKED_DIVE, fire=fire)
    play(game, "b3S>", *(["*c5"] if fire == "manual" else []), "c4S", "a5C")
    record = [w for _, _, line in notation.turn_texts(game) for w in line.split()]
    assert record == ["b3S>*c5S", "a5C"]  # the shot sits inside the dive's token
    again = pos(BLOCKED_DIVE, fire=fire)
    play(again, *record)
    assert again.state_key() == game.state_key()
    assert serialize.loads(serialize.dumps(game)).state_key() == game.state_key()


def test_crash_only_when_nothing_else_is_possible() -> None:
    # a1 faces SW, off the board, at height 1: no climb, level flight, swoop or power dive.
    game = pos("duel/2026 t9 - | - | >a1SW1 c3E3 +0 | k7SW0 k10E0 +0")
    assert legal_for(game, "a1") == {"a1X"}
    assert "c3X" not in legal(game)
    happened = play(game, "a1X")
    assert of_type(happened, events.Crashed)
    assert at(game, "a1") is None


def test_height_2_blocked_plane_power_dives_instead_of_crashing() -> None:
    game = pos("duel/2026 t9 - | - | >a1SW2 c3E3 +0 | k7SW0 k10E0 +0")
    assert legal_for(game, "a1") == {"a1P", "a1P<", "a1P>"}


def test_nothing_enters_or_passes_through_a_cell_holding_a_plane() -> None:
    # d5 holds a friendly plane: d4 can neither climb, swoop nor fly level through it.
    game = pos("duel/2026 t9 - | - | >d4E3 d5W0 +0 | k7SW0 k10E0 +0")
    assert legal_for(game, "d4") == {"d4P", "d4P<", "d4P>"}
    # d6 holds an enemy plane: one cell ahead is free, two are not.
    game = pos("duel/2026 t9 - | - | >d4E3 a1E0 +0 | d6W0 k10E0 +0")
    assert "d4C" in legal(game)
    assert "d4F" not in legal(game)


def test_clouds_never_hinder_movement() -> None:
    game = pos("duel/2026 t9 - | d5 d6 | >d4E3 a1E0 +0 | k7SW0 k10E0 +0")
    assert "d4F" in legal(game)


# ---------------------------------------------------------------- §4 shooting


def test_line_of_fire_runs_ahead_to_the_edge_a_cloud_or_the_first_plane() -> None:
    game = pos("duel/2026 t9 - | d8 | >d4E0 f3NE0 +0 | d6W0 k10E0 +0")
    d4 = game.plane_at(board.cell("d4"))
    assert d4 is not None
    assert [board.name(c) for c in game.line_of_fire(d4)] == ["d5", "d6"]
    d6 = game.plane_at(board.cell("d6"))
    assert d6 is not None
    assert [board.name(c) for c in game.line_of_fire(d6)] == ["d5", "d4"]
    f3 = game.plane_at(board.cell("f3"))
    assert f3 is not None
    assert [board.name(c) for c in game.line_of_fire(f3)] == ["g4", "h5", "i6", "j7", "k8"]
    game = pos("duel/2026 t9 - | d5 | >d4E0 f3NE0 +0 | d6W0 k10E0 +0")
    assert game.target(game.plane_at(board.cell("d4"))) is None  # type: ignore[arg-type]


def test_a_plane_in_a_cloud_has_no_line_of_fire_and_cannot_be_hit() -> None:
    game = pos("duel/2026 t9 - | d4 | >d4E0 d2E0 +0 | d6W0 k10E0 +0")
    d4 = game.plane_at(board.cell("d4"))
    assert d4 is not None and game.line_of_fire(d4) == []
    d2 = game.plane_at(board.cell("d2"))
    assert d2 is not None
    assert [board.name(c) for c in game.line_of_fire(d2)] == ["d3"]
    assert game.target(d2) is None


def test_height_plays_no_part_in_shooting() -> None:
    game = pos("duel/2026 t9 - | - | >d2E6 f6SW0 +0 | d6W3 k10E0 +0")
    assert "*d6" not in legal(game)
    game = pos("duel/2026 t9 - | - | >d2E6 f8SW0 +0 | d6W3 k10E0 +0")
    assert "*d6" in legal(game)  # d2 along row d and f8 down the SW diagonal (e7, d6)


def test_caught_means_two_hostile_planes_have_it_in_their_lines_of_fire() -> None:
    one = pos("duel/2026 t9 - | - | >d2E0 a1E0 +0 | d6W0 k10E0 +0")
    assert one.caught() == {}
    two = pos("duel/2026 t9 - | - | >d2E0 f8SW0 +0 | d6W0 k10E0 +0")
    victim = two.plane_at(board.cell("d6"))
    assert victim is not None and set(two.caught()) == {victim.id}


def test_no_friendly_fire() -> None:
    game = pos("duel/2026 t9 - | - | >d2E0 f8SW0 d6W0 +0 | a1E0 k10E0 +0")
    assert game.caught() == {}
    with pytest.raises(IllegalStep, match="friendly"):
        play(game, "*d6")


def test_shooting_at_the_start_of_the_turn() -> None:
    game = pos("duel/2026 t9 - | - | >d2E0 f8SW0 +0 | d6W0 k10E0 a6W0 +0")
    assert "*d6" in legal(game)
    happened = play(game, "*d6")
    shots = of_type(happened, events.ShotDown)
    assert len(shots) == 1 and shots[0].by == 0
    assert at(game, "d6") is None


def test_shooting_after_each_dive_manoeuvre() -> None:
    # After the first swoop e6 → e7, facing SE, the plane aims at d7 (with a4's help).
    game = pos("duel/2026 t9 - | - | >e6E4 a4NE0 +0 | d7W0 k10E0 k6W0 +0")
    play(game, "e6S>")
    assert game.diving >= 0
    assert "*d7" in legal(game)
    play(game, "*d7")
    assert "e7S" in legal(game)  # the dive goes on after the shot


def test_no_shooting_between_the_move_and_the_turn_of_a_manoeuvre() -> None:
    # Moving c5 → c6 facing E would aim at c8 with f8's help; turning left first aims away.
    game = pos("duel/2026 t9 - | - | >c5E0 e10SW0 +0 | c8W0 k10E0 k6W0 +0")
    play(game, "c5C<")
    assert "*c8" not in legal(game)
    game = pos("duel/2026 t9 - | - | >c5E0 e10SW0 +0 | c8W0 k10E0 k6W0 +0")
    play(game, "c5C")
    assert "*c8" in legal(game)


def test_no_shooting_in_the_opponents_turn() -> None:
    # P1 flies into P2's crossfire (d7 aims W, f5 aims SE): P2 shoots only in its own turn.
    game = pos("duel/2026 t9 - | - | >d3E0 a2NE0 +0 | d7W0 f5SE0 k10E0 +0")
    play(game, "d3F")
    victim = game.plane_at(board.cell("d5"))
    assert victim is not None and victim.id in game.caught()
    assert "*d5" not in legal(game)
    play(game, "a2C")
    assert game.active == 1
    assert "*d5" in legal(game)


def test_planes_are_checked_again_after_each_shot() -> None:
    # e3 aims along row e at e5, which f6 also covers: shooting e5 opens e3's line to
    # e7, which g9 covers too.
    game = pos("duel/2026 t9 - | - | >e3E0 f6SW0 g9SW0 +0 | e5W0 e7W0 k10E0 +0")
    assert legal(game) >= {"*e5"}
    assert "*e7" not in legal(game)
    play(game, "*e5")
    assert "*e7" in legal(game)


def test_manual_fire_keeps_a_shot_available_while_the_plane_stays_caught() -> None:
    game = pos("duel/2026 t9 - | - | >d2E0 f8SW0 a1E0 +0 | d6W0 k10E0 k6W0 +0")
    assert "*d6" in legal(game)
    play(game, "a1C")
    assert "*d6" in legal(game)


def test_automatic_fire_fires_every_available_shot_at_once() -> None:
    game = pos("duel/2026 t9 - | - | >e3E0 f6SW0 g9SW0 +0 | e5W0 e7W0 k10E0 k6W0 +0", fire="auto")
    shot = [board.name(e.cell) for e in of_type(list(game.opening), events.ShotDown)]
    assert shot == ["e5", "e7"]
    assert all(e.automatic for e in of_type(list(game.opening), events.ShotDown))


def test_holding_fire_ends_the_turn_when_only_shots_are_left() -> None:
    game = pos("duel/2026 t9 - | - | >d2E0 f8SW0 +0 | d6W0 k10E0 k6W0 +0")
    play(game, "d2C", "f8C")
    assert game.active == 0
    assert legal(game) == {"*d6", "-"}
    play(game, "-")
    assert game.active == 1


def test_2010_worked_example_dive_from_6_to_2_over_four_cells_and_shoot() -> None:
    # The 2010 rulebook: a plane at height 6 dives to height 2 moving four cells, aims at
    # an enemy already in another friendly plane's line of fire, and shoots it down.
    game = pos("duel/classic t9 - | - | >c2E6 e3E0 +0 | e8W0 k10SW0 k8SW0 +0")
    assert "*e8" not in legal(game)
    play(game, "c2S", "c3S", "c4S", "c5S<")
    assert at(game, "c6") == (0, "NE", 2)
    assert "*e8" in legal(game)
    happened = play(game, "*e8")
    assert [board.name(e.cell) for e in of_type(happened, events.ShotDown)] == ["e8"]
    assert game.seat(0).rings == 20 - 2 + 0  # four rings came back from the dive


def test_the_worked_example_as_one_whole_plane_token() -> None:
    game = pos("duel/classic t9 - | - | >c2E6 e3E0 +0 | e8W0 k10SW0 k8SW0 +0")
    play(game, "c2SSSS<*e8")
    assert at(game, "e8") is None
    assert at(game, "c6") == (0, "NE", 2)


# ---------------------------------------------------------------- §5 end


def test_elimination_at_one_plane_ends_the_game_at_once_mid_turn() -> None:
    game = pos("duel/2026 t9 - | - | >d2E0 f8SW0 a1E0 a3E0 +0 | d6W0 k10E0 +0")
    happened = play(game, "*d6")
    assert of_type(happened, events.Eliminated)
    assert game.is_over and game.result is not None
    assert game.result.winners == (0,)
    assert game.planes(1) == []  # the last plane left the board
    assert game.legal_steps() == []


def test_elimination_counts_board_and_reserve_together() -> None:
    game = pos("duel/2026 t9 - | - | >d2E0 f8SW0 +0 | d6W0 +1")
    play(game, "*d6")
    assert game.is_over
    game = pos("duel/2026 t9 - | - | >d2E0 f8SW0 +0 | d6W0 +2")
    play(game, "*d6")
    assert not game.is_over


def test_a_crash_that_leaves_one_plane_eliminates_its_owner() -> None:
    game = pos("duel/2026 t9 - | - | >a1SW1 c3E0 +0 | k7SW0 k10E0 +0")
    play(game, "a1X")
    assert game.result is not None and game.result.winners == (1,)


def test_resign() -> None:
    game = pos("duel/2026 t9 - | - | >d2E0 f8SW0 +0 | d6W0 k10E0 +0")
    game.concede(0)
    assert game.result is not None and game.result.winners == (1,)
    assert game.result.reason == "last standing"
    with pytest.raises(RulesError):
        game.concede(1)


def test_agreed_draw() -> None:
    game = Game(Settings())
    game.agree_draw()
    assert game.is_over and game.result is not None and game.result.drawn


def test_optional_turn_limit_draws_the_game() -> None:
    game = Game(Settings(turn_limit=2))
    play(game, "+a3NE", "+k7SW", "+k8SW")
    assert game.is_over and game.result is not None
    assert game.result.drawn and game.result.reason == "turn limit"


# ---------------------------------------------------------------- §6 clouds


def test_manual_cloud_setup_player_1_first_in_turn() -> None:
    game = Game(Settings(), clouds=None)
    assert game.phase == "setup" and game.active == 0
    for i, c in enumerate(LAYOUT[:-1]):
        assert game.active == i % 2
        play(game, f"~{c}")
    assert game.phase == "setup"
    play(game, f"~{LAYOUT[-1]}")
    assert game.phase == "play" and len(game.clouds) == 16
    assert game.active == 0 and game.turn == 1


def test_no_cloud_group_larger_than_two_cells() -> None:
    game = Game(Settings(), clouds=None)
    play(game, "~d4", "~k11", "~d5")
    assert "~d6" not in legal(game)
    assert "~e5" not in legal(game)
    with pytest.raises(IllegalStep, match="larger than two"):
        play(game, "~d6")
    free = Game(Settings(cloud_groups=False), clouds=None)
    play(free, "~d4", "~k11", "~d5")
    assert "~d6" in legal(free)


@pytest.mark.parametrize("seed", range(20))
def test_random_duel_layout_is_point_symmetric(seed: int) -> None:
    layout = clouds.random_layout(Settings().spec, seed)
    assert len(layout) == 16
    assert {board.rotate(c, 3) for c in layout} == layout
    assert clouds.groups_ok(layout)
    assert layout == clouds.random_layout(Settings().spec, seed)


def test_presets_are_legal_layouts() -> None:
    for name, layout in clouds.PRESETS.items():
        assert len(layout) == 16, name
        assert clouds.groups_ok(layout), name
        assert {board.rotate(c, 3) for c in layout} == layout, name


# ---------------------------------------------------------------- errors


def test_a_malformed_token_names_itself_and_says_why() -> None:
    game = Game(Settings())
    with pytest.raises(NotationError) as info:
        play(game, "+a3XX")
    assert info.value.token == "+a3XX" and "facing" in info.value.why


def test_an_illegal_step_is_refused_and_changes_nothing() -> None:
    game = pos("duel/2026 t9 - | - | >d4E3 d5W0 +0 | k7SW0 k10E0 +0")
    before = game.state_key()
    with pytest.raises(IllegalStep, match="blocked by a plane at d5"):
        play(game, "d4C")
    assert game.state_key() == before
