"""The cockpit's stages, without Discord: only legal choices, in the right order; a
whole plane action in one menu choice."""

from __future__ import annotations

from bot.services import cockpit
from rules import board, notation, position
from rules.game import Game
from rules.modes import Settings

POS = "duel/2026 t9 - | - | >e6E5 a6NW0 +1 | k7SW0 k10E0 +0"


def labels(panel: cockpit.Panel) -> list[tuple[str, bool]]:
    return [(c.label, c.enabled) for c in panel.choices]


def values(stage: cockpit.Panel) -> list[str]:
    return [o.value for m in stage.menus for o in m.options]


def test_the_start_lists_planes_that_can_act_and_places_in_one_choice() -> None:
    game = position.parse(POS, fire="manual")
    start = cockpit.panel(game)
    assert [c.path for c in start.choices] == [("a6",), ("e6",)]
    assert [c.label for c in start.choices] == ["✈ a6 · h0 ↖ NW", "✈ e6 · h5 → E"]
    placing = values(start)
    # every cell and facing of the home side, one choice each, sensible facings first
    assert sorted(placing) == sorted(s.token for s in game.legal_steps() if s.kind == "+")
    assert placing[0] == "+a1E" and placing[-1] == "+a5SE"
    assert all(len(m.options) <= 25 for m in start.menus)


def test_a_plane_offers_every_end_pose_each_a_whole_plane_action() -> None:
    game = position.parse("duel/2026 t9 - | - | >c3NE2 a5NW0 +0 | k7SW0 k10E0 +0", fire="auto")
    stage = cockpit.panel(game, ("c3",))
    offered = [o for m in stage.menus for o in m.options]
    assert [o.value for o in offered][:3] == ["c3P>", "c3P", "c3P<"]
    ends = set()
    for option in offered:
        trial = game.copy()
        notation.play_tokens(trial, option.value.split())
        assert trial.turn == game.turn or trial.actions == 0  # one plane action, complete
        letter, cell = option.label.split(" · ", 1)[0], option.label.split(" · ")[1].split()[0]
        ends.add(board.cell(cell))
        assert dict(stage.labels)[board.cell(cell)] == letter  # as the preview marks it
        assert len(option.label) <= 100 and len(option.description) <= 100
    assert ends == stage.highlight_cells  # the preview marks every end cell, and only those
    # a letter per cell, in board order
    assert [label for _, label in stage.labels] == [chr(65 + i) for i in range(len(ends))]
    assert [c for c, _ in stage.labels] == sorted(ends)
    swoop = next(o for o in offered if o.value == "c3S< d4S")
    e4 = dict(stage.labels)[board.cell("e4")]
    assert swoop.label == f"{e4} · e4 ↖ h0 · 2 swoops to e4, face north-west, height 0"
    assert swoop.description == "−2 height, 2 cells ahead"
    climb = next(o for o in offered if o.value == "c3C")
    assert climb.description == "+1 height, 1 cell ahead"


def test_step_by_step_offers_the_manoeuvres_with_cost_and_reach() -> None:
    game = position.parse("duel/2026 t9 - | - | >d4E3 d5W0 +0 | k7SW0 k10E0 +0", fire="manual")
    stage = cockpit.panel(game, ("d4", "steps"))
    assert labels(stage) == [
        ("Climb (+1 height, 1 cell ahead)", False),
        ("Level (same height, 2 cells ahead)", False),
        ("Swoop (−1 height, 1 cell ahead)", False),
        ("Power dive (−2 height, stays in its cell)", True),
        ("Back", True),
    ]
    crash = cockpit.panel(game, ("d5", "steps"))
    assert ("Crash (the plane is lost)", True) in labels(crash)
    assert next(c for c in crash.choices if c.label.startswith("Crash")).token == "d5X"
    assert values(cockpit.panel(game, ("d5",))) == ["d5X"]


def test_a_high_plane_picks_the_cell_first_then_how_to_end_there() -> None:
    game = position.parse("duel/2026 t9 - | - | >e6E6 a6NW0 +1 | k7SW0 k10E0 +0", fire="auto")
    cells = cockpit.panel(game, ("e6",))
    gone = values(cells)
    assert all(v.startswith(">e6/to/") for v in gone)
    assert len(gone) == len(cells.highlight_cells)
    letter = dict(cells.labels)[board.cell("c5")]
    options = [o.label for m in cells.menus for o in m.options]
    assert f"{letter} · c5 · 13 ways to end there, heights 0–2" in options
    c5 = cockpit.panel(game, tuple(">e6/to/c5"[1:].split("/")))
    assert c5.highlight_cells == {board.cell("c5")}
    # the cell keeps its letter once chosen
    assert c5.labels == ((board.cell("c5"), letter),)
    assert all(o.label.startswith(f"{letter} · c5 ") for m in c5.menus for o in m.options)


def test_the_turn_stage_plays_a_step_and_highlights_where_it_ends() -> None:
    game = position.parse(POS, fire="manual")
    stage = cockpit.panel(game, ("e6", "S"))
    assert [c.token for c in stage.choices[:3]] == ["e6S<", "e6S", "e6S>"]
    assert stage.highlight_plane is not None
    assert len(stage.highlight_cells) == 1  # every swoop ends one cell ahead, at e7


def test_a_dive_in_progress_offers_to_go_on_or_end() -> None:
    game = position.parse(POS, fire="manual")
    game.play(game.legal_steps()[[s.token for s in game.legal_steps()].index("e6S")])
    start = cockpit.panel(game)
    assert [c.label for c in start.choices][:2] == ["✈ Dive on from e7", "End dive"]
    assert next(c for c in start.choices if c.label == "End dive").token == "-"
    onward = values(cockpit.panel(game, ("e7",)))
    assert ">e7/to/e7" in onward and ">e7/to/e8" in onward
    assert "-" in values(cockpit.panel(game, ("e7", "to", "e7")))  # ending where it stands


def test_a_dive_that_can_shoot_on_the_way_may_stop_there_in_manual_fire() -> None:
    # b3 swoops to c4 at height 1; c5 blocks the dive but is caught by c4 and a5.
    game = position.parse("duel/2026 t9 - | - | >b3NE2 a5NW0 +0 | c5W0 k7W0 k8W0 +0", fire="manual")
    stop = [o for o in cockpit.panel(game, ("b3",)).menus[0].options if "stop there" in o.label]
    assert [o.value for o in stop] == ["b3S>"]
    game.play(next(s for s in game.legal_steps() if s.token == "b3S>"))
    blocked = cockpit.panel(game)
    assert [c.label for c in blocked.choices][:2] == ["🎯 Fire at c5", "End dive"]
    game.play(next(s for s in game.legal_steps() if s.token == blocked.choices[0].token))
    cleared = cockpit.panel(game)
    assert [c.label for c in cleared.choices][:2] == ["✈ Dive on from c4", "End dive"]
    onward = values(cockpit.panel(game, cleared.choices[0].path))
    assert {"c4S<", "c4S", "c4S>", "-"} <= set(onward)


def test_shots_and_holding_fire_in_manual_fire() -> None:
    game = position.parse("duel/2026 t9 - | - | >d2E0 f8SW0 +0 | d6W0 k10E0 k6W0 +0", fire="manual")
    start = cockpit.panel(game)
    assert start.choices[0].label == "🎯 Fire at d6" and start.choices[0].token == "*d6"


def test_placing_is_one_choice_of_cell_and_facing() -> None:
    game = position.parse(POS, fire="manual")
    cells = cockpit.panel(game, ("+",))
    options = [o for m in cells.menus for o in m.options]
    assert options[0].label == "A · a1 → h0 · Bring a plane on at a1, facing east, height 0"
    assert options[0].value == "+a1E"
    assert cells.highlight_cells == {board.cell(f"a{i}") for i in range(1, 6)}
    assert cells.labels == tuple((board.cell(f"a{i + 1}"), "ABCDE"[i]) for i in range(5))


def test_cloud_setup_picks_a_row_then_a_cell() -> None:
    game = Game(Settings(), clouds=None)
    game.play(game.legal_steps()[0])  # a1
    rows = cockpit.panel(game)
    assert len(rows.choices) == 11
    row_a = cockpit.panel(game, ("~", "a"))
    tokens = [c.token for c in row_a.choices if c.token]
    assert "~a1" not in tokens and "~a2" in tokens and "~a3" in tokens


def test_an_unknown_path_falls_back_to_the_start() -> None:
    game = position.parse(POS, fire="manual")
    assert cockpit.panel(game, ("zz", "Q")) == cockpit.panel(game)


def test_placement_menus_say_what_they_hold_and_the_title_what_can_be_done() -> None:
    start = cockpit.panel(Game(Settings()))  # turn 1: nothing to fly, six cells to fill
    assert start.title == "Place a plane."
    sensible, edge = start.menus
    assert sensible.placeholder == "Place a plane (5 left)"
    assert edge.placeholder == "Risky placements: may have to crash"
    assert {o.value[:3] for o in sensible.options} == {f"+a{i}" for i in range(1, 7)}
    for menu, out in ((sensible, False), (edge, True)):
        for option in menu.options:  # "+a1NE": a home cell (one digit), then the facing
            cell, facing = board.cell(option.value[1:3]), board.DIRECTIONS.index(option.value[3:])
            assert (board.NEIGHBOUR[cell * 6 + facing] < 0) is out, option.value

    flying = position.parse("duel/2026 t9 - | - | >e6E5 a6NW0 +0 | k7SW0 k10E0 +0")
    assert cockpit.panel(flying).title == "Pick a plane to fly."  # nothing left to place
    assert cockpit.panel(position.parse(POS)).title == "Pick a plane to fly, or place one."


def test_a_long_menu_is_labelled_with_the_first_and_last_cell_it_holds() -> None:
    assert cockpit._span([board.cell("a6"), board.cell("a1"), board.cell("a3")]) == "a1 to a6"
    assert cockpit._span([board.cell("a2"), None, board.cell("a2")]) == "a2"


def test_a_placement_that_would_leave_only_a_crash_is_warned_of() -> None:
    game = position.parse(POS, fire="manual")  # alice has a plane at a6, one to place
    _, risky = cockpit.panel(game).menus
    blocked = next(o for o in risky.options if o.value == "+a5E")
    assert blocked.description == "the plane at a6 blocks it: it must crash unless that moves"
    sensible = cockpit.panel(game).menus[0]
    assert all("crash" not in (o.description or "") for o in sensible.options)


def option_for(stage: cockpit.Panel, value: str) -> cockpit.Option:
    return next(o for m in stage.menus for o in m.options if o.value == value)


def test_a_label_says_first_what_the_move_does_that_matters() -> None:
    """Shoots whom, ends in hostile sights, crashes: right after the pose, where a
    phone's narrow menu still shows it, and within Discord's 100 characters."""
    shoots = cockpit.panel(
        position.parse("duel/2026 t9 - | - | >b3NE2 a5NW0 +0 | c5W0 k7W0 k8W0 +0", fire="auto"),
        ("b3",),
    )
    assert option_for(shoots, "b3S> -").label == (
        "B · c4 → h1 · 🎯 shoots down c5 · Swoop to c4, face east, height 1"
    )
    assert option_for(shoots, "b3S -").label.startswith("B · c4 ↗ h1 · ⚠ in the sights of c5 · ")
    guns = cockpit.panel(
        position.parse("duel/2026 t9 - | - | >e6E2 a5NW0 +0 | e9W0 g8SW0 +0", fire="auto"),
        ("e6",),
    )
    caught = option_for(guns, "e6P")
    assert caught.label.startswith("B · e6 → h0 · ☠ can be shot down by e9 and g8 · ")
    assert option_for(guns, "e6C").label.startswith("C · e7 → h3 · ⚠ in the sights of e9 · ")
    edge = cockpit.panel(
        position.parse("duel/2026 t9 - | - | >b2W1 a5NW0 +0 | k7SW0 k10E0 +0", fire="auto"),
        ("b2",),
    )
    assert option_for(edge, "b2S").label.startswith("A · b1 ← h0 · 💥 will crash next turn · ")
    crash = cockpit.panel(
        position.parse("duel/2026 t9 - | - | >d4E3 d5W0 +0 | k7SW0 k10E0 +0", fire="auto"),
        ("d5",),
    )
    assert option_for(crash, "d5X").label.startswith("lost · 💥 crashes · ")
    quiet = option_for(shoots, "b3P")
    assert not any(mark in quiet.label for mark in "🎯⚠☠💥")  # only where it matters
    for stage in (shoots, guns, edge, crash):
        assert all(len(o.label) <= 100 for m in stage.menus for o in m.options)


def test_manual_fire_labels_say_whom_the_plane_may_fire_at_and_placements_their_danger() -> None:
    game = position.parse("duel/2026 t9 - | - | >b3NE2 a5NW0 +1 | c5W0 k7W0 k8W0 +0", fire="manual")
    stage = cockpit.panel(game, ("b3",))
    ended = option_for(stage, "b3S> -")
    assert ended.label == "B · c4 → h1 · 🎯 may fire at c5 · Swoop to c4, face east, height 1"
    stop = option_for(stage, "b3S>")  # the dive stays open
    assert stop.label.startswith("B · c4 → h1 · 🎯 stop there to fire at c5 · ")
    assert stop.description.endswith("; then dive on or end the dive")
    into_sights = cockpit.panel(
        position.parse("duel/2026 t9 - | - | >e6E2 +1 | c3SE0 c5SW0 +0", fire="auto")
    )
    assert option_for(into_sights, "+a3E").label.startswith(
        "a3 → h0 · ☠ can be shot down by c3 and c5 · "
    )
    assert option_for(into_sights, "+a3SW").label.startswith("a3 ↙ h0 · 💥 may have to crash · ")
