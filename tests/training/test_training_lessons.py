"""The course: every rule section is taught, every lesson's intended answer reaches its
goal through the rules engine, and a wrong try is explained."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.errors import RulesError
from rules.events import Event
from rules.notation import play_tokens
from rules.training import lessons, shipped
from rules.variants import VARIANTS

SECTIONS = Path(__file__).parent / "data" / "rule_sections.txt"
DOCS_RULES = Path(__file__).parents[2] / "docs" / "rules.md"


def _lines() -> list[str]:
    return [line for line in SECTIONS.read_text().splitlines() if line and line[0] != "#"]


def _sections() -> list[str]:
    """The rule sections the course must teach."""
    return [line for line in _lines() if not line.startswith("- ")]


def _not_rules() -> list[str]:
    """Headings of docs/rules.md that are no rule to teach."""
    return [line[2:] for line in _lines() if line.startswith("- ")]


def _play(lesson: lessons.Lesson, text: str) -> lessons.Result:
    game = lesson.start()
    start = game.copy()
    happened: list[Event] = []
    for _, events in play_tokens(game, text.split()):
        happened.extend(events)
    assert lessons.turn_over(game, start.active), f"{lesson.id}: {text!r} left the turn open"
    return lessons.check(start, game, happened, lesson.check)


def test_every_rule_section_is_taught_by_a_lesson() -> None:
    taught = {section for lesson in shipped.course() for section in lesson.covers}
    missing = [s for s in _sections() if s not in taught]
    assert not missing, f"no lesson teaches {missing}"
    unknown = sorted(taught - set(_sections()))
    assert not unknown, f"lessons name sections that do not exist: {unknown}"


def test_the_section_list_has_every_heading_of_docs_rules() -> None:
    headings = [
        line[3:].strip() for line in DOCS_RULES.read_text().splitlines() if line.startswith("## ")
    ]
    assert headings and set(headings) <= set(_sections()) | set(_not_rules())
    assert not set(_not_rules()) & set(_sections())


def test_every_mode_family_and_variant_has_a_lesson() -> None:
    course = shipped.course()
    headers = [lesson.position.split()[0] + " " + lesson.position.split()[2] for lesson in course]
    for family in ("duel/", "ffa", "cod", "2v2"):
        assert any(h.startswith(family) for h in headers), family
    for variant in VARIANTS:
        assert any(variant.name in h.split()[1].split(",") for h in headers), variant.name
    assert any("/classic" in h for h in headers)
    assert any(" h" in lesson.position for lesson in course)  # handicaps


@pytest.mark.parametrize("lesson", shipped.course(), ids=lambda lesson: lesson.id)
def test_the_intended_answer_reaches_the_goal(lesson: lessons.Lesson) -> None:
    result = _play(lesson, lesson.answer)
    assert result.passed, result.reasons


# For every lesson, a turn that does what the goal's words could be read to ask — a
# plane placed, a climb, a flight towards the cell, a turn, a dive — but not the goal.
LETTER_NOT_GOAL = {
    "enter": "+a1E",  # placed on the home row, but facing along it, not up the board
    "ramp": "a3C +a1NE +a5NW",  # three actions used, one of them a move
    "climb": "a2C",  # a climb, but from height 0: it reaches 1
    "level": "d4C",  # flown from d4 towards d6, but climbing
    "turn": "d4F>",  # flown to d6 and turned, but right
    "dive": "d4P< -",  # a power dive that stays at d4, turning once
    "crash-avoid": "a3P>",  # a power dive with a turn, but off the board
    "crash": "d6C",  # a plane flown, the doomed one left waiting
    "shoot": "b3F",  # b3 flown at d6's row, no second gun on it
    "escape": "a2C",  # a plane flown, but not the one caught
    "clouds": "d2F",  # towards d7, but through the cloud
    "win": "b3F",  # flown at the enemy, no kill
    "notation": "d4SS -",  # two swoops, no right turn
    "ffa": "b3F",
    "home": "+g2NW +i4E",  # two planes on the home side, one nose to the edge
    "teams": "b3F",
    "circle": "b3F",
    "turbulence": "d4F",  # into the cloud, but level: the cloud takes a height
    "concealed": "b3F",
    "aces": "d4P< -",  # turned on the spot, but 60°
    "handicap": "a2C",  # height 1, but by moving, not by placing
    "no-level": "d4C",
    "classic": "d4F",  # level flight, but two cells
}


def test_every_lesson_has_an_answer_that_meets_the_letter_but_not_the_goal() -> None:
    assert sorted(LETTER_NOT_GOAL) == sorted(x.id for x in shipped.course())


@pytest.mark.parametrize("lesson", shipped.course(), ids=lambda lesson: lesson.id)
def test_the_check_refuses_an_answer_that_breaks_the_goal(lesson: lessons.Lesson) -> None:
    for tried in (LETTER_NOT_GOAL[lesson.id], lesson.mistake):
        result = _play(lesson, tried)
        assert not result.passed, f"{lesson.id}: {tried!r} passed"
        assert result.reasons and all(r.endswith(".") for r in result.reasons)
    assert lesson.wrong


def test_a_plane_placed_facing_along_the_row_does_not_pass_lesson_one() -> None:
    """Its goal asks for a plane facing up the board; the reason names the facing."""
    enter = shipped.lesson("enter")
    assert _play(enter, "+a1E").reasons == ("Your plane placed at a1 faces E, not NE or NW.",)
    assert _play(enter, "+a1NW").passed and _play(enter, "+a6NE").passed


def test_the_explanation_fits_a_climb_that_fell_short() -> None:
    """A player who did climb is not told that only a climb gains height: the reason
    says how high the plane got, the lesson's sentence why that is not enough."""
    climb = shipped.lesson("climb")
    assert _play(climb, "a2C").reasons == (
        "None of your planes is at height 2 or more: the highest, at b3, is at height 1.",
    )
    assert "only a plane that starts the turn at height 1" in climb.wrong


def test_a_move_instead_of_a_placement_is_named() -> None:
    assert _play(shipped.lesson("ramp"), "a3C +a1NE +a5NW").reasons == (
        "You placed 2 of the 3 planes asked for.",
        "Flying the plane at a3 used an action of the turn.",
    )


def test_every_lesson_has_a_typical_mistake() -> None:
    assert all(x.mistake for x in shipped.course())


def test_a_course_with_an_unknown_condition_is_refused() -> None:
    text = """
[[lesson]]
id = "x"
part = "p"
title = "t"
covers = []
position = "duel/2026 t1 - | - | >+5 | +5"
goal = "g"
teach = "t"
check = { fly = 1 }
answer = "+a3NE"
"""
    with pytest.raises(RulesError, match="unknown condition 'fly'"):
        lessons.parse_course(text)
