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


@pytest.mark.parametrize(
    "lesson", [x for x in shipped.course() if x.mistake], ids=lambda lesson: lesson.id
)
def test_a_wrong_try_is_explained(lesson: lessons.Lesson) -> None:
    result = _play(lesson, lesson.mistake)
    assert not result.passed
    assert result.reasons and all(r.endswith(".") for r in result.reasons)
    assert lesson.wrong


def test_most_lessons_can_be_failed() -> None:
    course = shipped.course()
    assert sum(1 for x in course if x.mistake) >= len(course) - 3


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
