"""The course: lessons that teach the rules by playing one turn on a small position.

A lesson is data (``rules/training/data/lessons.toml``, read by
:mod:`rules.training.shipped`; this module does no I/O): a position in position text,
the goal in words, the goal as *conditions* checked on the turn played, hints, the
explanation given after a wrong try, and one intended answer (the tests play it). The
person plays one whole player-turn of the seat to move; when the turn has passed (or
the game ended) :func:`check` says whether every condition holds and, if not, why.

Conditions (all must hold):

* ``placed = n`` — at least n planes placed this turn;
* ``shot = ["d4", …]`` — the planes standing on these cells were shot down;
* ``kills = n`` — at least n planes shot down this turn;
* ``at = "d6"`` with optional ``height`` and ``facing`` — one of the mover's planes ends
  the turn there (at that height, facing that way);
* ``min_height = n`` — one of the mover's planes ends at height n or more;
* ``safe = true`` — none of the mover's planes is caught (in two hostile lines of fire)
  when the turn passes, nor shot down by the next seat's opening shots;
* ``no_doomed = true`` — none of the mover's planes is left at height 0 or 1 nose to the
  board's edge (it would have to crash);
* ``crashed = n`` — n of the mover's planes crashed;
* ``win = true`` — the mover's side won the game.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from i18n import _
from rules import board, events, position
from rules.board import NEIGHBOUR
from rules.errors import RulesError
from rules.events import Event
from rules.game import Game

CONDITIONS: Final = (
    "placed",
    "shot",
    "kills",
    "at",
    "height",
    "facing",
    "min_height",
    "safe",
    "no_doomed",
    "crashed",
    "win",
)


@dataclass(frozen=True)
class Lesson:
    id: str
    part: str  # the course's part: two players, more players, variants
    title: str
    covers: tuple[str, ...]  # rule sections it teaches (headings of docs/rules.md, the spec)
    position: str
    goal: str  # what to do, in words
    teach: str  # the rule, in a few sentences
    check: Mapping[str, Any]
    hints: tuple[str, ...]
    wrong: str  # said after a wrong try, before the reasons
    answer: str  # one intended turn, in notation
    mistake: str  # a typical wrong turn (the tests check it is explained), or ""

    def start(self) -> Game:
        """The lesson's position, ready to play."""
        return position.parse(self.position)


@dataclass(frozen=True)
class Result:
    passed: bool
    reasons: tuple[str, ...]  # why not, one sentence per condition missed


def parse_course(text: str) -> list[Lesson]:
    """Lessons from the course's TOML text; each is checked to start and be known."""
    data = tomllib.loads(text)
    found = []
    for raw in data.get("lesson", []):
        check = dict(raw["check"])
        unknown = sorted(set(check) - set(CONDITIONS))
        if unknown:
            raise RulesError(f"lesson {raw['id']}: unknown condition {unknown[0]!r}")
        lesson = Lesson(
            id=str(raw["id"]),
            part=str(raw["part"]),
            title=str(raw["title"]),
            covers=tuple(raw["covers"]),
            position=str(raw["position"]),
            goal=str(raw["goal"]),
            teach=str(raw["teach"]).strip(),
            check=check,
            hints=tuple(raw.get("hints", ())),
            wrong=str(raw.get("wrong", "")).strip(),
            answer=str(raw["answer"]),
            mistake=str(raw.get("mistake", "")),
        )
        lesson.start()
        found.append(lesson)
    ids = [lesson.id for lesson in found]
    if len(set(ids)) != len(ids):
        raise RulesError("two lessons share an id")
    return found


def turn_over(game: Game, seat: int) -> bool:
    """The lesson's turn is done: the turn passed or the game ended."""
    return game.is_over or game.active != seat


def check(
    start: Game, end: Game, happened: Iterable[Event], conditions: Mapping[str, Any]
) -> Result:
    """Whether the turn from ``start`` to ``end`` (with its events) meets the
    conditions; the reasons name each one missed, in words."""
    seat = start.active
    seen = list(happened)
    reasons: list[str] = []
    placed = sum(1 for e in seen if isinstance(e, events.Placed) and e.seat == seat)
    shot = [e for e in seen if isinstance(e, events.ShotDown) and e.by == seat]
    crashed = sum(1 for e in seen if isinstance(e, events.Crashed) and e.seat == seat)
    mine = end.planes(seat)
    if placed < int(conditions.get("placed", 0)):
        reasons.append(
            _(
                "You placed {placed} of the {asked} planes asked for.",
                placed=placed,
                asked=conditions["placed"],
            )
        )
    for name in conditions.get("shot", ()):
        if not any(e.cell == board.cell(name) for e in shot):
            reasons.append(
                _(
                    "The plane at {cell} is still flying: it needs two of your guns on it.",
                    cell=name,
                )
            )
    if len(shot) < int(conditions.get("kills", 0)):
        reasons.append(
            _(
                "You shot down {shot} of the {asked} planes asked for.",
                shot=len(shot),
                asked=conditions["kills"],
            )
        )
    if "at" in conditions:
        where = board.cell(str(conditions["at"]))
        here = next((p for p in mine if p.cell == where), None)
        want = _pose_words(conditions)
        if here is None:
            reasons.append(
                _("None of your planes ended at {cell}{pose}.", cell=conditions["at"], pose=want)
            )
        elif ("height" in conditions and here.height != int(conditions["height"])) or (
            "facing" in conditions and board.DIRECTIONS[here.facing] != conditions["facing"]
        ):
            reasons.append(
                _(
                    "Your plane at {cell} is at height {height} facing {facing}, not{pose}.",
                    cell=conditions["at"],
                    height=here.height,
                    facing=board.DIRECTIONS[here.facing],
                    pose=want,
                )
            )
    if "min_height" in conditions and not any(
        p.height >= int(conditions["min_height"]) for p in mine
    ):
        reasons.append(
            _("None of your planes is at height {height} or more.", height=conditions["min_height"])
        )
    if conditions.get("safe"):
        # in automatic fire the next seat's opening shots are already in the events
        for e in seen:
            if isinstance(e, events.ShotDown) and e.seat == seat:
                reasons.append(
                    _(
                        "Your plane at {cell} was shot down as the next turn began: two enemy "
                        "guns still met there.",
                        cell=board.name(e.cell),
                    )
                )
        caught = {} if end.is_over else end.caught()
        for p in mine:
            if p.id in caught:
                guns = _(" and ").join(board.name(q.cell) for q in caught[p.id])
                reasons.append(
                    _(
                        "Your plane at {cell} is still in the crosshairs of {guns}.",
                        cell=board.name(p.cell),
                        guns=guns,
                    )
                )
    if conditions.get("no_doomed"):
        for p in mine:
            if p.height <= 1 and NEIGHBOUR[p.cell * 6 + p.facing] < 0:
                reasons.append(
                    _(
                        "Your plane at {cell} is at height {height} with its nose to the edge: "
                        "next turn it can only crash.",
                        cell=board.name(p.cell),
                        height=p.height,
                    )
                )
    if crashed < int(conditions.get("crashed", 0)):
        reasons.append(_("The plane that could do nothing else did not crash."))
    if conditions.get("win") and not (
        end.is_over
        and end.result is not None
        and any(not end.hostile(seat, w) for w in end.result.winners)
    ):
        reasons.append(_("The game is not won yet."))
    return Result(not reasons, tuple(reasons))


def _pose_words(conditions: Mapping[str, Any]) -> str:
    words = []
    if "height" in conditions:
        words.append(_("at height {height}", height=conditions["height"]))
    if "facing" in conditions:
        words.append(_("facing {facing}", facing=conditions["facing"]))
    return (" " + _(" and ").join(words)) if words else ""
