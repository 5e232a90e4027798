"""The course and the puzzle set that ship with the bot: read once from this package's
own data files (``data/lessons.toml``, ``data/puzzles.json``). The one module of
:mod:`rules.training` that reads files; what it reads is the package's, never a user's."""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import resources
from typing import TypeVar

from rules.errors import RulesError
from rules.training.lessons import Lesson, parse_course
from rules.training.puzzles import Puzzle

_COURSE: list[Lesson] = []
_SET: list[Puzzle] = []
S = TypeVar("S", Lesson, Puzzle)


def _data(name: str) -> str:
    return resources.files("rules.training").joinpath(f"data/{name}").read_text("utf-8")


def course() -> list[Lesson]:
    """The lessons, in the course's order."""
    if not _COURSE:
        _COURSE.extend(parse_course(_data("lessons.toml")))
    return list(_COURSE)


def lesson(lesson_id: str) -> Lesson:
    return _one(course(), lesson_id, "lesson")


def puzzle_set() -> list[Puzzle]:
    """The puzzles, easiest first."""
    if not _SET:
        raw = json.loads(_data("puzzles.json"))
        _SET.extend(sorted((Puzzle.from_dict(p) for p in raw["puzzles"]), key=lambda p: p.rating))
    return list(_SET)


def puzzle(puzzle_id: str) -> Puzzle:
    return _one(puzzle_set(), puzzle_id, "puzzle")


def _one(shipped: Sequence[S], wanted: str, kind: str) -> S:
    for found in shipped:
        if found.id == wanted:
            return found
    raise RulesError(f"there is no {kind} {wanted!r}")
