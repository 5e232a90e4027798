"""The cockpit's stages, without Discord: only legal choices, in the right order."""

from __future__ import annotations

from bot.services import cockpit
from rules import position
from rules.game import Game
from rules.modes import Settings

POS = "duel/2026 t9 - | - | >e6E5 a6NW0 +1 | k7SW0 k10E0 +0"


def labels(panel: cockpit.Panel) -> list[tuple[str, bool]]:
    return [(c.label, c.enabled) for c in panel.choices]


def test_the_start_lists_planes_that_can_act_and_placing() -> None:
    game = position.parse(POS, fire="manual")
    start = cockpit.panel(game)
    assert [c.path for c in start.choices] == [("a6",), ("e6",), ("+",)]
    assert all(c.token is None for c in start.choices)


def test_a_plane_offers_its_manoeuvres_and_only_legal_ones_are_enabled() -> None:
    game = position.parse("duel/2026 t9 - | - | >d4E3 d5W0 +0 | k7SW0 k10E0 +0", fire="manual")
    stage = cockpit.panel(game, ("d4",))
    assert labels(stage) == [
        ("Climb", False),
        ("Level", False),
        ("Swoop", False),
        ("Power dive", True),
        ("Back", True),
    ]
    crash = cockpit.panel(game, ("d5",))
    assert ("Crash", True) in labels(crash)
    assert next(c for c in crash.choices if c.label == "Crash").token == "d5X"


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
    assert [c.label for c in start.choices][:3] == ["Swoop", "Power dive", "End dive"]
    assert next(c for c in start.choices if c.label == "End dive").token == "-"


def test_a_blocked_dive_offers_the_shot_that_clears_it_then_the_swoop() -> None:
    # b3 swoops to c4 at height 1; c5 blocks the dive but is caught by c4 and a5.
    game = position.parse("duel/2026 t9 - | - | >b3NE2 a5NW0 +0 | c5W0 k7W0 k8W0 +0", fire="manual")
    game.play(next(s for s in game.legal_steps() if s.token == "b3S>"))
    blocked = cockpit.panel(game)
    assert [c.label for c in blocked.choices][:2] == ["🎯 Fire at c5", "End dive"]
    game.play(next(s for s in game.legal_steps() if s.token == blocked.choices[0].token))
    cleared = cockpit.panel(game)
    assert [c.label for c in cleared.choices][:2] == ["Swoop", "End dive"]
    swoops = cockpit.panel(game, cleared.choices[0].path)
    assert [c.token for c in swoops.choices[:3]] == ["c4S<", "c4S", "c4S>"]


def test_shots_and_holding_fire_in_manual_fire() -> None:
    game = position.parse("duel/2026 t9 - | - | >d2E0 f8SW0 +0 | d6W0 k10E0 k6W0 +0", fire="manual")
    start = cockpit.panel(game)
    assert start.choices[0].label == "🎯 Fire at d6" and start.choices[0].token == "*d6"


def test_placing_picks_a_home_cell_then_a_facing() -> None:
    game = position.parse(POS, fire="manual")
    cells = cockpit.panel(game, ("+",))
    assert [c.label for c in cells.choices] == ["a1", "a2", "a3", "a4", "a5", "Back"]
    facings = cockpit.panel(game, ("+", "a2"))
    assert [c.token for c in facings.choices[:6]] == [
        "+a2E",
        "+a2NE",
        "+a2NW",
        "+a2W",
        "+a2SW",
        "+a2SE",
    ]


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
