"""Why a step is not legal: reasons written for the player who tried it."""

from __future__ import annotations

from collections.abc import Collection

from i18n import _, n_
from rules import board, steps
from rules.board import NEIGHBOUR
from rules.state import GameState
from rules.steps import Step


def why_illegal(game: GameState, step: Step, caught: Collection[int]) -> str:
    """Why ``step`` is not legal in ``game``, whose caught planes (by id) are ``caught``."""
    if game.phase == "over":
        return _("the game is over")
    if game.phase == "setup":
        if step.kind != steps.CLOUD:
            return _("clouds are still being placed (~cell)")
        if game.is_cloud(step.cell):
            return _("{cell} already holds a cloud", cell=board.name(step.cell))
        return _("no cloud group may be larger than two cells")
    kind = step.kind
    if kind == steps.CLOUD:
        return _("all clouds are already placed")
    seat = game.active
    if kind == steps.SHOOT:
        return _why_not_shot(game, step, caught)
    if kind == steps.END:
        if game.diving < 0:
            return _("there is no dive to end and planes still have to act")
        return _("the turn is not over")  # unreachable: '-' is legal whenever a dive runs
    if game.diving >= 0 and step.kind in steps.DIVES:
        diver = game.plane(game.diving)
        if diver is not None and diver.cell == step.cell:
            return _why_not_manoeuvre(game, step, continuing=True)
    if game.actions >= game.ramp:
        return n_(
            "this player-turn allows only {n} action",
            "this player-turn allows only {n} actions",
            game.ramp,
        )
    if kind == steps.PLACE:
        label = game.mode.seat_label(seat)
        if game.seat(seat).reserve == 0:
            return _("{seat} has no plane in reserve", seat=label)
        if step.cell not in board.HOME[game.mode.sides[seat]]:
            return _(
                "{cell} is not in {seat}'s home side ({side})",
                cell=board.name(step.cell),
                seat=label,
                side=game.mode.sides[seat],
            )
        return _("{cell} is occupied", cell=board.name(step.cell))
    plane = game.plane_at(step.cell)
    if plane is None:
        return _("there is no plane at {cell}", cell=board.name(step.cell))
    if plane.seat != seat:
        return _("the plane at {cell} is not yours", cell=board.name(step.cell))
    if plane.id in game.acted:
        if plane.id == game.diving:
            return _("the dive goes on with S, P or I, or ends with '-'")
        return _("the plane at {cell} has already acted this turn", cell=board.name(step.cell))
    return _why_not_manoeuvre(game, step, continuing=False)


def _why_not_shot(game: GameState, step: Step, caught: Collection[int]) -> str:
    victim = game.plane_at(step.cell)
    where = board.name(step.cell)
    if victim is None:
        return _("there is no plane at {cell}", cell=where)
    if not game.hostile(victim.seat, game.active):
        return _("no friendly fire")
    if game.settings.rules.auto_fire:
        return _("shots are fired automatically in this game")
    if victim.id not in caught:
        return _("the plane at {cell} is not caught by two hostile planes", cell=where)
    return _(
        "the plane at {cell} may only be shot down with its right neighbour's help", cell=where
    )


def _why_not_manoeuvre(game: GameState, step: Step, continuing: bool) -> str:
    plane = game.plane_at(step.cell)
    assert plane is not None
    kind = step.kind
    ahead = NEIGHBOUR[plane.cell * 6 + plane.facing]
    blocked = _("the board edge") if ahead < 0 else None
    if ahead >= 0 and game.plane_at(ahead) is not None:
        blocked = _("a plane at {cell}", cell=board.name(ahead))
    h = plane.height
    if kind == steps.CRASH:
        return _("a plane only crashes when it can do nothing else")
    if continuing and kind not in steps.DIVES:
        return _("a diving plane can only swoop, power dive or make an Immelmann")
    if kind == steps.IMMELMANN and not plane.ace:
        return _("only aces can make an Immelmann")
    need = {steps.SWOOP: 1, steps.POWER: 2, steps.IMMELMANN: 3}.get(kind, 0)
    if h < need:
        return _(
            "the plane is at height {height}; that manoeuvre needs {need}", height=h, need=need
        )
    if kind == steps.CLIMB and h >= 6:
        return _("a plane at height 6 cannot climb")
    if kind == steps.CLIMB and game.settings.rules.rings and game.seat(plane.seat).rings <= 0:
        return _("no altitude rings are left in the supply")
    level_flights = game.settings.rules.level_flights
    if kind in (steps.LEVEL, steps.LEVEL1) and not level_flights:
        return _("there is no level flight in this game")
    if kind == steps.LEVEL1 and level_flights < 2:
        return _("level flight is two cells in the 2026 rules (F1 is classic only)")
    if blocked is not None:
        return _("the way ahead is blocked by {what}", what=blocked)
    if kind == steps.LEVEL:
        second = NEIGHBOUR[ahead * 6 + plane.facing]
        if second < 0:
            return _("level flight would leave the board")
        return _("level flight would pass through the plane at {cell}", cell=board.name(second))
    return _("not possible here")
