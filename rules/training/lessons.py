"""The course: lessons that teach the rules by playing one turn on a small position.

A lesson is data (``rules/training/data/lessons.toml``, read by
:mod:`rules.training.shipped`; this module does no I/O): a position in position text,
the goal in words, the goal as *conditions* checked on the turn played, hints, the
explanation given after a wrong try, and one intended answer (the tests play it). The
person plays one whole player-turn of the seat to move; when the turn has passed (or
the game ended) :func:`check` says whether every condition holds and, if not, why.

Conditions (all must hold):

* ``placed = n`` — at least n planes placed this turn;
* ``placed_facing = ["NE", …]`` — every plane placed this turn faces one of these;
* ``shot = ["d4", …]`` — the planes standing on these cells were shot down;
* ``kills = n`` — at least n planes shot down this turn;
* ``at = "d6"`` with optional ``height`` and ``facing`` — one of the mover's planes ends
  the turn there (at that height, facing that way); with ``plane = "d4"``, the plane
  that started the turn at d4 must be the one;
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

from i18n import _, n_
from rules import board, events, position
from rules.board import NEIGHBOUR
from rules.errors import RulesError
from rules.events import Event
from rules.game import Game

CONDITIONS: Final = (
    "placed",
    "placed_facing",
    "shot",
    "kills",
    "at",
    "plane",
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
    conditions; the reasons name each one missed, in words that say what the try did."""
    seat = start.active
    seen = list(happened)
    reasons = [
        *_placements(start, seat, seen, conditions),
        *_shots(seat, seen, conditions),
        *_pose(start, end, seat, conditions),
    ]
    mine = end.planes(seat)
    if "min_height" in conditions and not any(
        p.height >= int(conditions["min_height"]) for p in mine
    ):
        top = max(mine, key=lambda p: p.height, default=None)
        reasons.append(
            _("None of your planes is at height {height} or more.", height=conditions["min_height"])
            if top is None
            else _(
                "None of your planes is at height {height} or more: the highest, at {cell}, "
                "is at height {top}.",
                height=conditions["min_height"],
                cell=board.name(top.cell),
                top=top.height,
            )
        )
    if conditions.get("safe"):
        reasons += _unsafe(end, seat, seen)
    if conditions.get("no_doomed"):
        for p in mine:
            if p.height <= 1 and NEIGHBOUR[p.cell * 6 + p.facing] < 0:
                reasons.append(
                    _(
                        "Your plane at {cell} is at height {height} with its nose to the edge "
                        "({facing}): next turn it can only crash.",
                        cell=board.name(p.cell),
                        height=p.height,
                        facing=board.DIRECTIONS[p.facing],
                    )
                )
    crashed = sum(1 for e in seen if isinstance(e, events.Crashed) and e.seat == seat)
    if crashed < int(conditions.get("crashed", 0)):
        reasons.append(_("None of your planes crashed: the one with no way out is still there."))
    if conditions.get("win") and not (
        end.is_over
        and end.result is not None
        and any(not end.hostile(seat, w) for w in end.result.winners)
    ):
        reasons.append(_("The game is not won yet."))
    return Result(not reasons, tuple(reasons))


def _flown(start: Game, seat: int, seen: list[Event]) -> list[str]:
    """The cells, at the turn's start, of the mover's planes that flew this turn."""
    ids = {
        e.plane
        for e in seen
        if isinstance(e, events.Moved | events.Turned | events.HeightChanged | events.Crashed)
        and e.seat == seat
    }
    return [board.name(p.cell) for p in start.planes(seat) if p.id in ids]


def _placements(
    start: Game, seat: int, seen: list[Event], conditions: Mapping[str, Any]
) -> list[str]:
    placed = [e for e in seen if isinstance(e, events.Placed) and e.seat == seat]
    reasons = []
    if len(placed) < int(conditions.get("placed", 0)):
        reasons.append(
            _(
                "You placed {placed} of the {asked} planes asked for.",
                placed=len(placed),
                asked=conditions["placed"],
            )
        )
        flown = _flown(start, seat, seen)
        if flown:
            reasons.append(
                n_(
                    "Flying the plane at {cells} used an action of the turn.",
                    "Flying the planes at {cells} used actions of the turn.",
                    len(flown),
                    cells=_(" and ").join(flown),
                )
            )
    wanted = conditions.get("placed_facing")
    for e in placed:
        if wanted and board.DIRECTIONS[e.facing] not in wanted:
            reasons.append(
                _(
                    "Your plane placed at {cell} faces {facing}, not {wanted}.",
                    cell=board.name(e.cell),
                    facing=board.DIRECTIONS[e.facing],
                    wanted=_(" or ").join(wanted),
                )
            )
    return reasons


def _shots(seat: int, seen: list[Event], conditions: Mapping[str, Any]) -> list[str]:
    shot = [e for e in seen if isinstance(e, events.ShotDown) and e.by == seat]
    reasons = [
        _("The plane at {cell} is still flying: it needs two of your guns on it.", cell=name)
        for name in conditions.get("shot", ())
        if not any(e.cell == board.cell(name) for e in shot)
    ]
    if len(shot) < int(conditions.get("kills", 0)):
        reasons.append(
            _(
                "You shot down {shot} of the {asked} planes asked for.",
                shot=len(shot),
                asked=conditions["kills"],
            )
        )
    return reasons


def _pose(start: Game, end: Game, seat: int, conditions: Mapping[str, Any]) -> list[str]:
    """Whether a plane (the one named by ``plane``, if any) ends at ``at`` in the pose asked."""
    if "at" not in conditions:
        return []
    where = board.cell(str(conditions["at"]))
    want = _pose_words(conditions)
    if "plane" in conditions:
        origin = board.cell(str(conditions["plane"]))
        ids = [p.id for p in start.planes(seat) if p.cell == origin]
        here = next((p for p in end.planes(seat) if p.id in ids), None)
        if here is None:
            return [_("Your plane from {cell} is no longer flying.", cell=conditions["plane"])]
        if here.cell != where:
            return [
                _(
                    "Your plane from {origin} ended at {cell} (height {height}, facing "
                    "{facing}), not at {goal}{pose}.",
                    origin=conditions["plane"],
                    cell=board.name(here.cell),
                    height=here.height,
                    facing=board.DIRECTIONS[here.facing],
                    goal=conditions["at"],
                    pose=want,
                )
            ]
    else:
        here = next((p for p in end.planes(seat) if p.cell == where), None)
        if here is None:
            return [
                _("None of your planes ended at {cell}{pose}.", cell=conditions["at"], pose=want)
            ]
    if ("height" in conditions and here.height != int(conditions["height"])) or (
        "facing" in conditions and board.DIRECTIONS[here.facing] != conditions["facing"]
    ):
        return [
            _(
                "Your plane at {cell} is at height {height} facing {facing}, not{pose}.",
                cell=conditions["at"],
                height=here.height,
                facing=board.DIRECTIONS[here.facing],
                pose=want,
            )
        ]
    return []


def _unsafe(end: Game, seat: int, seen: list[Event]) -> list[str]:
    # in automatic fire the next seat's opening shots are already in the events
    reasons = [
        _(
            "Your plane at {cell} was shot down as the next turn began: two enemy "
            "guns still met there.",
            cell=board.name(e.cell),
        )
        for e in seen
        if isinstance(e, events.ShotDown) and e.seat == seat
    ]
    caught = {} if end.is_over else end.caught()
    for p in end.planes(seat):
        if p.id in caught:
            guns = _(" and ").join(board.name(q.cell) for q in caught[p.id])
            reasons.append(
                _(
                    "Your plane at {cell} is still in the crosshairs of {guns}.",
                    cell=board.name(p.cell),
                    guns=guns,
                )
            )
    return reasons


def _pose_words(conditions: Mapping[str, Any]) -> str:
    words = []
    if "height" in conditions:
        words.append(_("at height {height}", height=conditions["height"]))
    if "facing" in conditions:
        words.append(_("facing {facing}", facing=conditions["facing"]))
    return (" " + _(" and ").join(words)) if words else ""
