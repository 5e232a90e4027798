"""Full-sentence labels for the choices of a cockpit, for screen readers: what the
plane is, and where the choice leaves it, e.g. ``Plane at d4, height 3, facing
north-east: swoop to e5, face east, height 2``.

A legal step's outcome is found by playing it on a copy of the game, so the label says
exactly what the rules will do (turbulence, the shots it sets off) without repeating
them here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules import board, events, steps
from rules.steps import Step
from rules.words.common import DIRECTION_WORDS, join, plane_pose

if TYPE_CHECKING:
    from rules.game import Game

_NAMES = {
    steps.CLIMB: "climb",
    steps.LEVEL: "fly level",
    steps.LEVEL1: "fly level one cell",
    steps.SWOOP: "swoop",
    steps.POWER: "power dive",
    steps.IMMELMANN: "Immelmann turn",
}


def step_label(game: Game, step: Step) -> str:
    """A sentence for ``step`` as a choice for the seat to move now."""
    if not game.is_legal(step):
        return f"{step.token}: not possible now, {game.why_illegal(step)}"
    kind = step.kind
    if kind == steps.CLOUD:
        return f"Place a cloud at {board.name(step.cell)}"
    if kind == steps.END:
        diver = game.plane(game.diving) if game.diving >= 0 else None
        if diver is not None:
            return f"End the dive of the plane at {board.name(diver.cell)}"
        return "Hold fire and end the turn"
    after = game.copy(with_history=False)
    happened = after.play(step)
    shots = _shots(happened)
    if kind == steps.SHOOT:
        victim = game.plane_at(step.cell)
        assert victim is not None
        owner = game.mode.seat_label(victim.seat)
        return f"Shoot down {owner}'s plane at {plane_pose(victim)}"
    if kind == steps.PLACE:
        placed = next(e for e in happened if isinstance(e, events.Placed))
        where = board.name(step.cell)
        facing = DIRECTION_WORDS[step.facing]
        return f"Bring a plane on at {where}, facing {facing}, height {placed.height}{shots}"
    plane = game.plane_at(step.cell)
    assert plane is not None
    diving = "Diving plane" if plane.id == game.diving else "Plane"
    head = f"{diving} at {plane_pose(plane)}"
    if kind == steps.CRASH:
        return f"{head}: crash, it can do nothing else"
    moved = after.plane(plane.id)
    if moved is None:
        return f"{head}: {_NAMES[kind]}, and it is shot down{shots}"
    verb = _NAMES[kind]
    verb += f" to {board.name(moved.cell)}" if moved.cell != plane.cell else " on the spot"
    facing = DIRECTION_WORDS[moved.facing]
    return f"{head}: {verb}, face {facing}, height {moved.height}{shots}"


def _shots(happened: tuple[events.Event, ...]) -> str:
    """``; shoots down the plane at f7`` for the shots a step sets off."""
    cells = [board.name(e.cell) for e in happened if isinstance(e, events.ShotDown)]
    if not cells:
        return ""
    return f"; shoots down the plane{'s' * (len(cells) > 1)} at {join(cells)}"
