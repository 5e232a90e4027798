"""Full-sentence labels for the choices of a cockpit, for screen readers: what the
plane is, and where the choice leaves it, e.g. ``Plane at d4, height 3, facing
north-east: swoop to e5, face east, height 2``.

A legal step's outcome is found by playing it on a copy of the game, so the label says
exactly what the rules will do (turbulence, the shots it sets off) without repeating
them here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from i18n import _
from rules import board, events, steps
from rules.steps import Step
from rules.words import manoeuvres
from rules.words.common import direction, join, plane_pose

if TYPE_CHECKING:
    from rules.game import Game


def step_label(game: Game, step: Step) -> str:
    """A sentence for ``step`` as a choice for the seat to move now."""
    if not game.is_legal(step):
        return _("{token}: not possible now, {why}", token=step.token, why=game.why_illegal(step))
    kind = step.kind
    if kind == steps.CLOUD:
        return _("Place a cloud at {cell}", cell=board.name(step.cell))
    if kind == steps.END:
        diver = game.plane(game.diving) if game.diving >= 0 else None
        if diver is not None:
            return _("End the dive of the plane at {cell}", cell=board.name(diver.cell))
        return _("Hold fire and end the turn")
    after = game.copy(with_history=False)
    happened = after.play(step)
    shots = _shots(happened)
    if kind == steps.SHOOT:
        victim = game.plane_at(step.cell)
        assert victim is not None
        owner = game.mode.seat_label(victim.seat)
        return _("Shoot down {seat}'s plane at {pose}", seat=owner, pose=plane_pose(victim))
    if kind == steps.PLACE:
        placed = next(e for e in happened if isinstance(e, events.Placed))
        said = _(
            "Bring a plane on at {cell}, facing {direction}, height {height}",
            cell=board.name(step.cell),
            direction=direction(step.facing),
            height=placed.height,
        )
        return said + shots
    plane = game.plane_at(step.cell)
    assert plane is not None
    pose = plane_pose(plane)
    if plane.id == game.diving:
        head = _("Diving plane at {pose}", pose=pose)
    else:
        head = _("Plane at {pose}", pose=pose)
    if kind == steps.CRASH:
        return _("{plane}: crash, it can do nothing else", plane=head)
    moved = after.plane(plane.id)
    verb = _(manoeuvres.VERBS[kind])
    if moved is None:
        return _("{plane}: {verb}, and it is shot down", plane=head, verb=verb) + shots
    if moved.cell != plane.cell:
        verb = _("{verb} to {cell}", verb=verb, cell=board.name(moved.cell))
    else:
        verb = _("{verb} on the spot", verb=verb)
    said = _(
        "{plane}: {verb}, face {direction}, height {height}",
        plane=head,
        verb=verb,
        direction=direction(moved.facing),
        height=moved.height,
    )
    return said + shots


def _shots(happened: tuple[events.Event, ...]) -> str:
    """``; shoots down the plane at f7`` for the shots a step sets off."""
    cells = [board.name(e.cell) for e in happened if isinstance(e, events.ShotDown)]
    if not cells:
        return ""
    if len(cells) > 1:
        return _("; shoots down the planes at {cells}", cells=join(cells))
    return _("; shoots down the plane at {cell}", cell=cells[0])
