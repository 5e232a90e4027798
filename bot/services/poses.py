"""Where a plane can end up: every complete plane action of one plane, as the cockpit's
menu offers them (one choice per end pose, so a whole dive is one press).

A plane action is a climb, a level flight, a crash or a whole dive (each sequence of dive
manoeuvres, ended where the plane could go on). Dives reaching the same cell, facing and
height with the same planes left on the board are one choice, played by the shortest
sequence. In manual fire a dive that passes a chance to shoot is offered a second time,
stopping there with the dive still open, so the player can fire and then dive on.
Placements are one choice per cell and facing.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from i18n import N_, _, n_
from rules import board, events, steps
from rules.game import Game
from rules.pieces import Plane
from rules.steps import Step
from rules.words.choices import step_label
from rules.words.common import direction, join

ARROWS: Final = ("→", "↗", "↖", "←", "↙", "↘")  # indexed like board.DIRECTIONS
# What each manoeuvre costs and how far it goes (rules spec §3), for buttons and menus;
# English, marked for translation (i18n): see cost_and_reach.
COST_AND_REACH: Final = {
    steps.CLIMB: N_("+1 height, 1 cell ahead"),
    steps.LEVEL: N_("same height, 2 cells ahead"),
    steps.LEVEL1: N_("same height, 1 cell ahead"),
    steps.SWOOP: N_("−1 height, 1 cell ahead"),
    steps.POWER: N_("−2 height, stays in its cell"),
    steps.IMMELMANN: N_("−3 height, turns about in its cell"),
    steps.CRASH: N_("the plane is lost"),
}


def cost_and_reach(kind: str) -> str:
    """What the manoeuvre ``kind`` costs and how far it goes, in words."""
    return _(COST_AND_REACH[kind])


def _manoeuvres(kind: str, n: int) -> str:
    """``swoop``, or ``3 swoops``: a manoeuvre flown ``n`` times in a row."""
    if kind == steps.CLIMB:
        return n_("climb", "{n} climbs", n)
    if kind == steps.LEVEL:
        return n_("level", "{n} levels", n)
    if kind == steps.LEVEL1:
        return n_("level one cell", "{n} levels of one cell", n)
    if kind == steps.SWOOP:
        return n_("swoop", "{n} swoops", n)
    if kind == steps.POWER:
        return n_("power dive", "{n} power dives", n)
    return n_("Immelmann", "{n} Immelmanns", n)


def arrow_facing(facing: int) -> str:
    """``↗ NE``: a facing with its arrow."""
    return f"{ARROWS[facing]} {board.DIRECTIONS[facing]}"


@dataclass(frozen=True)
class EndPose:
    """One complete plane action: the ``tokens`` that play it and where it leaves the
    plane (``cell`` None: the plane is gone). ``short`` marks its cell on the preview."""

    tokens: tuple[str, ...]
    cell: int | None
    facing: int
    height: int
    sentence: str
    cost: str
    shots: tuple[int, ...] = ()
    stops_to_shoot: bool = False
    # what the action does that matters most, short enough to lead a menu's label:
    # shoots, crashes, or leaves the plane where hostile guns can reach it
    effect: str = ""

    @property
    def short(self) -> str:
        if self.cell is None:
            return _("lost")
        return f"{board.name(self.cell)} {ARROWS[self.facing]} h{self.height}"

    @property
    def value(self) -> str:
        return " ".join(self.tokens)


def placement_risk(game: Game, cell: int, facing: int, height: int) -> str:
    """Why a plane placed so may have to crash, or ``""``: nose to the edge, or (too
    low to dive) a plane in the cell ahead, so that only a crash is left unless it moves."""
    ahead = board.NEIGHBOUR[cell * 6 + facing]
    if ahead < 0:
        return _("faces the edge: it must turn or crash")
    if height < 2 and game.plane_at(ahead) is not None:
        return _(
            "the plane at {cell} blocks it: it must crash unless that moves",
            cell=board.name(ahead),
        )
    return ""


def placements(game: Game) -> list[EndPose]:
    """Every placement open now, sensible ones first, then those that may have to
    crash (:func:`placement_risk`) with the reason as their cost."""
    found = []
    for s in game.legal_steps():
        if s.kind != steps.PLACE:
            continue
        after = game.copy(with_history=False)
        placed = [e for e in after.play(s) if isinstance(e, events.Placed)]
        height = placed[0].height if placed else 0
        risk = placement_risk(game, s.cell, s.facing, height)
        plane = after.plane_at(s.cell)
        found.append(
            (
                bool(risk),
                EndPose(
                    (s.token,),
                    s.cell,
                    s.facing,
                    height,
                    step_label(game, s),
                    risk or _("height {height}", height=height),
                    effect=(
                        "💥 " + _("may have to crash")
                        if risk
                        else exposure(after, plane)
                        if plane is not None
                        else ""
                    ),
                ),
            )
        )
    found.sort(key=lambda np: (np[0], np[1].cell, np[1].facing))
    return [p for _, p in found]


def plane_actions(game: Game, cell: int) -> list[EndPose]:
    """Every end pose of the plane at ``cell`` this action (the diving plane included,
    whose ``-`` ends the dive where it stands)."""
    plane = game.plane_at(cell)
    if plane is None:
        return []
    work = game.copy(with_history=False)
    seat = work.active
    start_height = plane.height
    found: dict[object, EndPose] = {}
    seen: set[object] = set()
    queue: deque[tuple[Step, ...]] = deque()
    if game.diving == plane.id:
        queue.append(())
    else:
        queue.extend((s,) for s in work.legal_steps() if s.is_manoeuvre and s.cell == cell)
    while queue:
        plan = queue.popleft()
        happened: list[events.Event] = []
        for s in plan:
            happened.extend(work.push(s))
        moved = work.plane(plane.id)
        shots = tuple(e.cell for e in happened if isinstance(e, events.ShotDown))
        still_diving = moved is not None and work.diving == plane.id and work.active == seat
        if not still_diving:
            aims = []
            if work.active == seat and not work.is_over:
                aims = [s.cell for s in work.legal_steps() if s.kind == steps.SHOOT]
            _keep(found, game, work, plane.id, plan, start_height, shots, stop=False, aims=aims)
        else:
            assert moved is not None
            key = (moved.cell, moved.facing, moved.height, tuple(work.planes()))
            if key not in seen:
                seen.add(key)
                legal = work.legal_steps()
                if plan and any(s.kind == steps.SHOOT for s in legal):
                    aiming = [s.cell for s in legal if s.kind == steps.SHOOT]
                    _keep(found, game, work, plane.id, plan, start_height, shots, True, aiming)
                if steps.END_STEP in legal:
                    queue.append((*plan, steps.END_STEP))
                queue.extend(
                    (*plan, s) for s in legal if s.kind in steps.DIVES and s.cell == moved.cell
                )
        for _step in plan:
            work.pop()
    return sorted(found.values(), key=_order)


def _order(p: EndPose) -> tuple[int, int, int, int, int]:
    return (p.cell is None, p.stops_to_shoot, -1 if p.cell is None else p.cell, p.height, p.facing)


def _keep(
    found: dict[object, EndPose],
    game: Game,
    work: Game,
    plane_id: int,
    plan: tuple[Step, ...],
    start_height: int,
    shots: tuple[int, ...],
    stop: bool,
    aims: list[int],
) -> None:
    """Keep the end pose ``plan`` reaches (``work``: the game after it); ``aims``: the
    planes it may shoot down next (manual fire, or a dive stopped to shoot)."""
    if not plan:
        return
    moved = work.plane(plane_id)
    if moved is not None:
        cell, facing, height = moved.cell, moved.facing, moved.height
        key: object = (cell, facing, height, shots, stop)
    else:
        cell, facing, height = None, 0, 0
        key = (None, plan[0].kind, shots, stop)
    if key in found:
        return  # breadth first: the one found first is the shortest
    warning = _warning(cell, facing, height)
    found[key] = EndPose(
        tuple(s.token for s in plan),
        cell,
        facing,
        height,
        _sentence(game, plan, cell, facing, height),
        _cost(plan, height - start_height if cell is not None else None)
        + warning
        + (_("; then dive on or end the dive") if stop else ""),
        shots,
        stop,
        _effect(work, moved, shots, aims, stop, warning),
    )


def _effect(
    work: Game,
    moved: Plane | None,
    shots: tuple[int, ...],
    aims: list[int],
    stop: bool,
    warning: str,
) -> str:
    """The consequences that decide whether to fly it, most telling first."""
    said = []
    cells = join(board.name(c) for c in shots or aims)
    if shots:
        said.append("🎯 " + _("shoots down {cells}", cells=cells))
    elif stop:
        said.append("🎯 " + _("stop there to fire at {cells}", cells=cells))
    elif aims:
        said.append("🎯 " + _("may fire at {cells}", cells=cells))
    if moved is None:
        said.append("💥 " + _("crashes"))
    elif warning and moved.height == 0:
        said.append("💥 " + _("will crash next turn"))
    else:
        said.append(exposure(work, moved, spared=aims))
    return " · ".join(s for s in said if s)


def exposure(game: Game, plane: Plane, spared: Sequence[int] = ()) -> str:
    """Whether hostile guns reach ``plane`` where it is: caught (two or more, so it can
    be shot down), or in one plane's sights (one more and it is caught), or ``""``;
    the planes in the cells ``spared`` are left out (the player may shoot them first)."""
    guns = sorted(
        p.cell
        for p in game.planes()
        if game.hostile(p.seat, plane.seat)
        and p.cell not in spared
        and getattr(game.target(p), "id", None) == plane.id
    )
    if len(guns) > 1:
        return "☠ " + _("can be shot down by {cells}", cells=join(board.name(c) for c in guns))
    if guns:
        return "⚠ " + _("in the sights of {cell}", cell=board.name(guns[0]))
    return ""


def _sentence(
    game: Game,
    plan: tuple[Step, ...],
    cell: int | None,
    facing: int,
    height: int,
) -> str:
    """The plane action in words; what it shoots is its effect (:func:`_effect`)."""
    manoeuvres = [s for s in plan if s.is_manoeuvre]
    if len(manoeuvres) == 1 and plan[-1] is manoeuvres[0]:
        said = step_label(game, manoeuvres[0]).split("; ", 1)[0]
        said = said.split(": ", 1)[1] if ": " in said else said
        return said[:1].upper() + said[1:]
    what = _runs([s.kind for s in manoeuvres]) or _("end the dive")
    if cell is None:
        said = _("{what}, and the plane is lost", what=what)
    else:
        said = _(
            "{what} to {cell}, face {direction}, height {height}",
            what=what,
            cell=board.name(cell),
            direction=direction(facing),
            height=height,
        )
    return said[:1].upper() + said[1:]


def _warning(cell: int | None, facing: int, height: int) -> str:
    """Ending nose to the board's edge leaves only dives or turns on the spot next turn;
    at height 0 not even those: the plane will crash."""
    if cell is None or board.NEIGHBOUR[cell * 6 + facing] >= 0:
        return ""
    return _("; nose to the edge: it will crash") if height == 0 else _("; nose to the edge")


def _runs(kinds: list[str]) -> str:
    """``power dive, then 3 swoops``: repeated manoeuvres counted."""
    said: list[str] = []
    i = 0
    while i < len(kinds):
        j = i
        while j < len(kinds) and kinds[j] == kinds[i]:
            j += 1
        said.append(_manoeuvres(kinds[i], j - i))
        i = j
    return _(", then ").join(said)


def _cost(plan: tuple[Step, ...], change: int | None) -> str:
    kinds = [s.kind for s in plan if s.is_manoeuvre]
    if change is None:
        return cost_and_reach(steps.CRASH)
    moves = sum(
        {steps.CLIMB: 1, steps.SWOOP: 1, steps.LEVEL: 2, steps.LEVEL1: 1}.get(k, 0) for k in kinds
    )
    if change == 0:
        height = _("same height")
    else:
        height = _("{change} height", change=f"{change:+d}".replace("-", "−"))
    reach = n_("{n} cell ahead", "{n} cells ahead", moves) if moves else _("stays in its cell")
    return f"{height}, {reach}"
